"""Digits glued to identifiers of code, author-year markers with a comma before "et al.", and
short notes that cite two entries of a numbered list (issue 32, item 5).

- spatstat's vignette (a dvips bitmap font: no font name tells its typewriter type) prints R code
  in the text, "fit1 <- mppm(...)", "str4 = Strauss(4)", "iformula=~str4", and cites by brackets
  ("[2]", "[8, 6, 10]"): its glued digits were linked as superscript citations (P 0.00 on 13).
  A code identifier is refused by what is printed around it, and a paper whose brackets name as
  many entries as its glued digits is cited by brackets.
- JSS's natbib style prints "(Handcock, et al. 2003)", "Drabek, et al. (1981)": the comma before
  "et al." is no part of the name.
- A short note cites two entries of its numbered list once each ("In [1] and [2]").
"""

from __future__ import annotations

import pytest

from paperpyramid.citations.marker_patterns import author_year, superscripts
from paperpyramid.citations.markers import link_markers
from tests.citation_fixtures import CITATION_ORDER
from tests.test_citations_layouts import _cites, _document


@pytest.mark.parametrize(
    "text",
    [
        "> fit1 <- mppm(Points ~ 1, data=h)",
        "> g <- hyperframe(po=Poisson(), str4 = Strauss(4), str7= Strauss(7))",
        "fit <- mppm(Y ~ 1, data=h, interaction=g, iformula=~str4)",
        "Chi-squared test of fitted Poisson model 'fit1' using quadrat counts",
        "> quadrat.test(fit1, nx=2)",
        "the coefficient fit2$coef is printed",
    ],
)
def test_digits_glued_to_code_identifiers_are_no_superscripts(text: str) -> None:
    assert superscripts(text) == []


def test_superscripts_in_prose_stay_beside_code_rules() -> None:
    text = "as shown12 (Fig. 2), then in mice3,4, named ‘odorants’5 [not code]."
    assert [text[m.start : m.end] for m in superscripts(text)] == ["12", "3,4", "5"]


# the vignette's list: ten entries numbered by an alphabetical bibliography style
_TEN = CITATION_ORDER[:10]


def test_a_paper_cited_by_brackets_reads_no_glued_digits_as_citations() -> None:
    paragraphs = [
        "For further detail, see Chapter 16 of the book [2].",
        "waterstriders: Penttinen's [9] waterstriders data; flu: data from Chen et al [5] giving locations.",
        "Such a model uses the standard techniques of mixed effects models [8, 6, 10]. Some recent papers [4, 1] define residuals.",
        "data from Diggle, Lange and Benes [7] on the locations of pyramidal neurons.",
        # R's printed output, where nothing marks the identifiers as code
        "Log trend: ~1 Interaction: str4 -1.364244 str7 -0.2 str4 0.001 str7 0.3 data: fit1 X2 = 1.85 data: fit2 X2 = 3.1",
        "data: fit1 X2 = 1.2, data: fit2 X2 = 0.4, str4 -1.36 str7 -0.7 and fit1 X2 = 5 str4 -1.0 str7 -0.2",
    ]
    document = _document(paragraphs, _TEN, numbered=True)
    assert link_markers(document).style == "numeric"
    assert [text for text, _ in _cites(document)] == ["[2]", "[9]", "[5]", "[8, 6, 10]", "[4, 1]", "[7]"]


@pytest.mark.parametrize(
    ("text", "names", "year"),
    [
        ("the statnet project (Handcock, et al. 2003) came", ("Handcock",), 2003),
        ("collected by Drabek, et al. (1981). flo consists", ("Drabek",), 1981),
    ],
)
def test_a_comma_before_et_al_is_no_part_of_the_name(text: str, names: tuple[str, ...], year: int) -> None:
    [marker] = author_year(text)
    [item] = marker.items
    assert (item.names, item.et_al, item.year) == (names, True, year)


def test_a_space_the_text_layer_reads_before_the_comma_keeps_the_citation() -> None:
    # R News's "gdata1 (Warnes , 2006)": a footnote mark and a link's box leave a space before the comma
    [marker] = author_year("a set of functions in package gdata1 (Warnes , 2006): isUnknown")
    [item] = marker.items
    assert (item.names, item.year) == (("Warnes",), 2006)
    assert author_year("the values (2 , 2006) and (x , 1999)") == []


def test_a_short_note_citing_two_numbered_entries_is_linked() -> None:
    document = _document(["In [1] and [2] varying objects are presented."], CITATION_ORDER[:6], numbered=True)
    assert link_markers(document).style == "numeric"
    assert _cites(document) == [("[1]", ["1"]), ("[2]", ["2"])]


@pytest.mark.parametrize(
    "paragraphs",
    [
        ["As in [2], the objects vary."],  # one number beside a longer list could be anything
        ["On the interval [1, 2] the map is smooth."],  # one marker naming two entries: an interval
        ["In [1] and [2] objects vary, and [9] is no label of the list."],  # a number that names nothing
    ],
)
def test_fewer_markers_than_a_style_needs_stay_unlinked(paragraphs: list[str]) -> None:
    document = _document(paragraphs, CITATION_ORDER[:6], numbered=True)
    assert link_markers(document).style == "none"


def test_glued_digits_beside_a_list_labelled_by_letters_are_names() -> None:
    """Glimmer's release notes: a list labelled by letters ("[DHK+ 99]"), too short to be told
    alphabetical, and the program's name "Glimmer3" on every page: no superscript citations."""
    references = [
        "[DHK+ 99] A. Delcher, D. Harmon, S. Kasif, O. White, and S. Salzberg. Improved microbial gene identification. Nucleic Acids Res., 27:4636-4641, 1999.",
        "[OZWS04] Z. Ouyang, H. Zhu, J. Wang, and S. She. Multivariate entropy distance method. Bioinformatics, 20:2456-2463, 2004.",
        "[SDKW98] S. Salzberg, A. Delcher, S. Kasif, and O. White. Microbial gene identification using interpolated Markov models. Nucleic Acids Res., 26:544-548, 1998.",
    ]
    paragraphs = [
        "In both Glimmer2 and Glimmer3, orfs are scored. In Glimmer3, a single dynamic-programming pass is made.",
        "There are no longer any comments with the Glimmer3 predictions, unlike Glimmer2. To install Glimmer3, download it.",
    ]
    document = _document(paragraphs, references)
    assert link_markers(document).style == "none"
    assert _cites(document) == []


_LETTERED = [
    "[And08a] S. Anders. Processing and visualisation of high-throughput sequencing with ShortRead. Vignette, 2008.",
    "[And08b] S. Anders. Visualisation of genomic data with space-filling curves. Submitted, 2008.",
    "[Hil91] D. Hilbert. Über stetige Abbildungen einer Linie auf ein Flächenstück. Math. Ann., 38:459-460, 1891.",
    "[KSF+02] W. Kent, C. W. Sugnet, T. S. Furey, et al. The human genome browser at UCSC. Genome Res., 12:996-1006, 2002.",
    "[Wig] Wiggle track format. http://genome.ucsc.edu/goldenPath/help/wiggle.html.",
]


def test_letter_labels_cite_a_list_labelled_by_letters() -> None:
    """hilbertVis (BibTeX's alpha style): "[And08b]", "[KSF+ 02]", "[Wig]" name the entries the
    list labels so; a bracket of words ("[sic]") or a label the list lacks names nothing."""
    paragraphs = [
        "See the publication [And08b] or the vignette [And08a]. Hilbert [Hil91] had the idea [sic].",
        "Browsers such as UCSC [KSF+ 02], and the wiggle track format [Wig, p. 2]; not [Knu84].",
    ]
    document = _document(paragraphs, _LETTERED)
    assert link_markers(document).style == "label"
    assert _cites(document) == [
        ("[And08b]", ["And08b"]),
        ("[And08a]", ["And08a"]),
        ("[Hil91]", ["Hil91"]),
        ("[KSF+ 02]", ["KSF+02"]),
        ("[Wig, p. 2]", ["Wig"]),
    ]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        (
            "(for example, the allelic test of Sham and Curtis 1995 is based on it)",
            [("Sham and Curtis 1995", ("Sham", "Curtis"), 1995)],
        ),
        ("The qvcalc package (Firth 2010, version 0.8-5 or later) contains it.", [("Firth 2010", ("Firth",), 2010)]),
        ("Tests ran on Windows 2000 machines, in Vienna 2019.", []),  # a name and a year in running prose
    ],
)
def test_a_citation_without_its_comma_inside_parentheses(text: str, cited: list[tuple[str, tuple[str, ...], int]]) -> None:
    """natbib's \\citealt inside parentheses (JSS): "Sham and Curtis 1995", with neither its own
    parentheses nor a comma before the year."""
    found = [(text[m.start : m.end], item.names, item.year) for m in author_year(text) for item in m.items]
    assert found == cited
