"""What one MCP tool call may return: the caps, the cut with its marker, and the citation.

Every tool answer is bounded so that a model cannot flood its own context by asking: each
passage's text is cut at a token cap (counted with the contexts' tokenizer, all-MiniLM-L6-v2's,
as the corpus counts ``num_tokens``) and says so with :data:`MARKER`; lists come a page at a time
with a cursor (``next_offset``, None on the last page); ``k``, window sizes, offsets and the
length of ids have maxima that the tools' input schemas state, so a call past them is refused
before it runs, and so is an argument a tool does not take. An error quotes at most
:data:`ERROR_CHARS_MAX` characters of what it was given.
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass

from paperpyramid.tokens import TokenCounter

#: most hits one search returns
K_MAX = 20
#: tokens of passage text a search returns by default, and at most
SEARCH_BUDGET = 4000
SEARCH_BUDGET_MAX = 8000
#: tokens of one passage's (or distilled item's) text; contexts are cut to 254 when stored
PASSAGE_CAP = 400
#: tokens of a distilled hit's source passage, of an insight's source in ``pyramid``, of a
#: citing sentence or a reference entry
SOURCE_CAP = 200
SNIPPET_CAP = 100
#: tokens ``read_section`` (and next/previous_section) return by default, and at most
READ_TOKENS = 1500
READ_TOKENS_MAX = 4000
#: passages ``context_window`` reads on either side of its passage, at most
WINDOW_MAX = 5
#: page sizes: articles, sections of an outline, insights of a pyramid, citation entries
ARTICLES_MAX = 50
SECTIONS_MAX = 200
INSIGHTS_MAX = 40
CITATIONS_MAX = 25
#: ids one ``cite`` call formats
CITE_IDS_MAX = 50
#: characters of an id (article, section, passage, DOI) or a journal name a tool takes; ids are
#: 21 characters, DOIs rarely over 100
ID_CHARS_MAX = 300
#: where a page may start at most (past any corpus)
OFFSET_MAX = 1_000_000_000
#: characters of a tool error the model reads; a longer one is cut (it would be quoting input)
ERROR_CHARS_MAX = 1000
#: tokens of an article's markdown resource; the rest is read with read_section
RESOURCE_CAP = 60_000
#: tokens of an article's printed abstract in ``outline`` and ``pyramid``
ABSTRACT_CAP = 400

#: how a cut text ends: the tokens left out, and where the rest can be read
MARKER = " […truncated: {left} more tokens{where}]"


@dataclass(frozen=True, slots=True)
class Cut:
    """A text cut to a cap: what is kept, its tokens, and the tokens left out (0: whole)."""

    text: str
    tokens: int
    left_out: int

    @property
    def truncated(self) -> bool:
        return self.left_out > 0


class Budget:
    """Counts tokens and cuts texts with the contexts' tokenizer (loaded once per process)."""

    def __init__(self, counter: TokenCounter | None = None) -> None:
        self.counter = counter or TokenCounter()

    def count(self, text: str) -> int:
        return self.counter.count(text)

    def cut(self, text: str, cap: int, *, where: str = "") -> Cut:
        """``text`` whole when it has at most ``cap`` tokens, else its first ``cap`` tokens
        followed by the marker (``where`` says how to read the rest, e.g. "; call context_window")."""
        encoding = self.counter.tokenizer.encode(text, add_special_tokens=False)
        total = len(encoding.ids)
        if total <= cap:
            return Cut(text, total, 0)
        kept = text[: encoding.offsets[cap - 1][1]] if cap > 0 else ""
        return Cut(kept + MARKER.format(left=total - cap, where=where), cap, total - cap)


def short_citation(title: str | None, page: int | None, section: str = "") -> str:
    """``[title, p. N]``, as answers cite a passage; ``[title, §2.1 Methods]`` where it has no
    page (an article read from its XML alone) and its ``section`` is given; else ``[title]``."""
    place = f"p. {page}" if page is not None else section
    return f"[{title or 'Untitled'}{f', {place}' if place else ''}]"


def brief(message: str, max_chars: int = ERROR_CHARS_MAX) -> str:
    """``message`` whole when it has at most ``max_chars`` characters, else its start and "…"."""
    return message if len(message) <= max_chars else message[: max_chars - 1] + "…"


def page_of(items: Sized, offset: int, limit: int) -> tuple[int | None, int]:
    """The cursor after ``items[offset:offset + limit]`` (None on the last page) and the total."""
    total = len(items)
    return (offset + limit if offset + limit < total else None), total


__all__ = [
    "ABSTRACT_CAP",
    "ARTICLES_MAX",
    "CITATIONS_MAX",
    "CITE_IDS_MAX",
    "ERROR_CHARS_MAX",
    "ID_CHARS_MAX",
    "INSIGHTS_MAX",
    "K_MAX",
    "MARKER",
    "OFFSET_MAX",
    "PASSAGE_CAP",
    "READ_TOKENS",
    "READ_TOKENS_MAX",
    "RESOURCE_CAP",
    "SEARCH_BUDGET",
    "SEARCH_BUDGET_MAX",
    "SECTIONS_MAX",
    "SNIPPET_CAP",
    "SOURCE_CAP",
    "WINDOW_MAX",
    "Budget",
    "Cut",
    "brief",
    "page_of",
    "short_citation",
]
