"""Generated table papers with known gold: a table test set the embedded parser was not developed on.

:func:`generate` writes a paper of one or two pages, in one or two columns of running text,
with one table in a given style (or none) and its gold, from a seed; the same seed and style
always give the same PDF bytes and gold. :mod:`.scoring` parses such papers with the embedded
parser and scores its tables with the measures of :mod:`paperpyramid.eval.table_scores`.

Styles (:data:`STYLES`): ``ruled`` (a full grid), ``booktabs`` (top, middle and bottom rules
only), ``unruled`` (no rules), ``spanning`` (a two-row header with group cells over two or
three columns, sometimes "Panel A" rows across the body), ``multiline`` (cells of text wrapped
over lines, and headers over two lines), ``tight_numeric`` (six or more numeric columns set a
few points apart), ``row_numbers`` (a first column of row numbers), ``two_page`` (a long table
whose rows run onto the next page, with a "continued" caption and often the header again),
and ``no_table`` (prose, often a figure with numbered axes, sometimes a sentence that opens
with "Table N": any table found there is a false one). Every table's caption is above, below
or absent, drawn per paper.

The two splits, and the rule that goes with them:

- **dev** (seeds 0-999): for anyone developing the table engine. Look at these papers, tune
  on them, add them to tests.
- **heldout** (seeds 100000-199999): for reporting only. Never tune the engine on them, never
  look at their failures to choose a rule, never add one to a test of the engine; report
  its figures beside the dev figures. A held-out failure that teaches something is fixed by
  first reproducing it on a dev seed.

The held-out papers are not only other seeds: they draw parameters the dev split never
draws (:mod:`.splits`): A4 pages (dev: US Letter); table type sizes 7.5, 8.5 and 9.5 pt
(dev: 7, 8, 9, 10); rules 0.25 and 1 pt thick (dev: 0.4, 0.5, 0.8); up to 8 columns, 9 for
dense numbers (dev: 6 and 7); up to 30 rows (dev: 20); captions "TABLE III" on a line of its
own, "Table 3 |" and "Tab. 3." (dev: "Table 3." and "Table 3:"), with their own "continued"
wordings; numbers set 2.5-4.5 pt apart in dense tables (dev: 3-5); and the words of other
topics (clinical trials, economics, astronomy; dev: ecology, machine learning, materials).
"""

from __future__ import annotations

from benchmarks.synthetic.papers import CaptionPosition, GoldTable, PaperGold, generate
from benchmarks.synthetic.splits import DEV, HELDOUT, SPLITS, SplitName, split_of
from benchmarks.synthetic.table_content import STYLES, TABLE_STYLES, Style

__all__ = [
    "DEV",
    "HELDOUT",
    "SPLITS",
    "STYLES",
    "TABLE_STYLES",
    "CaptionPosition",
    "GoldTable",
    "PaperGold",
    "SplitName",
    "Style",
    "generate",
    "split_of",
]
