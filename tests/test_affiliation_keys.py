"""Affiliations keyed by letters or numbers, and the authors' e-mail addresses, on constructed
title pages (``tests/pdf_maker``): each author gets the affiliations whose keys follow the
name, keys stripped, and the address whose local part or bracketed owner names them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

from paperpyramid.document import Author, Document
from paperpyramid.parsers.embedded import affiliations as af
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.blocks import Block
from tests.pdf_maker import styled_pdf

Item = tuple[float, float, float, list[tuple[str, str]]]
BODY = [
    "The method described here was applied to three data sets collected over two years of field work,",
    "and the results were compared against the estimates that earlier studies reported for the same",
    "populations. Each estimate is given with its interval, and the differences are discussed below.",
]
TITLE = "Residence Times of Water in Karst Aquifers"


def regular(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("regular", text)])


def centred(y: float, size: float, text: str, style: str = "regular") -> Item:
    return (306 - 0.25 * size * len(text), y, size, [(style, text)])


def page(under_title: list[str]) -> list[Item]:
    items = [centred(700, 17, TITLE, "bold")]
    # the names, then their affiliations in smaller type a gap below (elsarticle, REVTeX)
    items.append(centred(668, 11, under_title[0]))
    items += [centred(646 - 11 * i, 8, line) for i, line in enumerate(under_title[1:])]
    top = 646 - 11 * len(under_title) - 30
    items.append((72, top, 10, [("bold", "1 Introduction")]))
    items += [regular(72, top - 16 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    return items


def parse(tmp_path: Path, under_title: list[str]) -> Document:
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf([page(under_title)]))
    return parse_pdf(path)


def affiliations(document: Document) -> dict[str, str | None]:
    return {author.name: author.affiliation for author in document.authors}


def test_letter_keys_glued_to_names_and_places_give_each_author_theirs(tmp_path: Path) -> None:
    # elsarticle: "Dirk Eddelbuettela, Conrad Sandersonb,c" over "aDebian Project, http://…" and
    # "bNICTA, … cQueensland University …": the web-only first place was lost, the rest given to all
    document = parse(
        tmp_path,
        [
            "Anna Berga, Carl Dahlb,c",
            "aDebian Project, http://www.debian.org",
            "bNICTA, PO Box 6020, St Lucia, Australia",
            "cQueensland University, Brisbane, Australia",
        ],
    )
    assert affiliations(document) == {
        "Anna Berg": "Debian Project, http://www.debian.org",
        "Carl Dahl": "NICTA, PO Box 6020, St Lucia, Australia; Queensland University, Brisbane, Australia",
    }


def test_letter_keys_set_a_space_apart_give_each_author_theirs(tmp_path: Path) -> None:
    # "John C. Collins a and J.A.M. Vermaseren b" over "a Department of Physics, …" / "bNikhef Theory Group"
    document = parse(
        tmp_path,
        [
            "Anna Berg a and Carl Dahl b",
            "a Department of Physics, Lund University, 22100 Lund, Sweden",
            "bNordic Theory Group, Stockholm, Sweden",
        ],
    )
    assert affiliations(document) == {
        "Anna Berg": "Department of Physics, Lund University, 22100 Lund, Sweden",
        "Carl Dahl": "Nordic Theory Group, Stockholm, Sweden",
    }


def test_a_spelled_out_address_is_no_part_of_the_affiliation(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            "Anna Berg a and Carl Dahl b",
            "a Department of Physics, Lund University, 22100 Lund, Sweden",
            "aberg1 at lu dot se",
            "bNordic Theory Group, Stockholm, Sweden",
        ],
    )
    assert affiliations(document)["Anna Berg"] == "Department of Physics, Lund University, 22100 Lund, Sweden"
    assert [author.email for author in document.authors] == ["aberg1@lu.se", None]


def test_numbered_keys_still_give_each_author_theirs(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            "Anna Berg1,2, Carl Dahl2",
            "1 Department of Physics, Lund University, 22100 Lund, Sweden",
            "2 Nordic Institute for Theory, 10691 Stockholm, Sweden",
        ],
    )
    assert affiliations(document) == {
        "Anna Berg": "Department of Physics, Lund University, 22100 Lund, Sweden; Nordic Institute for Theory, 10691 Stockholm, Sweden",
        "Carl Dahl": "Nordic Institute for Theory, 10691 Stockholm, Sweden",
    }


def test_unkeyed_affiliation_is_everybodys(tmp_path: Path) -> None:
    document = parse(tmp_path, ["Anna Berg and Carl Dahl", "Department of Physics, Lund University, 22100 Lund, Sweden"])
    assert set(affiliations(document).values()) == {"Department of Physics, Lund University, 22100 Lund, Sweden"}


def test_a_braced_group_of_addresses_goes_to_the_authors_in_order(tmp_path: Path) -> None:
    # naacl06: "{yusuke,sekine}@cs.nyu.edu" under the two names and their shared address
    document = parse(tmp_path, ["Anna Berg and Carl Dahl", "Lund University, 22100 Lund, Sweden", "{anna,carl}@lu.se"])
    assert [author.email for author in document.authors] == ["anna@lu.se", "carl@lu.se"]
    assert document.authors[0].affiliation == "Lund University, 22100 Lund, Sweden"


def emails(text: str, names: list[str], zone: str = "") -> list[str | None]:
    """The e-mails given to ``names`` from a title page's ``text`` (only a block's text and page are read)."""
    authors = [Author(name=name) for name in names]
    blocks = cast(list[Block], [SimpleNamespace(text="Title", page=0), SimpleNamespace(text=text, page=0)])
    af.attach_emails(authors, blocks, 0, zone)
    return [author.email for author in authors]


def test_addresses_go_to_the_author_their_local_part_or_bracket_names() -> None:
    names = ["Alina G. Meresescu", "Matthieu Kowalski", "Cristiano De Marchis"]
    assert emails("Email address: alina-georgiana.meresescu@u-psud.fr (Alina G. Meresescu)", names) == [
        "alina-georgiana.meresescu@u-psud.fr",
        None,
        None,
    ]
    assert emails("E-mail: mkowalski@l2s.fr; cristiano.demarchis@uniroma3.it", names) == [
        None,
        "mkowalski@l2s.fr",
        "cristiano.demarchis@uniroma3.it",
    ]
    assert emails("Correspondence: Matthieu Kowalski (mk@l2s.fr)", names)[1] is None  # initials alone: unsure
    assert emails("Contact: a@x.org (M.K.)", names) == [None, "a@x.org", None]
    assert emails("1mkowalski@l2s.fr", names)[1] == "mkowalski@l2s.fr"  # a footnote's mark glued on
    # spelled out against harvesters, the local part the author's initials (axodraw2's title page)
    assert emails("USA jcc8 at psu dot edu", ["John C. Collins", "Jos Vermaseren"]) == ["jcc8@psu.edu", None]


def test_no_address_where_the_owner_is_unsure() -> None:
    assert emails("E-mail: info@journal.org", ["Anna Berg", "Carl Dahl"]) == [None, None]
    assert emails("{anna,bob,carl}@x.org", ["Anna Berg", "Carl Dahl"]) == ["anna@x.org", "carl@x.org"]
    assert emails("E-mail: berg@x.org", ["Anna Berg", "Ola Berg"]) == [None, None]


def test_a_lone_correspondence_address_goes_to_the_one_starred_author() -> None:
    # BMC: "* Correspondence: jossey.ach@gmail.com" under "… Agyeman-Duah1*, Antje Theurer2,3, …"
    names = ["Josephine Agyeman-Duah", "Antje Theurer"]
    assert emails("* Correspondence: jossey.ach@gmail.com", names, "Josephine Agyeman-Duah1*, Antje Theurer2,3") == [
        "jossey.ach@gmail.com",
        None,
    ]
    assert emails("* Correspondence: jossey.ach@gmail.com", names, "Josephine Agyeman-Duah1, Antje Theurer2") == [None, None]


def test_an_unlabelled_abstract_under_marked_names_is_no_affiliation(tmp_path: Path) -> None:
    # Scientific Reports: the abstract and introduction follow the names unlabelled, the affiliations
    # are at the page's foot; "dysfunction1,2. Previous studies …" in a block that says "research"
    # was read as affiliation 2
    prose = [
        "Tears of the rotator cuff are common and are associated with shoulder pain and dysfunction1,2.",
        "Previous studies have reported that a quarter of older patients have difficulties in daily",
        "living, and the research on arthroscopic techniques that has been reported to date remains",
        "controversial. A network meta-analysis of the direct and the indirect evidence was performed",
        "to compare the effectiveness of the techniques, and the results are discussed in what follows.",
    ]
    document = parse(tmp_path, ["Anna Berg1 & Carl Dahl2", *prose])
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl"]
    assert affiliations(document) == {"Anna Berg": None, "Carl Dahl": None}


def test_a_byline_with_a_role_in_brackets_is_no_affiliation_and_article_info_ends_them(tmp_path: Path) -> None:
    # Elsevier cas-dc: "Sir J.K. Krishnana,c,∗,1 (Researcher), Han Thaneb,d, …": "Research" read as an
    # institution started the affiliations at the names, and the "ARTICLE INFO" box ran on into the last
    document = parse(
        tmp_path,
        [
            "Anna Berga,c (Researcher), Carl Dahlb",
            "aDepartment of Physics, Lund University, 22100 Lund, Sweden",
            "bNordic Institute for Theory, 10691 Stockholm, Sweden",
            "cCentre for Water, 22362 Lund, Sweden",
            "ARTICLE INFO",
        ],
    )
    assert affiliations(document) == {
        "Anna Berg": "Department of Physics, Lund University, 22100 Lund, Sweden; Centre for Water, 22362 Lund, Sweden",
        "Carl Dahl": "Nordic Institute for Theory, 10691 Stockholm, Sweden",
    }


def test_a_version_line_ends_the_affiliations(tmp_path: Path) -> None:
    # pinp: "This version was compiled on January 11, 2022" and the abstract under the last affiliation
    document = parse(
        tmp_path,
        [
            "Anna Berga and Carl Dahlb",
            "aDebian and R Projects; Chicago, IL, USA",
            "bDepartment of Statistics, University of Illinois; Champaign, IL, USA",
            "This version was compiled on January 11, 2022",
            "R has always provided an interface for extensions written in C.",
        ],
    )
    assert affiliations(document) == {
        "Anna Berg": "Debian and R Projects; Chicago, IL, USA",
        "Carl Dahl": "Department of Statistics, University of Illinois; Champaign, IL, USA",
    }
