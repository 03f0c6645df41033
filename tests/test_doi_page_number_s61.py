"""A DOI may wrap after a full stop onto the next line ("…pone." "0115884"), but a page number
printed after a DOI that ends with a full stop is not its rest ("…/uhhfdm.9901." "1"): the
first pages are read as one text, so the page's number follows the DOI with a space."""

from __future__ import annotations

from paperpyramid.parsers.embedded.front_matter import find_doi


def test_a_page_number_after_a_doi_and_its_full_stop_is_not_part_of_it() -> None:
    text = "Working paper. DOI: 10.25592/uhhfdm.9901. 1 6 Implementation of the notation"
    assert find_doi(text, {}, "") == "10.25592/uhhfdm.9901"


def test_a_doi_wrapped_after_a_full_stop_is_joined() -> None:
    assert find_doi("doi:10.1371/journal.pone. 0115884 Editor: A. Person", {}, "") == "10.1371/journal.pone.0115884"
