"""The reading commands that answer from the corpus: ``search`` (cited passages), ``ask`` (an
answer of cited claims) and ``cite`` (the works ids name, for a reference manager)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from pydantic import ValidationError
from rich.markup import escape

from paperpyramid.cli.common import (
    _CONTEXTS,
    _PARENT,
    CiteFormat,
    DbOption,
    LevelChoice,
    LLMBackendChoice,
    ModeChoice,
    StrategyChoice,
    _error,
    _invalid,
    _llm_settings,
    _reading,
    console,
    out,
)
from paperpyramid.errors import PaperPyramidError
from paperpyramid.settings import DEFAULT_BUDGET_TOKENS, DEFAULT_K

if TYPE_CHECKING:
    from paperpyramid.asking.answer import Answer
    from paperpyramid.asking.trace import Step
    from paperpyramid.corpus import Corpus
    from paperpyramid.llm import LLM
    from paperpyramid.retrieval.filters import Filters

YearFrom = Annotated[int | None, typer.Option(help="Only articles published in or after this year.")]
YearTo = Annotated[int | None, typer.Option(help="Only articles published in or before this year.")]
Journal = Annotated[str | None, typer.Option(help="Only articles of this journal.")]
Mesh = Annotated[
    str | None, typer.Option(metavar="HEADING", help='Only articles indexed with this MeSH heading, e.g. "Neoplasms" (any case).')
]
PublicationType = Annotated[
    str | None,
    typer.Option(metavar="TYPE", help='Only articles of this PubMed publication type, e.g. "Review" or "Randomized Controlled Trial".'),
]


def _filters(
    article: list[str] | None,
    year_from: int | None,
    year_to: int | None,
    journal: str | None,
    mesh: str | None,
    publication_type: str | None,
    references: bool = False,
) -> Filters:
    from paperpyramid.retrieval.filters import Filters

    return Filters(article_ids=tuple(article) if article else None, year_from=year_from, year_to=year_to, journal=journal,
                   include_references=references, mesh=mesh, publication_type=publication_type)  # fmt: skip


def search(
    query: Annotated[str, typer.Argument(help="What to look for: words or a question.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    mode: Annotated[ModeChoice | None, typer.Option(help="How to search (default: hybrid when the corpus has vectors, else bm25).")] = None,
    level: Annotated[
        LevelChoice, typer.Option(help="What to search: contexts (the text), or a level of the knowledge pyramid.")
    ] = _CONTEXTS,
    k: Annotated[
        int, typer.Option("-k", "--k", min=1, help="Number of results (parent: always its 5 best hits, widened with their neighbours).")
    ] = DEFAULT_K,
    budget_tokens: Annotated[int, typer.Option(min=1, help="Cut the results at this many tokens.")] = DEFAULT_BUDGET_TOKENS,
    article: Annotated[list[str] | None, typer.Option("--article", help="Only this article (id); repeat for more.")] = None,
    year_from: YearFrom = None,
    year_to: YearTo = None,
    journal: Journal = None,
    mesh: Mesh = None,
    publication_type: PublicationType = None,
    references: Annotated[bool, typer.Option("--references", help="Search the references sections too.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per line instead of text.")] = False,
) -> None:
    """Search the corpus and print cited passages."""
    filters = _filters(article, year_from, year_to, journal, mesh, publication_type, references)
    with _reading(db) as corpus:
        try:
            hits = corpus.retrieve(
                query, mode=mode.value if mode else corpus.best_mode(), k=k, budget_tokens=budget_tokens, filters=filters, level=level.value
            )
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        if not hits:
            console.print("no results")
        dois: dict[str, str | None] = {}

        def doi_of(article_id: str) -> str | None:
            if article_id not in dois:
                dois[article_id] = corpus.article(article_id).doi
            return dois[article_id]

        for rank, hit in enumerate(hits, 1):
            if as_json:
                citation = hit.citation
                record = {
                    "rank": rank,
                    "score": hit.score,
                    "context_id": hit.context_id,
                    "article_id": citation.article_id,
                    "doi": doi_of(citation.article_id),
                    "title": citation.article_title,
                    "section_number": citation.section_number,
                    "section_title": citation.section_title,
                    "page": citation.page_number,
                    "num_tokens": hit.num_tokens,
                    "citation": hit.cite(),
                    "text": hit.text,
                }
                if hit.level != "contexts":
                    record |= {
                        "level": hit.level,
                        "item_id": hit.item_id,
                        "sources": [
                            {"context_id": source.context_id, "citation": source.cite(), "page": source.citation.page_number}
                            for source in hit.sources
                        ],
                    }
                typer.echo(json.dumps(record, ensure_ascii=False))
            else:
                out.print(f"[bold]{rank}.[/] [cyan]{escape(hit.cite())}[/]  (score {hit.score:.3g})")
                text = hit.text if len(hit.text) <= 400 else hit.text[:400] + "…"
                out.print(f"   {escape(text)}", highlight=False)
                for source in hit.sources[:3]:
                    out.print(f"   [dim]↳ from {escape(source.cite())}[/]", highlight=False)
                out.print("")


Strategy = Annotated[
    StrategyChoice,
    typer.Option(
        help="How passages are found: a retrieval mode (parent, the default; hybrid, cross, bm25, vector) or an LLM-driven "
        "strategy: multiquery (query variants, a relevance filter), walk (the model reads a paper section by section), "
        "walkingrag (rounds of partial facts, each saying where to look next), pyramid (the search agent over the knowledge pyramid)."
    ),
]
FilterModel = Annotated[
    str | None,
    typer.Option(
        help="With --strategy multiquery: a smaller model on the same endpoint for the relevance filter (default: PAPERPYRAMID_LLM__FILTER_MODEL, else the answering model)."
    ),
]
AskBudget = Annotated[int, typer.Option(min=1, help="Tokens of passages handed to the model.")]
MaxSteps = Annotated[int, typer.Option(min=1, help="LLM-driven strategies: at most this many moves or rounds.")]
MaxLLMTokens = Annotated[
    int, typer.Option(min=100, help="LLM-driven strategies: stop finding once this many LLM tokens are spent (the answer comes after).")
]
Backend = Annotated[LLMBackendChoice | None, typer.Option(help="LLM backend: local (default) or openai (OPENAI_BASE_URL).")]
Model = Annotated[str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")]
AnswerJson = Annotated[
    bool,
    typer.Option("--json", help="Print one JSON object on one line: answer, claims, citations (context id, page, title), steps, usage."),
]
WorksFormat = Annotated[
    CiteFormat,
    typer.Option(
        "--format",
        help='text: the answer; bibtex or csl-json: the answer, then the works its supported claims cite in that format (with --json: under "works").',
    ),
]
Articles = Annotated[list[str] | None, typer.Option("--article", help="Only this article (id); repeat for more.")]


def ask(
    question: Annotated[str, typer.Argument(help="The question, in words.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    strategy: Strategy = _PARENT,
    filter_model: FilterModel = None,
    budget_tokens: AskBudget = DEFAULT_BUDGET_TOKENS,
    max_steps: MaxSteps = 8,
    max_llm_tokens: MaxLLMTokens = 30_000,
    llm_backend: Backend = None,
    llm_model: Model = None,
    as_json: AnswerJson = False,
    format_: WorksFormat = CiteFormat.text,
    article: Articles = None,
    year_from: YearFrom = None,
    year_to: YearTo = None,
    journal: Journal = None,
    mesh: Mesh = None,
    publication_type: PublicationType = None,
) -> None:
    """Answer a question from the corpus, every claim cited [title, p. N] to a stored passage;
    the steps (and the facts a strategy finds) print as they happen, with their token usage."""
    from paperpyramid.asking.trace import Limits

    llm, filter_llm = _ask_llms(llm_backend, llm_model, filter_model)
    with _reading(db) as corpus:
        try:
            answer = corpus.ask(
                question,
                strategy=strategy.value,
                budget_tokens=budget_tokens,
                llm=llm,
                on_step=_print_step,
                filter_llm=filter_llm,
                limits=Limits(max_steps, max_llm_tokens),
                filters=_filters(article, year_from, year_to, journal, mesh, publication_type),
            )
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        works = _cited_works(corpus, answer, format_.value) if format_ is not CiteFormat.text else None
    _print_answer(answer, works, as_json)


def _ask_llms(llm_backend: LLMBackendChoice | None, llm_model: str | None, filter_model: str | None) -> tuple[LLM, LLM | None]:
    """The answering model and the relevance filter's (None: the answering model filters), or one
    line why they cannot be had."""
    from paperpyramid.llm import get_llm
    from paperpyramid.settings import Settings

    try:
        settings = Settings()
        llm_settings = _llm_settings(settings.llm, llm_backend, llm_model)
        llm = get_llm(llm_settings)
        filter_settings = llm_settings.for_filter(filter_model)
        filter_llm = get_llm(filter_settings) if filter_settings is not None else None
    except ValidationError as exc:
        raise _invalid(exc) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    return llm, filter_llm


def _print_step(step: Step) -> None:
    """A step of the answer as it ends, with the tokens it spent (on stderr)."""
    tokens = f" ({step.prompt_tokens} + {step.completion_tokens} tokens)" if step.prompt_tokens or step.completion_tokens else ""
    console.print(f"[dim]{step.name}:[/] {escape(step.detail)}{tokens}", highlight=False)


def _print_answer(answer: Answer, works: str | None, as_json: bool) -> None:
    """The answer as one JSON line, or as text, then the works it cites and the tokens spent."""
    if as_json:
        typer.echo(json.dumps(answer.to_json() | ({"works": works} if works is not None else {}), ensure_ascii=False))
        return
    out.print(escape(answer.text), highlight=False)
    if works:
        typer.echo("")
        typer.echo(works)
    usage = answer.usage
    console.print(
        f"{len(answer.passages)} passages; {usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens", highlight=False
    )


def _cited_works(corpus: Corpus, answer: Answer, format_: str) -> str:
    """The works the answer's supported claims cite, in ``format_`` ("" when none)."""
    from paperpyramid.export.cite import format_citations

    passages = [source.context_id for claim in answer.claims if claim.supported for source in claim.sources]
    return format_citations(corpus, list(dict.fromkeys(passages)), format_) if passages else ""


def cite(
    ids: Annotated[
        list[str], typer.Argument(help="Article ids, DOIs or passage (context) ids; a passage stands for its article at its page.")
    ],
    db: DbOption = Path("paperpyramid.sqlite"),
    format_: Annotated[
        CiteFormat,
        typer.Option("--format", help="bibtex (stable keys), csl-json (Zotero, Mendeley, pandoc) or text ([title, p. N] and a reference)."),
    ] = CiteFormat.bibtex,
) -> None:
    """Print the works the ids name as citations for a reference manager, from the stored
    metadata (authors, title, journal, year, DOI, arXiv id), each once, with the pages cited."""
    from paperpyramid.export.cite import format_citations

    with _reading(db) as corpus:
        try:
            typer.echo(format_citations(corpus, ids, format_.value))
        except KeyError as exc:
            raise _error(exc) from exc
