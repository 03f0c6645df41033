"""The two splits of the generated tables, and the style parameters each may draw.

The held-out split differs from the development split in its seeds and in parameters the
development split never draws (see :mod:`benchmarks.synthetic` for the rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DEV", "HELDOUT", "SPLITS", "SplitName", "SplitParams", "split_of"]

SplitName = Literal["dev", "heldout"]

LETTER = (612.0, 792.0)
A4 = (595.28, 841.89)


@dataclass(frozen=True)
class SplitParams:
    """What the papers of one split may draw. Caption forms are format strings of the label
    (``{n}``: the number, ``{roman}``: the number in capital Roman numerals); a form that ends
    in a newline prints the label on a line of its own."""

    name: SplitName
    seeds: range
    page_sizes: tuple[tuple[float, float], ...]
    topics: tuple[str, ...]
    table_sizes: tuple[float, ...]
    rule_widths: tuple[float, ...]
    columns: tuple[int, int]  # the most columns a table may have: (ordinary, numeric-dense)
    rows: tuple[int, int]
    caption_forms: tuple[str, ...]
    continued_forms: tuple[str, ...]
    column_gaps: tuple[float, float]  # the space between unruled columns, in text sizes
    tight_gaps: tuple[float, float]  # the same for numeric columns set close together, in points


DEV = SplitParams(
    name="dev",
    seeds=range(0, 1000),
    page_sizes=(LETTER,),
    topics=("ecology", "learning", "materials"),
    table_sizes=(7.0, 8.0, 9.0, 10.0),
    rule_widths=(0.4, 0.5, 0.8),
    columns=(6, 7),
    rows=(3, 20),
    caption_forms=("Table {n}.", "Table {n}:"),
    continued_forms=("Table {n} (continued)", "Table {n}. Continued"),
    column_gaps=(1.0, 2.2),
    tight_gaps=(3.0, 5.0),
)

HELDOUT = SplitParams(
    name="heldout",
    seeds=range(100_000, 200_000),
    page_sizes=(A4,),
    topics=("clinical", "economics", "astronomy"),
    table_sizes=(7.5, 8.5, 9.5),
    rule_widths=(0.25, 1.0),
    columns=(8, 9),
    rows=(3, 30),
    caption_forms=("TABLE {roman}\n", "Table {n} |", "Tab. {n}."),
    continued_forms=("TABLE {roman} (Cont.)", "Table {n} | continued", "Tab. {n} (cont'd)"),
    column_gaps=(0.8, 2.6),
    tight_gaps=(2.5, 4.5),
)

SPLITS: dict[SplitName, SplitParams] = {"dev": DEV, "heldout": HELDOUT}


def split_of(seed: int) -> SplitParams:
    """The split a seed belongs to; seeds of neither split are refused."""
    for split in SPLITS.values():
        if seed in split.seeds:
            return split
    raise ValueError(
        f"seed {seed} is in no split: development seeds are {DEV.seeds.start}-{DEV.seeds.stop - 1}, held-out {HELDOUT.seeds.start}-{HELDOUT.seeds.stop - 1}"
    )


def roman(number: int) -> str:
    """``number`` (1-39) in capital Roman numerals, as IEEE tables are numbered."""
    tens, units = divmod(number, 10)
    return "X" * tens + ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[units]
