"""A page's footnotes leave the reading flow (:mod:`paperpyramid.parsers.embedded.footnotes`).

ACL sets its footnotes at 9 pt under an 11 pt body, in full lines: the small print pass kept them
as body text, and the paragraph that goes on in the next column was stored with a footnote's
sentence inside it. The pages here are built with that layout: a two-column page whose left
column's last paragraph is cut mid-sentence, a footnote under it, the sentence going on at the
top of the right column."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.footnotes import _carries, set_footnotes_apart
from tests.block_builders import Stack

BODY, NOTE, MARK = 10.0, 8.2, 6.0  # ACL's 9 pt under 11 pt, in proportion (0.82 of the body)
LEFT, RIGHT, WIDTH = 72.0, 322.0, 218.0
FILLER = (
    "The annotated corpus links every citation in the body text to an entry of the bibliography and every "
    "mention of a figure or table to its caption, which lets models learn from structured scientific text. "
)


def _wrap(text: str, size: float, width: float = WIDTH) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", "Times-Roman", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _column(page: Canvas, x: float, top: float, text: str, size: float = BODY) -> float:
    """Set ``text`` in lines from baseline ``top`` on; the next free baseline."""
    for line in _wrap(text, size):
        page.text(x, top, line, "Times-Roman", size)
        top += size * 1.2
    return top


def _page(page: Canvas, marked: str, note: str | None, cut: str, goes_on: str, heading: str = "1 Introduction") -> None:
    """A two-column page: a heading, body paragraphs, the left column's last paragraph cut
    mid-sentence after ``marked`` (its footnote mark raised after it), ``note`` at the left
    column's foot, and the right column opening with ``goes_on``."""
    page.text(LEFT, 80, heading, "Times-Bold", 12)
    top = _column(page, LEFT, 100, FILLER * 3)
    top = _column(page, LEFT, top + 6, FILLER * 3)
    lines = _wrap(f"{cut} {marked}", BODY)
    for line in lines:
        width = page.text(LEFT, top, line, "Times-Roman", BODY)
        top += BODY * 1.2
    if note is not None:
        page.text(LEFT + width, top - BODY * 1.2 - 3.5, "7", "Times-Roman", MARK)  # the mark, raised after the word
        page.text(LEFT, 720, "7", "Times-Roman", MARK)
        _column(page, LEFT + 4, 723, note, NOTE)
    right = _column(page, RIGHT, 100, goes_on)
    _column(page, RIGHT, right + 6, FILLER * 4)


CUT = "To build the corpus we gather the papers of several sources and resolve the links between them, starting from the"
MARKED = "corpus,"
NOTE_TEXT = "Pronounced as the name of a bird that brings babies, and written in capitals when it names the data set."
GOES_ON = "papers that publishers send us directly, then the archives that hold preprints, and last the open web crawl."


REST = (
    "continued on the next one, where its rest is printed under the body text of that page in the same small type, "
    "with no mark of its own, for the mark stays with the note's first half on the page before."
)


def _parse(tmp_path: Path, pages: list[Canvas]) -> Document:
    path = tmp_path / "footnotes.pdf"
    path.write_bytes(write_pdf(pages, "Footnotes out of the reading flow"))
    return parse_pdf(path)


def _paragraphs(document: Document) -> list[str]:
    return [block.text for section in document.sections if section.title for block in section.blocks if block.kind == "paragraph"]


def test_a_footnote_at_a_columns_foot_goes_with_the_notes_and_the_cut_paragraph_is_joined(tmp_path: Path) -> None:
    page = Canvas(612, 792)
    _page(page, MARKED, NOTE_TEXT, CUT, GOES_ON)
    document = _parse(tmp_path, [page])
    body = _paragraphs(document)
    assert not any("name of a bird" in text for text in body)  # out of the reading flow
    joined = next(text for text in body if "starting from the" in text)
    assert "publishers send us directly" in joined  # the sentence the footnote cut, whole again
    notes = document.sections[-1]
    assert notes.title == "" and any("name of a bird" in block.text for block in notes.blocks)  # no word lost


def test_the_rest_of_a_footnote_on_the_next_page_goes_with_it(tmp_path: Path) -> None:
    """LaTeX breaks a long footnote at a page's foot: its rest, with no mark, opens the next page's foot."""
    first, second = Canvas(612, 792), Canvas(612, 792)
    _page(first, MARKED, NOTE_TEXT + " The first half of this note is long enough to be broken at the page's foot and", CUT, GOES_ON)
    second.text(LEFT, 80, "2 Method", "Times-Bold", 12)
    top = _column(second, LEFT, 100, FILLER * 5)
    _column(second, LEFT, top + 6, FILLER * 3)
    _column(second, LEFT, 711, REST, NOTE)
    _column(second, RIGHT, 100, FILLER * 8)
    document = _parse(tmp_path, [first, second])
    assert not any("continued on the next one" in text for text in _paragraphs(document))
    assert any("continued on the next one" in block.text for block in document.sections[-1].blocks)


def test_small_print_at_the_foot_without_a_mark_stays_text(tmp_path: Path) -> None:
    """Small type at a column's foot that opens with no mark the body carries is no footnote."""
    page = Canvas(612, 792)
    _page(page, MARKED, None, CUT, GOES_ON)
    _column(page, LEFT, 723, NOTE_TEXT, NOTE)
    document = _parse(tmp_path, [page])
    assert any("name of a bird" in text for text in _paragraphs(document))


def test_a_mark_is_a_number_raised_after_a_word_not_a_figures_or_a_citations() -> None:
    assert _carries("the S2ORC corpus,7 a large", 7) and _carries("the Semantic Scholar8 Open", 8)
    assert _carries("may be absolved. 1, 2 As", 1)  # a space the text layer put before the raised mark
    assert _carries("no worse than O(n).1 For a network", 1)
    assert not _carries("as Table 7 shows", 7) and not _carries("in prior work [7] and", 7) and not _carries("in 17 papers", 7)


# a column's lines, 1.2 times their size apart and 218 points wide, the first set in, on the second page
_BODY_TYPE = Stack(page=2, step=BODY * 1.2, size=BODY, font="Times-Roman", width=lambda text: 218, indent=4)
_body, _note = _BODY_TYPE.block, replace(_BODY_TYPE, step=NOTE * 1.2, size=NOTE).block

BODY_LINES = ["The corpus holds papers of many fields, from physics to medicine,", "and the links between them, as the next section shows"]


def test_a_numbered_program_line_at_the_foot_is_no_footnote() -> None:
    """A program's numbered lines set small in a typewriter face at a column's foot open with a
    number in turn after the last note, but the body carries no such mark; a note giving an
    address in that face, numbered in turn, is a note."""
    first = _body([*BODY_LINES, "as the corpus1 shows."], top=400.0, page=1)
    note = _note("1The papers included in the corpus are a curated subset.", top=730.0, page=1)
    body = _body(BODY_LINES, top=400.0)
    listing = _note(["2 library(vegan); data(dune)", "3 mod <- cca(dune ~ A1, data = dune.env)"], top=700.0, font="CMTT8")
    address = _note("2https://github.com/allenai/s2orc", top=730.0, font="CMTT8")
    set_footnotes_apart([first, note, body, listing], {1: 792, 2: 792}, BODY)
    assert listing.kind == "paragraph"
    set_footnotes_apart([first, note, body, address], {1: 792, 2: 792}, BODY)
    assert address.kind == "aside"


def test_a_number_ending_a_programs_output_line_opens_no_note() -> None:
    """R's output at a column's foot: a line that ends in a number, then more ("Test number: 2
    Permutation number: 999"), is read from the number on at the head of a block, far right of
    where the block's lines start."""
    body = _body([*BODY_LINES, "as the corpus2 shows."], top=600.0)
    output = _note(["2 Permutation number: 999", "Alternative hypothesis: greater"], top=720.0)
    output.lines[0].x0 = 200.0
    set_footnotes_apart([body, output], {2: 792}, BODY)
    assert output.kind == "paragraph"


def test_a_formulas_piece_at_the_foot_is_no_footnote() -> None:
    """An index set small under a formula at the foot ("1 und γ2"), right of where the column's
    text starts, opens with a number the body carries ("γ1") and is no note."""
    body = _body([*BODY_LINES, "for the curves γ1 and γ2 we have"], top=600.0)
    piece = _note("1 und γ2 ∼ γ", top=720.0, x0=160)
    set_footnotes_apart([body, piece], {2: 792}, BODY)
    assert piece.kind == "paragraph"


def test_a_mark_glued_to_a_number_is_found_by_its_turn() -> None:
    """pdfium glues a raised mark to a version number ("v3.0.09"): the note after note 8 is 9."""
    body = _body([*BODY_LINES, "with the parser v3.0.09 as the footnote says."], top=400.0)
    eight = _note("8The papers included in the corpus are a curated subset.", top=730.0, page=1)
    first = _body([*BODY_LINES, "as the corpus8 shows"], top=400.0, page=1)
    nine = _note("9https://github.com/allenai/scienceparse", top=730.0)
    set_footnotes_apart([first, eight, body, nine], {1: 792, 2: 792}, BODY)
    assert eight.kind == "aside" and nine.kind == "aside"


def test_the_pieces_of_a_note_a_formula_cut_go_with_it() -> None:
    """A formula's index cuts a note's line into blocks side by side: each goes with the note."""
    body = _body([*BODY_LINES, "in full, as Scholar2 shows."], top=600.0)
    note = _note("2We remind that the lattice vectors are obtained with G and R as", top=700.0)
    left = _note("unk(r)e", top=700 + NOTE * 1.2 + 0.5)
    left.lines[0].x1 = left.lines[0].x0 + 30
    right = _note(". Both conventions are possible, here we use the one of the code.", top=700 + NOTE * 1.2 + 1, x0=110)
    set_footnotes_apart([body, note, left, right], {2: 792}, BODY)
    assert note.kind == left.kind == right.kind == "aside"


def test_a_sign_marks_a_note_where_the_body_carries_it() -> None:
    """A title's or an author's note is marked by a printer's sign ("∗Work done during an internship")."""
    body = _body([*BODY_LINES, "by Kyle Lo∗ and Lucy Wang, who wrote it."], top=600.0, page=1)
    note = _note("∗Work performed during an internship at the institute.", top=730.0, page=1)
    unmarked = _note("† This sign is printed nowhere in the body of the page.", top=745.0, page=1, x0=300)
    set_footnotes_apart([body, note, unmarked], {1: 792}, BODY)
    assert note.kind == "aside" and unmarked.kind == "paragraph"


def test_small_print_after_a_finished_note_opens_no_rest_of_it() -> None:
    """Only a note cut mid-sentence goes on at the next page's foot: after a finished one, small
    print there with no mark (a program's output, a formula's line) stays where it is."""
    first = _body([*BODY_LINES, "as the corpus1 shows."], top=400.0, page=1)
    note = _note("1The papers included in the corpus are a curated subset.", top=730.0, page=1)
    body = _body(BODY_LINES, top=400.0)
    small = _note("the output of the model, set in the small type of a listing under the text", top=730.0)
    set_footnotes_apart([first, note, body, small], {1: 792, 2: 792}, BODY)
    assert note.kind == "aside" and small.kind == "paragraph"
    note.kind, note.lines[-1].text = "paragraph", "1The papers included in the corpus are a curated subset of the"
    set_footnotes_apart([first, note, body, small], {1: 792, 2: 792}, BODY)
    assert small.kind == "aside"  # the rest of a note cut mid-sentence


def test_a_mark_cut_off_as_a_block_of_its_own_opens_the_note_beside_it() -> None:
    """Set smaller still than the note, its mark is read as a block of its own (dropped as small
    print): the note right of it on its baseline opens with it, and the mark goes with it."""
    body = _body([*BODY_LINES, "by Kyle Lo∗ and Lucy Wang, who wrote it."], top=600.0, page=1)
    mark = _note("∗", "furniture", top=728.0, x0=84, x1=88.0, size=5.6, page=1)
    note = _note("denotes equal contribution of the first two authors", top=730.0, x0=86, page=1)
    note.lines[0].x0 = 90.0
    set_footnotes_apart([body, mark, note], {1: 792}, BODY)
    assert note.kind == "aside" and mark.kind == "aside"


def test_the_rest_of_a_note_whose_first_line_is_set_aside_goes_with_it() -> None:
    """A note's first line in small capitals is set aside as small print already; its rest, in
    the note's type, went on as body text."""
    body = _body([*BODY_LINES, "given gold abstracts5 in full."], top=600.0)
    first = _note("5Our FEVER-trained RATIONALESELECTION module", "aside", top=735.0, size=6.4)
    rest = _note("achieves 79.9 sentence-level F1 on the FEVER test set.", top=735 + 6.4 + 4)
    set_footnotes_apart([body, first, rest], {2: 792}, BODY)
    assert rest.kind == "aside"


def test_an_appendix_after_the_references_has_its_notes_set_apart() -> None:
    """Notes are not looked for in the reference list, but the appendix after it has them again."""
    references = _body("References", "heading", top=60.0, title="References", size=12)
    appendix = _body("C The paper clustering problem", "heading", top=300.0, number="C", size=12)
    body = _body([*BODY_LINES, "of the page dimensions20 in full."], top=600.0)
    note = _note("20Used to determine PDF page number and page dimensions", top=740.0)
    set_footnotes_apart([references, appendix, body, note], {2: 792}, BODY)
    assert note.kind == "aside"
    listed = _note("20Smith J. Frogs of the world. Journal of Frogs 2001.", top=740.0)
    set_footnotes_apart([references, body, listed], {2: 792}, BODY)
    assert listed.kind == "paragraph"


def test_a_mark_closed_by_a_parenthesis_opens_a_note() -> None:
    """Japanese journals close the mark: "∗) The amsmath.sty style file, in turn, reads …"."""
    body = _body([*BODY_LINES, "the amsmath.sty∗) file is read."], top=600.0)
    note = _note("∗) The amsmath.sty style file, in turn, reads in several other files.", top=740.0)
    set_footnotes_apart([body, note], {2: 792}, BODY)
    assert note.kind == "aside"


def test_a_mark_raised_off_the_body_into_a_block_of_its_own_is_carried() -> None:
    """Raised high, a body line's mark is read as a block of its own ("… data¹. To make …"): the
    page's body still carries it."""
    body = _body([*BODY_LINES, "the Irish data"], top=600.0)
    mark = _note("1", "furniture", top=600 + 2 * BODY * 1.2 - 1, size=5.3)
    words = body.lines[-1]
    mark.lines[0].x0, mark.lines[0].x1 = words.x1, words.x1 + 3
    note = _note("1The Irish data set is included in this package.", top=724.0)
    set_footnotes_apart([body, mark, note], {2: 792}, BODY)
    assert note.kind == "aside"


def test_a_formulas_big_sign_inside_a_note_does_not_end_it() -> None:
    """A sum's sign in a note is set in a larger type than the note's words and read as a block
    of its own: the note goes on under it, and the note is at the column's foot all the same."""
    body = _body([*BODY_LINES, "as multinomRob10 shows."], top=600.0)
    note = _note("10The LQD problem solved in multinomRob is somewhat different: minimize the", top=702.0)
    sign = _note("\x01", top=714.0, x0=96, size=10.7)
    rest = _note("order statistic of the set of absolute differences among the residuals.", top=715.0, x0=103)
    set_footnotes_apart([body, note, sign, rest], {2: 792}, BODY)
    assert note.kind == rest.kind == "aside"


def test_a_number_with_a_stop_opens_a_note() -> None:
    """PMLR prints its notes' numbers with a stop: "3. For reasons why you shouldn't use …"."""
    body = _body([*BODY_LINES, "the eqnarray3 environment."], top=600.0)
    note = _note("3. For reasons why you should not use the obsolete eqnarray environment, see Madsen.", top=740.0)
    set_footnotes_apart([body, note], {2: 792}, BODY)
    assert note.kind == "aside"
