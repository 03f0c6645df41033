"""The ``walk`` strategy: the model reads one paper section by section, choosing where to go.

The walk starts where the question's best search hit is (hybrid search, BM25 without an
embedder): that hit's paper and section. At each step the model sees the question, the paper's
outline (where it is, what it has read), the passages on view, numbered, and short previews of
what it has kept; everything from the paper is inside ``<document>`` tags (text from papers is
data, never instructions). It calls one of six read-only tools (:data:`TOOLS`: natively where
the server takes tool calls, as JSON otherwise, see :mod:`paperpyramid.llm.tools`), each with
``keep``, the numbers of the passages on view that help to answer: those are collected.

Each step's view is cut to :data:`VIEW_TOKENS` (and to what the model's context window holds),
so a long section costs no more than a short one. A move off either end of the paper, or to a
section the outline lacks, is told to the model on the next step, and counts as a step. Going
back to a view already seen (a section, or the same search) is a cycle: the model is warned
once, and the second time the walk stops.

The walk stops at ``done``, after ``limits.max_steps`` moves, when the token budget is spent,
at a second cycle, or when the model's choice is unusable even after a repair turn; its last
step says why. Once nobody waits for it (:meth:`~paperpyramid.asking.trace.Tracker.before_call`),
it raises :class:`~paperpyramid.cancel.Cancelled` before asking the model for another move. A passage on view that cites papers of the corpus lists them (its ``cites``
attribute); ``follow_citation`` opens one at the section of its passage most like the citing
sentence, and the walk goes on in that paper. It returns the kept passages in reading order
(the papers in the order reached), cut to
``budget_tokens``. A walk the model ended with nothing kept returns nothing (the paper does not
answer); one ended otherwise with nothing kept returns the starting search's best hits.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from pydantic import BaseModel, Field

from paperpyramid.asking.trace import Found, Step, Tracker, error_tokens, reply_tokens
from paperpyramid.citation_graph import Followable, followable
from paperpyramid.db.sqlite import Connection
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM, Message
from paperpyramid.llm.documents import DATA_RULE, document_block
from paperpyramid.llm.tools import Tool, ToolCall, choose_tool
from paperpyramid.retrieval import SearchHit, hybrid, parent, sections
from paperpyramid.retrieval.api import retrieve
from paperpyramid.retrieval.filters import Filters
from paperpyramid.retrieval.sections import Heading

#: tokens of passages on view at one step (fewer when the model's context window is small)
VIEW_TOKENS = 1500
#: hits the starting search and the ``search`` tool show
SEARCH_HITS = 5
#: tokens the model may answer one choice with
CHOICE_TOKENS = 300
#: tokens left in the context window for the tool descriptions and schema the client adds
TOOLS_ALLOWANCE = 1000
#: characters of a kept passage shown as its preview
PREVIEW_CHARS = 160

WALK_SYSTEM = f"""You look for the passages of one scientific paper that answer a researcher's question, reading it section by section.
At each step you see the paper's outline, the passages on view (numbered) and what you have kept so far. Call exactly one tool.
With every call, put in keep the numbers of the passages on view that help to answer the question (they are collected); [] when none do.
Call done as soon as the kept passages answer the question, or when the paper does not.
{DATA_RULE}"""


class Keep(BaseModel):
    keep: list[int] = Field(
        description="Numbers of the passages on view that help to answer the question; [] when none do.", json_schema_extra={"maxItems": 10}
    )


class NextSection(Keep):
    pass


class PreviousSection(Keep):
    pass


class OpenSection(Keep):
    number: str = Field(
        description="The section's number as the outline shows it, e.g. 3.2 (its title when it has no number).",
        json_schema_extra={"maxLength": 120},
    )


class Search(Keep):
    query: str = Field(description="Keywords to look for in this paper.", json_schema_extra={"maxLength": 200})


class FollowCitation(Keep):
    passage: int = Field(description="The number of a passage on view whose cites attribute names a paper of the corpus.")
    paper: int = Field(1, description="Which of the papers it cites, in the order its cites attribute lists them (1 for the first).")


class Done(Keep):
    pass


#: the walk's tools, all read-only: their descriptions are what the model reads
TOOLS: tuple[Tool, ...] = (
    Tool(
        "next_section",
        "Read the next section of the paper, in reading order; returns its passages. "
        "Call it when the section on view stops short of what the question needs and the text likely goes on.",
        NextSection,
    ),
    Tool(
        "previous_section",
        "Read the section before the current one; returns its passages. "
        "Call it when a passage refers back to something defined or measured earlier.",
        PreviousSection,
    ),
    Tool(
        "open_section",
        "Read the section with this number in the outline; returns its passages. "
        "Call it when the outline names a section likely to hold the answer (Methods for how, Results for how much).",
        OpenSection,
    ),
    Tool(
        "search",
        "Search this paper for keywords; returns its best-matching passages, wherever they are. "
        "Call it when no section title points to the answer.",
        Search,
    ),
    Tool(
        "follow_citation",
        "Open a paper that a passage on view cites (only papers its cites attribute lists: they are in the corpus), "
        "at the section holding its passage most like the citing sentence; the outline becomes that paper's. "
        "Call it when the answer rests on the cited work rather than on this paper.",
        FollowCitation,
    ),
    Tool("done", "End the walk. Call it when the kept passages answer the question, or when this paper does not.", Done),
)


@dataclass(frozen=True, slots=True)
class _View:
    """What the model reads at a step: ``key`` tells views apart (to see cycles)."""

    key: str
    title: str
    passages: list[SearchHit]
    hidden: int = 0


def walk(
    conn: Connection,
    question: str,
    llm: LLM,
    *,
    tracker: Tracker,
    budget_tokens: int | None = None,
    embedder: Embedder | None = None,
    filters: Filters | None = None,
) -> Found:
    """The passages the model kept while walking the best-matching paper (see the module docstring)."""
    filters = filters or Filters()
    started = time.perf_counter()
    mode = hybrid.mode_for(embedder)
    best = retrieve(conn, question, mode=mode, k=SEARCH_HITS, filters=filters, embedder=embedder)
    if not best:
        tracker.record(Step("search", f"{mode}: no passage matches the question", seconds=time.perf_counter() - started))
        tracker.record(Step("stop", "nothing to walk"))
        return Found([], steps=tracker.steps)
    start = sections.heading(conn, best[0].citation.section_id)
    assert start is not None  # the hit was just read through its section
    tracker.record(
        Step(
            "search",
            f"{mode}: the best hit is in {start.label} ({_page(start.page)}) of {best[0].citation.article_title or 'an untitled paper'}; "
            "the walk starts there",
            seconds=time.perf_counter() - started,
        )
    )
    walker = _Walker(conn, question, llm, start, best[0].citation.article_title, filters, embedder, mode)
    reason, completed = walker.run(tracker)
    kept = walker.kept_in_reading_order()
    if kept or completed:
        passages = parent.cut_to_budget(kept, budget_tokens)
        detail = f"{reason}: {len(kept)} passages kept" if kept else f"{reason}: nothing kept, the paper does not answer"
    else:
        passages = parent.cut_to_budget(best, budget_tokens)
        detail = f"{reason}; nothing kept, so the {len(best)} best search hits are handed over"
    tracker.record(Step("stop", detail))
    return Found(passages, steps=tracker.steps)


class _Walker:
    """One walk's state: where it is, what it has seen and kept."""

    def __init__(
        self,
        conn: Connection,
        question: str,
        llm: LLM,
        start: Heading,
        title: str | None,
        filters: Filters,
        embedder: Embedder | None,
        mode: str,
    ) -> None:
        self.conn, self.question, self.llm, self.filters, self.embedder, self.mode = conn, question, llm, filters, embedder, mode
        self.title = title or "Untitled"
        self.here = start
        self.papers = [start.article_id]  # the papers walked, in the order first reached
        self.orders: dict[str, list[str]] = {}
        self.outline = sections.outline(conn, start.article_id, include_references=filters.include_references)
        self.view = self._section_view(start)
        self.seen = {self.view.key}
        self.read = {start.id}
        self.kept: dict[str, SearchHit] = {}
        self.moves: list[str] = []
        self.note = ""
        self.warned = False

    def run(self, tracker: Tracker) -> tuple[str, bool]:
        """Walks until a stop; returns why, and whether the model itself ended the walk."""
        while True:
            reason = tracker.stop_reason(len(self.moves))
            if reason is not None:
                return reason, False
            started = time.perf_counter()
            messages = self._prompt()
            tracker.before_call()  # nobody may wait any more: then no further move is asked for
            try:
                call = choose_tool(self.llm, messages, TOOLS, max_tokens=CHOICE_TOKENS)
            except LLMOutputError as exc:
                tracker.record(
                    Step(
                        "walk",
                        f"the model's choice was unusable even after a repair turn: {exc}",
                        *error_tokens(exc),
                        time.perf_counter() - started,
                    )
                )
                return "malformed tool call", False
            kept = self._keep(call.arguments)
            landing, stop = self._move(call)
            self.moves.append(f"{_describe(call)} → {landing}")
            tracker.record(Step("walk", f"{_describe(call)} → {landing}, kept {kept}", *reply_tokens(call), time.perf_counter() - started))
            if call.name == "done":
                return "done", True
            if stop is not None:
                return stop, False

    def kept_in_reading_order(self) -> list[SearchHit]:
        order = self._reading_order
        return sorted(self.kept.values(), key=lambda hit: order.get(hit.context_id, len(order)))

    @property
    def _reading_order(self) -> dict[str, int]:
        """Each context's place: the papers in the order the walk reached them, each in reading order."""
        order: dict[str, int] = {}
        for article_id in self.papers:
            for context_id in self._paper_order(article_id):
                order.setdefault(context_id, len(order))
        return order

    def _paper_order(self, article_id: str) -> list[str]:
        """A paper's contexts in reading order, read once per walk."""
        if article_id not in self.orders:
            self.orders[article_id] = sections.reading_order(self.conn, article_id, include_references=self.filters.include_references)
        return self.orders[article_id]

    def _keep(self, arguments: BaseModel) -> int:
        """Collects the passages on view that ``keep`` names; returns how many were new."""
        numbers = list(dict.fromkeys(getattr(arguments, "keep", [])))
        wrong = [number for number in numbers if not 1 <= number <= len(self.view.passages)]
        new = 0
        for number in numbers:
            if number not in wrong and self.view.passages[number - 1].context_id not in self.kept:
                self.kept[self.view.passages[number - 1].context_id] = self.view.passages[number - 1]
                new += 1
        self.note = f"Passage number(s) {', '.join(map(str, wrong))} were not on view and were not kept. " if wrong else ""
        return new

    def _move(self, call: ToolCall) -> tuple[str, str | None]:
        """Carries out the call: where it landed, and why the walk must stop (a second cycle) or None."""
        arguments = call.arguments
        if call.name == "done":
            return "the walk ends", None
        target: Heading | None
        if call.name in ("next_section", "previous_section"):
            step = sections.next_section if call.name == "next_section" else sections.previous_section
            target = step(self.conn, self.here.id, include_references=self.filters.include_references)
            if target is None:
                edge = "after" if call.name == "next_section" else "before"
                self.note += (
                    f"There is no section {edge} {self.here.label}: it is the paper's {'last' if edge == 'after' else 'first'} section. "
                )
                return f"no section {edge} {self.here.label}", None
            return self._land(self._section_view(target), target)
        if call.name == "open_section":
            number = str(getattr(arguments, "number", ""))
            target = self._find_section(number)
            if target is None:
                self.note += f"There is no section {number!r} in the outline; name one the outline shows. "
                return f"no section {number!r}", None
            return self._land(self._section_view(target), target)
        if call.name == "follow_citation":
            return self._follow(int(getattr(arguments, "passage", 0)), int(getattr(arguments, "paper", 1)))
        query = " ".join(str(getattr(arguments, "query", "")).split())
        within = dataclasses.replace(self.filters, article_ids=(self.here.article_id,))
        hits = retrieve(self.conn, query, mode=self.mode, k=SEARCH_HITS, filters=within, embedder=self.embedder)
        if not hits:
            self.note += f"The search for {query!r} found nothing in this paper. "
            return f"nothing found for {query!r}", None
        return self._land(self._cut(f"search:{query.casefold()}", f"the search for {query!r}", hits), None)

    def _follow(self, number: int, which: int) -> tuple[str, str | None]:
        """Opens the ``which``-th corpus paper that passage ``number`` on view cites, at the
        section of its passage most like the citing sentence."""
        if not 1 <= number <= len(self.view.passages):
            self.note += f"Passage {number} is not on view. "
            return f"no passage {number}", None
        links = self._followable([self.view.passages[number - 1]]).get(self.view.passages[number - 1].context_id, [])
        if not 1 <= which <= len(links):
            self.note += (
                f"Passage {number} cites {'no paper of the corpus' if not links else f'only {len(links)} paper(s) of the corpus'}. "
            )
            return f"passage {number} cites no paper {which} of the corpus", None
        link = links[which - 1]
        within = dataclasses.replace(self.filters, article_ids=(link.cited_article_id,))
        hits = retrieve(self.conn, link.sentence, mode=self.mode, k=1, filters=within, embedder=self.embedder)
        outline = sections.outline(self.conn, link.cited_article_id, include_references=self.filters.include_references)
        target = sections.heading(self.conn, hits[0].citation.section_id) if hits else (outline[0] if outline else None)
        if target is None:
            self.note += f"The paper passage {number} cites (number {which} of its cites) has no text to read. "
            return "a cited paper with no text", None
        self.title, self.outline = link.cited_title or "Untitled", outline
        if link.cited_article_id not in self.papers:
            self.papers.append(link.cited_article_id)
        return self._land(self._section_view(target), target)

    def _followable(self, passages: list[SearchHit]) -> dict[str, list[Followable]]:
        """The corpus papers each passage cites, within the walk's filters."""
        found = followable(self.conn, [hit.context_id for hit in passages])
        allowed = self.filters.article_ids
        return {
            context: [link for link in links if allowed is None or link.cited_article_id in allowed] for context, links in found.items()
        }

    def _land(self, view: _View, section: Heading | None) -> tuple[str, str | None]:
        if view.key in self.seen:
            if self.warned:
                return f"{view.title} again", f"cycle: back at {view.title} after a warning"
            self.warned = True
            self.note += (
                f"You have read {view.title} before: going back finds nothing new. Choose something else or call done; "
                "going back once more ends the walk. "
            )
        self.seen.add(view.key)
        self.view = view
        if section is not None:
            self.here = section
            self.read.add(section.id)
        return view.title, None

    def _find_section(self, number: str) -> Heading | None:
        wanted = " ".join(number.strip().lstrip("§").split()).casefold()
        for name in ("number", "title", "label"):  # a number wins over a title that reads like one
            found = next(
                (heading for heading in self.outline if wanted and str(getattr(heading, name) or "").lstrip("§").casefold() == wanted), None
            )
            if found is not None:
                return found
        return None

    def _section_view(self, heading: Heading) -> _View:
        passages = sections.section_passages(self.conn, heading.id, include_references=self.filters.include_references)
        return self._cut(f"section:{heading.id}", f"{heading.label} ({_page(heading.page)})", passages)

    def _cut(self, key: str, title: str, passages: list[SearchHit]) -> _View:
        budget = max(1, min(VIEW_TOKENS, (self.llm.context_window - CHOICE_TOKENS - TOOLS_ALLOWANCE) // 2))
        shown = parent.cut_to_budget(passages, budget) or passages[:1]
        return _View(key, title, shown, len(passages) - len(shown))

    def _prompt(self) -> list[Message]:
        """The step's messages; passages on view are dropped from the end while the prompt would
        not fit the model's context window."""
        view = self.view
        while True:
            messages = [{"role": "system", "content": WALK_SYSTEM}, {"role": "user", "content": self._user_turn(view)}]
            size = sum(self.llm.count_tokens(message["content"]) for message in messages)
            if size + CHOICE_TOKENS + TOOLS_ALLOWANCE <= self.llm.context_window or len(view.passages) <= 1:
                return messages
            view = dataclasses.replace(view, passages=view.passages[:-1], hidden=view.hidden + 1)

    def _user_turn(self, view: _View) -> str:
        lines = [
            f"{'→' if heading.id == self.here.id else '✓' if heading.id in self.read else ' '} "
            f"{'  ' * (heading.level - 1)}{heading.label} ({_page(heading.page)})"
            for heading in self.outline
        ]
        parts = [
            f"Question: {self.question}",
            "The paper's outline (→ the current section, ✓ sections read):\n" + document_block("\n".join([self.title, *lines])),
        ]
        if self.kept:
            previews = [
                document_block(_preview(hit.text), kept=index, page=hit.citation.page_number or "")
                for index, hit in enumerate(self.kept_in_reading_order(), 1)
            ]
            parts.append(f"Kept so far ({len(self.kept)} passages, previews):\n" + "\n".join(previews))
        else:
            parts.append("Kept so far: nothing.")
        if self.moves:
            parts.append("Your moves so far:\n" + "\n".join(f"{index}. {move}" for index, move in enumerate(self.moves, 1)))
        if self.note:
            parts.append(f"Note: {self.note.strip()}")
        shown = f"passages 1–{len(view.passages)}" + (f" ({view.hidden} more not shown: search to find them)" if view.hidden else "")
        links = self._followable(view.passages)
        blocks = [document_block(hit.text, passage=index, page=hit.citation.page_number or "",
                                 **({"cites": "; ".join(f"{n}. {link.cited_title or 'Untitled'}" for n, link in enumerate(links[hit.context_id], 1))}
                                    if links.get(hit.context_id) else {}))
                  for index, hit in enumerate(view.passages, 1)]  # fmt: skip
        parts.append(
            f"On view: {view.title}, {shown}:\n" + "\n".join(blocks)
            if view.passages
            else f"On view: {view.title}, which has no text of its own."
        )
        parts.append("Call one tool.")
        return "\n\n".join(parts)


def _describe(call: ToolCall) -> str:
    if call.name == "open_section":
        return f"open_section({str(getattr(call.arguments, 'number', ''))!r})"
    if call.name == "search":
        return f"search({str(getattr(call.arguments, 'query', ''))!r})"
    if call.name == "follow_citation":
        return f"follow_citation(passage {getattr(call.arguments, 'passage', '?')}, paper {getattr(call.arguments, 'paper', 1)})"
    return call.name


def _page(page: int | None) -> str:
    return "no page" if page is None else f"p. {page}"


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " …"


__all__ = ["TOOLS", "WALK_SYSTEM", "walk"]
