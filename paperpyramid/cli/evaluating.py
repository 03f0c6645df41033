"""``paperpyramid eval``: score a corpus against gold files: ``parse`` (the parsed structure),
``retrieval`` (passages per mode and strategy) and ``answers`` (answers graded by a judge model).
Each prints a text report and, with ``--json`` or ``--out``, the figures as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.progress import TextColumn

from paperpyramid.cli.common import (
    DbOption,
    LLMBackendChoice,
    _bar,
    _complete_list,
    _compression,
    _error,
    _fail,
    _invalid,
    _llm_settings,
    _reading,
    _usage,
)
from paperpyramid.errors import PaperPyramidError
from paperpyramid.settings import DEFAULT_BUDGET_TOKENS, LEVELS, LLM_STRATEGIES, SEARCH_MODES, STRATEGIES

if TYPE_CHECKING:
    from paperpyramid.asking.answer import Answer
    from paperpyramid.corpus import Corpus
    from paperpyramid.eval.answers import AnswerResult
    from paperpyramid.eval.retrieval import Question, QuestionResult, Retriever
    from paperpyramid.llm import LLM
    from paperpyramid.retrieval.filters import Filters
    from paperpyramid.settings import LLMSettings


#: what eval retrieval --modes takes: a mode, a pyramid level (alone, LEVEL:bm25 or LEVEL:vector), an LLM strategy
EVAL_MODES = (*SEARCH_MODES, *(level for level in LEVELS if level != "contexts"),
              *(f"{level}:{mode}" for level in LEVELS if level != "contexts" for mode in ("bm25", "vector")), *LLM_STRATEGIES)  # fmt: skip


def eval_parse(
    gold_dir: Annotated[Path, typer.Argument(help="A folder with MANIFEST.tsv and gold .nxml / .tei.xml / .tex files.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object on one line on stdout (the text report goes to stderr).")
    ] = False,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE", help="Also write the full report as JSON to this file.")] = None,
    citations: Annotated[
        bool,
        typer.Option(
            "--citations/--no-citations",
            help="Also score in-text citation linking against the gold: the JATS <xref>s, or a LaTeX "
            "source's \\cite commands with its \\bibitem list or .bbl; each such PDF is parsed here "
            "with the embedded parser (about 40 s for 20 papers).",
        ),
    ] = True,
) -> None:
    """Score parsed articles against gold files: soft section-title P/R/F1, title match,
    body-text word recall and reference-count ratio, per paper and overall; then in-text
    citations linked to their entries, against each <xref ref-type="bibr"> of a JATS gold or each
    \\cite of a LaTeX gold that has its bibliography (``\\bibitem`` or a ``.bbl``)."""
    from paperpyramid.eval.parse import evaluate, read_from_xml, render_report, report_to_json

    if not (gold_dir / "MANIFEST.tsv").is_file():
        raise _usage(f"{gold_dir} has no MANIFEST.tsv")
    if not db.is_file():
        raise _fail(f"no corpus at {db}")
    from_xml = read_from_xml(db)
    if from_xml:
        typer.echo(
            f"warning: {from_xml} article(s) in {db} took their structure from JATS XML, and score against the same XML as gold; "
            "ingest the PDFs with --no-jats to measure the PDF parser",
            err=True,
        )
    report = evaluate(gold_dir, db)
    typer.echo(render_report(report), err=as_json)
    payload = report_to_json(report)
    if citations:
        from paperpyramid.eval.citations import citations_to_json, evaluate_citations, render_citations

        scored = evaluate_citations(gold_dir)
        typer.echo("\n".join(render_citations(scored)), err=as_json)
        payload["citations"] = citations_to_json(scored)
    _report(payload, as_json, out_file)


AsJson = Annotated[
    bool, typer.Option("--json", help="Print the report as one JSON object on one line on stdout (the text report goes to stderr).")
]
RetrievalQA = Annotated[
    Path, typer.Argument(help="A QA .jsonl file: one question a line with id, question, kind, evidence (see the evaluation guide).")
]
Modes = Annotated[
    str,
    typer.Option(
        metavar="NAMES",
        autocompletion=lambda incomplete: _complete_list(incomplete, EVAL_MODES),
        help="Comma-separated, scored side by side: a search mode, a pyramid level (hybrid, or LEVEL:bm25 / LEVEL:vector) or an "
        f"LLM-driven strategy (see --llm-backend); any of: {', '.join(EVAL_MODES)}.",
    ),
]
Depth = Annotated[
    int,
    typer.Option(
        min=20,
        help="Passages retrieved per question, deep enough for the metric (MRR@10, R@20, evidence within 8k tokens); parent: its own hits, widened.",
    ),
]
OnlyDistilled = Annotated[
    bool,
    typer.Option("--only-distilled", help="Only the questions about distilled papers, and search only those papers (every mode alike)."),
]
RetrievalLimit = Annotated[
    int | None,
    typer.Option(min=1, help="Only the first N questions (after --only-distilled): a strategy with a slow model takes hours on all."),
]
StrategyBudget = Annotated[
    int,
    typer.Option(
        min=1,
        help="Tokens of passages a strategy hands over (the modes return their --depth passages uncut); "
        "8000 by default here, the largest cut the metric scores.",
    ),
]
StrategyBackend = Annotated[
    LLMBackendChoice | None, typer.Option(help="The strategies' LLM backend: local (default) or openai (OPENAI_BASE_URL).")
]
LLMModel = Annotated[str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")]
FilterModel = Annotated[
    str | None,
    typer.Option(
        help="With multiquery: a smaller model on the same endpoint for the relevance filter (default: PAPERPYRAMID_LLM__FILTER_MODEL, else the answering model)."
    ),
]
RetrievalOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="FILE",
        help="Also write the full report (per kind, per question ranks, LLM tokens and failures) to this file as JSON.",
    ),
]


def eval_retrieval(
    qa: RetrievalQA,
    db: DbOption = Path("paperpyramid.sqlite"),
    modes: Modes = "bm25,vector,hybrid,parent",
    depth: Depth = 100,
    only_distilled: OnlyDistilled = False,
    limit: RetrievalLimit = None,
    budget_tokens: StrategyBudget = 8000,
    llm_backend: StrategyBackend = None,
    llm_model: LLMModel = None,
    filter_model: FilterModel = None,
    as_json: AsJson = False,
    out_file: RetrievalOut = None,
) -> None:
    """Score retrieval on a QA set: MRR@10, R@5, R@20,
    evidence within 2k/4k/8k tokens, all-evidence@20 for cross-* questions, latency, and the
    passages' tokens and the LLM tokens spent per question; every mode and strategy in one run,
    per question kind. A strategy is scored on the passages it hands to the answering model, in
    that order; a question on which its model's reply is unreadable counts as no passages and
    as "failed". A hit on a pyramid level counts when one of its source contexts matches (the
    drill-down); the report gives each level's compression ratio."""
    from paperpyramid.asking.strategies import STRATEGIES
    from paperpyramid.eval.retrieval import evaluate, load_questions, render_report, report_to_json, retrievers

    if not qa.is_file():
        raise _usage(f"no QA file at {qa}")
    questions = load_questions(qa)
    names = [name.strip() for name in modes.split(",") if name.strip()]
    strategies = [name for name in names if name in STRATEGIES]
    llm, llm_settings = _eval_llm(llm_backend, llm_model) if strategies else (None, None)
    filter_settings = llm_settings.for_filter(filter_model) if llm_settings is not None else None
    filter_llm = _eval_llm(None, None, filter_settings)[0] if strategies and filter_settings is not None else None
    with _reading(db) as corpus:
        questions, filters = _chosen_questions(corpus, questions, db, only_distilled, limit, as_json)
        if llm is not None and llm_settings is not None:
            typer.echo(
                f"strategies {', '.join(strategies)} with {llm.name}"
                + (f" (filter: {filter_llm.name})" if filter_llm else "")
                + f", passages cut to {budget_tokens} tokens"
                + ("; replies from the response cache cost no tokens" if llm_settings.cache else ""),
                err=as_json,
            )
        try:
            chosen = retrievers(corpus, names, k=depth, filters=filters, llm=llm, filter_llm=filter_llm, budget_tokens=budget_tokens)
            _warm_up(corpus, chosen, names, strategies)
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        with _scoring_bar(len(questions) * len(names), strategies) as on_question:
            try:
                reports = evaluate(questions, chosen, on_question=on_question)
            except PaperPyramidError as exc:
                raise _fail(f"stopped: {exc}") from exc
        ratios = _compression(corpus.conn, filters.article_ids)
    typer.echo(render_report(reports), err=as_json)
    _print_compression(ratios)
    data = report_to_json(reports)
    data["compression"] = {level: {"items": items, "tokens": tokens, "ratio": ratio} for level, (items, tokens, ratio) in ratios.items()}
    _report(data, as_json, out_file)


def _chosen_questions(
    corpus: Corpus, questions: list[Question], db: Path, only_distilled: bool, limit: int | None, as_json: bool
) -> tuple[list[Question], Filters]:
    """The questions to score and the filters every mode searches with: with ``only_distilled``,
    the questions about the distilled papers and only those papers; then the first ``limit``."""
    from paperpyramid.db.queries.distilled import distilled_sources
    from paperpyramid.retrieval.filters import Filters
    from paperpyramid.source_names import names_of

    filters = Filters()
    if only_distilled:
        distilled = {name: aid for aid, uri, pages in distilled_sources(corpus.conn) for name in names_of(uri, pages)}
        if not distilled:
            raise _fail(f"no distilled articles in {db}: run paperpyramid distill first")
        questions = [q for q in questions if q.pdfs and all(pdf in distilled for pdf in q.pdfs)]
        papers = tuple(dict.fromkeys(distilled.values()))
        filters = Filters(article_ids=papers)
        typer.echo(
            f"{len(questions)} questions about the {len(papers)} distilled papers; every mode searches only those papers",
            err=as_json,
        )
    if limit is not None and limit < len(questions):
        typer.echo(f"the first {limit} of {len(questions)} questions (--limit {limit})", err=as_json)
        questions = questions[:limit]
    return questions, filters


def _warm_up(corpus: Corpus, chosen: dict[str, Retriever], names: list[str], strategies: list[str]) -> None:
    """Load the models and check the modes before any question is timed."""
    for name in names:
        if name not in strategies:
            chosen[name]("warm-up")  # loads the model and checks the mode
    if strategies:
        corpus.retrieve("warm-up", mode=corpus.best_mode(), k=1)  # the query embedder


@contextmanager
def _scoring_bar(total: int, strategies: list[str]) -> Iterator[Callable[[str, QuestionResult], None]]:
    """A progress bar over ``total`` scored questions (with the strategies' LLM tokens and
    failures when there are any); yields the callback that advances it."""
    spent = [0, 0]  # llm tokens, failures
    columns = [TextColumn("{task.fields[tokens]} llm tokens, {task.fields[failed]} failed")] if strategies else []
    progress = _bar("eval", *columns, transient=True)
    task = progress.add_task("eval", total=total, tokens=0, failed=0)

    def on_question(mode: str, result: QuestionResult) -> None:
        spent[0] += result.llm_tokens
        spent[1] += result.failure is not None
        progress.update(task, advance=1, tokens=spent[0], failed=spent[1])

    with progress:
        yield on_question


def _print_compression(ratios: dict[str, tuple[int, int, float]]) -> None:
    if ratios:
        typer.echo(
            "compression (tokens of the level / tokens of the same papers' contexts): "
            + ", ".join(
                f"{level} {items} items {tokens} tokens = {ratio:.3f} ({1 / ratio:.1f}x smaller)" if ratio else f"{level} none"
                for level, (items, tokens, ratio) in ratios.items()
            )
        )


AnswersQA = Annotated[
    Path,
    typer.Argument(help="A QA .jsonl file with reference answers: id, question, kind, answer, evidence (see the evaluation guide)."),
]
Strategies = Annotated[
    str,
    typer.Option(
        metavar="NAMES",
        autocompletion=lambda incomplete: _complete_list(incomplete, STRATEGIES),
        help="Comma-separated strategies, graded side by side: any of ask's (parent, hybrid, cross, bm25, vector, multiquery, walk, walkingrag, pyramid).",
    ),
]
AnswerBudget = Annotated[int, typer.Option(min=1, help="Tokens of passages handed to the answering model (as ask's --budget-tokens).")]
AnswerBackend = Annotated[
    LLMBackendChoice | None, typer.Option(help="The answering LLM's backend: local (default) or openai (OPENAI_BASE_URL).")
]
AnswerModel = Annotated[str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the answering model's name.")]
JudgeBackend = Annotated[LLMBackendChoice | None, typer.Option(help="The judge's LLM backend (default: the answering model's).")]
JudgeModel = Annotated[str | None, typer.Option(metavar="NAME", help="The judge's model name (default: the answering model).")]
AnswersLimit = Annotated[int | None, typer.Option(min=1, help="Only the first N questions (with a reference answer).")]
AnswersOut = Annotated[
    Path | None,
    typer.Option(
        "--out",
        metavar="FILE",
        help="Also write the figures and a row per question and strategy (answer, verdict, reason, citations checked, tokens) to this file as JSON.",
    ),
]


def eval_answers(
    qa: AnswersQA,
    db: DbOption = Path("paperpyramid.sqlite"),
    strategy: Strategies = "parent",
    budget_tokens: AnswerBudget = DEFAULT_BUDGET_TOKENS,
    llm_backend: AnswerBackend = None,
    llm_model: AnswerModel = None,
    judge_backend: JudgeBackend = None,
    judge_model: JudgeModel = None,
    limit: AnswersLimit = None,
    as_json: AsJson = False,
    out_file: AnswersOut = None,
) -> None:
    """Grade answers on a QA set: each question answered by each strategy as ask answers it,
    its supported claims graded against the reference answer by a judge model (correct /
    partial / wrong; score = correct + 0.5 x partial), every citation of a supported claim
    checked (it resolves to the stored context and page; it holds the question's gold
    evidence; it backs its claim), and the tokens spent per question, the judge's apart."""
    from paperpyramid.asking.trace import Step
    from paperpyramid.eval.answers import evaluate_answers, render_report, report_to_json
    from paperpyramid.eval.retrieval import load_questions

    if not qa.is_file():
        raise _usage(f"no QA file at {qa}")
    names = _strategy_names(strategy)
    questions = [question for question in load_questions(qa) if question.answer]
    if limit is not None and limit < len(questions):
        typer.echo(f"the first {limit} of {len(questions)} questions (--limit {limit})", err=as_json)
        questions = questions[:limit]
    llm, llm_settings = _eval_llm(llm_backend, llm_model)
    judge = _eval_llm(judge_backend, judge_model, llm_settings)[0] if judge_backend or judge_model else llm
    typer.echo(
        f"answers by {llm.name} from {budget_tokens} tokens of passages, judged by {judge.name}"
        + ("; replies from the response cache cost no tokens" if llm_settings.cache else ""),
        err=as_json,
    )
    with _reading(db) as corpus:

        def ask(question: str, name: str, on_step: Callable[[Step], None]) -> Answer:
            answer: Answer = corpus.ask(question, strategy=name, budget_tokens=budget_tokens, llm=llm, on_step=on_step)
            return answer

        with _grading_bar(len(questions) * len(names)) as on_question:
            try:
                reports = evaluate_answers(corpus.conn, questions, names, ask, judge, on_question=on_question)
            except (PaperPyramidError, ValueError) as exc:
                raise _fail(f"stopped: {exc}") from exc
    typer.echo(render_report(reports), err=as_json)
    _report(report_to_json(reports, answerer=llm.name, judge=judge.name), as_json, out_file)


def _strategy_names(strategy: str) -> list[str]:
    """The comma-separated names in ``strategy``, each a retrieval mode or a strategy; a usage
    error names the first that is neither."""
    from paperpyramid.asking.strategies import STRATEGIES
    from paperpyramid.retrieval.api import MODES

    names = [name.strip() for name in strategy.split(",") if name.strip()]
    unknown = [name for name in names if name not in (*MODES, *STRATEGIES)]
    if unknown or not names:
        raise _usage(f"unknown strategy {unknown[0] if unknown else strategy!r}; choose from: {', '.join((*MODES, *STRATEGIES))}")
    return names


@contextmanager
def _grading_bar(total: int) -> Iterator[Callable[[AnswerResult], None]]:
    """A progress bar over ``total`` graded answers with the tokens spent, the judge's apart;
    yields the callback that advances it."""
    spent = [0, 0]  # the answers' tokens, the judge's
    progress = _bar("eval", TextColumn("{task.fields[answer]} answer + {task.fields[judge]} judge tokens"), transient=True)
    task = progress.add_task("eval", total=total, answer=0, judge=0)

    def on_question(result: AnswerResult) -> None:
        spent[0] += result.answer_tokens
        spent[1] += result.judge_tokens
        progress.update(task, advance=1, answer=spent[0], judge=spent[1])

    with progress:
        yield on_question


def _report(payload: dict[str, Any], as_json: bool, out_file: Path | None) -> None:
    """An eval's report as JSON: one line on stdout with --json, a file with --out."""
    if out_file is not None:
        out_file.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(payload, ensure_ascii=False))


def _eval_llm(backend: str | None, model: str | None, base: LLMSettings | None = None) -> tuple[LLM, LLMSettings]:
    """The model that --llm-backend and --llm-model name over ``base`` (default: the configured LLM),
    or one clear line why there is none."""
    from paperpyramid.llm import get_llm
    from paperpyramid.settings import Settings

    try:
        settings = _llm_settings(base or Settings().llm, backend, model)
        return get_llm(settings), settings
    except ValidationError as exc:
        raise _invalid(exc) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc
