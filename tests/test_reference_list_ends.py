"""Where a reference list ends, and what of it is kept, as unseen layouts print it (issue 32).

- OUP prints the authors' biographies under an author-year list, in the body's type, larger
  than the list's: they end it; pinp sets some of its entries' lines larger too, and those stay.
- ltxdoc prints "Change History" and "Index" after a class's list, as lines of text: each ends it.
- JSS: an entry's last line naming a university carries the entry on; the address after
  "Affiliation:" ("Carter T. Butts Department of …") opens no entry.
- pinp justifies its entries with spaces so wide that a title or a journal is read apart, as a
  box beside the text or a running head: such a piece between the list's lines is the entry's.
- A page's footnote the reading order set inside the list is kept as a note, not lost.
"""

from __future__ import annotations

from functools import partial

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.assembly import assemble
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.references import split_list
from tests.block_builders import Stack, whole_title

_stack = Stack(top=100.0, step=12.0, page=5, x1=290.0, size=9.0, font="T", heading=whole_title)
_line, _block = _stack.line, _stack.block
_heading = partial(_block, kind="heading", level=1)


def _document(*blocks: Block, body_size: float = 7.0) -> tuple[Document, list[Block]]:
    document = Document()
    asides = assemble(document, [_heading("References", size=10.0), *blocks], body_size)
    return document, asides


_AUTHOR_YEAR = [
    _block("D. Bahdanau, K. Cho, and Y. Bengio. Neural machine translation by jointly", size=6.8),
    _block("learning to align and translate. arXiv preprint arXiv:1409.0473, 2014.", size=6.8, x0=80),
    _block("Y. LeCun, Y. Bengio, and G. Hinton. Deep learning. Nature, 521(7553):436, 2015.", size=6.8),
]


def test_biographies_in_the_bodys_type_end_an_author_year_list() -> None:
    """oup-template: eight biography lines at 7.3 pt under a list at 6.8 pt were read as entries."""
    biography = _block(
        [
            "Author Name. This is sample author biography text this is sample author",
            "biography text this is sample author biography text this is sample author",
            "biography text this is sample author biography text.",
        ],
        size=7.3,
    )
    document, _ = _document(*_AUTHOR_YEAR, biography)
    assert [reference.raw[:5] for reference in document.references] == ["D. Ba", "Y. Le"]
    assert document.sections[-1].blocks[0].text.startswith("Author Name.")


def test_an_entrys_own_larger_lines_stay_in_an_author_year_list() -> None:
    """pinp: "to Rcpp.” PeerJ Preprints, 5. doi:…" at 7.3 pt carries its entry on (no full stop
    above it); a larger line naming a DOI after an entry's full stop is the next piece of one."""
    entry = _block("Eddelbuettel D, Balamuta JJ (2017). “Extending R with C++: A Brief Introduction", size=6.8)
    rest = _block(["to Rcpp.” PeerJ Preprints, 5. doi:10.7287/peerj.preprints.3188v1/.", "URL https://doi.org/10.7287/"], size=7.3, x0=80)
    second = _block("Eddelbuettel D, Balamuta JJ (2018). The American Statistician, 72(1).", size=6.8)
    doi = _block(["doi: 10.1080/00031305.2017.1375990.", "URL https://doi.org/10.1080/00031305.2017.1375990."], size=7.3, x0=80)
    document, _ = _document(entry, rest, second, doi, _block("Wickham H (2011). “testthat.” The R Journal, 3, 5–10.", size=6.8))
    raws = [reference.raw for reference in document.references]
    assert len(raws) == 3 and "PeerJ Preprints" in raws[0] and "00031305.2017.1375990" in raws[1]


def test_a_change_history_and_an_index_after_the_list_end_it() -> None:
    """elbioimp-class (ltxdoc): 1 entry printed, 40 read, the index's lines among them."""
    entry = _block("1. National institute of health. Uniform requirements for manuscripts, 2009.", size=8.0)
    history = [_block("Change History", size=9.0), _block("v1.0 General: Initial version . . . . . . . . 1", size=8.0)]
    index = [_block("Index", size=9.0), _block(["\\@biblabel . . . . . . . . . 138", "\\@openbib@code . . . . . . 135"], size=7.5)]
    document, _ = _document(entry, *history, *index, body_size=7.5)
    assert len(document.references) == 1
    assert [section.title for section in document.sections] == ["References", "Change History", "Index"]


def test_an_address_after_the_affiliation_label_opens_no_entry() -> None:
    """jss-network: the last entry's "tural Analysis … Cambridge University Press" line ended
    the list as an address, and "Carter T. Butts Department of Sociology …" after "Affiliation:"
    was read as an entry (it opens like one: a surname and an initial)."""
    entries = [
        _block("Venables WN, Ripley BD (2000). S Programming. Springer, New York.", size=10.9),
        _block("Venables WN, Ripley BD (2002). Modern Applied Statistics with S. Springer, New York.", size=10.9),
        _block("Wasserman SS, Faust K (1994). Social Network Analysis: Methods and Applications. Struc-", size=10.0),
        _block("tural Analysis in the Social Sciences. Cambridge University Press, Cambridge.", size=10.9, x0=83),
    ]
    address = [
        _block("Affiliation:", size=10.8),
        _block(["Carter T. Butts", "Department of Sociology and Institute for Mathematical Behavioral Sciences"], size=10.9),
        _block(["University of California, Irvine", "Irvine, CA 92697-5100, United States of America"], size=10.9, page=6),
    ]
    document, _ = _document(*entries, *address, body_size=11.0)
    assert len(document.references) == 3
    assert document.references[-1].raw.endswith("Cambridge University Press, Cambridge.")


def test_pieces_of_an_entry_set_apart_by_wide_spaces_are_kept() -> None:
    """pinp: the title (taken for a box beside the text) and the journal (taken for a running
    head) of "Eddelbuettel D, Balamuta JJ (2018)" lay between its first line and its DOI."""
    opening = Block(lines=[_line("Eddelbuettel D, Balamuta JJ (2018).", size=6.8, x0=315, x1=400, top=91)])
    title = Block(lines=[_line("“Extending R with C++: A Brief Introduction to Rcpp.”", size=6.8, x0=449, x1=540, top=91)], kind="aside")
    journal = Block(lines=[_line("The American Statistician, 72(1).", size=6.8, x0=414, x1=500, top=101)], kind="furniture")
    doi = Block(lines=[_line("doi: 10.1080/00031305.2017.1375990.", size=6.8, x0=324, x1=540, top=111)])
    later = Block(lines=[_line("Wickham H (2011). “testthat.” The R Journal, 3, 5–10.", size=6.8, x0=315, x1=540, top=121)])
    # a running head on the next page, above the list's next line there, stays out
    head = Block(lines=[_line("The American Statistician, 72(1).", size=6.8, x0=414, x1=500, page=6, top=40)], kind="furniture")
    after = Block(lines=[_line("Zhang Y (2019). A title. A journal, 1, 2–3.", size=6.8, x0=315, x1=540, page=6, top=50)])
    # a figure's labels under the list, much smaller than its lines, stay out too
    label = Block(lines=[_line("DESN076 DETH026", size=5.0, x0=330, x1=400, page=6, top=61)], kind="furniture")
    tick = Block(lines=[_line("25 15 5", size=6.8, x0=315, x1=400, page=6, top=70)])
    document, _ = _document(opening, title, journal, doi, later, head, after, label, tick, body_size=8.5)
    raws = [reference.raw for reference in document.references]
    assert len(raws) == 3
    assert "Brief Introduction to Rcpp" in raws[0] and "American Statistician" in raws[0]
    assert "American Statistician" not in raws[1] + raws[2] and "DESN076" not in raws[2]


def test_a_footnote_inside_the_list_is_kept_as_a_note() -> None:
    """pinp: "The littler package … has a helper script" at 5.1 pt at the foot of the list's
    first column was taken out of the entries and lost."""
    lines = [
        _line("Allaire JJ, Eddelbuettel D (2022). Rcpp Attributes. Vignette included in R", size=6.8, top=600),
        _line("package Rcpp, URL https://CRAN.R-Project.org/package=Rcpp.", size=6.8, x0=80, top=609),
        _line("Anderson E, Bai Z (1999). LAPACK Users’ Guide. Third edition. SIAM,", size=6.8, top=618),
        _line("Philadelphia, PA.", size=6.8, x0=80, top=627),
        _line("The littler package (Eddelbuettel and Horner, 2021) has a helper script for this.", size=5.1, top=700),
    ]
    lines.append(_line("Burger M (2018). RUnit: R Unit Test Framework. R package version 0.4.32.", size=6.8, top=61, column=1))
    references, notes = split_list(lines)
    assert len(references) == 3 and [[line.text[:11] for line in note] for note in notes] == [["The littler"]]
    _, asides = _document(Block(lines=lines[:4]), Block(lines=lines[4:5]), Block(lines=lines[5:]), body_size=8.5)
    assert any(aside.text.startswith("The littler package") for aside in asides)


def test_a_list_ended_by_the_bodys_text_resumes_after_the_back_matter() -> None:
    """F1000 sets its funding note and acknowledgements between the halves of its author-year
    list: the note in the body's type ends the list, which the entries after the next heading
    carry on (an address ending the list is what stops it resuming)."""
    entries = [
        _block("Bishop SDH, Francis MP: Age and growth of the mako shark. Mar Freshwater Res. 2006; 57(2): 143–154.", size=7.1),
        _block("Bonham K, Sanford FB: Biological studies of dogfish. Biological Report. 1949; 49A: 83–114.", size=7.1),
        _block("Carlson JK, Baremore IE: Changes in biological parameters. Mar Freshwater Res. 2003; 54(3): 227–234.", size=7.1),
    ]
    note = _block(["The funders had no role in study design, data collection and analysis,", "decision to publish."], size=10.0)
    thanks = [_heading("Acknowledgements", size=10.6), _block("We are grateful to the many folks who helped.", size=10.0)]
    rest = _block("Francis MP, Campana SE, Jones CM: Age under-estimation in sharks. Mar Freshwater Res. 2007; 58(1): 10–23.", size=7.1)
    document, _ = _document(*entries, note, *thanks, rest, body_size=10.0)
    assert [reference.raw[:6] for reference in document.references] == ["Bishop", "Bonham", "Carlso", "Franci"]
