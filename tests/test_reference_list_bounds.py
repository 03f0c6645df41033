"""Where a reference list begins and ends, and how its entries are cited, as the second batch of
unseen publisher samples prints them (issue 32, item 5).

- REVTeX merges the paper's notes into its headingless list ("notes and references"): a run of
  cited works that starts at entry 3 opens at the notes numbered 1 and 2 just before it.
- An entry names its work anywhere on its lines up to the next label, by a web address too
  (a list of software manuals: "[7] The epsfig package," / "S. Rahtz, http://…").
- A heading no list of reference headings knows, right above entry 1, is the list's own.
- The authors' address printed after the list (AGU), or the body's text set again in the body's
  larger type (SMF), ends the list: neither is an entry.
- MNRAS sets one-line entries ending in their pages: "Jones C. D., 2015, J. Int. Stuff, 17, 198".
- "revtex4-1.cls" is no superscript citation; "see for example [1, Appendix B]" is a citation.
"""

from __future__ import annotations

from functools import partial

from paperpyramid.citations.marker_patterns import numeric_brackets, superscripts
from paperpyramid.document import Document
from paperpyramid.parsers.embedded.assembly import assemble
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.references import headless_list_start, split_references
from tests.block_builders import Stack, whole_title

_stack = Stack(top=100, step=12, page=5, x0=72, x1=540.0, size=9.0, height=9, font="T", heading=whole_title)
_line, _block = _stack.line, _stack.block
_heading = partial(_block, kind="heading", level=1, bold=True)

_BODY = [_block("We studied the dark matter halo of dwarf galaxies."), _block("The halo is set by its mass, as shown before.")]


def test_revtex_notes_open_the_headingless_list() -> None:
    """AIP's REVTeX 4.1 guide: notes 1 and 2 (no initials, no year) before the works 3 to 8."""
    notes = [
        _block("1For help regarding the installation of this software, please send email to tex@aip.org."),
        _block("2Available with the REVTEX distribution, see the society's pages."),
    ]
    works = [
        _block("3L. Lamport, LATEX a Document Preparation System (Addison-Wesley, Reading, MA, 1996)."),
        _block("4M. Goossens, F. Mittelbach, and A. Samarin, The LATEX Companion (Addison-Wesley, 1994)."),
        _block("5D. E. Knuth, The TEXbook (Addison-Wesley, Reading, MA, 1986)."),
    ]
    assert headless_list_start([*_BODY, *notes, *works]) == 2
    # notes that do not count 1, 2 up to the first work open nothing
    assert headless_list_start([*_BODY, notes[1], *works]) is None


def test_an_entry_names_its_work_on_its_following_lines_or_by_a_web_address() -> None:
    """SMF's "Literature and sources": software manuals, their authors on the next line or none."""
    entries = [
        _block("[1] L. Lamport. — LaTeX: A Document Preparation System. Addison-Wesley, 1994."),
        _block("[2] AMS-LaTeX version 1.2 User's Guide, http://www.loria.fr/tex/amsldoc.dvi"),
        _block(["[3] The epsfig package,", "S. Rahtz, on the archive's pages"]),
        _block(["[4] Babel, a multilingual package for use with LATEX's classes,", "J. Braams, on the archive"]),
        _block("[5] Hypatia's Guide to BibTeX, http://hypatia.dcs.qmw.ac.uk/html/bibliography.html"),
    ]
    assert headless_list_start([*_BODY, *entries]) == 2


def test_a_heading_right_above_entry_one_names_the_list() -> None:
    blocks = [
        _heading("Introduction", size=10),
        _block("We cite the manual [1] and the companion [2] and the book [3].", size=10),
        _heading("Literature and sources", size=10, page=6),
        _block("[1] L. Lamport. — LaTeX: A Document Preparation System. Addison-Wesley, 1994.", page=6),
        _block("[2] M. Goossens, F. Mittelbach. — The LaTeX Companion. Addison-Wesley, 1993.", page=6),
        _block("[3] D. E. Knuth. — The TeXbook. Addison-Wesley, 1986.", page=6),
    ]
    document = Document()
    assemble(document, blocks, 10.0)
    assert [(section.title, section.number) for section in document.sections] == [("Introduction", None), ("Literature and sources", "ref")]
    assert [reference.key for reference in document.references] == ["1", "2", "3"]


def _listed(*after: Block) -> Document:
    blocks = [
        _heading("Introduction", size=10),
        _block("The basic manual is Lamport [1994]; a more recent one is by Kopka and Daly [1999].", size=10),
        _heading("References", size=10),
        _block("Kopka, H., and P. W. Daly, A Guide to LATEX, 3rd ed., Addison Wesley Longman, Reading, MA, 1999.", x1=480),
        _block("Lamport, L., LATEX—A Document Preparation System, 2nd ed., Addison-Wesley, Reading, MA, 1994."),
        *after,
    ]
    document = Document()
    assemble(document, blocks, 10.0)
    return document


def test_the_authors_address_after_the_list_ends_it() -> None:
    """AGU++: "P. W. Daly, Max-Planck-Institut für Aeronomie, …" and a line on the macros under the list."""
    address = _block(["P. W. Daly, Max-Planck-Institut für Aeronomie, D–", "37189 Katlenburg-Lindau, Germany"])
    note = _block("This preprint was prepared with AGU's LATEX macros v5.01.", size=7)
    document = _listed(address, note)
    assert [reference.raw[:6] for reference in document.references] == ["Kopka,", "Lampor"]
    assert "Max-Planck-Institut" in document.sections[-1].blocks[0].text
    # an entry after it (a year) says it was no address: the list goes on
    report = _block("Technical report, Department of Physics, University of Somewhere")
    document = _listed(report, _block("Smith, J., Lecture notes, University of Somewhere, 1998."))
    assert "Smith, J." in document.references[-1].raw
    assert document.sections[-1].number == "ref"


def test_the_body_text_after_a_numbered_list_ends_it() -> None:
    """SMF: a paragraph in the body's type (larger than the list's) after entry 11 is no part of it."""
    blocks = [
        _heading("Introduction", size=10),
        _block("We cite the manual [1], the companion [2] and the book [3].", size=10),
        _heading("References", size=10),
        _block("[1] L. Lamport. — LaTeX: A Document Preparation System. Addison-Wesley, 1994.", size=8.8),
        _block("[2] M. Goossens, F. Mittelbach. — The LaTeX Companion. Addison-Wesley, 1993.", size=8.8),
        _block(["[3] Xy-pic User's Guide, K. Rose, R. Moore, http://www.loria.fr/tex/", "graph-pack/xyguide.dvi"], size=8.8),
        _block(["The most recent versions of the macros and their documentation are also", "available by anonymous ftp."], size=10),
    ]
    document = Document()
    assemble(document, blocks, 10.0)
    assert document.references[-1].raw.endswith("xyguide.dvi")
    assert document.sections[-1].blocks[0].text.startswith("The most recent versions")


def test_one_line_entries_ending_in_their_pages_are_split() -> None:
    texts = [
        "Author A. N., 2013, Journal of Improbable Astronomy, 1, 1",
        "Jones C. D., 2015, Journal of Interesting Stuff, 17, 198",
        "Smith A. B., 2014, The Example Journal, 12, 345 (Paper I)",
    ]
    lines = [_line(text, x1=480 + 5 * index) for index, text in enumerate(texts)]
    assert [reference.raw for reference in split_references(lines)] == texts


def test_a_version_is_no_superscript_and_for_example_cites() -> None:
    assert superscripts("the standard article class revtex4-1.cls, and you will") == []
    assert [marker.numbers for marker in numeric_brackets("see for example [1, Appendix B] and [10] for an introduction")] == [[1], [10]]
    assert numeric_brackets("as Example [3] shows") == []
