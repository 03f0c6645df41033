"""A list of abbreviations, each on its own line with its term in bold ("**Beh.** Behauptung",
"**Def.** Definition", "**o. B. d. A.** ohne Beschränkung der Allgemeinheit", the
"Abkürzungsverzeichnis" of German lecture notes, geotopo in the shared corpus), is a glossary:
its terms are no run-in headings, while a bold lead-in opening a paragraph of sentences is one."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.run_in import split_run_in_headings

_top = iter(range(60, 100000, 14))


def _line(text: str, bold_prefix: int = 0) -> Line:
    top = float(next(_top))
    return Line(
        text=text, page=1, x0=72.0, top=top, x1=400.0, bottom=top + 10, size=10.0, bold=False, italic=False, font="SFRM1095",
        bold_prefix=bold_prefix, lead_gap=5.5,
    )  # fmt: skip


def _paragraph(*texts: str, bold_prefix: int = 0) -> Block:
    lines = [_line(text, bold_prefix if index == 0 else 0) for index, text in enumerate(texts)]
    return Block(lines=lines, kind="paragraph")


def _heading(text: str) -> Block:
    block = Block(lines=[_line(text)], kind="heading")
    block.number, block.title = None, text
    return block


GLOSSARY = [("Beh. Behauptung", 5), ("Bew. Beweis", 5), ("Def. Definition", 5), ("o. B. d. A. ohne Beschränkung der Allgemeinheit", 12)]


def test_a_glossary_of_bold_terms_is_no_series_of_run_in_headings() -> None:
    blocks = [_heading("Abkürzungsverzeichnis"), *(_paragraph(text, bold_prefix=prefix) for text, prefix in GLOSSARY)]
    result = split_run_in_headings(blocks)
    assert [block.kind for block in result] == ["heading"] + ["paragraph"] * len(GLOSSARY)
    assert [block.text for block in result[1:]] == [text for text, _ in GLOSSARY]


def test_a_bold_lead_in_over_sentences_is_still_a_run_in_heading() -> None:
    prose = ("Data. We counted the clutches at night.", "Every stream was walked twice a week by two observers.")
    blocks = [_heading("Methods"), _paragraph(*prose, bold_prefix=5), _paragraph("Sites. Ten streams", bold_prefix=6)]
    blocks += [_paragraph("Counts. Twice a week", bold_prefix=7)]  # two short entries are no glossary
    result = split_run_in_headings(blocks)
    assert [(block.kind, block.title) for block in result if block.kind == "heading"] == [
        ("heading", "Methods"),
        ("heading", "Data"),
        ("heading", "Sites"),
        ("heading", "Counts"),
    ]
