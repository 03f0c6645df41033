"""Headings of batch 11's papers (TUGboat and CSTUG Bulletin articles, program manuals) and the
labels beside them that are none.

- TUGboat sets ``\\section`` and ``\\subsection`` both bold at the body's size: "2 What are widows
  and orphans?" right over "2.1 Widows" are two headings, not one title over two lines.
- "**10.1. default**" (a preset's name in bold typewriter): the number's digits outweigh the
  title's letters; a bold numbered line is judged by its title's.
- A line set flush right under the text ("*Zdeněk Wagner, Vít Novotný*" closing a CSTUG Bulletin
  article) is a signature, not a heading.
- TREE-PUZZLE's manual prints its contents on page 4, after a title page and two pages of
  overview: still a table of contents, whose entries are no sections.
- Its version history is a list whose bold numbers hang out in the margin ("**5.1** The manual is
  now distributed as a PDF file. Quartet …"): items, not run-in headings.
- A bold label closed by a colon is a run-in title only an em from its text (``\\paragraph``);
  half an em is a loose line's word space after a label typed by hand ("**Remark:** Equation (1)
  is …", robustbase; "**Version 0.3:** Allow …", metamix), and a statement's head without its
  full stop sets half an em too ("*Proof*  Let λ be …", PMLR's class).
"""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block, heading_parts, split_blocks
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.headings import demote_flush_right_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.lead_ins import styled_lead
from paperpyramid.parsers.embedded.run_in import split_run_in_headings

BODY = "LMRoman10-Regular"
PROSE = "The widows and orphans were counted on every page of the sample documents that we typeset."


def _line(
    text: str,
    top: float,
    *,
    x0: float = 72.0,
    x1: float = 540.0,
    page: int = 1,
    size: float = 10.0,
    bold: bool = False,
    italic: bool = False,
) -> Line:
    font = "LMRoman10-Bold" if bold else "LMRoman10-Italic" if italic else BODY
    return Line(text=text, page=page, x0=x0, top=top, x1=x1, bottom=top + size, size=size, bold=bold, italic=italic, font=font)


def _block(kind: str, *lines: Line) -> Block:
    block = Block(list(lines))
    block.kind = kind
    return block


def test_a_section_over_its_first_subsection_is_two_headings() -> None:
    lines = [
        _line("2 What are widows and orphans?", 100, x1=260, bold=True),
        _line("2.1 Widows", 112, x1=130, bold=True),
        _line(PROSE, 126),
    ]
    blocks = split_blocks(lines, 10.0)
    assert [block.text for block in blocks[:2]] == ["2 What are widows and orphans?", "2.1 Widows"]


def test_a_title_wrapped_onto_its_second_line_stays_one() -> None:
    lines = [
        _line("2 What are widows and orphans and how do we", 100, bold=True),
        _line("count them", 112, x1=140, bold=True),
        _line(PROSE, 126),
    ]
    assert split_blocks(lines, 10.0)[0].text == "2 What are widows and orphans and how do we count them"


def test_a_bold_numbered_title_is_judged_by_its_words() -> None:
    assert heading_parts(_block("paragraph", _line("10.1. default", 100, x1=160, bold=True)), 10.0, BODY) == ("10.1", "default")
    assert heading_parts(_block("paragraph", _line("2.5 mg", 100, x1=110)), 10.0, BODY) is None


def test_a_line_flush_right_under_the_text_is_a_signature() -> None:
    paragraph = _block("paragraph", _line(PROSE, 100), _line(PROSE, 112), _line("and so on.", 124, x1=130))
    signature = _block("heading", _line("Zdeněk Wagner, Vít Novotný", 140, x0=400, italic=True))
    centred = _block("heading", _line("Acknowledgements", 170, x0=250, x1=362, italic=True))
    left = _block("heading", _line("Further reading", 200, x1=160, italic=True))
    blocks = [paragraph, signature, _block("paragraph", _line(PROSE, 154)), centred, _block("paragraph", _line(PROSE, 184)), left]
    demote_flush_right_lines(blocks, 10.0)
    assert signature.kind == "paragraph"
    assert centred.kind == "heading" and left.kind == "heading"


def test_a_manuals_contents_after_its_overview_is_set_aside() -> None:
    blocks = [
        _block("heading", _line("General Information", 100, page=2, x1=200, size=14, bold=True)),
        _block("paragraph", _line(PROSE, 130, page=2)),
    ]
    blocks.append(_block("heading", _line("Contents", 100, page=4, x1=160, size=14, bold=True)))
    for top, entry in ((130, "1 Legal Stuff . . . . . . . . . . . . . . 5"), (142, "2 Installation . . . . . . . . . . . . . 6")):
        blocks.append(_block("paragraph", _line(entry, top, page=4)))
    entry = _block("heading", _line("2.1 UNIX/Source Distribution . . . . . . . . 6", 154, page=4))
    blocks.append(entry)
    for page in range(5, 21):
        blocks.append(_block("paragraph", _line(PROSE, 100, page=page)))
    set_aside_contents(blocks)
    assert blocks[2].kind == "furniture" and entry.kind == "furniture"
    assert blocks[0].kind == "heading"


def test_a_hanging_numbered_item_is_no_run_in_heading() -> None:
    heading = _block("heading", _line("16 Version History", 80, x1=250, size=14, bold=True))
    heading.title = "Version History"
    first = _line("5.1 The manual is now distributed as a PDF file. Quartet", 100)
    first.bold_prefix = 3
    item = _block("paragraph", first, _line("and ambiguous character statistics per sequence added.", 112, x0=92), _line(PROSE, 124, x0=92))
    assert [block.kind for block in split_run_in_headings([heading, item])] == ["heading", "paragraph"]
    flush = _block("paragraph", first, _line("and ambiguous character statistics per sequence added.", 112), _line(PROSE, 124))
    assert [block.kind for block in split_run_in_headings([heading, flush])] == ["heading", "heading", "paragraph"]


def _led(text: str, prefix: int, size: float, lead_gap: float, word_gap: float) -> Line:
    line = _line(text, 100, size=size)
    line.bold_prefix, line.lead_gap, line.word_gap = prefix, lead_gap, word_gap
    return line


def test_a_colon_ends_a_run_in_title_only_an_em_from_its_text() -> None:
    assert styled_lead(_led("Details: For some effects it is important to know that the argument", 9, 9.7, 10.9, 4.2)) == "Details:"
    assert styled_lead(_led("Version 0.3: Allow user to specify number of MCMC iterations (Step 3)", 13, 8.8, 5.6, 3.9)) is None


def test_a_statement_head_half_an_em_from_its_text_stays_text() -> None:
    heading = _block("heading", _line("Appendix A. Proofs", 80, x1=250, size=12, bold=True))
    heading.title = "Proofs"
    proof = _block(
        "paragraph", _led("Proof Let the eigenvalue of B be λ with its eigenvector ξ, then", 6, 9.7, 7.2, 3.8), _line(PROSE, 112)
    )
    assert [block.kind for block in split_run_in_headings([heading, proof])] == ["heading", "paragraph"]


def test_a_label_with_a_colon_on_a_line_alone_is_a_list_item() -> None:
    """One line shows no hanging indent to tell a description list's item by: its colon does."""
    heading = _block("heading", _line("3 Input and output", 80, x1=250, size=12, bold=True))
    heading.title = "Input and output"
    item = _block("paragraph", _led("Input: The alignment of the sequences in PHYLIP format.", 7, 10.0, 11.0, 3.3))
    paragraph = _block(
        "paragraph", _led("Details: For some effects it is important to know that the argument", 9, 10.0, 11.0, 3.3), _line(PROSE, 112)
    )
    assert [block.kind for block in split_run_in_headings([heading, item])] == ["heading", "paragraph"]
    assert [block.kind for block in split_run_in_headings([heading, paragraph])] == ["heading", "heading", "paragraph"]
