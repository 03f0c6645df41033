"""pypdfium2 warns when a PDF's outline goes deeper than the six levels the parser reads (one of batch
21's manuals): the parser silences that warning only, and pypdfium2's other warnings still reach the log."""

from __future__ import annotations

import logging

import pytest

import paperpyramid.parsers.embedded.parser  # noqa: F401  (installs the filter)


def test_only_the_outline_depth_warning_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("pypdfium2._helpers.document")
    with caplog.at_level(logging.WARNING, logger="pypdfium2._helpers.document"):
        logger.warning("Maximum recursion depth 6 reached (subtree skipped).")
        logger.warning("A circular bookmark reference was detected while traversing the table of contents.")
    assert [record.getMessage() for record in caplog.records] == [
        "A circular bookmark reference was detected while traversing the table of contents."
    ]
