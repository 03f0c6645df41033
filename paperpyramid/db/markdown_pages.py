"""An article as markdown, rebuilt from the stored structure in reading order: the one renderer
behind distillation's pages (:func:`paperpyramid.distill.page_texts.article_pages`), the export
(:mod:`paperpyramid.export`) and the MCP server's whole-paper read.

It renders numbered headings (``##`` for a top-level section, one more ``#`` a level down),
paragraphs, list items, tables as stored (the caption, then the markdown rows), display
formulas as ``$$ … $$ (3)`` (the equation number after the display, where it is printed) and
figure captions in italics, either as one text or one text per page. Each page keeps the
contexts it was built from, so that what is said about a page can be linked back to verbatim
text. A context without a page number joins the page before it.

:class:`Render` says what a rendering holds; :data:`DISTILL` is what distillation reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paperpyramid.contexts import as_printed

_SELECT = """
SELECT s.id, s.section_number, s.section_title, s.level, s.page_start, c.id, c.text, c.kind, c.page_number
FROM article_sections AS ars
JOIN sections AS s ON s.id = ars.section_id
LEFT JOIN sections_contexts AS sc ON sc.section_id = s.id
LEFT JOIN contexts AS c ON c.id = sc.context_id
WHERE ars.article_id = ?
ORDER BY ars.position, sc.position
"""
#: an equation number printed at the end of a display: "(3)", "(A1)", "(2.4)"
_NUMBER = re.compile(r"\s*\(\s*([A-Z]?\d+[a-z]?(?:\.\d+)?)\s*\)\s*$")


@dataclass(frozen=True, slots=True)
class Render:
    """What a rendering holds. The defaults are the export's."""

    front_matter: bool = True
    """``# Title``, the authors and (where no section holds it) the abstract, opening the first page."""
    references: bool = True
    """The reference list, one item per entry, on the page its contexts start on."""
    every_heading: bool = True
    """Each heading on the page it is printed on, also where no text of its section follows it
    there: a section that holds only subsections, a heading at a page's foot."""
    blocks: bool = True
    """Each block of a context marked by its own kind (a formula or caption stored in one context
    after a paragraph still reads as one), and a table cut into several contexts read as one
    table. Off: the kind of a context's first block marks the whole context."""


#: Distillation's pages: the body's text alone (the reference list holds no findings), rendered
#: as its prompts, and the response cache keyed on them, have always had it.
DISTILL = Render(front_matter=False, references=False, every_heading=False, blocks=False)
EXPORT = Render()


@dataclass(frozen=True, slots=True)
class PageContext:
    """A context as it appears on a page."""

    context_id: str
    text: str
    section: str | None  # "2.1 Methods"


@dataclass(slots=True)
class Page:
    number: int
    markdown: str
    contexts: list[PageContext] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Entry:
    """One step of the reading order: a context's blocks, or a heading alone where it is printed."""

    page: int
    section_id: str
    heading: str | None  # "## 2.1 Methods"; None for an untitled section
    blocks: tuple[str, ...]
    context: PageContext | None


@dataclass(frozen=True, slots=True)
class _Parts:
    """The article's formulas (text and LaTeX, to their labels) and figure captions, to know a
    block inside a context by its text."""

    formulas: dict[str, str | None]
    captions: frozenset[str]


def render_pages(conn: Any, article_id: str, render: Render = EXPORT) -> list[Page]:
    """The article's pages that hold anything, in order."""
    entries = _entries(conn, article_id, render)
    pages: dict[int, list[str]] = {}
    contexts: dict[int, list[PageContext]] = {}
    last_heading: dict[int, str] = {}
    for entry in entries:
        lines = pages.setdefault(entry.page, [])
        if entry.heading and last_heading.get(entry.page) != entry.section_id:
            continued = any(entry.section_id == heading for heading in last_heading.values())
            lines.append(f"{entry.heading}{' (continued)' if continued and not lines else ''}")
            last_heading[entry.page] = entry.section_id
        lines.extend(entry.blocks)
        if entry.context is not None:
            contexts.setdefault(entry.page, []).append(entry.context)
    if render.front_matter and (front := _front_matter(conn, article_id, entries)):
        pages[1] = front + pages.get(1, [])
    return [Page(number, _join(pages[number], render), contexts.get(number, [])) for number in sorted(pages)]


def render_article(conn: Any, article_id: str, render: Render = EXPORT) -> str:
    """The whole article as one markdown text, each heading once."""
    entries = _entries(conn, article_id, render)
    lines = _front_matter(conn, article_id, entries) if render.front_matter else []
    section = None
    for entry in entries:
        if entry.heading and entry.section_id != section:
            lines.append(entry.heading)
        section = entry.section_id
        lines.extend(entry.blocks)
    return _join(lines, render) + "\n"


def section_label(number: str | None, title: str | None) -> str | None:
    """ "2.1 Methods", "Methods" or None."""
    parts = [part for part in (number if number and number != "ref" else None, title) if part]
    return " ".join(parts) if parts else None


def _entries(conn: Any, article_id: str, render: Render) -> list[_Entry]:
    parts = _read_parts(conn, article_id) if render.blocks else None
    entries: list[_Entry] = []
    page = 1
    headed: set[str] = set()
    for section_id, number, title, level, page_start, context_id, text, kind, page_number in conn.execute(_SELECT, [article_id]):
        if number == "ref" and not render.references:
            continue
        section = section_label(number, title)
        heading = f"{'#' * min(max(int(level or 1), 1) + 1, 6)} {section}" if section else None
        if context_id is None:  # a section without text of its own
            if render.every_heading and heading:
                entries.append(_Entry(int(page_start or page), section_id, heading, (), None))
            continue
        page = int(page_number) if page_number is not None else page
        if render.every_heading and heading and section_id not in headed and page_start is not None and int(page_start) < page:
            entries.append(_Entry(int(page_start), section_id, heading, (), None))  # printed at the foot of an earlier page
        headed.add(section_id)
        text = as_printed(text) if kind == "table" else text
        blocks = _blocks(text, kind, number == "ref", parts) if parts is not None else (_block(text, kind),)
        entries.append(_Entry(page, section_id, heading, blocks, PageContext(context_id, text, section)))
    return entries


def _block(text: str, kind: str) -> str:
    if kind == "list_item":
        return f"- {text}"
    if kind == "formula":
        return f"$$ {text} $$"
    if kind == "caption":
        return f"*{text}*"
    return text  # paragraphs, and tables (their contexts are the table's markdown or text)


def _blocks(text: str, kind: str, references: bool, parts: _Parts) -> tuple[str, ...]:
    """A context's blocks (the writer joins them with a blank line), each marked by its kind: the
    first block's is the context's; a later one is known by its text (every entry of the
    reference list is a list item)."""
    blocks = []
    for index, block in enumerate(text.split("\n\n")):
        own = kind if index == 0 else "list_item" if references else _kind_of(block, parts)
        if own == "formula":
            blocks.append(_formula(block, parts.formulas.get(block)))
        elif own == "table":
            blocks.append(block)
        else:
            blocks.append(_block(block, own))
    return tuple(blocks)


def _kind_of(block: str, parts: _Parts) -> str:
    if block in parts.formulas:
        return "formula"
    return "caption" if block in parts.captions else "paragraph"


def _formula(text: str, label: str | None) -> str:
    """``$$ y = x + n $$ (1)``: the number printed beside the display (in the stored text, or
    the formula's label) goes after it."""
    printed = _NUMBER.search(text)
    label = label.strip("()[] ") if label else printed.group(1) if printed else None
    body = text[: printed.start()] if printed and printed.group(1) == label else text
    return f"$$ {body.strip()} $$" + (f" ({label})" if label else "")


def _read_parts(conn: Any, article_id: str) -> _Parts:
    formulas: dict[str, str | None] = {}
    for text, latex, label in conn.execute("SELECT text, latex, label FROM formulas WHERE article_id = ?", [article_id]):
        for shown in (text, latex):
            if shown:
                formulas[shown.strip()] = label
    captions = frozenset(row[0].strip() for row in conn.execute("SELECT caption FROM figures WHERE article_id = ?", [article_id]) if row[0])
    return _Parts(formulas, captions)


def _front_matter(conn: Any, article_id: str, entries: Iterable[_Entry]) -> list[str]:
    row = conn.execute("SELECT title, authors, abstract FROM articles WHERE id = ?", [article_id]).fetchone()
    if row is None:
        return []
    title, authors, abstract = row
    lines = [f"# {' '.join(title.split())}"] if title and title.strip() else []
    names = [author["name"] for author in json.loads(authors or "[]") if author.get("name")]
    if names:
        lines.append(", ".join(names))
    if abstract and abstract.strip():
        # a parser that reads the abstract apart from the body (GROBID, JATS) stores it in no section
        body = " ".join(" ".join(entry.context.text.split()) for entry in entries if entry.context is not None)
        if " ".join(abstract.split())[:200] not in body:
            lines += ["## Abstract", abstract.strip()]
    return lines


def _join(lines: list[str], render: Render) -> str:
    return "\n\n".join(_join_table_parts(lines) if render.blocks else lines)


def _join_table_parts(blocks: list[str]) -> list[str]:
    """A table too long for one context is stored in parts, each opening with the caption and
    the header row (so that a part read alone says what its numbers are): read here as one table."""
    joined: list[str] = []
    for block in blocks:
        header = _header(block)
        if header is not None:
            if joined and _header(joined[-1]) == header:
                joined[-1] += "\n" + block.split("\n", 2)[2]
                continue
            if len(joined) >= 3 and _header(joined[-2]) == header and joined[-1] == joined[-3]:
                joined.pop()  # the caption repeated
                joined[-1] += "\n" + block.split("\n", 2)[2]
                continue
        joined.append(block)
    return joined


def _header(block: str) -> tuple[str, str] | None:
    """A markdown table's header and rule, with rows below them; None for any other block."""
    lines = block.split("\n", 2)
    if len(lines) == 3 and lines[0].startswith("|") and lines[1].startswith("|---"):
        return lines[0], lines[1]
    return None
