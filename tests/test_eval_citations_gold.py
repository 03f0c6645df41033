"""The in-text citation gold holds the running text's markers only: a table or figure that JATS
nests inside a paragraph is scored with the tables, as the parsed side leaves tables out."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.eval.citations import load_jats_citations

JATS = """<article><body><sec><p>Copper particles form quickly [<xref ref-type="bibr" rid="R1">1</xref>].
<table-wrap id="T1"><label>Table 1</label><table><tr><td>Cu</td><td>[<xref ref-type="bibr" rid="R2">2</xref>]</td></tr></table></table-wrap>
They stay small [<xref ref-type="bibr" rid="R3">3</xref>].</p></sec></body>
<back><ref-list><ref id="R1"><mixed-citation>A. 2001.</mixed-citation></ref><ref id="R2"><mixed-citation>B. 2002.</mixed-citation></ref>
<ref id="R3"><mixed-citation>C. 2003.</mixed-citation></ref></ref-list></back></article>"""


def test_a_table_inside_a_paragraph_is_not_running_text(tmp_path: Path) -> None:
    path = tmp_path / "paper.nxml"
    path.write_text(JATS, encoding="utf-8")
    gold = load_jats_citations(path)
    cited = {ref for _, refs in gold.sentences for ref in refs}
    assert cited == {"R1", "R3"}
    assert not any("Cu" in text for text, _ in gold.sentences)
