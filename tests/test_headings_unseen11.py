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

from paperpyramid.parsers.embedded.block_breaks import split_blocks
from paperpyramid.parsers.embedded.blocks import heading_parts
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.headings import demote_flush_right_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.lead_ins import styled_lead
from paperpyramid.parsers.embedded.run_in import split_run_in_headings
from tests.block_builders import Stack

BODY, BOLD, ITALIC = "LMRoman10-Regular", "LMRoman10-Bold", "LMRoman10-Italic"
PROSE = "The widows and orphans were counted on every page of the sample documents that we typeset."


_stack = Stack(x1=540.0, font=BODY)
_line, _block = _stack.line, _stack.block_of


def test_a_section_over_its_first_subsection_is_two_headings() -> None:
    lines = [
        _line("2 What are widows and orphans?", 100, x1=260, bold=True, font=BOLD),
        _line("2.1 Widows", 112, x1=130, bold=True, font=BOLD),
        _line(PROSE, 126),
    ]
    blocks = split_blocks(lines, 10.0)
    assert [block.text for block in blocks[:2]] == ["2 What are widows and orphans?", "2.1 Widows"]


def test_a_title_wrapped_onto_its_second_line_stays_one() -> None:
    lines = [
        _line("2 What are widows and orphans and how do we", 100, bold=True, font=BOLD),
        _line("count them", 112, x1=140, bold=True, font=BOLD),
        _line(PROSE, 126),
    ]
    assert split_blocks(lines, 10.0)[0].text == "2 What are widows and orphans and how do we count them"


def test_a_bold_numbered_title_is_judged_by_its_words() -> None:
    assert heading_parts(_block([_line("10.1. default", 100, x1=160, bold=True, font=BOLD)]), 10.0, BODY) == ("10.1", "default")
    assert heading_parts(_block([_line("2.5 mg", 100, x1=110)]), 10.0, BODY) is None


def test_a_line_flush_right_under_the_text_is_a_signature() -> None:
    paragraph = _block([_line(PROSE, 100), _line(PROSE, 112), _line("and so on.", 124, x1=130)])
    signature = _block([_line("Zdeněk Wagner, Vít Novotný", 140, x0=400, italic=True, font=ITALIC)], "heading")
    centred = _block([_line("Acknowledgements", 170, x0=250, x1=362, italic=True, font=ITALIC)], "heading")
    left = _block([_line("Further reading", 200, x1=160, italic=True, font=ITALIC)], "heading")
    blocks = [paragraph, signature, _block([_line(PROSE, 154)]), centred, _block([_line(PROSE, 184)]), left]
    demote_flush_right_lines(blocks, 10.0)
    assert signature.kind == "paragraph"
    assert centred.kind == "heading" and left.kind == "heading"


def test_a_manuals_contents_after_its_overview_is_set_aside() -> None:
    blocks = [
        _block([_line("General Information", 100, page=2, x1=200, size=14, bold=True, font=BOLD)], "heading"),
        _block([_line(PROSE, 130, page=2)]),
    ]
    blocks.append(_block([_line("Contents", 100, page=4, x1=160, size=14, bold=True, font=BOLD)], "heading"))
    for top, entry in ((130, "1 Legal Stuff . . . . . . . . . . . . . . 5"), (142, "2 Installation . . . . . . . . . . . . . 6")):
        blocks.append(_block([_line(entry, top, page=4)]))
    entry = _block([_line("2.1 UNIX/Source Distribution . . . . . . . . 6", 154, page=4)], "heading")
    blocks.append(entry)
    for page in range(5, 21):
        blocks.append(_block([_line(PROSE, 100, page=page)]))
    set_aside_contents(blocks)
    assert blocks[2].kind == "furniture" and entry.kind == "furniture"
    assert blocks[0].kind == "heading"


def test_a_hanging_numbered_item_is_no_run_in_heading() -> None:
    heading = _block([_line("16 Version History", 80, x1=250, size=14, bold=True, font=BOLD)], "heading")
    heading.title = "Version History"
    first = _line("5.1 The manual is now distributed as a PDF file. Quartet", 100)
    first.bold_prefix = 3
    item = _block([first, _line("and ambiguous character statistics per sequence added.", 112, x0=92), _line(PROSE, 124, x0=92)])
    assert [block.kind for block in split_run_in_headings([heading, item])] == ["heading", "paragraph"]
    flush = _block([first, _line("and ambiguous character statistics per sequence added.", 112), _line(PROSE, 124)])
    assert [block.kind for block in split_run_in_headings([heading, flush])] == ["heading", "heading", "paragraph"]


def _led(text: str, prefix: int, size: float, lead_gap: float, word_gap: float) -> Line:
    line = _line(text, 100, size=size)
    line.bold_prefix, line.lead_gap, line.word_gap = prefix, lead_gap, word_gap
    return line


def test_a_colon_ends_a_run_in_title_only_an_em_from_its_text() -> None:
    assert styled_lead(_led("Details: For some effects it is important to know that the argument", 9, 9.7, 10.9, 4.2)) == "Details:"
    assert styled_lead(_led("Version 0.3: Allow user to specify number of MCMC iterations (Step 3)", 13, 8.8, 5.6, 3.9)) is None


def test_a_statement_head_half_an_em_from_its_text_stays_text() -> None:
    heading = _block([_line("Appendix A. Proofs", 80, x1=250, size=12, bold=True, font=BOLD)], "heading")
    heading.title = "Proofs"
    proof = _block([_led("Proof Let the eigenvalue of B be λ with its eigenvector ξ, then", 6, 9.7, 7.2, 3.8), _line(PROSE, 112)])
    assert [block.kind for block in split_run_in_headings([heading, proof])] == ["heading", "paragraph"]


def test_a_label_with_a_colon_on_a_line_alone_is_a_list_item() -> None:
    """One line shows no hanging indent to tell a description list's item by: its colon does."""
    heading = _block([_line("3 Input and output", 80, x1=250, size=12, bold=True, font=BOLD)], "heading")
    heading.title = "Input and output"
    item = _block([_led("Input: The alignment of the sequences in PHYLIP format.", 7, 10.0, 11.0, 3.3)])
    paragraph = _block([_led("Details: For some effects it is important to know that the argument", 9, 10.0, 11.0, 3.3), _line(PROSE, 112)])
    assert [block.kind for block in split_run_in_headings([heading, item])] == ["heading", "paragraph"]
    assert [block.kind for block in split_run_in_headings([heading, paragraph])] == ["heading", "heading", "paragraph"]
