"""Affiliations printed away from the byline, on constructed papers (``tests/pdf_maker``): BMC's
"Author details" list at the end, numbered as the names' marks; the one affiliation in the first
page's foot under the correspondence line (BMC) or under the names repeated there (Springer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.affiliations_elsewhere import _numbered, affiliations_elsewhere
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from tests.pdf_maker import styled_pdf

Item = tuple[float, float, float, list[tuple[str, str]]]
TITLE = "Residence Times of Water in Karst Aquifers"
ABSTRACT = [
    "Background: The residence time of water in karst aquifers sets how fast a pollutant leaves them,",
    "yet few estimates exist for the aquifers of northern Europe. We estimated it from tracer tests.",
    "Results: The times ranged from two to forty days, shorter where the conduits were wide and open.",
]
BODY = [
    "The method described here was applied to three data sets collected over two years of field work,",
    "and the results were compared against the estimates that earlier studies reported for the same",
    "populations. Each estimate is given with its interval, and the differences are discussed below.",
    "The tracer was injected at the sinkhole and sampled at the spring every hour for twenty days, and",
    "the curves were fitted with the advection and dispersion model that the earlier studies also used.",
]
REFERENCES = [
    "1. Berg A, Dahl C. Tracer tests in karst. J Hydrol. 2010;12:1-10.",
    "2. Lind E. Conduit flow in Nordic aquifers. Water Res. 2012;8:20-31.",
]


def regular(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("regular", text)])


def first_page(names: str, foot: list[str]) -> list[Item]:
    """A BMC-like first page: the title, the names, the abstract, the body, and ``foot`` in small
    type at the page's foot."""
    items: list[Item] = [(72, 700, 17, [("bold", TITLE)]), regular(72, 676, 10, names)]
    items.append((72, 650, 10, [("bold", "Abstract")]))
    items += [regular(72, 636 - 12 * i, 9, line) for i, line in enumerate(ABSTRACT)]
    items.append((72, 580, 11, [("bold", "Background")]))
    items += [regular(72, 564 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    items += [regular(72, 120 - 9 * i, 7, line) for i, line in enumerate(foot)]
    return items


def last_page(details: list[str]) -> list[Item]:
    """The article's end: the body's last lines, ``details`` in small type, the dates, the references."""
    items: list[Item] = [regular(72, 700 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    items.append((72, 620, 8, [("bold", "Author details")]))
    items += [regular(72, 610 - 9 * i, 7, line) for i, line in enumerate(details)]
    bottom = 610 - 9 * len(details)
    items.append(regular(72, bottom - 12, 7, "Received: 5 October 2017 Accepted: 1 December 2017"))
    items.append((72, bottom - 36, 11, [("bold", "References")]))
    items += [regular(72, bottom - 52 - 10 * i, 8, line) for i, line in enumerate(REFERENCES)]
    return items


def parse(tmp_path: Path, pages: list[list[Item]]) -> Document:
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf(pages))
    return parse_pdf(path)


def affiliations(document: Document) -> dict[str, str | None]:
    return {author.name: author.affiliation for author in document.authors}


LICENCE = "© The Author(s). 2018 Open Access This article is distributed under the terms of the Creative Commons licence."


def test_the_author_details_at_the_end_give_each_author_the_places_of_their_numbers(tmp_path: Path) -> None:
    # BMC with several affiliations: the foot gives the corresponding author's and points to the full list
    foot = [
        "* Correspondence: anna.berg@example.org",
        "Department of Physics, Lund University, Lund, Sweden",
        "Full list of author information is available at the end of the article",
        LICENCE,
    ]
    details = [
        "1 Department of Physics, Lund University, Professorsgatan 1, Lund 22100,",
        "Sweden. 2 Institute of Chemistry, University of Oslo, Blindern, 1. No, Sem",
        "Saelands vei, Oslo 0315, Norway.",
    ]
    document = parse(tmp_path, [first_page("Anna Berg1*, Carl Dahl1 and Eva Lind2", foot), last_page(details)])
    found = affiliations(document)
    assert found["Anna Berg"] == found["Carl Dahl"] == "Department of Physics, Lund University, Professorsgatan 1, Lund 22100, Sweden"
    assert found["Eva Lind"] == "Institute of Chemistry, University of Oslo, Blindern, 1. No, Sem Saelands vei, Oslo 0315, Norway"


def test_the_one_affiliation_under_the_correspondence_line_is_every_authors(tmp_path: Path) -> None:
    # BMC with one affiliation: the stars mark the corresponding authors, the dagger equal contribution; no numbers
    foot = [
        "* Correspondence: anna.berg@example.org; eva.lind@example.org",
        "Anna Berg and Carl Dahl contributed equally to this work.",
        "Department of Plant Biology, Rutgers University, Foran Hall, 59 Dudley Rd,",
        "New Brunswick, NJ 08901, USA",
        LICENCE,
    ]
    document = parse(tmp_path, [first_page("Anna Berg*, Carl Dahl and Eva Lind*", foot)])
    place = "Department of Plant Biology, Rutgers University, Foran Hall, 59 Dudley Rd, New Brunswick, NJ 08901, USA"
    assert affiliations(document) == {"Anna Berg": place, "Carl Dahl": place, "Eva Lind": place}


def test_springers_foot_under_the_names_repeated_gives_the_affiliation(tmp_path: Path) -> None:
    # Springer: the names over their affiliation and the corresponding author's e-mail, "(&)" marking them
    foot = [
        "A. Berg • C. Dahl (&) • E. Lind",
        "Department of Agricultural Biotechnology, Anand Agricultural",
        "University, Anand 388 110, India",
        "e-mail: carl.dahl@example.org",
    ]
    document = parse(tmp_path, [first_page("Anna Berg • Carl Dahl • Eva Lind", foot)])
    assert set(affiliations(document).values()) == {
        "Department of Agricultural Biotechnology, Anand Agricultural University, Anand 388 110, India"
    }


def test_a_number_out_of_the_series_belongs_to_an_address() -> None:
    entries = _numbered(
        "1 Department of Pain Treatment, Ningbo 315000, China. 2 College of Education, Lishui University, 1. No, Xueyuan Road"
    )
    assert entries == {
        "1": "Department of Pain Treatment, Ningbo 315000, China",
        "2": "College of Education, Lishui University, 1. No, Xueyuan Road",
    }
    assert _numbered("Department of Physics, Lund University.") == {None: "Department of Physics, Lund University"}


def test_natures_foot_over_the_correspondence_sentence_gives_the_numbered_places(tmp_path: Path) -> None:
    # Scientific Reports: the numbered affiliations, then "Correspondence and requests for materials …" on the last one's line
    foot = [
        "1Department of Physics, Lund University, Lund, Sweden. 2Institute of Chemistry, University of Oslo,",
        "Oslo, Norway. Correspondence and requests for materials should be addressed to E.L. (email: eva@example.org)",
    ]
    document = parse(tmp_path, [first_page("Anna Berg1, Carl Dahl1 & Eva Lind2", foot)])
    physics, chemistry = "Department of Physics, Lund University, Lund, Sweden", "Institute of Chemistry, University of Oslo, Oslo, Norway"
    assert affiliations(document) == {"Anna Berg": physics, "Carl Dahl": physics, "Eva Lind": chemistry}


@pytest.mark.parametrize(
    "line",
    [
        # the word in a sentence, not a label
        "correspondence between the fitted curves and the measured ones was close, as the group at Lund",
        # a label's words, but in the body: set in its size, high on the page
        "Correspondence to the editors of the atlas showed that the curves were close, as the group at Lund",
    ],
)
def test_body_text_naming_correspondence_gives_no_affiliation(tmp_path: Path, line: str) -> None:
    # an institution named a line later; the foot's correspondence line is read alone
    body = [*BODY[:3], line, "University had found for the same aquifers, and the intervals were narrow in every test we ran."]
    items = [item for item in first_page("Anna Berg, Carl Dahl and Eva Lind", [LICENCE]) if item[3][0][1] not in BODY]
    items += [regular(72, 564 - 13 * i, 10, text) for i, text in enumerate(body)]
    assert set(affiliations(parse(tmp_path, [items])).values()) == {None}
    foot = ["* Correspondence: anna.berg@example.org", "Department of Physics, Lund University, Lund, Sweden"]
    with_foot = items + [regular(72, 140 - 9 * i, 7, text) for i, text in enumerate(foot)]
    assert set(affiliations(parse(tmp_path, [with_foot])).values()) == {"Department of Physics, Lund University, Lund, Sweden"}


def _block(texts: list[str], x0: float, top: float, size: float, kind: str = "paragraph") -> Block:
    lines = [Line(text, 1, x0, top + 9 * i, x0 + 200, top + 9 * i + size, size, False, False, "") for i, text in enumerate(texts)]
    return Block(lines, kind=kind)


def test_a_cue_with_no_address_under_it_leaves_the_next_foot_block_to_be_read() -> None:
    # the first correspondence label gives no institution in its column; the foot's next block does
    blocks = [
        _block([TITLE], 72, 80, 17),
        _block(BODY * 3, 72, 200, 10),
        _block(["Correspondence to: the first author, by post or e-mail."], 320, 690, 7),
        _block(["* Correspondence: anna.berg@example.org", "Department of Physics, Lund University, Lund, Sweden"], 72, 700, 7),
    ]
    assert affiliations_elsewhere(blocks, 0, 10.0, 792.0) == {None: "Department of Physics, Lund University, Lund, Sweden"}


def test_an_address_number_opens_no_entry() -> None:
    entries = _numbered("1 Department of X, Wuhan University, Wuhan, China. 2 Department of Y, No. 3 Xueyuan Road, Beijing, China")
    assert entries == {"1": "Department of X, Wuhan University, Wuhan, China", "2": "Department of Y, No. 3 Xueyuan Road, Beijing, China"}
    entries = _numbered("1 Institute of Z, Room 2 Building B, Oslo, Norway. 2 School of W, Bergen, Norway")
    assert entries == {"1": "Institute of Z, Room 2 Building B, Oslo, Norway", "2": "School of W, Bergen, Norway"}
    # BMC's entries with no full stop between them are still cut at their numbers
    entries = _numbered("1 Department of X, Suzhou 215004, China 2 Center of Y, 172 Jiangsu Road, Nanjing, China")
    assert entries == {"1": "Department of X, Suzhou 215004, China", "2": "Center of Y, 172 Jiangsu Road, Nanjing, China"}


def test_a_foot_note_wrapping_at_the_word_correspondence_is_no_cue() -> None:
    # small type at the page's foot, the word opening a line of a note: not the label "Correspondence:"
    blocks = [
        _block([TITLE], 72, 80, 17),
        _block(BODY * 3, 72, 200, 10),
        _block(
            [
                "1 We thank the archivists for their",
                "correspondence over the maps, which the",
                "Department of Geography, Lund University, lent us.",
            ],
            72,
            690,
            7,
        ),
    ]
    assert affiliations_elsewhere(blocks, 0, 10.0, 792.0) == {}


def test_a_foot_in_the_bodys_size_is_read_below_the_pages_middle_whatever_the_text_above() -> None:
    # a title page set low under a masthead with no text, its affiliation under the correspondence line in the
    # body's size just under the page's middle, the licence at the page's foot: low on the page, not in the text
    blocks = [
        _block([TITLE], 72, 300, 17),
        _block(BODY[:2], 72, 330, 10),
        _block(["* Correspondence: anna.berg@example.org", "Department of Physics, Lund University, Lund, Sweden"], 72, 420, 10),
        _block([LICENCE], 72, 750, 7),
    ]
    assert affiliations_elsewhere(blocks, 0, 10.0, 792.0) == {None: "Department of Physics, Lund University, Lund, Sweden"}


def test_the_foots_notes_numbered_as_the_names_marks_give_the_places() -> None:
    # elsarticle's \fntext: the corresponding author's note, the e-mail, then each place numbered, glued to its number,
    # an e-mail after the last on its line; the journal's line a gap below is no place's
    foot = [
        "Email address: anna.berg@example.org (Anna Berg)",
        "1Department of Physics, Lund University, Professorsgatan 1, 22100 Lund, Sweden",
        "2Institute of Chemistry, University of Oslo, Blindern, 0315 Oslo,",
        "Norway. E-mail: carl.dahl@example.org",
    ]
    blocks = [
        _block([TITLE], 72, 80, 17),
        _block(BODY * 3, 72, 200, 10),
        _block(["∗Corresponding author"], 80, 600, 7),
        _block(foot, 72, 610, 7),
        _block(["Preprint submitted to Journal of Hydrology"], 72, 700, 7),
    ]
    assert affiliations_elsewhere(blocks, 0, 10.0, 792.0) == {
        "1": "Department of Physics, Lund University, Professorsgatan 1, 22100 Lund, Sweden",
        "2": "Institute of Chemistry, University of Oslo, Blindern, 0315 Oslo, Norway",
    }


def test_numbered_notes_that_are_not_places_give_none() -> None:
    # a title's notes on funding and on a talk: no institution with its address
    foot = ["1 Supported by the Research Council under grant 1234.", "2 Presented at the Nordic Hydrology Meeting."]
    blocks = [_block([TITLE], 72, 80, 17), _block(BODY * 3, 72, 200, 10), _block(foot, 72, 690, 7)]
    assert affiliations_elsewhere(blocks, 0, 10.0, 792.0) == {}
