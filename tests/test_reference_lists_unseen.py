"""Reference lists as unseen publisher layouts print them (issue 32, references found and split).

- REVTeX sets a list without a heading in the small type of a table's notes, right under a
  table at the foot of a column: the table does not claim it, and the title's notes REVTeX sets
  at the head of the list ("a)Also at …") are none of its entries.
- JSS and the R Journal print the authors' addresses under the label "Affiliation:" right after
  the list: they end it.
- ACL and PNAS set a page's footnote at the foot of the column the list runs through; the
  reading order puts it between that column's last entry and the next column's first, where it
  cut the entry in two.
- A label that lost its point in the text layer ("40 Spinelli S") still opens its entry; a list
  of one entry labelled 1 is numbered; TUGboat's signature ("⋄ Robin Fairbairns") ends the list;
  "References Cited", "Reference List" and the like open it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.assembly import assemble
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import _mark_tables
from paperpyramid.parsers.embedded.references import split_references
from tests.block_builders import Stack, whole_title

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

_stack = Stack(top=100.0, step=12.0, page=5, x1=290.0, size=9.0, font="T", heading=whole_title)
_line, _block = _stack.line, _stack.block
_heading = partial(_block, kind="heading", level=1)


# --------------------------------------------------------------------------- REVTeX: the list under a table


_REVTEX_LIST = [
    "a)Footnote to title of article.",
    "b)Also at Physics Department, XYZ University.",
    "1R. P. Feynman, Phys. Rev. 94, 262 (1954).",
    "2E. Witten, (2001), hep-th/0106109.",
    "3A. Einstein, Yu. Podolsky, and N. Rosen, Phys. Rev. 47, 777 (1935).",
    "4N. D. Birell and P. C. W. Davies, Quantum Fields in Curved Space (Cambridge University Press, 1982).",
]


def test_the_titles_notes_at_the_head_of_a_numbered_list_are_no_entry() -> None:
    references = split_references([_line(text, size=7.1) for text in _REVTEX_LIST])
    assert [reference.key for reference in references] == ["1", "2", "3", "4"]
    assert references[0].raw.startswith("R. P. Feynman")


def test_lines_before_a_later_first_label_are_an_entry_whose_label_was_lost() -> None:
    lines = [_line("E. Witten, (2001), hep-th/0106109, and references therein.")] + [
        _line(text) for text in ("[2] A. Einstein, Phys. Rev. 47, 777 (1935).", "[3] D. E. Knuth, The TeXbook (Addison-Wesley, 1986).")
    ]
    references = split_references(lines)
    assert [reference.key for reference in references] == [None, "2", "3"]


def test_a_table_at_a_columns_foot_does_not_claim_the_list_under_it() -> None:
    """aapm-revtex-sample: Table IV's caption claimed the blocks under it to the page's end, the
    list's entries 1 to 36 with them (they are small print, as a table's notes are)."""
    caption = _block("Table IV. A table with more columns still fits properly in a column.", kind="caption", size=7.1)
    caption.extra["caption_kind"] = "table"
    rows = [
        _block("Cu 0.800 14.10 2.550", size=7.1),
        _block("Ag 0.990 15.90 2.710", size=7.1),
        _block("a Here's the first, from Ref. 1.", size=7.1),
    ]
    listed = [_block(_REVTEX_LIST[:3], size=7.1), _block(_REVTEX_LIST[3:], size=7.1)]
    body = [_block("We wish to acknowledge the support of the author community in using REVTeX, offering suggestions.")]
    blocks = [*body, caption, *rows, *listed]
    _mark_tables(blocks, 9.0, lambda page, box: [["Cu", "0.800", "14.10", "2.550"], ["Ag", "0.990", "15.90", "2.710"]])
    assert [block.kind for block in rows] == ["table_part"] * 3
    assert [block.kind for block in listed] == ["paragraph", "paragraph"]
    document = Document()
    assemble(document, blocks, 9.0)
    assert [reference.key for reference in document.references] == ["1", "2", "3", "4"]


@pytest.mark.parametrize(
    ("text", "key", "raw"),
    [
        ("1Rebek, A., Fickle Rocks, Fink Publishing, Chesapeake, 1982.", "1", "Rebek, A., Fickle Rocks"),
        ("[1] Ewins, D. J., Notation for Modal Testing & Analysis, Imperial College, 1993.", "1", "Ewins, D. J."),
        ("3D Systems Inc. (2019). Printing in three dimensions. Rock Hill, SC.", None, "3D Systems"),
    ],
)
def test_a_list_of_one_entry_labelled_one_is_numbered(text: str, key: str | None, raw: str) -> None:
    """aiaa-conference-template: its one entry, "1Rebek, A., …", kept its label as text and no key."""
    (reference,) = split_references([_line(text)])
    assert reference.key == key and reference.raw.startswith(raw)


def test_an_entry_whose_label_lost_its_point_opens_all_the_same() -> None:
    """f1000research (garbled fonts): "40 Spinelli S, …" between "39." and "41." ran into entry 39."""
    texts = [
        ("39. Ishida Y, Ishibashi J, Leal WS: Fatty acid solubilizer from the oral disk of the", 314.6),
        ("blowfly. PLoS One. 2013; 8(1): e51779.", 331.7),
        ("40 Spinelli S, Lagarde A, Iovinella I, et al.: Crystal structure of Apis mellifera OBP14,", 314.6),
        ("a C-minus odorant-binding protein. Insect Biochem Mol Biol. 2012; 42(1): 41–50.", 331.7),
        ("41. Lautenschlager C, Leal WS, Clardy J: Bombyx mori pheromone-binding protein", 314.6),
        ("42 Suppl 2: binding nonpheromone ligands. Structure. 2007; 15(9): 1148–54.", 331.7),
    ]
    references = split_references([_line(text, x0=x0, x1=555.0, size=7.1) for text, x0 in texts])
    assert [reference.key for reference in references] == ["39", "40", "41"]
    assert references[1].raw.startswith("Spinelli S") and references[2].raw.endswith("1148–54.")


def test_a_bare_next_number_is_no_entry_where_the_next_label_has_it() -> None:
    lines = [
        _line(text)
        for text in (
            "[6] E. Witten, Nucl. Phys. B 443, 85 (1995),",
            "7 Suppl. 2, hep-th/9503124.",
            "[7] A. Einstein, Phys. Rev. 47, 777 (1935).",
        )
    ]
    assert [reference.key for reference in split_references(lines)] == ["6", "7"]


def test_a_table_of_the_works_cited_keeps_its_rows_where_a_heading_names_the_list() -> None:
    """A review's table of the studies it cites, numbered as the list is: with the list under its
    heading, the rows are no list printed without a heading, and the table keeps them."""
    caption = _block("Table 2. The studies included in the review.", kind="caption", size=8.0)
    caption.extra["caption_kind"] = "table"
    rows = [_block(f"[{n}] {name}, {year}, {size} patients", size=8.0) for n, name, year, size in _STUDIES]
    listed = [_block(f"[{n}] {name}, Title of the study, J. Clin. Res. {n}, {year}.") for n, name, year, _ in _STUDIES]
    blocks = [_block("We reviewed three studies [1-3] of the treatment."), caption, *rows, _heading("References"), *listed]
    cells = [[f"[{n}]", name, str(year), f"{size} patients"] for n, name, year, size in _STUDIES]
    _mark_tables(blocks, 9.0, lambda page, box: cells)
    assert [block.kind for block in rows] == ["table_part"] * 3


_STUDIES = [(1, "A. B. Smith", 2019, 45), (2, "C. D. Jones", 2020, 30), (3, "E. F. Brown", 2018, 12)]


# --------------------------------------------------------------------------- JSS: "Affiliation:" after the list


def test_the_affiliation_label_after_the_list_ends_it() -> None:
    blocks = [
        _heading("Introduction", size=11),
        _block("We build on Rcpp (Eddelbuettel and François 2011) and on its attributes.", size=11),
        _heading("References", size=11),
        _block("Abrahams D, Gurtovoy A (2004). C++ Template Metaprogramming. Addison-Wesley, Boston.", size=11, x1=240),
        _block(
            "Eddelbuettel D, François R (2011). “Rcpp: Seamless R and C++ Integration.” Journal of Statistical Software, 40(8), 1–18.",
            size=11,
        ),
        _block("Affiliation:", size=11),
        _block(["Dirk Eddelbuettel", "Debian Project", "River Forest, IL, United States of America"], size=11),
        _block(["E-mail: edd@debian.org", "URL: http://dirk.eddelbuettel.com/"], size=10),
    ]
    document = Document()
    assemble(document, blocks, 11.0)
    assert [reference.raw.split(" (")[0] for reference in document.references] == ["Abrahams D, Gurtovoy A", "Eddelbuettel D, François R"]
    assert not any("Debian" in reference.raw or "E-mail" in reference.raw for reference in document.references)


def test_tugboats_signature_after_the_list_ends_it() -> None:
    blocks = [
        _heading("Introduction"),
        _block("The url package [1] and the listings package [2] are loaded by the class."),
        _heading("References"),
        _block(
            ["[1] D. Arseneau. The url package.", "ctan.org/pkg/url", "[2] C. Heinz, et al. The listings package.", "ctan.org/pkg/listings"]
        ),
        _block("⋄ Robin Fairbairns & TUGboat editors", size=8.0),
        _block(["tugboat@tug.org", "tug.org/TUGboat"], size=7.5),
    ]
    document = Document()
    assemble(document, blocks, 9.0)
    assert [reference.raw for reference in document.references] == [
        "D. Arseneau. The url package. ctan.org/pkg/url",
        "C. Heinz, et al. The listings package. ctan.org/pkg/listings",
    ]


# --------------------------------------------------------------------------- ACL, PNAS: a page's footnote in the list


def _two_columns(note: list[tuple[str, float]], *, x0: float = 72.0, top: float = 745.0) -> list[Line]:
    """An author-year list with hanging indents over two columns, ``note`` at the first one's foot."""
    first = [
        ("Riaz Ahmad and Muhammad Tanvir Afzal. 2018. Cad:", 72.0, 664.0),
        ("an algorithm for citation-anchors detection in re-", 82.9, 675.0),
        ("search papers. Scientometrics, 117:1405–1423.", 82.9, 686.0),
        ("Waleed Ammar, Dirk Groeneveld, Chandra Bhagavat-", 72.0, 697.0),
        ("ula, Iz Beltagy, Miles Crawford, Doug Downey, Ja-", 82.9, 708.0),
        ("son Dunkelberger, Ahmed Elgohary, Sergey Feld-", 82.9, 719.0),
    ]
    second = [
        ("Kyle Lo, Tyler Murray, Hsu-Han Ooi, Matthew Pe-", 328.9, 67.0),
        ("ters, Joanna Power, and Oren Etzioni. 2018. Construc-", 328.9, 78.0),
        ("tion of the literature graph in semantic scholar. In NAACL.", 328.9, 89.0),
        ("Kimitaka Asatani, Junichiro Mori, Masanao Ochi, and", 318.2, 100.0),
        ("Ichiro Sakata. 2018. Detecting trends in academic", 328.9, 111.0),
        ("research from a citation network. In PloS one.", 328.9, 122.0),
    ]
    lines = [_line(text, size=8.9, x0=x0, page=9, column=0, top=top) for text, x0, top in first]
    lines += [_line(text, size=size, x0=x0, page=9, column=0, top=top + 11 * at) for at, (text, size) in enumerate(note)]
    lines += [_line(text, size=8.9, x0=x0, x1=525.0, page=9, column=1, top=top) for text, x0, top in second]
    return lines


def test_a_footnote_at_a_columns_foot_does_not_cut_the_entry_in_two() -> None:
    """acl-2020-s2orc: the note "19The Kaggle …" between the halves of "Ammar … 2018"."""
    note = [("19The Kaggle CORD-19 and TREC-COVID competitions.", 8.0), ("See Wang et al. (2020) for details.", 8.0)]
    references = split_references(_two_columns(note))
    assert [reference.raw.split(",")[0] for reference in references] == [
        "Riaz Ahmad and Muhammad Tanvir Afzal. 2018. Cad: an algorithm for citation-anchors detection in research papers. Scientometrics",
        "Waleed Ammar",
        "Kimitaka Asatani",
    ]
    assert references[1].raw.endswith("semantic scholar. In NAACL.") and "Kaggle" not in references[1].raw


def test_an_unmarked_footnote_set_much_smaller_is_one_too() -> None:
    """pinp (PNAS-like): "The littler package (Eddelbuettel and Horner, 2021) has …" at 5.1 pt under a list at 6.8 pt."""
    note = [("The littler package (Eddelbuettel and Horner, 2021) has a helper script for this.", 6.5)]
    references = split_references(_two_columns(note))
    assert len(references) == 3 and not any("littler" in reference.raw for reference in references)


def test_an_entrys_last_line_a_little_smaller_at_a_columns_foot_stays_in_it() -> None:
    """An entry's web address in a typewriter face smaller than the entry's text (JSS; the
    Philosophers' Imprint sets it much smaller), at the foot of a column: it follows the line
    above it at the list's usual space, as no note does."""
    note = [("URL https://CRAN.R-Project.org/package=Rcpp.", 7.0)]
    references = split_references(_two_columns(note, x0=82.9, top=730.0))
    assert "URL https://CRAN.R-Project.org/package=Rcpp." in references[1].raw


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")
def test_the_acl_entry_with_a_footnote_under_its_first_half_is_whole() -> None:
    from paperpyramid.parsers.embedded.parser import parse_pdf

    document = parse_pdf(CORPUS / "acl-2020-s2orc.pdf")
    ammar = [reference for reference in document.references if reference.raw.startswith("Waleed Ammar")]
    assert len(ammar) == 1 and "literature graph" in ammar[0].raw and "Kaggle" not in ammar[0].raw
    assert not any(reference.raw.startswith(("See Wang", "19The")) for reference in document.references)


# --------------------------------------------------------------------------- a list's heading spelled another way


@pytest.mark.parametrize("title", ["References Cited", "Reference List", "List of References", "Notes and References"])
def test_a_heading_spelled_another_way_opens_the_list(title: str) -> None:
    blocks = [
        _heading("Introduction", size=10),
        _block("Faults slip in bursts (Smith, 2019), as cores show (Jones, 2020).", size=10),
        _heading(title, size=10),
        _block("Jones, A. B., 2020, Cores of the fault zone: Geology, v. 48, p. 1–4.", x1=230),
        _block("Smith, C. D., 2019, Slip in bursts: GSA Bulletin, v. 131, p. 5–9.", x1=230),
    ]
    document = Document()
    assemble(document, blocks, 10.0)
    assert [section.number for section in document.sections] == [None, "ref"]
    assert [reference.raw.split(",")[0] for reference in document.references] == ["Jones", "Smith"]
