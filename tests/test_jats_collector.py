"""The JATS parse pauses Python's cyclic garbage collector while it runs, and must leave it as it
found it: on after a parse, an error, or a refused file; off when the caller had turned it off."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from paperpyramid.errors import BadInput
from paperpyramid.parsers.jats import parse_jats

PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"
ARTICLE = PAIRS / "3biotech-2014-ocimum-rapd-issr.nxml"


def _article() -> Path:
    if not ARTICLE.is_file():
        pytest.skip(f"{ARTICLE} is absent (../shared/pmc-pairs is not distributed with the repository)")
    return ARTICLE


@pytest.mark.usefixtures("collector_restored")
def test_a_parse_leaves_the_collector_on() -> None:
    gc.enable()
    document = parse_jats(_article())
    assert gc.isenabled()
    assert document.sections and document.references  # a real article, parsed whole


@pytest.mark.usefixtures("collector_restored")
def test_a_parse_leaves_a_paused_collector_paused() -> None:
    gc.disable()
    parse_jats(_article())
    assert not gc.isenabled()


@pytest.mark.usefixtures("collector_restored")
def test_a_refused_file_leaves_the_collector_on(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.nxml"
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE article [<!ENTITY a "aaaa">]>\n<article><body><p>&a;</p></body></article>\n')
    gc.enable()
    with pytest.raises(BadInput, match="unsafe XML refused"):
        parse_jats(bomb)
    assert gc.isenabled()
    broken = tmp_path / "broken.nxml"
    broken.write_text("<article><body><p>cut here")
    with pytest.raises(BadInput, match="not well formed"):
        parse_jats(broken)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_restored")
def test_the_collector_does_not_walk_the_tree_during_a_parse() -> None:
    """What the pause is for: the collector's passes, each walking the article's live tree, are
    spared while it is read. At most one pass runs, once the parse is over."""
    article = _article()
    gc.enable()
    gc.collect()
    passes: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(count)
    try:
        parse_jats(article)
    finally:
        gc.callbacks.remove(count)
    assert len(passes) <= 1, f"{len(passes)} collector passes during one parse (generations {passes})"
