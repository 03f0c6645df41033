"""A reference heading with a qualifier after it (issue 32, item 5): the multibibliography
package prints one list three ways, under "References sorted by name", "References sorted by
appearance" and "References sorted by year"; books print "References for Chapter 2". Each opens
a reference list; a heading that only starts with the word does not."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.reference_headings import is_reference_heading


@pytest.mark.parametrize(
    "title",
    [
        "references sorted by name",
        "references sorted by appearance",
        "literatur sorted by year",
        "references for chapter 2",
        "bibliography (primary sources)",
        "references (continued)",
        "references",
    ],
)
def test_a_qualified_reference_heading_is_one(title: str) -> None:
    assert is_reference_heading(title)


@pytest.mark.parametrize(
    "title",
    [
        "references and the rest",
        "see the references sorted by name",
        "results sorted by name",
        "references to figures",
        "methods (primary outcome)",
    ],
)
def test_other_titles_are_none(title: str) -> None:
    assert not is_reference_heading(title)
