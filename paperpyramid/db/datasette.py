"""Datasette metadata for a corpus snapshot: what each table and column holds, and canned
queries for the questions people ask first (an article's sections in order, a section's
text in order, full-text search, the inputs that failed).

Serve a snapshot with ``datasette corpus-….sqlite --metadata corpus-….metadata.json``.
Datasette names a database after its file's stem, so the metadata is keyed by that name.
"""

from __future__ import annotations

from typing import Any

#: Every table of the corpus (schema version 4), with its columns in schema order, as people should
#: read them. A test holds this to the schema: a migration that adds a column must describe it here.
TABLES: dict[str, tuple[str, dict[str, str]]] = {
    "articles": (
        "One row per stored paper. Its text lives in sections and contexts; follow article_sections for the reading order.",
        {
            "id": "The article's id (a 21-character nanoid).",
            "title": "Title as found in the paper.",
            "authors": 'JSON list of {"name", "affiliation", "email"}.',
            "date_published": "Publication date as ISO 8601: 2014-12-09, 2014-12, or 2014 when the source gives no more; NULL when it gives no readable date.",
            "journal": "Journal or venue.",
            "doi": "DOI without a resolver prefix (compared case-insensitively).",
            "abstract": "The abstract's text.",
            "num_tokens": "Tokens in all of the article's contexts.",
            "pages": "Pages in the source PDF.",
            "source_uri": "Where the PDF was read from (s3:// URI or path).",
            "sha256": "sha256 of the source file; the same file is never stored twice.",
            "parser": "The parser backend that produced the article.",
            "provenance": 'JSON {part: "backend version"}: which backend produced which part (text, structure, contexts, ...).',
            "warnings": "JSON list of the parser's warnings about this article.",
            "created_at": "When the article was stored (UTC, ISO 8601).",
            "coverage": "Share of the PDF text layer's words (page furniture aside) found in the article's text, tables, captions and references; NULL when not measured.",
            "ocr_pages": "JSON list of the pages read by OCR instead of the PDF's text layer (scans); NULL when none.",
            "arxiv_id": "The paper's own arXiv id, without a version, where its source states it.",
            "title_key": "The title folded for matching references to it: accents off, lower case, letters and digits only.",
            "pmid": "Its PubMed id (digits), where PubMed or the full text gives it.",
            "pmcid": "Its PubMed Central id: PMC and digits.",
            "licence": "Its licence as a short key (cc-by, cc-by-nc-nd, cc0, pd), the licence's own words where no key fits; NULL when unknown.",
            "language": "Its language as the source gives it: eng (PubMed), en (JATS).",
            "publication_types": "JSON list of its PubMed publication types: Journal Article, Review, Randomized Controlled Trial.",
            "keywords": "JSON list of its keywords.",
        },
    ),
    "sections": (
        "Sections and subsections of every article; their order within an article is article_sections.position.",
        {
            "id": "The section's id.",
            "section_number": "Its number as printed (2.1, II, A); 'ref' for the references.",
            "section_title": "Its heading.",
            "level": "1 for a section, 2 for a subsection, and so on.",
            "parent_id": "The enclosing section, for a subsection.",
            "num_tokens": "Tokens in its own contexts (not its subsections').",
            "page_start": "First page it appears on.",
            "page_end": "Last page it appears on.",
        },
    ),
    "contexts": (
        "Passages of text, each within one section and within the embedding model's window; the unit of search.",
        {
            "id": "The context's id.",
            "text": "The passage.",
            "section_title": "Heading of the section it belongs to (copied for search).",
            "section_number": "Number of the section it belongs to.",
            "num_tokens": "Its length in the embedding model's tokens.",
            "page_number": "Page where the passage starts.",
            "stop_reason": "'Section' when the section ended here, 'Token limit' when the window was full.",
            "kind": "What the passage starts with: paragraph, formula, table, caption or list_item.",
        },
    ),
    "article_sections": (
        "Which sections belong to which article, and in what order.",
        {
            "article_id": "The article.",
            "position": "The section's place in reading order, from 0.",
            "section_id": "One of its sections.",
        },
    ),
    "sections_contexts": (
        "Which contexts belong to which section, and in what order.",
        {
            "section_id": "The section.",
            "position": "The context's place in the section's reading order, from 0.",
            "context_id": "One of its contexts.",
        },
    ),
    "bib_entries": (
        "The references listed at the end of each article, in their printed order.",
        {
            "id": "The entry's id.",
            "article_id": "The article that cites it.",
            "position": "Its place in the reference list, from 0.",
            "raw": "The reference as printed.",
            "title": "Title of the cited work, where it could be read.",
            "authors": "JSON list of the cited work's author names.",
            "year": "Year of the cited work.",
            "doi": "DOI of the cited work.",
            "venue": "Journal, book or conference of the cited work.",
            "key": "What in-text citations name it by: a LaTeX cite key, a JATS or TEI xml id, or the printed number.",
            "arxiv_id": "arXiv id of the cited work, without a version.",
            "title_key": "The cited title folded for matching (as articles.title_key).",
            "cited_article_id": "The article of this corpus the entry names (by DOI, arXiv id, or title with year and first author); NULL when none.",
        },
    ),
    "mesh_terms": (
        "The MeSH headings PubMed indexed each article with, in the record's order.",
        {
            "article_id": "The article.",
            "position": "The heading's place in the record's list, from 0.",
            "term": "The descriptor's name: Humans, Neoplasms (compared in any case).",
            "major": "1 when it is a major topic of the article.",
            "ui": "The descriptor's unique id: D006801.",
            "qualifiers": "JSON list of the qualifiers' names: therapy, genetics.",
        },
    ),
    "merged_sources": (
        "Inputs an article took in besides the one it holds: an older version of its PubMed record, a record joined to its full text. "
        "A re-run skips them.",
        {
            "sha256": "sha256 of that input.",
            "article_id": "The article it went into.",
            "source_uri": "Where it was read from.",
            "merged_at": "When (UTC, ISO 8601).",
        },
    ),
    "citations": (
        "In-text citations: which passage cites which reference entry, and where in its text.",
        {
            "context_id": "The citing passage.",
            "bib_entry_id": "The reference entry it cites.",
            "char_start": "Where the marker starts in the passage's text (a character offset from 0).",
            "char_end": "Where the marker ends: the marker is the text from char_start up to char_end.",
        },
    ),
    "tables": (
        "Tables found in the articles, as cells and as Markdown.",
        {
            "id": "The table's id.",
            "article_id": "The article it is in.",
            "section_id": "The section it is in, if known.",
            "label": "Its number as printed: 2 for Table 2 (S2, IV, A1 as the paper numbers them); the caption holds the whole label.",
            "caption": "Its caption.",
            "cells": "JSON list of rows of cell texts; the first row is the header.",
            "markdown": "The table as Markdown.",
            "page": "The page it is on.",
            "bbox": "JSON [x0, top, x1, bottom] on that page, in PDF points.",
            "provenance": "The backend (and version) that extracted it.",
        },
    ),
    "formulas": (
        "Display formulas found in the articles.",
        {
            "id": "The formula's id.",
            "article_id": "The article it is in.",
            "section_id": "The section it is in, if known.",
            "label": "Its equation number as printed, without brackets: 3 for (3).",
            "text": "The formula as plain text.",
            "latex": "The formula as LaTeX, where a backend produced it.",
            "page": "The page it is on.",
            "bbox": "JSON [x0, top, x1, bottom] on that page, in PDF points.",
            "provenance": "The backend (and version) that extracted it.",
        },
    ),
    "figures": (
        "Figures found in the articles (their captions; images are not stored).",
        {
            "id": "The figure's id.",
            "article_id": "The article it is in.",
            "section_id": "The section it is in, if known.",
            "label": "Its number as printed: 1 for Figure 1; the caption holds the whole label.",
            "caption": "Its caption.",
            "page": "The page it is on.",
            "bbox": "JSON [x0, top, x1, bottom] on that page, in PDF points.",
            "provenance": "The backend (and version) that extracted it.",
        },
    ),
    "ingest_log": (
        "Every input the ingest has seen and how its latest attempt ended.",
        {
            "source_uri": "The input (s3:// URI or path).",
            "sha256": "sha256 of the input file, when it could be read.",
            "status": "done, failed or skipped (already stored).",
            "error": "Why it failed, in one line.",
            "attempts": "How many times it was tried.",
            "article_id": "The article stored from it.",
            "pages": "Its pages.",
            "seconds": "Seconds its last attempt took.",
            "updated_at": "When its status last changed (UTC, ISO 8601).",
            "etag": "The object's ETag, for inputs from a bucket: a re-run skips an unchanged object before downloading it.",
        },
    ),
    "embedders": (
        "The embedding models whose context vectors this corpus holds. Each model's vectors are in its own "
        "sqlite-vec vec0 table (vec_table): to query those in Datasette, load the sqlite-vec extension "
        "(datasette-sqlite-vec, or --load-extension with sqlite_vec.loadable_path()).",
        {
            "name": "The model and how it was used, e.g. all-MiniLM-L6-v2.",
            "dimension": "Dimensions of its vectors.",
            "window": "Tokens the model reads.",
            "vec_table": "The vec0 table holding one vector per context (context_id, embedding).",
            "created_at": "When it first embedded contexts here (UTC, ISO 8601).",
        },
    ),
    "distillations": (
        "One row per article an LLM distilled (or tried to) into the knowledge pyramid, with what it cost.",
        {
            "article_id": "The article.",
            "status": "done, or failed (error says why; a re-run tries again).",
            "error": "Why it failed, in one line.",
            "model": "The model that distilled it (local:..., openai:..., or import:... for a loaded distillation).",
            "prompt_version": "The prompts and schemas used; a change shows here.",
            "calls": "Model calls made.",
            "cached_calls": "Calls answered from the response cache (no tokens spent).",
            "prompt_tokens": "Prompt tokens spent (cached calls excluded).",
            "completion_tokens": "Completion tokens spent (cached calls excluded).",
            "attempts": "How many times it was distilled or tried.",
            "seconds": "Seconds the last distillation took.",
            "warnings": "JSON list: model output that was dropped or corrected.",
            "recollected": "1 once the article has been connected to the others in recollections.",
            "updated_at": "When the row last changed (UTC, ISO 8601).",
        },
    ),
    "llm_calls": (
        "Every model call of the distillation, with its token usage.",
        {
            "id": "Row number.",
            "article_id": "The article it was for.",
            "step": "insights:p3-4 (the pages of the window), concepts, abstract or recollections.",
            "model": "The model called.",
            "prompt_version": "The prompts used.",
            "prompt_tokens": "Prompt tokens.",
            "completion_tokens": "Completion tokens.",
            "cached": "1 when answered from the response cache (no tokens spent this time).",
            "attempts": "2 when the first reply did not validate and a repair was asked for.",
            "seconds": "Seconds the call took.",
            "created_at": "When it was recorded (UTC, ISO 8601).",
        },
    ),
    "insights": (
        "The pyramid's first level: one simple subject-verb-object sentence per fact, from two-page windows.",
        {
            "id": "The insight's id.",
            "article_id": "Its article.",
            "position": "Its place in the article's insight list (from 1).",
            "text": "The sentence.",
            "pages": "JSON list of the pages it comes from.",
            "page_number": "The first of those pages.",
            "section": "The section it comes from, as printed.",
            "num_tokens": "Tokens (the contexts' tokenizer).",
            "model": "The model that wrote it.",
            "prompt_version": "The prompts used.",
        },
    ),
    "insights_contexts": (
        "Which contexts each insight was distilled from: the drill-down from an insight to verbatim text.",
        {
            "insight_id": "The insight.",
            "context_id": "A context it came from.",
            "score": "Share of the insight's words (idf-weighted) the context holds.",
        },
    ),
    "concepts": (
        "The pyramid's second level: short paragraphs that connect an article's insights.",
        {
            "id": "The concept's id.",
            "article_id": "Its article.",
            "position": "Its place in the article's list.",
            "text": "The paragraph.",
            "num_tokens": "Tokens (the contexts' tokenizer).",
            "model": "The model that wrote it.",
            "prompt_version": "The prompts used.",
        },
    ),
    "concepts_insights": ("Which insights each concept connects.", {"concept_id": "The concept.", "insight_id": "An insight it connects."}),
    "abstracts": (
        "The pyramid's third level: one abstract per article, written from its concepts and insights.",
        {
            "id": "The abstract's id.",
            "article_id": "Its article.",
            "text": "The abstract.",
            "num_tokens": "Tokens (the contexts' tokenizer).",
            "model": "The model that wrote it.",
            "prompt_version": "The prompts used.",
        },
    ),
    "recollections": (
        "The top of the pyramid: statements that connect papers, updated as articles arrive.",
        {
            "id": "The recollection's id.",
            "text": "The statement.",
            "num_tokens": "Tokens (the contexts' tokenizer).",
            "version": "How many times it has been written (see recollection_history).",
            "model": "The model that last wrote it.",
            "prompt_version": "The prompts used.",
            "created_at": "When it was first written (UTC, ISO 8601).",
            "updated_at": "When it last changed (UTC, ISO 8601).",
        },
    ),
    "recollections_sources": (
        "The audit trail of each recollection: the articles, and the insights, it came from.",
        {
            "recollection_id": "The recollection.",
            "article_id": "An article it connects.",
            "insight_id": "An insight it rests on (empty: the article as a whole).",
            "added_at": "When the source was added (UTC, ISO 8601).",
        },
    ),
    "recollection_history": (
        "Every version of every recollection.",
        {
            "recollection_id": "The recollection.",
            "version": "1 when created, then one more per update.",
            "text": "Its text in that version.",
            "change": "created or updated.",
            "article_id": "The article whose arrival caused the change.",
            "model": "The model that wrote it.",
            "prompt_version": "The prompts used.",
            "changed_at": "When (UTC, ISO 8601).",
        },
    ),
}

#: Canned queries: name -> (title, description, SQL). Parameters are Datasette's ``:name``.
QUERIES: dict[str, tuple[str, str, str]] = {
    "article_sections_in_order": (
        "Sections of an article in order",
        "The sections of one article (by id) in reading order, with their pages and sizes.",
        """
SELECT ars.position, s.id AS section_id, s.section_number, s.section_title, s.level,
       s.parent_id, s.page_start, s.page_end, s.num_tokens
FROM article_sections AS ars
JOIN sections AS s ON s.id = ars.section_id
WHERE ars.article_id = :article_id
ORDER BY ars.position
""".strip(),
    ),
    "section_contexts_in_order": (
        "Contexts of a section in order",
        "The text of one section (by id), passage by passage, in reading order.",
        """
SELECT sc.position, c.id AS context_id, c.text, c.page_number, c.num_tokens, c.kind, c.stop_reason
FROM sections_contexts AS sc
JOIN contexts AS c ON c.id = sc.context_id
WHERE sc.section_id = :section_id
ORDER BY sc.position
""".strip(),
    ),
    "search_contexts": (
        "Search contexts",
        "Full-text search over every passage: any text, each word searched as it is written "
        "(free-living, AND, quotes and colons included), passages holding more and rarer words first, "
        "with the article's title, the section and the page to cite.",
        # the words of :q, each a quoted FTS5 string (quotes doubled), OR-ed: user text is never FTS5 syntax
        """
WITH RECURSIVE
  input(rest) AS (SELECT trim(replace(replace(replace(:q, char(9), ' '), char(10), ' '), char(13), ' ')) || ' '),
  words(word, rest) AS (
    SELECT '', (SELECT rest FROM input)
    UNION ALL
    SELECT substr(rest, 1, instr(rest, ' ') - 1), ltrim(substr(rest, instr(rest, ' ') + 1))
    FROM words WHERE rest <> ''
  ),
  query(expression) AS (
    SELECT coalesce(group_concat('"' || replace(word, '"', '""') || '"', ' OR '), '""') FROM words WHERE word <> ''
  )
SELECT c.id AS context_id, a.title AS article_title, a.id AS article_id,
       s.section_number, s.section_title, c.page_number AS page,
       snippet(contexts_fts, 0, '**', '**', '…', 24) AS snippet
FROM contexts_fts
JOIN contexts AS c ON c.rowid = contexts_fts.rowid
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN sections AS s ON s.id = sc.section_id
JOIN article_sections AS ars ON ars.section_id = s.id
JOIN articles AS a ON a.id = ars.article_id
WHERE contexts_fts MATCH (SELECT expression FROM query)
ORDER BY contexts_fts.rank
LIMIT 100
""".strip(),
    ),
    "cited_by": (
        "Who cites this article",
        "The articles of the corpus whose references name one article (by id), each citing passage with its page and marker.",
        """
SELECT citing.id AS citing_article_id, citing.title AS citing_title, c.page_number AS page,
       substr(c.text, ci.char_start + 1, ci.char_end - ci.char_start) AS marker, c.id AS context_id, b.raw AS entry
FROM bib_entries AS b
JOIN articles AS citing ON citing.id = b.article_id
LEFT JOIN citations AS ci ON ci.bib_entry_id = b.id
LEFT JOIN contexts AS c ON c.id = ci.context_id
WHERE b.cited_article_id = :article_id
ORDER BY citing.created_at, b.position, c.page_number, c.rowid, ci.char_start
""".strip(),
    ),
    "cites_in_corpus": (
        "What this article cites in the corpus",
        "The reference entries of one article (by id) that name articles of this corpus, with the passages citing them.",
        """
SELECT b.position, cited.id AS cited_article_id, cited.title AS cited_title, c.page_number AS page,
       substr(c.text, ci.char_start + 1, ci.char_end - ci.char_start) AS marker, c.id AS context_id
FROM bib_entries AS b
JOIN articles AS cited ON cited.id = b.cited_article_id
LEFT JOIN citations AS ci ON ci.bib_entry_id = b.id
LEFT JOIN contexts AS c ON c.id = ci.context_id
WHERE b.article_id = :article_id
ORDER BY b.position, c.page_number, c.rowid, ci.char_start
""".strip(),
    ),
    "failed_inputs": (
        "Failed inputs",
        "Inputs whose latest attempt failed, most recent first, with the reason.",
        """
SELECT source_uri, error, attempts, sha256, pages, seconds, updated_at
FROM ingest_log
WHERE status = 'failed'
ORDER BY updated_at DESC, source_uri
""".strip(),
    ),
}

# label columns make Datasette show a title instead of a bare id where a row points at one
_LABEL_COLUMNS = {"articles": "title", "sections": "section_title", "bib_entries": "raw"}


def datasette_metadata(database: str = "corpus") -> dict[str, Any]:
    """Datasette metadata (title, description, licence note, table and column descriptions,
    canned queries) for a corpus served under the name ``database`` (the file's stem)."""
    tables: dict[str, Any] = {}
    for name, (description, columns) in TABLES.items():
        table: dict[str, Any] = {"description": description, "columns": dict(columns)}
        if name in _LABEL_COLUMNS:
            table["label_column"] = _LABEL_COLUMNS[name]
        tables[name] = table
    return {
        "title": "paperpyramid corpus",
        "description": (
            "Academic papers parsed into sections and passages (contexts), with their references, "
            "tables, formulas and figures, and the log of every input the ingest saw."
        ),
        "license": "Licences vary by paper: each article keeps the licence of its source; check it before reuse.",
        "source": "paperpyramid",
        "databases": {
            database: {
                "description": "A read-only snapshot of a paperpyramid corpus; its manifest lists row counts and checksums.",
                "tables": tables,
                "queries": {
                    name: {"title": title, "description": description, "sql": sql} for name, (title, description, sql) in QUERIES.items()
                },
            }
        },
    }


__all__ = ["QUERIES", "TABLES", "datasette_metadata"]
