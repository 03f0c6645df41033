"""The commands that look after the corpus itself: ``show``, ``list`` and ``status`` read it,
``embed`` adds the missing vectors, ``export`` writes articles out as markdown or JSON and
``snapshot`` publishes a copy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape

from paperpyramid.cli.common import (
    EXIT_SOME_FAILED,
    DbOption,
    EmbedderChoice,
    ExportFormat,
    _bar,
    _error,
    _fail,
    _interrupted,
    _invalid,
    _RateColumn,
    _reading,
    _writing,
    console,
    out,
)
from paperpyramid.errors import PaperPyramidError
from paperpyramid.licences import KEYS as LICENCE_KEYS

if TYPE_CHECKING:
    from paperpyramid.citation_graph import CitationLink
    from paperpyramid.corpus import Article, Corpus


def embed(
    db: DbOption = Path("paperpyramid.sqlite"),
    embedding_model: Annotated[
        EmbedderChoice | None,
        typer.Option(
            help="Embedder: minilm (default), minilm-int8 (faster, its own vectors), e5-small or openai (see PAPERPYRAMID_EMBEDDING__*)."
        ),
    ] = None,
    batch_size: Annotated[int, typer.Option(help="Contexts embedded and committed together.")] = 64,
) -> None:
    """Embed every context that has no vector from the model yet (incremental and resumable:
    a stopped run keeps what it committed, and a re-run embeds only what is missing). A vector
    that is null, of the wrong length, NaN or all zeros is refused, never stored; the run then
    says how many failed and exits 1 (stopping at the first batch with no usable vector at all,
    rather than send the rest to a broken model). An endpoint that does not answer exits 3."""
    from paperpyramid.settings import Settings

    try:
        settings = Settings()
        if embedding_model is not None:
            settings = settings.model_copy(
                update={"embedding": settings.embedding.model_validate({**settings.embedding.model_dump(), "model": embedding_model.value})}
            )
    except ValidationError as exc:
        raise _invalid(exc) from exc
    progress = _bar("embed", _RateColumn("passages"))
    task = progress.add_task("embed", total=None)
    try:
        with _writing(db, settings) as corpus:
            embedder = corpus.embedder  # loaded before the bar: a model that cannot load is one line
            with progress:
                summary = corpus.embed(
                    embedder=embedder,
                    batch_size=batch_size,
                    on_start=lambda missing: progress.update(task, total=missing),
                    on_batch=lambda done, missing: progress.update(task, completed=done),
                )
    except (PaperPyramidError, ValueError) as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        raise _interrupted("the vectors committed so far are kept, and a re-run embeds the rest") from None
    console.print(
        f"{summary.embedded} contexts embedded with {summary.embedder}"
        + (f", {summary.failed} failed (their vectors were refused)" if summary.failed else "")
        + f" in {summary.seconds:.1f} s ({summary.passages_per_second:.1f} passages/s); {summary.total} contexts in the corpus",
        highlight=False,
    )
    if summary.stopped is not None:  # unusable vectors, as below: the endpoint answered
        raise _fail(f"stopped early: {summary.stopped}; a re-run embeds what is missing", EXIT_SOME_FAILED)
    if summary.failed:
        console.print(f"[red]failed:[/] {escape(summary.first_error or '')}; a re-run tries them again", highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_SOME_FAILED)


def show(
    article_id: Annotated[str, typer.Argument(help="An article id or DOI (ids may begin with '-').")],
    db: DbOption = Path("paperpyramid.sqlite"),
    text: Annotated[bool, typer.Option("--text", help="Print every section's text, not only the outline.")] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the article as one JSON object on one line: metadata and sections (with --text, their contexts)."
        ),
    ] = False,
) -> None:
    """Print an article's metadata and its section outline (with pages)."""
    with _reading(db) as corpus:
        try:
            article = corpus.article(article_id)
        except KeyError as exc:
            raise _error(exc) from exc
        if as_json:
            typer.echo(json.dumps(_article_json(corpus, article, text), ensure_ascii=False))
            return
        out.print(f"[bold]{escape(article.title or '(untitled)')}[/]", highlight=False)
        coverage = "-" if article.coverage is None else f"{article.coverage:.3f}"
        out.print(
            f"id {article.id}  doi {article.doi or '-'}  pages {article.pages}  parser {article.parser}  coverage {coverage}",
            highlight=False,
            markup=False,
        )
        if article.ocr_pages:
            out.print(f"read by OCR: pages {', '.join(str(number) for number in article.ocr_pages)}", highlight=False, markup=False)
        for warning in article.warnings:
            out.print(f"warning: {warning}", highlight=False, markup=False)
        if article.authors:
            out.print(", ".join(author.name for author in article.authors), highlight=False, markup=False)
        for section in corpus.sections(article.id):
            indent = "  " * max(section.level - 1, 0)
            number = f"{section.number} " if section.number else ""
            out.print(
                f"{indent}{escape(number + (section.title or ''))}  [dim]({_span(section.page_start, section.page_end)}{section.num_tokens} tokens)[/]",
                highlight=False,
            )
            if text:
                for context in corpus.contexts(section.id):
                    out.print(f"{indent}  [dim]{_page(context.page_number, ' ')}[/]{escape(context.text)}\n", highlight=False)
        _print_links(corpus, article)


def _span(start: int | None, end: int | None) -> str:
    """ "p. 3–4, " as the outline prints a section's pages; nothing for an article without pages (JATS read alone)."""
    return "" if start is None else f"p. {start}–{end}, "


def _page(page: int | None, after: str) -> str:
    return "" if page is None else f"p. {page}{after}"


def _print_links(corpus: Corpus, article: Article) -> None:
    """What the article cites of the corpus and what in the corpus cites it, with the citing
    sentences and their pages."""
    cites = corpus.cites(article.id)
    linked = [link for link in cites if link.cited_article_id]
    cited_by = corpus.cited_by(article.id)
    cited_in = sum(1 for link in cites if link.passages)
    out.print(f"references {len(cites)}, {cited_in} cited in the text; {len(linked)} name articles of this corpus; cited by {len(cited_by)} "
              "entries of this corpus", highlight=False, markup=False)  # fmt: skip
    for arrow, link, other in [*(("cites", link, link.cited_article_id) for link in linked),
                               *(("cited by", link, link.citing_article_id) for link in cited_by)]:  # fmt: skip
        title = link.cited_title if arrow == "cites" else link.citing_title
        out.print(f"  {arrow} {other}  {title or '(untitled)'}", highlight=False, markup=False)
        for passage in link.passages[:3]:
            out.print(f"    {_page(passage.page_number, ': ')}{passage.sentence[:200]}", highlight=False, markup=False)


def _article_json(corpus: Corpus, article: Article, text: bool) -> dict[str, Any]:
    sections = []
    for section in corpus.sections(article.id):
        row: dict[str, Any] = {
            "id": section.id,
            "number": section.number,
            "title": section.title,
            "level": section.level,
            "page_start": section.page_start,
            "page_end": section.page_end,
            "num_tokens": section.num_tokens,
        }
        if text:
            row["contexts"] = [
                {"id": context.id, "page": context.page_number, "text": context.text} for context in corpus.contexts(section.id)
            ]
        sections.append(row)
    return {
        "id": article.id,
        "title": article.title,
        "doi": article.doi,
        "date_published": article.date_published,
        "journal": article.journal,
        "pages": article.pages,
        "authors": [author.name for author in article.authors],
        "parser": article.parser,
        "coverage": article.coverage,
        "ocr_pages": list(article.ocr_pages),
        "warnings": article.warnings,
        "source": article.source_uri,
        "sections": sections,
        "cites": [_link_json(link, link.cited_article_id) for link in corpus.cites(article.id, in_corpus=True)],
        "cited_by": [_link_json(link, link.citing_article_id) for link in corpus.cited_by(article.id)],
    }


def _link_json(link: CitationLink, other: str | None) -> dict[str, Any]:
    return {
        "article": other,
        "entry": link.entry,
        "passages": [
            {"context": passage.context_id, "page": passage.page_number, "marker": passage.marker, "sentence": passage.sentence}
            for passage in link.passages
        ],
    }


def export(
    out_dir: Annotated[Path, typer.Option("--out", help="The folder to write into (created if missing).")],
    db: DbOption = Path("paperpyramid.sqlite"),
    article: Annotated[
        list[str] | None, typer.Option("--article", help="An article id or DOI; repeat for more (default: every article).")
    ] = None,
    format_: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            help="markdown (ID.md) or json (ID.json: the article, its section tree with contexts, tables, formulas, figures, references).",
        ),
    ] = ExportFormat.markdown,
    by_page: Annotated[bool, typer.Option("--by-page", help="Markdown one file per PDF page: OUT/ID/page-N.md.")] = False,
) -> None:
    """Write articles out as markdown (title, authors, headings, text in reading order, tables,
    formulas as $$ … $$ (N), figure captions, references) or as JSON."""
    progress = _bar("export", remaining=False, transient=True, terminal_only=True)  # a bar that vanishes is only for a terminal
    task = progress.add_task("export", total=None)
    with _reading(db) as corpus:
        try:
            with progress:
                report = corpus.export(
                    out_dir,
                    format=format_.value,
                    articles=article or None,
                    by_page=by_page,
                    on_article=lambda done, total: progress.update(task, completed=done, total=total),
                )
        except (KeyError, ValueError, OSError) as exc:
            raise _error(exc) from exc
    articles = len(report.articles)
    console.print(
        f"{articles} article{'' if articles == 1 else 's'} exported as {format_.value}: {len(report.files)} files in {out_dir}",
        highlight=False,
    )


def list_articles(
    db: DbOption = Path("paperpyramid.sqlite"),
    year_from: Annotated[int | None, typer.Option(help="Only articles published in or after this year.")] = None,
    year_to: Annotated[int | None, typer.Option(help="Only articles published in or before this year.")] = None,
    journal: Annotated[str | None, typer.Option(help="Only articles of this journal.")] = None,
    title: Annotated[str | None, typer.Option(help="Only articles whose title holds this text (any case).")] = None,
    cites: Annotated[
        str | None, typer.Option("--cites", help="Only articles whose references name this article (an id or DOI) of the corpus.")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object per line: id, title, doi, year, journal, pages, authors, source, coverage."),
    ] = False,
) -> None:
    """List the articles in the corpus: id, year, DOI and title, in the order they were stored."""
    from paperpyramid.citation_graph import citing_articles
    from paperpyramid.retrieval.filters import Filters, allowed_articles, year_of

    with _reading(db) as corpus:
        allowed = allowed_articles(corpus.conn, Filters(year_from=year_from, year_to=year_to, journal=journal))
        wanted = None if allowed is None else set(allowed)
        if cites is not None:
            try:
                citing = set(citing_articles(corpus.conn, corpus.article(cites).id))
            except KeyError as exc:
                raise _error(exc) from exc
            wanted = citing if wanted is None else wanted & citing
        for article in corpus.articles():
            if (wanted is not None and article.id not in wanted) or (title and title.casefold() not in (article.title or "").casefold()):
                continue
            year = year_of(article.date_published)
            if as_json:
                typer.echo(json.dumps({"id": article.id, "title": article.title, "doi": article.doi, "year": year, "journal": article.journal,
                                       "pages": article.pages, "authors": [author.name for author in article.authors],
                                       "source": article.source_uri, "coverage": article.coverage}, ensure_ascii=False))  # fmt: skip
            else:
                typer.echo(
                    f"{article.id}  {year or '----'}  {article.doi or '-'}  {article.title or '(untitled)'}"
                )  # one line each, never wrapped


def status(
    db: DbOption = Path("paperpyramid.sqlite"),
    errors: Annotated[int, typer.Option(help="How many recent failures to list.")] = 10,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print one JSON object on one line: counts by status and the recent failures, of ingest and distillation."
        ),
    ] = False,
) -> None:
    """Print the ingest log's counts and the most recent failures, and the same for distillation."""
    from paperpyramid.db.queries import distilled as distillations

    with _reading(db) as corpus:
        rows = corpus.ingest_log()
        counts: dict[str, int] = {}
        for row in rows:
            counts[row.status] = counts.get(row.status, 0) + 1
        failed = sorted((row for row in rows if row.status == "failed"), key=lambda row: row.updated_at or "", reverse=True)[:errors]
        distilled = distillations.status_counts(corpus.conn)
        not_distilled = distillations.recent_failures(corpus.conn, errors)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "ingest": counts,
                    "failures": [{"source": row.source_uri, "error": row.error, "updated_at": row.updated_at} for row in failed],
                    "distilled": distilled,
                    "distill_failures": [{"article_id": aid, "title": title, "error": error} for aid, title, error in not_distilled],
                },
                ensure_ascii=False,
            )
        )
        return
    out.print("  ".join(f"{name}: {count}" for name, count in sorted(counts.items())) or "empty corpus")
    for row in failed:
        out.print(f"[red]failed[/] {escape(row.error or '')}", highlight=False)
    if distilled:
        out.print("distilled: " + "  ".join(f"{name}: {count}" for name, count in sorted(distilled.items())), highlight=False)
        for _, title, error in not_distilled:
            out.print(f"[red]not distilled[/] {escape(title or '')}: {escape(error or '')}", highlight=False)


def snapshot(
    db: DbOption = Path("paperpyramid.sqlite"),
    to: Annotated[str, typer.Option("--to", help="A local folder or s3://BUCKET/PREFIX/ to publish the snapshot to.")] = "snapshots",
    expires_hours: Annotated[int, typer.Option(help="How long the presigned download URL works (S3 allows at most 168).")] = 168,
    licence: Annotated[
        str | None,
        typer.Option(
            metavar="KEYS",
            help=f"Publish only the articles under these licences, comma-separated: cc-by,cc0 (the keys: {', '.join(LICENCE_KEYS)}); "
            "the copy holds nothing of the others.",
        ),
    ] = None,
    compression: Annotated[str, typer.Option(help="zstd (on every core, several times faster) or gzip; Corpus.open reads both.")] = "zstd",
    shard_by: Annotated[
        str | None,
        typer.Option(
            "--shard-by",
            metavar="COLUMN",
            help="Publish one snapshot per value of year, source or any article column, and a catalog of them; "
            "Corpus.open(CATALOG_URL, shards=[...]) fetches only the shards asked for.",
        ),
    ] = None,
) -> None:
    """Publish a consistent, compressed copy of the corpus (safe while ingestion writes) with a
    manifest (schema version, row counts, articles per licence, sha256) and Datasette metadata;
    print its download URL last. Open it anywhere with ``Corpus.open(URL)``: a presigned URL
    carries its manifest's URL. Warns when it publishes articles whose licence is unknown or
    non-commercial. With ``--shard-by year`` it publishes the corpus in parts, one per year, and
    prints the catalog's URL last."""
    from datetime import timedelta

    licences = None if licence is None else licence.split(",")
    try:
        with _writing(db) as corpus:
            made = corpus.snapshot(
                to, expires=timedelta(hours=min(max(expires_hours, 1), 168)), licences=licences, compression=compression, shard_by=shard_by
            )
    except (PaperPyramidError, ValueError) as exc:
        raise _error(exc) from exc
    counts = made.manifest.get("row_counts", {})
    console.print(f"snapshot {made.uri}: {counts.get('articles', 0)} articles, {counts.get('contexts', 0)} contexts")
    for shard in made.shards:
        value = shard.manifest.get("row_counts", {}).get("articles", 0)
        console.print(f"  shard {shard.uri}: {value} articles", soft_wrap=True, highlight=False)
    if made.licence_warning:
        console.print(made.licence_warning, style="yellow", soft_wrap=True, highlight=False)
    console.print(f"manifest {made.manifest_url}", soft_wrap=True, highlight=False)
    typer.echo(made.open_url)  # the last line, all Corpus.open(URL) needs
