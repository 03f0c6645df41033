"""Authors' marks read where the byline sets them unusually: co-authors who share a surname,
an ORCID badge between a name and its marks, the corresponding author's address under the
star's label (constructed title pages, ``tests/pdf_maker``),
F1000Research's marks that the text layer sets apart from the names; and elsarticle's places
set as numbered notes in the first page's foot (real articles)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf
from tests.conftest import CORPUS
from tests.pdf_maker import styled_pdf
from tests.test_affiliation_elsewhere import BODY, TITLE, Item

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")

PHYSICS = "Department of Physics, Lund University, Lund, Sweden"
CHEMISTRY = "Institute of Chemistry, University of Oslo, Oslo, Norway"


def regular(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("regular", text)])


def parse(tmp_path: Path, names: str, foot: tuple[str, ...] = ()) -> Document:
    """A title page: the title, ``names``, the two numbered affiliations, a heading, the body,
    and ``foot`` in small type at the page's foot."""
    items: list[Item] = [(72, 700, 17, [("bold", TITLE)]), regular(72, 672, 11, names)]
    items += [regular(72, 652, 8, f"1 {PHYSICS}"), regular(72, 642, 8, f"2 {CHEMISTRY}")]
    items.append((72, 610, 11, [("bold", "1 Introduction")]))
    items += [regular(72, 594 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    items += [regular(72, 120 - 9 * i, 7, line) for i, line in enumerate(foot)]
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf([items]))
    return parse_pdf(path)


def affiliations(document: Document) -> dict[str, str | None]:
    return {author.name: author.affiliation for author in document.authors}


def test_coauthors_who_share_a_surname_each_get_the_places_of_their_own_marks(tmp_path: Path) -> None:
    # the second Berg's marks follow the whole name, not the first Berg's surname
    document = parse(tmp_path, "Anna Berg1, Carl Berg2 and Eva Lind1,2")
    assert affiliations(document) == {"Anna Berg": PHYSICS, "Carl Berg": CHEMISTRY, "Eva Lind": f"{PHYSICS}; {CHEMISTRY}"}


def test_an_orcid_badge_between_a_name_and_its_marks_leaves_the_marks_read(tmp_path: Path) -> None:
    # PLOS sets the badge as text: "Da-zhuo ShiID1,2*"
    document = parse(tmp_path, "Anna Berg1, Carl DahlID2* and Eva Lind1")
    assert affiliations(document) == {"Anna Berg": PHYSICS, "Carl Dahl": CHEMISTRY, "Eva Lind": PHYSICS}


def test_the_corresponding_authors_address_is_the_one_under_the_label_not_the_publishers(tmp_path: Path) -> None:
    # the one address that names nobody goes to the one starred author only where the label gives it
    labelled = parse(tmp_path, "Anna Berg1,* and Carl Dahl2", ("*Corresponding author. E-mail address: ab123@example.org",))
    assert [author.email for author in labelled.authors] == ["ab123@example.org", None]
    licence = (
        "*Corresponding author.",
        "© The Author 2022. Published by the Press on behalf of the Society. This is an Open Access article",
        "distributed under the terms of the licence, which permits unrestricted reuse, distribution and",
        "reproduction in any medium, provided the original work is properly cited. For commercial re-use,",
        "please contact journals.permissions@example.com",
    )
    assert [author.email for author in parse(tmp_path, "Anna Berg1,* and Carl Dahl2", licence).authors] == [None, None]


@needs_corpus
def test_f1000research_marks_set_apart_from_the_names_give_each_author_their_place() -> None:
    # "Bryan S. Frazier , William B. Driggers III , Glenn F. Ulrich1" with "1", "2" and "1" as text
    # objects of their own on the names' row; the version badge "v2" under the places ends them
    document = parse_pdf(CORPUS / "f1000research-2015-sharpnose-shark-longevity.pdf")
    carolina = "South Carolina Department of Natural Resources, Marine Resources Research Institute, Charleston, SC, 29412, USA"
    fisheries = (
        "National Marine Fisheries Service, Southeast Fisheries Science Center, Mississippi Laboratories, Pascagoula, MS, 39567, USA"
    )
    assert affiliations(document) == {"Bryan S. Frazier": carolina, "William B. Driggers III": fisheries, "Glenn F. Ulrich": carolina}


@needs_corpus
def test_elsarticles_places_in_numbered_notes_at_the_foot_go_to_the_authors_by_their_marks() -> None:
    # "Alina G. Meresescu1,2, Matthieu Kowalski2, Frédéric Schmidt 1, François Landais1" over the abstract; the
    # places in the page's foot, under the corresponding author's note and e-mail: "1GEOPS, …" / "2L2S, …"
    document = parse_pdf(CORPUS / "arxiv-1803.07574-elsarticle-water-residence-time-compiled.pdf")
    geops = "GEOPS, Univ. Paris-Sud, CNRS, Universite Paris-Saclay, Rue du Belvedere, Bat. 504-509, 91405 Orsay, France"
    l2s = "L2S, Univ. Paris-Sud, Supelec, CNRS, Universite Paris-Saclay, 3 rue Joliot Curie, 91192 Gif-sur-Yvette, France"
    assert affiliations(document) == {
        "Alina G. Meresescu": f"{geops}; {l2s}",
        "Matthieu Kowalski": l2s,
        "Frédéric Schmidt": geops,
        "François Landais": geops,
    }
