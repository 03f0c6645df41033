"""A masthead's journal name (``front_matter._JOURNAL_NAME``) is matched word by word: a long title
that opens like one ("Archives of …") and fails at its end must not be tried in every split of its
letters into pieces, which took seconds at 40 letters and grows without bound."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paperpyramid.parsers.embedded.front_matter import _JOURNAL_NAME


@pytest.mark.parametrize(
    ("text", "journal"),
    [
        ("Journal of Invented Medicine", True),
        ("Annals of the Invented Society & Friends", True),
        ("The Invented Journal", True),
        ("Archives of Invented Medicine, 2019", False),
        ("Transactions on Invented Systems: a survey", False),
    ],
)
def test_journal_names(text: str, journal: bool) -> None:
    assert bool(_JOURNAL_NAME.match(text)) is journal


def test_a_long_near_miss_ends_at_once() -> None:
    # in a child process, so that a regression fails here instead of hanging the run
    code = (
        "from paperpyramid.parsers.embedded.front_matter import _JOURNAL_NAME as J\n"
        "assert not J.match('Archives of ' + 'a' * 60 + '!')\n"
        "assert not J.match('Bulletin of ' + 'Invented ' * 7 + 'Medicine, 2019')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
