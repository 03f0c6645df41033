"""Score parses stored in a corpus database against the gold files of the corpus.

The measures follow GROBID's end-to-end benchmark where it has one:

- section titles: precision, recall and F1 of headings after "soft" normalisation
  (case, leading numbering, punctuation and spaces ignored), matched as a multiset, so a
  heading printed twice must be found twice;
- title: soft equality with the gold title;
- body: word recall, the share of the gold body's words (as a multiset) that the parse
  kept; extra words in the parse (captions, running heads) are not penalised here;
- references: the number of bibliography entries found over the number in the gold;
- tables (JATS gold only): detection, exact-cell and cell-text recall and a structure
  score per gold table, see :mod:`paperpyramid.eval.table_scores`.

Overall figures are reported both micro (counts summed over papers, so long papers
weigh more) and macro (the mean of per-paper F1, so every paper weighs the same).
"""

from __future__ import annotations

import csv
import json
import re
import statistics
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from paperpyramid.db.corpus_rows import read_tables
from paperpyramid.db.queries import parse_eval
from paperpyramid.db.sqlite import Connection
from paperpyramid.db.sqlite import connect as connect_corpus
from paperpyramid.eval.formulas import FormulaScore
from paperpyramid.eval.formulas import render as render_formulas
from paperpyramid.eval.formulas import score as score_formulas
from paperpyramid.eval.gold import GoldPaper, abstract_heading, back_matter, load_gold, soft_norm
from paperpyramid.eval.metadata import FIELDS, Metadata, MetadataScore, accuracies, family_name, load_gold_metadata, score_metadata
from paperpyramid.eval.table_scores import (
    PaperTables,
    TableCensus,
    TableGrid,
    load_gold_tables,
    render_census,
    render_tables,
    score_tables,
    table_census,
    tables_to_json,
)
from paperpyramid.retrieval.filters import year_of
from paperpyramid.source_names import file_name

__all__ = [
    "EvalReport",
    "ManifestRow",
    "OverallScore",
    "PaperResult",
    "PaperScore",
    "body_word_recall",
    "evaluate",
    "predicted_from_db",
    "read_manifest",
    "read_stored_tables",
    "render_report",
    "report_to_json",
    "score_paper",
    "soft_norm",
    "summarise",
]

_WORD = re.compile(r"\w+")


def _words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(unicodedata.normalize("NFKC", text).lower()))


def body_word_recall(gold_text: str, predicted_text: str) -> float | None:
    """Share of the gold body's word tokens present in the prediction, counted as a multiset.

    ``None`` when the gold has no words, since then there is nothing to recall.
    """
    gold = _words(gold_text)
    total = sum(gold.values())
    if total == 0:
        return None
    found = gold & _words(predicted_text)
    return sum(found.values()) / total


def _ratio(numerator: int, denominator: int, *, both_empty: bool) -> float:
    """A count ratio; with nothing to divide by it is 1 only if both sides are empty."""
    if denominator:
        return numerator / denominator
    return 1.0 if both_empty else 0.0


@dataclass(frozen=True)
class PaperScore:
    """How one parse compares with its gold; counts are kept so papers can be summed."""

    gold_sections: int
    predicted_sections: int
    matched_sections: int
    title_match: bool | None
    body_recall: float | None
    reference_ratio: float | None
    gold_references: int | None
    predicted_references: int | None

    @property
    def precision(self) -> float:
        empty = self.gold_sections == 0 and self.predicted_sections == 0
        return _ratio(self.matched_sections, self.predicted_sections, both_empty=empty)

    @property
    def recall(self) -> float:
        empty = self.gold_sections == 0 and self.predicted_sections == 0
        return _ratio(self.matched_sections, self.gold_sections, both_empty=empty)

    @property
    def f1(self) -> float:
        return _f1(self.precision, self.recall)


def _f1(precision: float, recall: float) -> float:
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def score_paper(gold: GoldPaper, predicted: GoldPaper) -> PaperScore:
    """Compare a parse with the gold of the same paper."""
    gold_titles = Counter(soft_norm(t) for t in gold.section_titles if not back_matter(t))
    predicted_titles = Counter(soft_norm(t) for t in predicted.section_titles if not back_matter(t))
    # A heading that normalises to nothing ("1.", "—") can't be told apart from any other
    # such heading, so it never counts as a match; it still counts as predicted.
    matched = gold_titles & predicted_titles
    matched.pop("", None)
    title_match: bool | None = None
    if gold.title is not None:
        title_match = predicted.title is not None and soft_norm(predicted.title) == soft_norm(gold.title)
    reference_ratio: float | None = None
    if gold.n_references and predicted.n_references is not None:
        reference_ratio = predicted.n_references / gold.n_references
    return PaperScore(
        gold_sections=sum(gold_titles.values()),
        predicted_sections=sum(predicted_titles.values()),
        matched_sections=sum(matched.values()),
        title_match=title_match,
        body_recall=body_word_recall(gold.body_text, predicted.body_text),
        reference_ratio=reference_ratio,
        gold_references=gold.n_references,
        predicted_references=predicted.n_references,
    )


# --------------------------------------------------------------------------- database

_REFERENCES_NUMBER = "ref"


def predicted_from_db(db_path: Path, *, parser: str | None = None) -> dict[str, GoldPaper]:
    """Read every stored parse as a :class:`GoldPaper`, keyed by the PDF's file name.

    The references section (``section_number = 'ref'``), an abstract's section (in any
    language: :func:`~paperpyramid.eval.gold.abstract_heading`) and untitled sections are
    not headings of the body, so they are not predicted titles; the body is the text of
    every context outside the references section.
    ``parser`` keeps only articles stored by that parser; without it, two articles
    from the same file name are an error, because which one to score is not known.
    """
    if not db_path.is_file():
        raise FileNotFoundError(f"corpus database not found: {db_path}")
    connection = connect_corpus(db_path, read_only=True)
    try:
        return _read_predictions(connection, parser)
    finally:
        connection.close()


def _read_predictions(connection: Connection, parser: str | None) -> dict[str, GoldPaper]:
    papers: dict[str, GoldPaper] = {}
    read: dict[str, GoldPaper] = {}  # by article id: a twin shares its article's parse
    for name, (article_id, title) in _articles_by_pdf(connection, parser).items():
        if article_id not in read:
            read[article_id] = _read_article(connection, article_id, title)
        papers[name] = read[article_id]
    return papers


def _articles_by_pdf(connection: Connection, parser: str | None) -> dict[str, tuple[str, Any]]:
    """(article id, title) of every stored article, keyed by its PDF's file name.

    A file ingested under another name with the same bytes (logged as skipped, with the
    article's id) maps to that article too.
    """
    articles: dict[str, tuple[str, Any]] = {}
    for article_id, title, source_uri, article_parser in parse_eval.stored_articles(connection):
        if parser is not None and article_parser != parser:
            continue
        name = file_name(str(source_uri or ""))
        if not name:
            continue  # an article without a source can't be paired with gold
        if name.lower().endswith((".tex", ".ltx")):
            name = str(PurePosixPath(name).with_suffix(".pdf"))  # read from source, paired with the PDF of its name
        if name in articles:
            raise ValueError(
                f"articles {articles[name][0]!r} and {article_id!r} both come from {name!r}; pass parser= to choose which parse to score"
            )
        articles[name] = (str(article_id), title)
    # the same bytes ingested under another name are logged as skipped with the article's id
    twins = parse_eval.skipped_twins(connection)
    owners = {entry[0]: entry for entry in articles.values()}
    for source_uri, article_id in twins:
        name = file_name(str(source_uri))
        if name and name not in articles and str(article_id) in owners:
            articles[name] = owners[str(article_id)]
    return articles


def read_stored_tables(db_path: Path, *, parser: str | None = None) -> dict[str, list[TableGrid]]:
    """Every stored article's tables in printed order, keyed by its PDF's file name.

    A database without a ``tables`` table (an older or hand-made corpus) has no tables.
    """
    connection = connect_corpus(db_path, read_only=True)
    try:
        if not parse_eval.has_tables(connection):
            return {}
        return {
            name: [
                TableGrid(table.label, table.caption or "", tuple(tuple(row) for row in table.cells))
                for table in read_tables(connection, article_id)
            ]
            for name, (article_id, _) in _articles_by_pdf(connection, parser).items()
        }
    finally:
        connection.close()


def _read_article(connection: Connection, article_id: str, title: Any) -> GoldPaper:
    section_titles: list[str] = []
    texts: list[str] = []
    for section_id, number, section_title in parse_eval.sections(connection, article_id):
        if number == _REFERENCES_NUMBER:
            continue
        heading = (section_title or "").strip()
        if heading and not abstract_heading(heading):
            section_titles.append(heading)
        texts.extend(str(text) for text in parse_eval.section_texts(connection, section_id) if text)
    n_references = parse_eval.reference_count(connection, article_id)
    return GoldPaper(
        title=str(title) if title else None,
        section_titles=section_titles,
        body_text="\n\n".join(texts),
        n_references=int(n_references),
    )


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class PaperResult:
    """One scored paper: which PDF, which gold file of which kind, and the score."""

    pdf: str
    gold_file: str
    gold_kind: str
    score: PaperScore


@dataclass(frozen=True)
class OverallScore:
    """Corpus-level figures; ``None`` where no paper gave a value to average."""

    papers: int
    micro_precision: float | None
    micro_recall: float | None
    micro_f1: float | None
    macro_f1: float | None
    title_accuracy: float | None
    titles_scored: int
    mean_body_recall: float | None
    median_reference_ratio: float | None


@dataclass
class EvalReport:
    papers: list[PaperResult]
    overall: OverallScore
    #: gold rows whose PDF has no parse in the database
    missing: list[str] = field(default_factory=list)
    #: every stored article's coverage of its PDF's text layer, (pdf, coverage), lowest first
    coverage: list[tuple[str, float | None]] = field(default_factory=list)
    #: (pdf, score) of every gold paper's title, authors, DOI, journal and year
    metadata: list[tuple[str, MetadataScore]] = field(default_factory=list)
    #: the tables of every paper with JATS gold (see :mod:`paperpyramid.eval.table_scores`)
    tables: list[PaperTables] = field(default_factory=list)
    #: every stored table of the corpus, gold or not
    census: TableCensus | None = None
    #: numbered display equations of every paper with LaTeX gold (see :mod:`paperpyramid.eval.formulas`)
    formulas: list[FormulaScore] = field(default_factory=list)


#: the coverage an article should reach (issue: no text may vanish silently)
COVERAGE_AIM = 0.98


_METADATA_COLUMNS = ("source_uri", "title", "authors", "doi", "journal", "date_published")


def read_metadata(db_path: Path) -> dict[str, Metadata]:
    """Every stored article's bibliographic fields, keyed by its PDF's file name."""
    connection = connect_corpus(db_path, read_only=True)
    try:
        rows = parse_eval.article_columns(connection, _METADATA_COLUMNS)
    finally:
        connection.close()
    found: dict[str, Metadata] = {}
    for uri, title, authors, doi, journal, published in rows:
        people = [a for a in json.loads(authors or "[]") if isinstance(a, dict)]
        names = [str(a.get("name", "")) for a in people]
        places = {family_name(str(a.get("name", ""))): str(a["affiliation"]).split("; ") for a in people if a.get("affiliation")}
        found[file_name(str(uri or ""))] = Metadata(
            title=title,
            authors=names,
            doi=doi,
            journal=[journal] if journal else None,
            year=year_of(published),
            affiliations=places or None,
        )
    return found


def read_from_xml(db_path: Path) -> int:
    """How many stored articles took their structure from JATS XML (parser ``jats``, ``jats+...``):
    scored against the same XML as gold, they measure nothing (ingest with ``--no-jats``)."""
    connection = connect_corpus(db_path, read_only=True)
    try:
        return parse_eval.from_xml_count(connection)
    finally:
        connection.close()


def read_coverage(db_path: Path) -> list[tuple[str, float | None]]:
    """(PDF name, coverage) of every stored article, lowest coverage first, unmeasured last."""
    connection = connect_corpus(db_path, read_only=True)
    try:
        rows = [(file_name(str(uri or "")), value) for uri, value in parse_eval.article_columns(connection, ("source_uri", "coverage"))]
    finally:
        connection.close()
    return sorted(rows, key=lambda row: (row[1] is None, row[1] or 0.0, row[0]))


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summarise(results: list[PaperResult]) -> OverallScore:
    """Micro figures from summed counts, macro F1 as the mean of per-paper F1."""
    scores = [r.score for r in results]
    if not scores:
        return OverallScore(0, None, None, None, None, None, 0, None, None)
    matched = sum(s.matched_sections for s in scores)
    gold = sum(s.gold_sections for s in scores)
    predicted = sum(s.predicted_sections for s in scores)
    empty = gold == 0 and predicted == 0
    precision = _ratio(matched, predicted, both_empty=empty)
    recall = _ratio(matched, gold, both_empty=empty)
    titles = [s.title_match for s in scores if s.title_match is not None]
    bodies = [s.body_recall for s in scores if s.body_recall is not None]
    ratios = [s.reference_ratio for s in scores if s.reference_ratio is not None]
    return OverallScore(
        papers=len(scores),
        micro_precision=precision,
        micro_recall=recall,
        micro_f1=_f1(precision, recall),
        macro_f1=_mean([s.f1 for s in scores]),
        title_accuracy=_mean([1.0 if t else 0.0 for t in titles]),
        titles_scored=len(titles),
        mean_body_recall=_mean(bodies),
        median_reference_ratio=statistics.median(ratios) if ratios else None,
    )


@dataclass(frozen=True)
class ManifestRow:
    file: str
    kind: str
    pairs_with: str


def read_manifest(path: Path) -> list[ManifestRow]:
    """The rows of a corpus ``MANIFEST.tsv`` (columns file, kind, pairs_with, ...)."""
    with path.open(encoding="utf-8", newline="") as handle:
        # notes hold quote marks that are text, not CSV quoting
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = {"file", "kind", "pairs_with"} - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path} lacks the column(s) {', '.join(sorted(missing))}")
        return [ManifestRow(row["file"], row["kind"], row["pairs_with"] or "") for row in reader if row.get("file")]


def _is_primary_gold(row: ManifestRow) -> bool:
    # a .bbl is the compiled bibliography of its .tex: it feeds that file's reference count
    return row.kind.startswith("gold-") and not row.file.lower().endswith(".bbl")


def _formula_scores(gold_dir: Path, db_path: Path, parser: str | None) -> list[FormulaScore]:
    """The numbered displays of every stored paper with a LaTeX gold (.tex) file."""
    connection = connect_corpus(db_path, read_only=True)
    try:
        articles = _articles_by_pdf(connection, parser)
        return [
            score_formulas(row.pairs_with, gold_dir / row.file, connection, articles[row.pairs_with][0])
            for row in read_manifest(gold_dir / "MANIFEST.tsv")
            if row.file.lower().endswith(".tex") and row.pairs_with in articles
        ]
    finally:
        connection.close()


def evaluate(gold_dir: Path, db_path: Path, *, parser: str | None = None) -> EvalReport:
    """Score every parse in ``db_path`` that has a gold file in ``gold_dir/MANIFEST.tsv``."""
    predictions = predicted_from_db(db_path, parser=parser)
    stored_metadata = read_metadata(db_path)
    stored_tables = read_stored_tables(db_path, parser=parser)
    results: list[PaperResult] = []
    metadata: list[tuple[str, MetadataScore]] = []
    tables: list[PaperTables] = []
    missing: list[str] = []
    for row in read_manifest(gold_dir / "MANIFEST.tsv"):
        if not _is_primary_gold(row):
            continue
        predicted = predictions.get(row.pairs_with)
        if predicted is None:
            if row.pairs_with not in missing:  # a PDF with two gold files is missing once
                missing.append(row.pairs_with)
            continue
        gold = load_gold(gold_dir / row.file)
        results.append(PaperResult(row.pairs_with, row.file, row.kind, score_paper(gold, predicted)))
        if row.pairs_with in stored_metadata and row.pairs_with not in dict(metadata):
            scored = score_metadata(load_gold_metadata(gold_dir / row.file), stored_metadata[row.pairs_with])
            metadata.append((row.pairs_with, scored))
        if row.kind == "gold-jats" and row.pairs_with not in {paper.pdf for paper in tables}:
            tables.append(score_tables(row.pairs_with, load_gold_tables(gold_dir / row.file), stored_tables.get(row.pairs_with, [])))
    return EvalReport(
        formulas=_formula_scores(gold_dir, db_path, parser),
        papers=results,
        overall=summarise(results),
        missing=missing,
        coverage=read_coverage(db_path),
        metadata=metadata,
        tables=tables,
        census=table_census(stored_tables),
    )


# --------------------------------------------------------------------------- rendering


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _yes_no(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "no")


_COLUMNS = ("pdf", "gold", "gold#", "pred#", "match", "P", "R", "F1", "title", "body", "refs")


def render_report(report: EvalReport) -> str:
    """The report as a plain-text table, one paper a row, then the overall figures."""
    rows = [_COLUMNS]
    for result in report.papers:
        s = result.score
        rows.append(
            (
                result.pdf,
                result.gold_kind,
                str(s.gold_sections),
                str(s.predicted_sections),
                str(s.matched_sections),
                _number(s.precision),
                _number(s.recall),
                _number(s.f1),
                _yes_no(s.title_match),
                _number(s.body_recall),
                _number(s.reference_ratio),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(_COLUMNS))]
    lines = [
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))) for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += ["", *_overall_lines(report.overall)]
    lines += _metadata_lines(report.metadata)
    lines += render_tables(report.tables)
    lines += render_formulas(report.formulas)
    lines += render_census(report.census) if report.census else []
    if report.missing:
        lines += ["", f"no parse in the database for {len(report.missing)} gold paper(s):"]
        lines += [f"  {name}" for name in report.missing]
    measured = [value for _, value in report.coverage if value is not None]
    if measured:
        below = [(name, value) for name, value in report.coverage if value is not None and value < COVERAGE_AIM]
        lines += ["", f"coverage of the PDF text layer: {len(measured) - len(below)} of {len(measured)} articles at {COVERAGE_AIM} or more, "
                      f"median {statistics.median(measured):.3f}, lowest {min(measured):.3f}" + (" ; below:" if below else "")]  # fmt: skip
        lines += [f"  {value:.3f}  {name}" for name, value in below]
    return "\n".join(lines)


def _metadata_lines(scored: list[tuple[str, MetadataScore]]) -> list[str]:
    if not scored:
        return []
    lines = ["", "metadata (yes / no / - where the gold file does not say):", "  " + "  ".join(f"{name:>7}" for name in FIELDS) + "  pdf"]
    for pdf, score in scored:
        lines.append("  " + "  ".join(f"{_yes_no(score.fields.get(name)):>7}" for name in FIELDS) + f"  {pdf}")
    figures = accuracies([score for _, score in scored])
    matched = sum(score.authors_matched for _, score in scored)
    gold = sum(score.authors_gold for _, score in scored)
    predicted = sum(score.authors_predicted for _, score in scored)
    summary = ", ".join(f"{name} {_number(value)} (of {count})" for name, (value, count) in figures.items())
    lines.append(
        f"metadata accuracy: {summary}; author names P={_number(_ratio(matched, predicted, both_empty=False))} R={_number(_ratio(matched, gold, both_empty=False))}"
    )
    pairs = sum(score.affiliations_gold for _, score in scored)
    if pairs:
        found = sum(score.affiliations_found for _, score in scored)
        right, given = sum(score.affiliations_right for _, score in scored), sum(score.affiliations_predicted for _, score in scored)
        papers = sum(1 for _, score in scored if score.affiliations_gold)
        lines.append(f"affiliations (author-affiliation pairs of {papers} papers): P={_number(_ratio(right, given, both_empty=False))} "
                     f"R={_number(_ratio(found, pairs, both_empty=False))} ({found} of {pairs} gold pairs found, {right} of {given} given right)")  # fmt: skip
    return lines


def _overall_lines(overall: OverallScore) -> list[str]:
    micro = f"micro P={_number(overall.micro_precision)} R={_number(overall.micro_recall)} F1={_number(overall.micro_f1)}"
    titles = f"{_number(overall.title_accuracy)} (of {overall.titles_scored} with a gold title)"
    return [
        f"papers scored: {overall.papers}",
        f"section titles (soft match): {micro}; macro F1={_number(overall.macro_f1)}",
        f"title accuracy: {titles}",
        f"mean body word recall: {_number(overall.mean_body_recall)}",
        f"median reference count ratio (parsed/gold): {_number(overall.median_reference_ratio)}",
    ]


def report_to_json(report: EvalReport) -> dict[str, Any]:
    """The report as plain JSON-ready data, per-paper precision/recall/F1 included."""
    return {
        "papers": [
            {
                "pdf": r.pdf,
                "gold_file": r.gold_file,
                "gold_kind": r.gold_kind,
                "gold_sections": r.score.gold_sections,
                "predicted_sections": r.score.predicted_sections,
                "matched_sections": r.score.matched_sections,
                "precision": r.score.precision,
                "recall": r.score.recall,
                "f1": r.score.f1,
                "title_match": r.score.title_match,
                "body_recall": r.score.body_recall,
                "reference_ratio": r.score.reference_ratio,
                "gold_references": r.score.gold_references,
                "predicted_references": r.score.predicted_references,
            }
            for r in report.papers
        ],
        "overall": asdict(report.overall),
        "formulas": [asdict(item) for item in report.formulas],
        "missing": list(report.missing),
        "coverage": [{"pdf": name, "coverage": value} for name, value in report.coverage],
        "metadata": {
            "papers": [
                {
                    "pdf": pdf,
                    **score.fields,
                    "authors_matched": score.authors_matched,
                    "authors_gold": score.authors_gold,
                    "authors_predicted": score.authors_predicted,
                }
                for pdf, score in report.metadata
            ],  # fmt: skip
            "accuracy": {name: value for name, (value, _) in accuracies([score for _, score in report.metadata]).items()},
        },
        "tables": tables_to_json(report.tables),
        "table_census": {**asdict(report.census), "prose": list(report.census.prose)} if report.census else None,
    }
