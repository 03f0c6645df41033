"""Reading order of pages set in three columns (reference lists of some journals): each column
read top to bottom, left to right, never across the row. The PDFs are made in the test."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import placed_pdf

_NAMES = ["Smith", "Garcia", "Chen", "Okafor", "Novak", "Tanaka", "Silva", "Kumar", "Rossi", "Dubois", "Kowalski", "Haddad", "Larsen"]
_WORDS = [
    "analysis",
    "of",
    "protein",
    "binding",
    "in",
    "insect",
    "olfaction",
    "with",
    "fluorescence",
    "assays",
    "and",
    "structural",
    "models",
    "of",
    "receptor",
    "dynamics",
]


def _reference(rng: random.Random) -> str:
    authors = ", ".join(f"{rng.choice(_NAMES)} {rng.choice('ABCDEFGHJK')}{rng.choice('ABCDEFGHJK')}" for _ in range(rng.randint(1, 3)))
    title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 12))).capitalize()
    return f"{authors}: {title}. J Biol Chem. {rng.randint(1990, 2014)}; {rng.randint(1, 300)}({rng.randint(1, 12)}): {rng.randint(1, 900)}-{rng.randint(901, 999)}."


def _paper(tmp_path: Path, references: list[str]) -> tuple[Path, list[str]]:
    first = [(72.0, 740.0, 16.0, "Binding of reporters in a three-column test paper"), (72.0, 710.0, 12.0, "Introduction")]
    y = 690.0
    for line in textwrap.wrap("Odorant binding proteins carry small molecules through the sensillar lymph to the receptors. " * 12, 95):
        first.append((72.0, y, 10.0, line))
        y -= 13
    first.append((72.0, y - 10, 12.0, "References"))
    placed, second, column, y = [], [], 0, 750.0
    for number, reference in enumerate(references, 1):
        wrapped = textwrap.wrap(f"{number}. {reference}", 42)
        if y - 9 * len(wrapped) < 60:
            column, y = column + 1, 750.0
            if column == 3:
                break
        for index, line in enumerate(wrapped):
            second.append((40.0 + 185 * column + (0 if index == 0 else 8), y, 7.0, line))
            y -= 9
        y -= 2
        placed.append(reference)
    path = tmp_path / "three-columns.pdf"
    path.write_bytes(placed_pdf([first, second]))
    return path, placed


def test_a_three_column_reference_list_is_read_column_by_column(tmp_path: Path) -> None:
    path, placed = _paper(tmp_path, [_reference(random.Random(seed)) for seed in range(60)])
    document = parse_pdf(path)
    # before: the rows read across the second and third columns, two or three references mixed in one
    assert [reference.raw for reference in document.references] == placed
    assert len(placed) > 50
