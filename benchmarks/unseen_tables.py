#!/usr/bin/env python3
"""Tables the engine was not developed on: generated papers with known gold, scored by style.

    .venv/bin/python benchmarks/unseen_tables.py --split dev --n 10
    .venv/bin/python benchmarks/unseen_tables.py --split heldout --n 10 --json /tmp/heldout.json

Each paper is written by :func:`benchmarks.synthetic.generate` (one or two pages of
prose in one or two columns, one table in the given style or none) and parsed with the
embedded parser (``parse_pdf``); its tables are paired with the gold and scored with the
measures of ``paperpyramid eval parse`` (see :mod:`benchmarks.synthetic.scoring`).
``--n`` is the number of papers per style (nine styles, one of them without a table), so
``--n 10`` is 90 papers, 80 tables; on one core that takes about a minute.

The held-out split is for reporting only: never tune the engine on it, and never read its
failures to choose a rule (the rule in :mod:`benchmarks.synthetic`). ``--failures``
prints the worst tables with their gold and extracted grids, and is refused for the
held-out split; reproduce a problem on a dev seed instead.

``--latex DIR`` scores real PDFs instead: those of a folder ``benchmarks/unseen_set.py`` built
(publishers' samples beside their LaTeX sources, never committed). The gold tables are the
captioned ``table`` floats of each source, read from it (their ``tabular`` rows and cells,
as the LaTeX parser cuts them); each is paired with the PDF's tables by caption, else by number
(REVTeX's "TABLE IV" is table 4; the parts "6 (a)", "6 (b)" of a subtable group are joined as
the source's one grid), and scored with ``eval parse``'s measures on loose text: case, spaces
and punctuation set aside, and a gold cell the LaTeX parser leaves as markup (math, verbatim
commands, an unresolved "??") not counted, since the PDF prints it otherwise (nor, in TEDS, the
parsed cell it pairs with: :func:`uncounted_left_out`). The sources'
conventions differ from JATS's in places (notes under a table are rows of its ``tabular``;
each printed line of a wrapped cell a row of its own, where ``\\`` breaks it): read a low
table's grids before taking it for a parser's fault. ``--failures N`` names the N worst.

    .venv/bin/python benchmarks/unseen_tables.py --latex UNSEEN [--failures 10] [--json OUT]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import logging
import re
import sys
import time
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: benchmarks.synthetic

from benchmarks.synthetic import STYLES, SplitName  # noqa: E402
from benchmarks.synthetic.scoring import PaperResult, papers_of, render_results, results_to_json, run_split  # noqa: E402
from paperpyramid.eval.latex_source import read_tex, strip_comments, verbatim_as_text  # noqa: E402
from paperpyramid.eval.parse import read_manifest  # noqa: E402
from paperpyramid.eval.table_scores import CAPTION_PAIRING, PaperTables, TableGrid, TableScore, caption_similarity, score_tables  # noqa: E402
from paperpyramid.parsers.embedded.parser import parse_pdf  # noqa: E402
from paperpyramid.parsers.latex.limits import BadSource, LatexLimits  # noqa: E402
from paperpyramid.parsers.latex.macros import expand_macros  # noqa: E402
from paperpyramid.parsers.latex.scan import find_end, read_group, read_optional, skip_space  # noqa: E402
from paperpyramid.parsers.latex.tabular import find_tabulars, tabular_cells  # noqa: E402
from paperpyramid.parsers.latex.text import plain  # noqa: E402


def _grid(rows: list[list[str]] | tuple[tuple[str, ...], ...], limit: int = 8) -> list[str]:
    shown = [" | ".join(cell[:24] for cell in row) for row in rows[:limit]]
    return [f"      {line}" for line in shown] + ([f"      ... {len(rows) - limit} more rows"] if len(rows) > limit else [])


def _failures(results: list[PaperResult], count: int) -> list[str]:
    """The ``count`` worst tables (lowest exact-cell recall), with what was drawn and what was read."""
    worst = sorted(
        ((table.exact_cell_recall, result, index) for result in results for index, table in enumerate(result.tables)),
        key=lambda item: item[0],
    )
    lines = []
    for recall, result, index in worst[:count]:
        gold, table = result.gold[index], result.tables[index]
        lines.append(f"  seed {result.seed} {result.style}: exact {recall:.2f}, gold {table.gold_shape}, extracted {table.extracted_shape}, "
                     f"paired by {table.paired_by}; {' '.join(f'{k}={v}' for k, v in result.look.items())}")  # fmt: skip
        lines.append(f"    gold ({gold.grid.label or 'no caption'}, pages {list(gold.pages)}):")
        lines += _grid(gold.grid.rows)
        for extracted in result.extracted:
            lines.append(f"    extracted (label {extracted.grid.label}, page {extracted.page}, caption {extracted.grid.caption[:50]!r}):")
            lines += _grid(extracted.grid.rows)
    return lines


_VERBATIM = re.compile(r"\\begin\s*\{(verbatim\*?|Verbatim|lstlisting|minted|Sinput|Soutput|Scode)\}.*?\\end\s*\{\1\}", re.DOTALL)
_GENERATED = " \\generatedbody "
_FLOAT = re.compile(r"\\begin\s*\{(table\*?|sidewaystable\*?)\}")
_CAPTION_COMMAND = re.compile(r"\\caption(?![A-Za-z])\*?")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50}
_PART = re.compile(r"\s*\(?[a-z]\)\s*$", re.IGNORECASE)
# what the LaTeX parser leaves of markup the PDF prints otherwise: math, commands, verbatim, "??"
_MARKUP = re.compile(r"[\\$^_{}|`']|\?\?|^\+|\+$")
# a strut's or a rule's dimensions ("0pt11pt", "[-1ex]0pt3.5ex", "2.2ex" before a word): nothing printed
_STRUT = re.compile(r"(?:\[-?[\d.]+(?:pt|ex|em)\])?(?:-?\d*\.?\d+(?:pt|ex|em)){2}|^-?\d*\.?\d+(?:ex|em)(?=[A-Z])")
# the definition of a macro with parameters, up to its body's brace
_WITH_PARAMETERS = re.compile(
    r"\\(?:(?:re|provide)?newcommand|DeclareRobustCommand)\*?\s*(?:\{\s*\\[A-Za-z@]+\s*\}|\\[A-Za-z@]+)\s*\[\s*[1-9]\s*\](?:\s*\[[^\]]*\])?\s*(?=\{)"
    r"|\\[gex]?def\s*\\[A-Za-z@]+\s*#[^{]*(?=\{)"
)
# Sweave's inline code, whose value the PDF prints (on one line: a "%" in it reads as a comment's start)
_SEXPR = re.compile(r"\\Sexpr\s*\{[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)*\}")
# a dingbat (pifont's check mark, \ding{51}): no letter or digit of a loose cell
_DINGBAT = re.compile(r"\\ding\s*\{\d+\}")
# TeX's own row end, which some writers of tables use for LaTeX's "\\" (psych's fa2latex)
_ROW_END = re.compile(r"(?<!\\)\\cr(?![A-Za-z@])")


def _number(label: str | None) -> str | None:
    """A table's number as LaTeX counts it: "TABLE IV" and "Table 4" are "Table 4"; "Table 6 (a)"
    (a part of subtables) is "Table 6"."""
    if not label:
        return None
    words = _PART.sub("", label).split()
    last = words[-1].rstrip(".:").lower() if words else ""
    if last and set(last) <= set(_ROMAN):
        values = [_ROMAN[ch] for ch in last]
        last = str(sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)))
    return f"Table {last}"


def _loose(text: str) -> str:
    """A cell as compared here: letters and digits only, lower case (the LaTeX text is not the printed glyphs)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


def _gold_cell(cell: str) -> str | None:
    """A gold cell's loose text; ``None`` for one the LaTeX parser leaves as markup (not counted)."""
    cell = _STRUT.sub("", cell)
    return None if _MARKUP.search(cell) else _loose(cell)


def _printed_otherwise(text: str) -> str:
    """The source with what the LaTeX parser's text would misread as printed words made what the
    PDF shows: Sweave's inline ``\\Sexpr{code}`` an unresolved "??" (the PDF prints the code's
    value, which only running the source tells, so its cell is not counted), a dingbat
    (``\\ding{51}``, a check mark, whose number the text would keep) nothing."""
    return _DINGBAT.sub("", _SEXPR.sub("??", text))


def _expanded(text: str) -> str:
    """The source with the author's macros without parameters expanded, as the LaTeX parser and
    the sections' gold (:func:`paperpyramid.eval.gold.latex_source_and_document`) expand them: the
    parser's text drops an unknown command, and with it what the macro prints (a table's numbers
    "1.453\\e 32" with ``\\newcommand{\\e}{\\text{e-}}``). A macro with parameters is left to the
    text, which keeps its arguments as the printed words (``\\code{x}``, ``\\cs{x}``), where its
    body may be built of what the text cannot render (font switches, ``\\char``, a class's
    internals copied in). A macro that expands without end leaves the source as written."""
    kept, start = [], 0
    for match in _WITH_PARAMETERS.finditer(text):
        if match.start() >= start:
            kept.append(text[start : match.start()])
            start = read_group(text, match.end())[1]
    with contextlib.suppress(BadSource):
        return expand_macros("".join(kept) + text[start:], LatexLimits()).text
    return text


@dataclasses.dataclass(frozen=True)
class LatexTable:
    """A gold table and the cells of it not counted: (row, column) of each cell left as markup."""

    grid: TableGrid
    uncounted: frozenset[tuple[int, int]]


def latex_tables(tex: Path) -> list[TableGrid]:
    """The gold grids of :func:`latex_floats`, an uncounted cell empty."""
    return [table.grid for table in latex_floats(tex)]


def latex_floats(tex: Path) -> list[LatexTable]:
    """The captioned table floats of a LaTeX source, numbered as LaTeX counts them, each the rows
    of its ``tabular`` environments (the LaTeX parser's own :func:`tabular_cells`); cells loose,
    markup left uncounted (see the module). The floats are read from the source itself
    (comments out, verbatim out): the LaTeX parser's walk loses some classes' bodies (REVTeX's),
    and the tables with them. A float whose body is code's output (a ``verbatim`` chunk Sweave
    runs) counts for the numbering only, and a cell with Sweave's inline ``\\Sexpr`` is not
    counted (:func:`_printed_otherwise`). The author's macros are expanded first (:func:`_expanded`),
    and TeX's ``\\cr`` ends a row as ``\\\\`` does.
    A source's ``\\input`` files are not read: the unseen sets hold one file per paper."""
    text = _VERBATIM.sub(lambda _: _GENERATED, strip_comments(read_tex(tex)))
    text = verbatim_as_text(_printed_otherwise(_expanded(text)))
    tables: list[LatexTable] = []
    for match in _FLOAT.finditer(text):
        end, _ = find_end(text, match.group(1), match.end())
        body = text[match.end() : end]
        caption = _CAPTION_COMMAND.search(body)
        if caption is None:
            continue  # an unnumbered float ("continued" tables use \contcaption)
        if _GENERATED in body:
            tables.append(
                LatexTable(TableGrid(None, "", ()), frozenset())
            )  # a body written by code run with the source (Sweave): numbered, not scored
            continue
        title, _ = read_group(body, skip_space(body, read_optional(body, caption.end())[1]))
        body = _ROW_END.sub(lambda _: "\\\\", body)  # TeX's row end, read as LaTeX's
        cells = [row for tabular in find_tabulars(body) for row in tabular_cells(tabular)]
        read = [[_gold_cell(cell) for cell in row] for row in cells if any(_STRUT.sub("", cell).strip() for cell in row)]
        uncounted = frozenset((r, c) for r, row in enumerate(read) for c, cell in enumerate(row) if cell is None)
        rows = tuple(tuple(cell or "" for cell in row) for row in read)
        tables.append(LatexTable(TableGrid(f"Table {len(tables) + 1}", plain(title), rows), uncounted))
    return [table for table in tables if table.grid.rows]


def latex_papers(folder: Path) -> list[tuple[Path, Path]]:
    """The PDFs of ``folder``'s MANIFEST.tsv that have a LaTeX source beside them."""
    return [(folder / row.pairs_with, folder / row.file) for row in read_manifest(folder / "MANIFEST.tsv") if row.kind == "gold-latex"]


def score_latex(folder: Path) -> list[PaperTables]:
    """Every captioned LaTeX table of ``folder`` against the parsed PDF's tables (:func:`pair_latex`)."""
    papers = []
    for pdf, tex in latex_papers(folder):
        floats = latex_floats(tex)
        if not floats:
            continue
        extracted = [
            TableGrid(_number(table.label), table.caption, tuple(tuple(_loose(cell) for cell in row) for row in table.cells))
            for table in parse_pdf(pdf).tables
        ]
        paper = PaperTables(pdf.name)
        gold = [table.grid for table in floats]
        for table, pieces in zip(floats, pair_latex(gold, extracted), strict=True):
            pieces = [dataclasses.replace(piece, label=table.grid.label) for piece in uncounted_left_out(table, pieces)]
            paper.scores += score_tables(pdf.name, [table.grid], pieces).scores
        papers.append(paper)
    return papers


#: how many parsed rows past the last one paired a gold row may look for its own
_ROW_REACH = 3


def uncounted_left_out(gold: LatexTable, pieces: list[TableGrid]) -> list[TableGrid]:
    """The parsed pieces with the text of each cell the gold does not count made empty, as the gold's
    is: TEDS compares cell texts, and a cell the gold leaves as markup (math, ``\\code{...}``) would
    otherwise cost its whole text where the parser read it right. A gold row is paired with the first
    parsed row, at most :data:`_ROW_REACH` past the last one paired, that is as wide and holds every
    counted cell of it in the same column; a gold row of uncounted cells alone pairs with none. A
    parsed row no gold row pairs keeps its text, and the exact-cell recall is unchanged (it counts
    the gold's counted cells only)."""
    rows = [list(row) for piece in pieces for row in piece.rows]
    start = 0
    for r, row in enumerate(gold.grid.rows):
        counted = [(c, cell) for c, cell in enumerate(row) if (r, c) not in gold.uncounted]
        if not counted:
            continue
        for p in range(start, min(start + _ROW_REACH + 1, len(rows))):
            if len(rows[p]) == len(row) and all(rows[p][c] == cell for c, cell in counted):
                for c in range(len(row)):
                    if (r, c) in gold.uncounted:
                        rows[p][c] = ""
                start = p + 1
                break
    left_out, taken = [], 0
    for piece in pieces:
        left_out.append(dataclasses.replace(piece, rows=tuple(tuple(row) for row in rows[taken : taken + len(piece.rows)])))
        taken += len(piece.rows)
    return left_out


def pair_latex(gold: list[TableGrid], extracted: list[TableGrid]) -> list[list[TableGrid]]:
    """The pieces each gold table takes: by caption first (a source may number its tables
    otherwise than its floats count, an appendix's "Table A1"), the pieces of the best one's
    number with it (continued, or parts of subtables); by number where no caption is like."""
    free = list(range(len(extracted)))
    taken: list[list[TableGrid]] = []
    for table in gold:
        # the most similar caption; among equals ("An Example With Sub-Tables", "Another Example ..."), the same number
        similar = sorted(
            ((caption_similarity(table.caption, extracted[e].caption), extracted[e].label == table.label, -e) for e in free), reverse=True
        )
        if similar and similar[0][0] >= CAPTION_PAIRING:
            number = extracted[-similar[0][2]].label
            chosen = [-e for score, _, e in similar if score >= CAPTION_PAIRING and extracted[-e].label == number]
        else:
            chosen = [e for e in free if extracted[e].label is not None and extracted[e].label == table.label]
        free = [e for e in free if e not in chosen]
        taken.append([extracted[e] for e in sorted(chosen)])
    return taken


def _mean(values: list[float | None]) -> str:
    known = [value for value in values if value is not None]
    return f"{sum(known) / len(known):.3f}" if known else "-"


def render_latex(papers: list[PaperTables], failures: int) -> list[str]:
    """Figures over the gold tables, a line per table, and the worst tables' grids."""
    scores = [score for paper in papers for score in paper.scores]
    lines = [
        f"{len(scores)} captioned LaTeX tables in {len(papers)} PDFs: found {sum(s.detected for s in scores)}, "
        f"cell recall {_mean([s.exact_cell_recall for s in scores])}, TEDS {_mean([s.teds for s in scores])}, "
        f"TEDS-Struct {_mean([s.teds_structure for s in scores])}, same shape {sum(s.extracted_shape == s.gold_shape for s in scores)}"
    ]
    for score in scores:
        lines.append(
            f"  {score.pdf} {score.label}: gold {score.gold_shape}, parsed {score.extracted_shape}, cells {_value(score.exact_cell_recall)}, "
            f"TEDS {_value(score.teds)}"
        )
    if failures:
        worst = sorted(scores, key=lambda s: s.exact_cell_recall if s.exact_cell_recall is not None else 1.0)[:failures]
        lines.append("worst tables:")
        lines += [f"  {s.pdf} {s.label} cells {_value(s.exact_cell_recall)} ({s.caption[:60]})" for s in worst]
    return lines


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def latex_json(papers: list[PaperTables]) -> list[dict[str, object]]:
    return [dict(score.__dict__) for paper in papers for score in paper.scores if isinstance(score, TableScore)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--split", choices=("dev", "heldout"), default="dev")
    parser.add_argument("--n", type=int, default=10, help="papers per style (default 10: 90 papers, 80 tables)")
    parser.add_argument("--styles", default=",".join(STYLES), help="comma-separated styles (default: all)")
    parser.add_argument("--json", type=Path, help="write every figure, grid and paper there")
    parser.add_argument("--keep", type=Path, help="keep the generated PDFs in this folder")
    parser.add_argument("--failures", type=int, default=0, help="print the N worst tables (dev split only)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--latex", type=Path, help="score the real PDFs of this folder against their LaTeX sources instead")
    args = parser.parse_args(argv)
    if args.latex:
        logging.basicConfig(level=logging.ERROR)
        papers = score_latex(args.latex)
        print("\n".join(render_latex(papers, args.failures)))
        if args.json:
            args.json.write_text(json.dumps(latex_json(papers), indent=1, ensure_ascii=False, default=list))
        return 0
    split: SplitName = args.split
    if args.failures and split == "heldout":
        parser.error("--failures is for the dev split: the held-out split is reported, never studied")
    styles = [style for style in STYLES if style in args.styles.split(",")]
    logging.basicConfig(level=logging.ERROR)

    def progress(result: PaperResult) -> None:
        if not args.quiet:
            found = ", ".join(f"exact {table.exact_cell_recall:.2f}" for table in result.tables) or "no table"
            print(f"  {result.seed} {result.style}: {found}; {len(result.false_tables)} false; {result.seconds:.2f} s" + (f"  {result.error}" if result.error else ""),
                  file=sys.stderr)  # fmt: skip

    started = time.perf_counter()
    results = run_split(papers_of(split, args.n, styles), keep=args.keep, progress=progress)
    print("\n".join(render_results(split, results)))
    print(f"({len(results)} papers in {time.perf_counter() - started:.0f} s)")
    if args.failures:
        print("\nworst tables (dev):")
        print("\n".join(_failures(results, args.failures)))
    if args.json:
        args.json.write_text(json.dumps(results_to_json(split, results), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
