"""The JATS parser's shortcuts read as the long way does: table cells tidied as one text, a section
of blocks alone read without gathering its running text, a citation's own punctuation found from its
children's tails at once, and given names turned into initials once per process."""

from __future__ import annotations

import random
from pathlib import Path

from paperpyramid.parsers.jats import parse_jats
from paperpyramid.parsers.jats_refs import _initials
from paperpyramid.parsers.jats_xml import _tidy, _tidy_all

ARTICLE = """<?xml version="1.0"?>
<article><front><article-meta><title-group><article-title>T</article-title></title-group></article-meta></front>
<body>
<sec><title>Blocks alone</title>
  <p>First paragraph.</p>
  <p>Second <italic>one</italic>.</p>
  <sec><title>Inner</title><p>Inner paragraph.</p></sec>
</sec>
<sec><title>Text between</title>
  <p>Before.</p>
  loose words <bold>here</bold>
  <p>After.</p>
</sec>
<sec><title>Cells</title>
<table-wrap id="T1"><label>Table 1</label><caption><p>Cells.</p></caption><table>
<tr><td> a </td><td>( x )</td><td>  </td><td/><td>b ,</td></tr>
<tr><td>5</td><td> .5</td><td>[ y ]</td><td>c
d</td><td>e</td></tr>
</table></table-wrap>
</sec>
</body>
<back><ref-list>
<ref id="R1"><element-citation><person-group person-group-type="author">
  <name><surname>Smith</surname><given-names>Djoko T.</given-names></name>
  <name><surname>Jones</surname><given-names>H.W.</given-names></name>
</person-group>
  <article-title>On tests</article-title>
  <source>J Test</source>
  <year>2001</year>
</element-citation></ref>
<ref id="R2"><mixed-citation><person-group person-group-type="author"><name><surname>Roe</surname><given-names>Djoko T.</given-names></name></person-group>
  (<year>2002</year>) <article-title>Printed as is</article-title>. <source>J Test</source></mixed-citation></ref>
</ref-list></back></article>
"""


def test_cells_tidied_together_are_each_cell_tidied_alone() -> None:
    rng = random.Random(34)
    pieces = [" ", "  ", "\n", "\xa0", "(", ")", "[", "]", ".", ",", ";", "5", "a", "bc"]
    for _ in range(2000):
        texts = ["".join(rng.choice(pieces) for _ in range(rng.randrange(6))) for _ in range(rng.randrange(1, 6))]
        assert _tidy_all(texts) == [_tidy(text) for text in texts], texts


def test_sections_cells_and_references_read_as_the_long_way_does(tmp_path: Path) -> None:
    path = tmp_path / "fast.nxml"
    path.write_text(ARTICLE, encoding="utf-8")
    document = parse_jats(path)
    texts = {section.title: [block.text for block in section.blocks] for section in document.sections}
    assert texts["Blocks alone"] == ["First paragraph.", "Second one."]
    assert texts["Inner"] == ["Inner paragraph."]
    # text outside the paragraphs is a block of its own, in its place
    assert texts["Text between"] == ["Before.", "loose words here", "After."]
    assert document.tables[0].cells == [["a", "(x)", "", "", "b,"], ["5", ".5", "[y]", "c d", "e"]]
    composed, printed = document.references
    # fields with only whitespace between them: written out; a mixed citation: as printed
    assert composed.raw == "Smith DT, Jones HW. On tests. J Test. 2001."
    assert composed.authors == ["Smith DT", "Jones HW"]
    assert printed.raw == "Roe DT (2002) Printed as is. J Test"
    assert printed.authors == ["Roe DT"]


def test_initials_are_the_same_from_the_cache() -> None:
    for given, initials in [("Djoko T.", "DT"), ("H.W.", "HW"), ("DT", "DT"), ("jean-luc", "JL"), ("", "")]:
        assert _initials(given) == initials
        assert _initials(given) == initials  # the second answer comes from the cache
