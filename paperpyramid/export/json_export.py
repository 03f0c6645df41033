"""Writing an article as JSON: its metadata, its section tree with each section's contexts, and
its tables, formulas, figures and references, in one object."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperpyramid.db.corpus_rows import SectionNode
    from paperpyramid.db.reader import CorpusReader
    from paperpyramid.document import Figure, Formula, Reference, Table


def article_json(reader: CorpusReader, article_id: str) -> dict[str, Any]:
    """The article as one JSON-ready object: the ``Article`` fields, ``sections`` (the top-level
    sections, each with its ``contexts`` in reading order and its subsections in ``children``),
    ``tables`` (``rows`` of cells, header first, and ``markdown``), ``formulas``, ``figures`` and
    ``references``, each part with its page."""

    def section(node: SectionNode) -> dict[str, Any]:
        contexts = [{"id": context.id, "text": context.text, "kind": context.kind, "page": context.page_number,
                     "num_tokens": context.num_tokens, "stop_reason": context.stop_reason} for context in reader.contexts(node.id)]  # fmt: skip
        return {"id": node.id, "number": node.number, "title": node.title, "level": node.level, "page_start": node.page_start,
                "page_end": node.page_end, "num_tokens": node.num_tokens, "contexts": contexts,
                "children": [section(child) for child in node.children]}  # fmt: skip

    return {
        **asdict(reader.article(article_id)),
        "sections": [section(node) for node in reader.section_tree(article_id)],
        "tables": [_table(table) for table in reader.tables(article_id)],
        "formulas": [_formula(formula) for formula in reader.formulas(article_id)],
        "figures": [_figure(figure) for figure in reader.figures(article_id)],
        "references": [_reference(reference) for reference in reader.references(article_id)],
    }


def write_json(reader: CorpusReader, article_id: str, out_dir: Path) -> Path:
    """``OUT/<article id>.json``."""
    path = out_dir / f"{article_id}.json"
    path.write_text(json.dumps(article_json(reader, article_id), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# Each part with its stored fields, named as the JSON has always named them (a table's cells are
# its "rows"); the article's id is the file's, so no part repeats it.


def _table(table: Table) -> dict[str, Any]:
    return {"id": table.id, "section_id": table.section_id, "label": table.label, "caption": table.caption, "rows": table.cells,
            "markdown": table.markdown, "page": table.page, "provenance": table.provenance}  # fmt: skip


def _formula(formula: Formula) -> dict[str, Any]:
    return {"id": formula.id, "section_id": formula.section_id, "label": formula.label, "text": formula.text, "latex": formula.latex,
            "page": formula.page, "provenance": formula.provenance}  # fmt: skip


def _figure(figure: Figure) -> dict[str, Any]:
    return {"id": figure.id, "section_id": figure.section_id, "label": figure.label, "caption": figure.caption, "page": figure.page,
            "provenance": figure.provenance}  # fmt: skip


def _reference(reference: Reference) -> dict[str, Any]:
    return {"id": reference.id, "position": reference.position, "raw": reference.raw, "title": reference.title, "authors": reference.authors,
            "year": reference.year, "doi": reference.doi, "venue": reference.venue, "key": reference.key, "arxiv_id": reference.arxiv_id,
            "cited_article_id": reference.cited_article_id}  # fmt: skip
