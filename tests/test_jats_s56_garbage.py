"""The JATS parse leaves nothing for Python's cyclic garbage collector: every object it makes but
the document is freed by its reference count when the parse returns. The collector is paused while
an article is parsed (``parsers/jats.py``), so reference cycles left behind (a recursive reader
closed over itself, holding the parse's builder) would all wait for the collector's next pass,
which then walks and frees them in one go, a cost counted against the parse."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from paperpyramid.parsers.jats import parse_jats

# every reader that walks the tree by recursion: running text with citations (the flow's walker),
# a caption and a table cell with a citation, a line break and a formula (the inline walker), and
# MathML (its token reader)
ARTICLE = """<?xml version="1.0"?>
<article xmlns:mml="http://www.w3.org/1998/Math/MathML">
<front><article-meta><title-group><article-title>Cycles</article-title></title-group>
<abstract><p>Short, as cited <xref ref-type="bibr" rid="R1">[1]</xref>.</p></abstract></article-meta></front>
<body><sec><title>Methods</title>
<p>Soil was sampled <xref ref-type="bibr" rid="R1">[1]</xref>–<xref ref-type="bibr" rid="R2">[2]</xref> with
<inline-formula><mml:math><mml:mi>x</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:math></inline-formula> cores
(<xref ref-type="table" rid="T1">Table 1</xref>).</p>
<table-wrap id="T1"><label>Table 1</label><caption><p>Cores as in <xref ref-type="bibr" rid="R2">[2]</xref></p></caption>
<table><tr><th>Site</th><th>Cores</th></tr><tr><td>North<break/>plot <xref ref-type="bibr" rid="R1">1</xref></td><td>4</td></tr></table>
</table-wrap>
</sec></body>
<back><ref-list>
<ref id="R1"><element-citation><person-group><name><surname>Berg</surname><given-names>Anna</given-names></name></person-group>
<article-title>Soil</article-title><source>Geoderma</source><year>2001</year></element-citation></ref>
<ref id="R2"><mixed-citation>Dahl C. Cores. Soil Sci. 2003;4:1-9.</mixed-citation></ref>
</ref-list></back>
</article>
"""


@pytest.mark.usefixtures("collector_restored")
def test_a_parse_leaves_no_cycles_for_the_collector(tmp_path: Path) -> None:
    path = tmp_path / "cycles.nxml"
    path.write_text(ARTICLE, encoding="utf-8")
    gc.collect()
    gc.disable()  # the parse leaves a paused collector paused: what it leaves unreachable stays to be counted
    document = parse_jats(path)
    left = gc.collect()
    methods = document.sections[1].blocks  # the readers above all ran
    assert methods[0].text == "Soil was sampled [1]–[2] with x + 1 cores (Table 1)."
    assert [cite.keys for block in methods for cite in block.cites] == [["R1", "R2"], ["R2"], ["R1"]]
    assert document.tables[0].cells == [["Site", "Cores"], ["North plot 1", "4"]]
    assert left == 0
