"""Section headings on the lowest-scoring unseen papers (batches 16 and 18): a table of contents
labelled in the document's language ("Indice") and running on over a page's footnote; starred
subsections beside the one numbered subsection an outline names ("Why would a user prefer
float=TRUE?" beside "3.1 tight and wide styles …"); a numbered title wrapped onto a bold line the
blocks read apart ("2.4 getCaseLists() : Retrieve case lists for a specific can-" over "cer
study"); a preface's starred sections between the abstract and the contents (l2tabu's "Legal
notice"); and an outline entry printed with a letter for another ("LATEX 2ε" for "LaTeX2e")."""

from __future__ import annotations

from paperpyramid.eval.gold import soft_norm
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.contents import set_aside_contents
from paperpyramid.parsers.embedded.heading_wraps import join_wrapped_titles
from paperpyramid.parsers.embedded.outline import apply_outline
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.block_builders import Stack, printed_heading
from tests.unseen_pdfs import unseen_pdf

PROSE = "The rockchalk outreg function has a parameter to determine whether the table is set in a floating container or not."
_stack = Stack(size=9.5, font="CMR10", heading=printed_heading)
_block = _stack.block


def _titles(name: str, batch: int) -> list[str]:
    path = unseen_pdf(batch, name)
    return [soft_norm(section.title) for section in parse_pdf(path).sections if section.number != "ref"]


# --------------------------------------------------------------------------- contents


def test_an_italian_contents_running_on_over_a_footnote_is_set_aside() -> None:
    label = _block("Indice", bold=True, size=12.7)
    first = [_block("1"), _block("Introduzione . . . . . . . . . . . . . ."), _block("2")]
    footnote = _block("∗ Una parte considerevole di questo articolo è stata scritta da George Grätzer", "aside", size=7)
    after = [_block("22.1 Tabelle .", "heading", page=2), _block(". . . . . . . . . . . . . .", page=2), _block("25", page=2)]
    after += [_block("23", page=2), _block("Contatti . . . . . . . . . . . . .", page=2), _block("27", page=2)]
    prose = _block(PROSE, lines=3, page=2)
    set_aside_contents([label, *first, footnote, *after, prose])
    assert all(block.kind == "furniture" for block in [label, *first, *after])
    assert footnote.kind == "aside" and prose.kind == "paragraph"


def test_a_word_that_is_no_contents_label_sets_nothing_aside() -> None:
    label = _block("Index", bold=True, size=12.7)
    entries = [_block("1"), _block("Introduction . . . . . . . . . . . . . ."), _block("2")]
    set_aside_contents([label, *entries])
    assert [block.kind for block in [label, *entries]] == ["paragraph"] * 4


def test_fancyhdr_italian_contents_gives_no_headings() -> None:
    titles = _titles("fancyhdr-it-layout-pagina.pdf", 18)
    assert titles.count("tabelle") == 1 and titles.count("figure") == 1  # the sections, not their entries


# --------------------------------------------------------------------------- wrapped titles


def test_a_numbered_title_wrapped_onto_a_bold_line_is_one_heading() -> None:
    stack = Stack(size=10.6, font="CMBX12", x0=124.8, step=13.0)
    first = stack.block("2.4 getCaseLists() : Retrieve case lists for a specific can-", bold_prefix=4)
    rest = stack.block("cer study", bold=True, x0=155.4)
    prose = stack.block(PROSE, lines=2, size=8.5, font="CMR10")
    blocks = [first, rest, prose]
    join_wrapped_titles(blocks, 8.5)
    assert (first.kind, first.number, first.title) == ("heading", "2.4", "getCaseLists() : Retrieve case lists for a specific cancer study")
    assert rest.kind == "furniture" and prose.kind == "paragraph"


def test_a_bold_line_at_the_margin_under_a_numbered_line_is_not_its_title() -> None:
    """The next line starts where the number does: a list's next item or a paragraph, not a wrap."""
    stack = Stack(size=10.6, font="CMBX12", x0=124.8, step=13.0)
    first = stack.block("2.4 getCaseLists() : Retrieve case lists for a specific", bold_prefix=4)
    rest = stack.block("Other lines", bold=True)
    join_wrapped_titles([first, rest], 8.5)
    assert rest.kind == "paragraph" and len(first.lines) == 1


def test_a_short_numbered_heading_over_a_bold_line_is_not_wrapped() -> None:
    """ "2 Methods" ends far short of the column's edge, where "in" would have fitted: the bold line
    under it is a subheading or a paragraph's lead, not the rest of its title."""
    stack = Stack(size=12, font="CMBX12", x0=72, step=14.0, x1=450.0)
    first = stack.block("2 Methods", bold=True, x1=130.0)
    rest = stack.block("in vitro experiments", bold=True, x0=90.0, x1=200.0)
    prose = stack.block(PROSE, lines=4, size=10, font="CMR10")
    join_wrapped_titles([first, rest, prose], 10)
    assert len(first.lines) == 1 and rest.kind == "paragraph"


def test_a_wrapped_line_of_bold_code_joins_a_bold_numbered_title() -> None:
    stack = Stack(size=10.1, font="NimbusSanL-Bold", x0=89.3, step=12.0)
    first = stack.block("1.5 Paragraph indent and the spread between paragraphs (\\parindent,", bold=True)
    rest = stack.block("\\parskip)", bold=True, x0=109.6, size=9.0, font="NimbusMonL-Bold")
    join_wrapped_titles([first, rest], 10.0)
    assert first.kind == "heading" and first.title.endswith("(\\parindent, \\parskip)")


def test_cgdsr_wrapped_function_headings_are_whole() -> None:
    titles = _titles("cgdsr-cancer-genomics-data.pdf", 18)
    assert soft_norm("getCaseLists() : Retrieve case lists for a specific cancer study") in titles
    assert soft_norm("getCancerStudies() : Retrieve a set of available cancer studies") in titles


# --------------------------------------------------------------------------- the outline


def _section(text: str, size: float = 12.7) -> Block:
    return _block(text, "heading", size=size, bold=True, font="CMB10")


def _starred(text: str) -> Block:
    return _block(text, "heading", number=None, title=text, size=10.6, bold=True, font="CMB10")


def test_starred_subsections_beside_one_outlined_subsection_are_headings() -> None:
    toc = [
        (1, "1 Briefly: outreg()", 1),
        (1, "2 Briefly: table vs tabular", 1),
        (1, "3 Torture test", 1),
        (2, "3.1 tight and wide styles", 1),
    ]
    blocks = [_block("Regression Table Survey", "title", size=17), _section("1 Briefly: outreg()"), _block(PROSE, lines=2)]
    blocks += [_section("2 Briefly: table vs tabular"), _block(PROSE, lines=2)]
    starred = [_starred("Why would a user prefer float=TRUE?"), _starred("Another reason to use float=FALSE")]
    for heading in starred:
        blocks += [heading, _block(PROSE, lines=3)]
    blocks += [_section("3 Torture test"), _block(PROSE, lines=2), _section("3.1 tight and wide styles", size=10.6), _block(PROSE, lines=2)]
    lowercase = _block("alpha level adjustments", size=10.6, bold=True, font="CMB10")
    blocks += [lowercase, _block(PROSE, lines=3)]
    assert apply_outline(blocks, toc, 9.5)
    assert [(block.kind, block.level) for block in [*starred, lowercase]] == [("heading", 2)] * 3


def test_one_bold_line_in_an_outlined_subsections_type_stays_text() -> None:
    """A style the outline names once is a level only where the page sets it twice more."""
    toc = [(1, "1 Briefly: outreg()", 1), (1, "2 Briefly: table vs tabular", 1), (2, "2.1 tight and wide styles", 1)]
    blocks = [_block("Regression Table Survey", "title", size=17), _section("1 Briefly: outreg()"), _block(PROSE, lines=2)]
    blocks += [_section("2 Briefly: table vs tabular"), _block(PROSE, lines=2)]
    lone = _starred("Why would a user prefer float=TRUE?")
    blocks += [lone, _block(PROSE, lines=3), _section("2.1 tight and wide styles", size=10.6), _block(PROSE, lines=2)]
    assert apply_outline(blocks, toc, 9.5)
    assert lone.kind == "paragraph"


def test_rockchalk_starred_subsections_are_found() -> None:
    titles = _titles("rockchalk-outreg-regression-tables.pdf", 18)
    for title in ("Why would a user prefer float=TRUE?", "Decimal-centered test case 1", "Aligning different kinds of fits"):
        assert soft_norm(title) in titles


def _preface_document(before_contents: list[Block]) -> list[Block]:
    blocks = [_block("An essential guide", "title", size=17), _block("Abstract", "heading", bold=True), _block(PROSE, lines=3)]
    blocks += before_contents
    contents = [_block("Contents", bold=True), _block("1 Deadly sins . . . . . . . 4"), _block("1.1 Page layout . . . . . . 4")]
    for entry in contents:
        entry.kind, entry.extra["contents"] = "furniture", True
    blocks += contents
    blocks += [_section("1 Deadly sins"), _block(PROSE, lines=2), _starred("1.1 Page layout"), _block(PROSE, lines=2)]
    return blocks + [_starred("1.2 Modifying page layout"), _block(PROSE, lines=2)]


TOC = [(1, "1 Deadly sins", 1), (2, "1.1 Page layout", 1), (2, "1.2 Modifying page layout", 1)]


def test_a_prefaces_starred_sections_before_the_contents_are_headings() -> None:
    preface = [_starred("Legal notice"), _starred("How to get in touch with the authors")]
    blocks = _preface_document([preface[0], _block("Copyright 2007 by the authors."), preface[1], _block(PROSE, lines=2)])
    assert apply_outline(blocks, TOC, 10.0)
    assert [block.kind for block in preface] == ["heading", "heading"]


def test_front_matter_labels_under_the_abstract_stay_text() -> None:
    """ACM's "CCS CONCEPTS" in capitals, and "Keywords", under the abstract are front matter."""
    labels = [_starred("CCS CONCEPTS"), _starred("Keywords")]
    blocks = _preface_document([labels[0], _block(PROSE, lines=2), labels[1], _block("unit testing, R packages")])
    assert apply_outline(blocks, TOC, 10.0)
    assert [block.kind for block in labels] == ["paragraph", "paragraph"]


def test_l2tabu_preface_and_its_first_section_are_found() -> None:
    titles = _titles("l2tabu-essential-latex-usage.pdf", 16)
    for title in ("Legal notice", "How to get in touch with the authors", "‘Deadly sins’ — The most severe mistakes in using LATEX 2ε"):
        assert soft_norm(title) in titles
    assert soft_norm("Paragraph indent and the spread between paragraphs (\\parindent, \\parskip)") in titles


def test_tinytest_reading_guide_after_the_contents_is_a_heading() -> None:
    assert soft_norm("Reading guide") in _titles("tinytest-unit-testing.pdf", 16)
