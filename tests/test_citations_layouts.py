"""Citation markers and reference lists as publishers nobody tuned for print them.

- A list that prints no numbers is cited by author and year: numbers in brackets and numbers
  glued to words name its entries only by their place (R's "[1] TRUE", a package "lme4").
- Numbers glued to words that name a few low entries of a long list, or that sit beside an
  alphabetical list without numbers, are footnote marks and names, not superscript citations.
- Authors' affiliation marks ("Lídia del Rio1, Christian Gogolin2") are no citations, wherever
  the front matter was placed.
- A bracketed number that opens a line of a program's output, or follows code, is no citation.
- Japanese physics journals label entries "1)" and print markers as "details.2, 3)", "JPSJ.4)",
  "sentence.1), 3)–5)" and "Ref. 3)": such a list is split by its labels even where prose runs
  on into it, and the markers are linked.
- REVTeX sets its list without a heading ("[1] …", "1R. P. Feynman"): it is found where entry 1
  starts; a list labels its entries one way, and a label the page lost does not end it.
- Author-year lists: a serial comma and a possessive are no part of a name; a list of two is
  linked by its two markers.
"""

from __future__ import annotations

import pytest

from paperpyramid.citations.marker_keys import number_labels
from paperpyramid.citations.marker_patterns import glued_to_names, numbered_names, numeric_brackets, paren_superscripts, superscripts
from paperpyramid.citations.markers import link_markers
from paperpyramid.document import Block, Document, Reference, Section
from paperpyramid.parsers.embedded.blocks import Block as Block_
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.references import headless_list_start, parse_reference, split_references
from tests.citation_fixtures import CITATION_ORDER

# an author-year list, alphabetical as such lists are, with no printed numbers
_ALPHABETICAL = [
    "Abrahams D, Gurtovoy A (2004). C++ Template Metaprogramming. Addison-Wesley, Boston.",
    "Bates D, Maechler M (2015). Matrix: Sparse and Dense Matrix Classes. R package version 1.2.",
    "Chambers JM (2008). Software for Data Analysis: Programming with R. Springer, New York.",
    "Eddelbuettel D, Francois R (2011). Rcpp: Seamless R and C++ Integration. J Stat Softw 40, 1-18.",
    "Leisch F (2002). Sweave: Dynamic Generation of Statistical Reports. In Compstat 2002, 575-580.",
    "Tierney L (2009). Code Analysis Tools for R. R package version 0.1.",
]


def _document(paragraphs: list[str], references: list[str], *, numbered: bool = False, sections: list[Section] | None = None) -> Document:
    """A parsed document as the embedded parser leaves it: entries read by its own
    ``parse_reference``, keyed by their printed numbers where the list prints them."""
    parsed = [parse_reference(raw) for raw in references]
    for number, reference in enumerate(parsed, 1):
        reference.key = str(number) if numbered else None
    listed = [Block(raw, page=9, kind="list_item") for raw in references]
    body = Section("Introduction", number="1", blocks=[Block(text, page=1) for text in paragraphs])
    return Document(sections=[*(sections or []), body, Section("References", number="ref", blocks=listed)], references=parsed)


def _cites(document: Document) -> list[tuple[str, list[str]]]:
    return [
        (block.text[cite.start : cite.end], cite.keys) for section in document.sections for block in section.blocks for cite in block.cites
    ]


def _lines(texts: list[str]) -> list[Line]:
    return [
        Line(text=text, page=5, x0=72, top=100 + 12 * index, x1=540, bottom=109 + 12 * index, size=9, bold=False, italic=False, font="T")
        for index, text in enumerate(texts)
    ]


# --------------------------------------------------------------------------- choosing the style


def test_an_unnumbered_list_is_cited_by_author_and_year() -> None:
    """R News's mvtnorm article: four indices in its code ("sigma[2,1] <- 3/5") outnumber three
    author-year citations; its list prints no numbers, so numbers name none of its entries."""
    document = _document(
        [
            "The mvtnorm package (Bates and Maechler 2015) sets sigma[2,1] <- 3/5 and sigma[3,1] <- 1/3 first.",
            "Then sigma[3,2] <- 11/15 as before (Chambers 2008), and sigma[2,2] <- 1 last.",
            "All integrals are computed as in the original code (Tierney 2009).",
        ],
        _ALPHABETICAL,
    )
    counts = link_markers(document)
    assert counts.style == "author-year"
    assert [keys for _, keys in _cites(document)] == [["bates2015"], ["chambers2008"], ["tierney2009"]]


def test_footnote_marks_beside_an_alphabetical_list_are_no_citations() -> None:
    """JSS's Rcpp paper cites with unresolved "(?)": its only glued numbers are footnote marks."""
    document = _document(["Rcpp handles slots1 and uses template techniques2 through the CRAN mechanism.3 More follows."], _ALPHABETICAL)
    assert link_markers(document).style == "none"
    assert _cites(document) == []


def test_glued_numbers_naming_a_few_entries_of_a_long_list_are_no_citations() -> None:
    """A numbered list of twelve entries; three glued numbers name entries 1 and 3 only: a
    footnote, an instruction ("mul3") and a name ("sha1"), not a paper cited by superscripts."""
    document = _document(
        ["It converts the result to a double.1 Clearly this can replace mul3, as in crypto-sha1, math-cordic."],
        CITATION_ORDER,
        numbered=True,
    )
    assert link_markers(document).style == "none"
    cited = _document(
        ["Shade slows growth1 and cores hold carbon2,3. Meadows4–6 and carr7 differ. Voles8 and moss9–12."],
        CITATION_ORDER,
        numbered=True,
    )
    assert link_markers(cited).style == "superscript"
    assert len(_cites(cited)) == 6


def test_affiliation_marks_after_the_abstract_are_no_citations() -> None:
    """The title page's leftovers set after the abstract: a line of names with their marks."""
    front = [
        Section("Abstract", blocks=[Block("We studied shade and carbon in six sites.", page=1)]),
        Section(
            "",
            blocks=[
                Block("Lídia del Rio1", page=1),
                Block(", Christian Gogolin2", page=1),
                Block(", Marcus Huber3 and Victor V. Albert4", page=1),
            ],
        ),
    ]
    document = _document(["Shade slows growth [1], cores hold carbon [2] and [3]."], CITATION_ORDER[:5], numbered=True, sections=front)
    assert link_markers(document).style == "numeric"
    assert _cites(document) == [("[1]", ["1"]), ("[2]", ["2"]), ("[3]", ["3"])]


# --------------------------------------------------------------------------- numbers that are no markers


@pytest.mark.parametrize(
    "text",
    [
        "[1] 0.8279847",
        '[1] "zooreg" "zoo"',
        "[1] TRUE",
        "x\n[1] -4.5 3",
        "\\newcommand{\\elb@rule}[1]{\\rule{#1}{0.6pt}}",
        "\\author[1]{Author 1}",
    ],
)
def test_program_output_and_code_are_no_bracketed_citations(text: str) -> None:
    assert numeric_brackets(text) == []


def test_a_citation_opening_a_sentence_stays_one() -> None:
    assert [marker.numbers for marker in numeric_brackets("[12] showed that shade slows growth; [3] Smith et al. agreed.")] == [[12], [3]]


def test_a_number_glued_before_a_file_extension_is_no_superscript() -> None:
    assert superscripts("We prepared a class file, jpsj2.cls, and the older asmems4.bst style.") == []


# --------------------------------------------------------------------------- "1)" lists and markers


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("Please refer to the appropriate references for details.2, 3) The list", [("2, 3)", [2, 3])]),
        ("e-mail the Online-Journal Subcommittee of JPSJ.4) Your comments", [("4)", [4])]),
        ("like that at the end of this sentence.1), 3)–5) In the case", [("1), 3)–5)", [1, 3, 4, 5])]),
        ("gives the output Ref. 3). When", []),  # named_references' (tests/test_citations_named_refs.py)
        ("we discarded (1) full environment, (2) short option", []),
        ("four amino acids (Arg97, Gle347 and Tyr355) of Cox-1, (ISSR A12) and f(x1)", []),
        ("the samples (Figure 3 and Figure S1); as in Fig. 1)", []),
    ],
)
def test_numbers_closed_by_a_parenthesis(text: str, marked: list[tuple[str, list[int]]]) -> None:
    assert [(text[marker.start : marker.end], marker.numbers) for marker in paren_superscripts(text)] == marked


def test_a_list_labelled_with_parentheses_after_prose_is_split_and_linked() -> None:
    """PTP's guide: its section on how to cite runs on into the list, which the parser reads as
    one; the entries labelled "1)" to "4)" are split by their labels, the prose before them takes
    no number, and the body's "details.2, 3)" markers find entries 2 and 3."""
    prose = ["References are cited using the cite command. All references to be cited at the", "same point in the paper should be listed."]
    labelled = [f"{number}) {raw}" for number, raw in enumerate(CITATION_ORDER[:4], 1)]
    references = split_references(_lines([*prose, labelled[0], labelled[1][:40], labelled[1][40:], *labelled[2:]]))
    assert [reference.key for reference in references] == [None, "1", "2", "3", "4"]
    assert references[2].raw.startswith("Lee A. Soil cores") and "Soil Res. 2020" in references[2].raw
    assert number_labels(references)[1] == 1  # the prose before "1)" does not take its number

    document = _document(["Shade slows growth.1) Cores hold carbon,2, 3) and carr differs.4) Nothing else."], [])
    document.references = references
    assert link_markers(document).style == "superscript"
    assert _cites(document) == [("1)", ["1"]), ("2, 3)", ["2", "3"]), ("4)", ["4"])]  # not "2" and "2, 3)"


def test_a_line_opening_with_a_year_and_parenthesis_opens_no_entry() -> None:
    """ "2019) Title …" continues an author-year entry; "n)" labels count only when they count up."""
    texts = ["Smith J, Jones K (", "2019) Growth of seedlings under shade. J Ecol 12.", "Lee A (2020) Soil cores. Soil Res 4."]
    references = split_references(_lines(texts))
    assert all(reference.key is None for reference in references)
    assert not any(reference.raw.startswith("Growth") for reference in references)


def test_printed_numbers_outrank_places() -> None:
    prose = Reference(raw="References are listed in the order cited in the text, as the journal asks.")
    keyed = [Reference(raw=raw, key=str(number)) for number, raw in enumerate(CITATION_ORDER[:3], 1)]
    assert number_labels([prose, *keyed]) == {1: 1, 2: 2, 3: 3}


# --------------------------------------------------------------------------- lists set without a heading


def _blocks(paragraphs: list[list[str]]) -> list[Block_]:
    return [Block_(lines=_lines(texts)) for texts in paragraphs]


_REVTEX_LIST = [
    ["1R. P. Feynman, Phys. Rev. 94, 262 (1954).", "2E. Witten, (2001), hep-th/0106109."],
    ["3A. Einstein, Yu. Podolsky, and N. Rosen, Phys. Rev. 47, 777 (1935).", "4N. D. Birell and P. C. W. Davies, Quantum Fields"],
    ["in Curved Space (Cambridge University Press, 1982).", "6E. B. Davies and L. Parns, Q. J. Mech. Appl. Math. 51, 477 (1988)."],
]


def test_a_list_without_a_heading_is_found_where_entry_one_starts() -> None:
    """REVTeX prints the list of APS and AIP journals with no heading, its labels raised before
    the first initial ("1R. P. Feynman") or in brackets ("[1] Hu W., …"); a label the layout
    lost (5 above) does not stop it."""
    body = [["We studied the dark matter halo of dwarf galaxies in 2009."], ["They turn out to be Eqs. (B2a) and (B2b)."]]
    assert headless_list_start(_blocks([*body, *_REVTEX_LIST])) == 2
    bracketed = [[f"[{n}] {raw}"] for n, raw in enumerate(CITATION_ORDER[:4], 1)]
    assert headless_list_start(_blocks([*body, *bracketed])) == 2


def test_a_numbered_list_in_the_text_is_no_reference_list() -> None:
    enumerated = [["[1] We propose a model of shade."], ["[2] We test it on six sites."], ["[3] We release the code."]]
    assert headless_list_start(_blocks(enumerated)) is None
    # labels that start again after the list and jump ahead: the list is not the paper's last text
    restarted = [*_REVTEX_LIST, ["[1] Run of 2019 by A. B. Smith."], ["[9] Run of 2020 by C. D. Jones."]]
    assert headless_list_start(_blocks(restarted)) is None


def test_a_list_labels_its_entries_one_way() -> None:
    """arXiv 0908.0054: entries labelled "[6]" go on over lines that open "(1996), [hep-ph/…]" and
    "379. [astro-ph/…]"; neither opens an entry."""
    texts = [
        "[5] Garcia-Aspeitia M. A., and Matos, T. [gr-qc/0906.327].",
        "[6] Jae-Weon Lee and In-gyu Koh. Phys. Rev. D 53, 2236 - 2239",
        "(1996), [hep-ph/9507385].",
        "[7] Lesgourgues J. and Pastor S. Physics Reports 429 (2006) 307 –",
        "379. [astro-ph/0603494].",
        "[8] Dodelson S. Modern Cosmology (Academic Press, 2003).",
    ]
    references = split_references(_lines(texts))
    assert [reference.key for reference in references] == ["5", "6", "7", "8"]
    assert references[1].raw.endswith("(1996), [hep-ph/9507385].")


# --------------------------------------------------------------------------- author-year as printed


def test_a_serial_comma_and_a_possessive_are_no_part_of_a_name() -> None:
    """ "(Smith, Novak, and Byrne, 2019)" names Byrne, which tells the two entries apart;
    "Smith’s (2020)" is Smith's work."""
    references = [
        "Smith, J., Novak, P. and Byrne, D. (2019) Another study of seedlings. Oikos 3, 5-9.",
        "Smith, J., Novak, P. and Lee, A. (2019) Yet another study of seedlings. Oikos 3, 10-19.",
        "Smith, J. (2020) Seedlings revisited. Oikos 4, 1-4.",
        "Tanaka, K. (2008) Counting beetles at night. Insect Sci. 9, 40-48.",
    ]
    document = _document(
        ["As shown (Smith, Novak, and Byrne, 2019), and in Smith’s (2020) review, beetles differ (Tanaka, 2008)."], references
    )
    link_markers(document)
    assert _cites(document) == [
        ("(Smith, Novak, and Byrne, 2019)", ["smith2019a"]),
        ("Smith’s (2020)", ["smith2020"]),
        ("(Tanaka, 2008)", ["tanaka2008"]),
    ]


def test_a_list_of_two_cited_by_author_and_year_is_linked() -> None:
    """APA's short sample: two entries, each cited once; a name and a year name an entry where
    two numbers would not."""
    references = [
        "Lassen, S. B., Steele, M. E. and Sainsbury, J. (2006) Shade and moss. J. Ecol. 3, 1-9.",
        "Shotton, M. A. (1989) Computer addiction. Taylor, London.",
    ]
    document = _document(["We begin with Shotton (1989). One can also cite a work in parentheses (Lassen et al., 2006)."], references)
    assert link_markers(document).style == "author-year"
    assert [keys for _, keys in _cites(document)] == [["shotton1989"], ["lassen2006"]]
    numbered = _document(["Growth on [1, 2] only."], CITATION_ORDER[:2], numbered=True)
    assert link_markers(numbered).style == "none"  # one marker of two numbers could be anything (an interval)


def test_a_lost_label_does_not_end_a_list_numbered_without_brackets() -> None:
    """Clinical Science sets bare labels apart from their entries; one the page lost (set at a
    column's head and read as a page number) leaves its entry with the one before, and the
    entries after it keep their own numbers."""
    texts = [f"{number} {raw}" for number, raw in enumerate(CITATION_ORDER[:7], 1)]
    texts[3] = CITATION_ORDER[3]  # "4" lost
    references = split_references(_lines(texts))
    assert [reference.key for reference in references] == ["1", "2", "3", "5", "6", "7"]
    assert "Alder carr hydrology" in references[2].raw and references[3].raw.startswith("Tanaka K")


def test_a_raised_label_before_an_accented_initial_opens_its_entry() -> None:
    texts = [
        "1R. P. Feynman, Phys. Rev. 94, 262 (1954).",
        "2E. Witten, (2001), hep-th/0106109.",
        "3É. Masterly, Mastering Thesis Writing (1988).",
    ]
    assert [reference.key for reference in split_references(_lines(texts))] == ["1", "2", "3"]


def test_a_marker_glued_to_a_name_that_ends_in_a_digit() -> None:
    """F1000Research's mosquito paper: "bind to AaegOBP131" is AaegOBP1 (printed so throughout)
    cited with 31; a gene of the family printed twice ("AaegOBP12") and a compound name
    ("CquiOBP1-MOP") are no markers."""
    texts = ["AaegOBP1 binds DEET; AaegOBP1 and CquiOBP1 differ from CquiOBP1 at low pH.", "AaegOBP12 and AaegOBP12 are paralogues."]
    named = numbered_names(texts)
    text = "Repellents would bind to AaegOBP131,33 (also AaegOBP12), unlike CquiOBP1-MOP or AaegOBP10."
    assert [(text[marker.start : marker.end], marker.numbers) for marker in glued_to_names(text, named)] == [("31,33", [31, 33])]

    document = _document(
        [
            "Shade slows growth1 and cores hold carbon2,3. Meadows4–6 differ. AaegOBP1 binds DEET, as AaegOBP1 does.",
            "It binds AaegOBP17, 8.",
        ],
        CITATION_ORDER,
        numbered=True,
    )
    link_markers(document)
    assert ("7", ["7"]) in _cites(document)
