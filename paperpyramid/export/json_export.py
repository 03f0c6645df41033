"""Writing an article as JSON: its metadata, its section tree with each section's contexts, and
its tables, formulas, figures and references, in one object."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperpyramid.article_parts import SectionNode
    from paperpyramid.corpus import Corpus


def article_json(corpus: Corpus, article_id: str) -> dict[str, Any]:
    """The article as one JSON-ready object: the ``Article`` fields, ``sections`` (the top-level
    sections, each with its ``contexts`` in reading order and its subsections in ``children``),
    ``tables`` (``rows`` of cells, header first, and ``markdown``), ``formulas``, ``figures`` and
    ``references``, each part with its page."""

    def section(node: SectionNode) -> dict[str, Any]:
        contexts = [{"id": context.id, "text": context.text, "kind": context.kind, "page": context.page_number,
                     "num_tokens": context.num_tokens, "stop_reason": context.stop_reason} for context in corpus.contexts(node.id)]  # fmt: skip
        return {"id": node.id, "number": node.number, "title": node.title, "level": node.level, "page_start": node.page_start,
                "page_end": node.page_end, "num_tokens": node.num_tokens, "contexts": contexts,
                "children": [section(child) for child in node.children]}  # fmt: skip

    return {
        **asdict(corpus.article(article_id)),
        "sections": [section(node) for node in corpus.section_tree(article_id)],
        "tables": [_part(table) for table in corpus.tables(article_id)],
        "formulas": [_part(formula) for formula in corpus.formulas(article_id)],
        "figures": [_part(figure) for figure in corpus.figures(article_id)],
        "references": [_part(reference) for reference in corpus.references(article_id)],
    }


def write_json(corpus: Corpus, article_id: str, out_dir: Path) -> Path:
    """``OUT/<article id>.json``."""
    path = out_dir / f"{article_id}.json"
    path.write_text(json.dumps(article_json(corpus, article_id), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _part(row: Any) -> dict[str, Any]:
    # the article's id is the file's: no need to repeat it in every part
    return {key: value for key, value in asdict(row).items() if key != "article_id"}
