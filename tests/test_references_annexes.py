"""A reference list followed by annexes on how to cite, as an instructions-for-authors paper prints
them (JACoW's template in the unseen set: "REFERENCES" with three entries, then "ANNEX B" of
numbered example entries and "ANNEX C" ending on a subsection "References" about their type size):

- a short entry set in small print ("[1] JACoW, http://www.jacow.org": no year or pages to show it
  is no note) under the list's heading is an entry;
- an annex's example numbered on from the list ("[4] A. Alpha …") pages after it does not resume it;
- the annex's last subsection "References", over prose and set as the annex's other subsections,
  is a section on citing, not a second reference list.
"""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf
from tests.pdf_maker import styled_pdf

PROSE = [
    "Many conference series have adopted the same standards for electronic publication of their papers.",
    "Authors should use the templates provided and check their files before they upload them to the site.",
    "Each paper is checked by the editors, who correct small faults and return the others to the authors.",
    "The proceedings are published online soon after the conference, with every paper in the same layout.",
]

Item = tuple[float, float, float, list[tuple[str, str]]]


def _lines(y: float, texts: list[str], size: float = 10, style: str = "regular", step: float = 13) -> tuple[list[Item], float]:
    return [(72, y - index * step, size, [(style, text)]) for index, text in enumerate(texts)], y - len(texts) * step


def _page(parts: list[tuple[str, object]]) -> list[Item]:
    """Items top-down: ("h1", text) a bold capitals heading, ("h2", text) an italic subsection,
    ("prose", n) n body lines, ("entry", (text, size)) a reference-like line."""
    items: list[Item] = []
    y = 720.0
    for kind, value in parts:
        if kind == "h1":
            items.append((72, y - 8, 12, [("bold", str(value))]))
            y -= 30
        elif kind == "h2":
            items.append((72, y - 6, 11, [("italic", str(value))]))
            y -= 24
        elif kind == "prose":
            lines, y = _lines(y, (PROSE * 10)[: int(str(value))])
            items += lines
            y -= 8
        else:
            text, size = value  # type: ignore[misc]
            items.append((72, y, size, [("regular", text)]))
            y -= 16
    return items


PAGES = [
    [("title", None), ("h1", "INTRODUCTION"), ("prose", 14), ("h2", "Fonts"), ("prose", 8), ("h2", "Units"), ("prose", 8)],
    [
        ("h1", "CONCLUSION"),
        ("prose", 12),
        ("h1", "REFERENCES"),
        ("entry", ("[1] JACoW, http://www.jacow.org", 7)),
        ("entry", ("[2] K. Müller, Brutkolonien an der Nordsee, J. Ornithol. 12 (2019) 1–10.", 9)),
        ("entry", ("[3] https://www.example.org/birds/", 7)),
    ],
    [
        ("h1", "APPENDIX A: EXAMPLES OF ENTRIES"),
        ("prose", 10),
        ("h2", "Complete Form"),
        ("entry", ("[1] A. Alpha and B. T. Beta, “Novel techniques”, in Proc. IPAC’18, 2018, pp. 567–569.", 9)),
        ("entry", ("[2] A. Alpha et al., “A novel injector”, in Proc. LINAC’18, 2018, pp. 27–31.", 9)),
        ("entry", ("[3] C. Gamma, “An overview of control systems”, in Proc. ICALEPCS’11, 2011, pp. 89–91.", 9)),
        ("prose", 10),
    ],
    [
        ("h2", "Abbreviated Form"),
        ("entry", ("[4] A. Alpha and B. T. Beta, “An interesting talk”, presented at IPAC’14, Dresden, 2014.", 9)),
        ("entry", ("[5] P. Mercury et al., “Title of paper”, Phys. Rev. Lett., vol. 114, p. 050511, 2014.", 9)),
        ("prose", 6),
        ("h2", "Figures"),
        ("prose", 8),
        ("h2", "References"),
        ("prose", 4),
    ],
]


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> Document:
    pages = []
    for parts in PAGES:
        items = _page([part for part in parts if part[0] != "title"])
        if parts[0][0] == "title":
            items = [
                (72, 750, 16, [("bold", "PREPARATION OF PAPERS FOR BIRD CONFERENCES")]),
                (72, 730, 10, [("regular", "A. N. Author, Institute of Birds, Oldtown, Country")]),
            ] + [(x, y - 20, size, runs) for x, y, size, runs in items]
        pages.append(items)
    path = tmp_path_factory.mktemp("annexes") / "annexes.pdf"
    path.write_bytes(styled_pdf(pages))
    return parse_pdf(path)


def test_short_entries_in_small_print_are_the_lists(document: Document) -> None:
    assert [reference.raw for reference in document.references][::2] == ["JACoW, http://www.jacow.org", "https://www.example.org/birds/"]


def test_an_annexs_examples_pages_later_do_not_resume_the_list(document: Document) -> None:
    assert len(document.references) == 3, [reference.raw for reference in document.references]


def test_an_annexs_last_subsection_on_references_is_a_body_section(document: Document) -> None:
    assert [section.title for section in document.sections if section.number == "ref"] == ["REFERENCES"]
    last = document.sections[-1]
    assert (last.title, last.number) == ("References", None), [(s.number, s.title) for s in document.sections]
    assert last.blocks and last.blocks[0].text.startswith(PROSE[0])
