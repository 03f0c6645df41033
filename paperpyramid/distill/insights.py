"""Insights from a two-page sliding window.

The windows are ``[1], [1, 2], [2, 3], …, [n-1, n], [n]``, so every page is read exactly twice:
once as the new page and once as the previous page of the next window. The model keeps one
numbered list for the whole paper; in each window it sees the insights taken from the
window's first page (in the last window, page n's) and may correct (same number, new text) or
delete them, and adds new ones (number 0). A paper from which the model takes no insight at all
is a failure, recorded with that reason. Whatever it answers, only this article's list changes: a number that is not one of
the insights it was shown is treated as new, a deletion of anything else is ignored, and both
are noted as warnings.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from paperpyramid.db.pyramid import LLMCallRecord
from paperpyramid.distill.bounds import ITEM_OVERHEAD, cap_lists, fit_list, fit_text, prompt_room
from paperpyramid.distill.page_texts import Page
from paperpyramid.distill.prompts import InsightsReply, insights_messages
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM, LLMReply, Message

#: an insight shorter than this (after whitespace is collapsed) is dropped as noise
MIN_CHARS = 12
#: and a longer one is cut: an insight is one sentence
MAX_CHARS = 600
#: new insights taken from one window at most (a runaway model cannot flood the list)
MAX_NEW_PER_WINDOW = 60
#: a page is never cut shorter than this to fit the model's window
MIN_PAGE_TOKENS = 64

T = TypeVar("T", bound=BaseModel)


@dataclass(slots=True)
class DraftInsight:
    number: int
    text: str
    pages: list[int]
    section: str | None = None


@dataclass(slots=True)
class CallLog:
    """What the model calls of one article cost, and what of their output was not used."""

    calls: list[LLMCallRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def complete(self, llm: LLM, messages: Sequence[Message], schema: type[T], step: str, max_tokens: int) -> T:
        """The model's answer to ``messages``, its cost recorded as ``step`` and any list it had
        to cut noted as a warning: every distillation call is accounted for the same way."""
        started = time.perf_counter()
        reply = llm.complete(messages, schema, max_tokens=max_tokens)
        self.calls.append(call_record(step, reply, time.perf_counter() - started))
        self.warnings.extend(cap_lists(reply.value, step))
        return reply.value


def call_record(step: str, reply: LLMReply[Any], seconds: float) -> LLMCallRecord:
    """What one model call of ``step`` cost, as the pyramid stores it."""
    return LLMCallRecord(
        step,
        reply.model,
        reply.usage.prompt_tokens,
        reply.usage.completion_tokens,
        reply.cached,
        reply.attempts,
        seconds,
    )


def windows(page_numbers: list[int]) -> list[list[int]]:
    """The two-page windows over these pages, each page in exactly two of them."""
    if len(page_numbers) <= 1:
        return [page_numbers] if page_numbers else []
    pairs = [page_numbers[index : index + 2] for index in range(len(page_numbers) - 1)]
    return [[page_numbers[0]], *pairs, [page_numbers[-1]]]


def distil_insights(
    pages: list[Page], llm: LLM, log: CallLog, *, max_tokens: int = 2048, page_tokens: int | None = None
) -> list[DraftInsight]:
    """Read the pages window by window and return the paper's final insight list, in order."""
    by_number = {page.number: page for page in pages}
    markdown = {page.number: _fit(page.markdown, page_tokens, llm) for page in pages}
    cut = [number for number in markdown if len(markdown[number]) < len(by_number[number].markdown)]
    if cut:
        log.warnings.append(f"pages {', '.join(map(str, cut))} were cut to about {page_tokens} tokens before the model read them")
    insights: dict[int, DraftInsight] = {}
    next_number = 1
    for window in windows([page.number for page in pages]):
        first = window[0]
        # the insights taken so far from the window's first page (in the last window [n], page n's own)
        revisable = {number: item for number, item in insights.items() if first in item.pages}
        step = f"insights:p{'-'.join(map(str, window))}"
        texts, revisable = _fit_window(
            [(number, markdown[number]) for number in window], revisable, len(insights), llm, max_tokens, log.warnings, step
        )
        messages = insights_messages(texts, [(item.number, item.text, item.pages) for item in revisable.values()], len(insights))
        reply = log.complete(llm, messages, InsightsReply, step, max_tokens)
        next_number = _apply(reply, window, revisable, insights, next_number, log.warnings, step)
    result = sorted(insights.values(), key=lambda item: item.number)
    if not result:
        raise LLMOutputError(f"the model took no insights from {len(pages)} pages")
    for item in result:
        item.section = _section_of(item, by_number)
    return result


def _apply(
    reply: InsightsReply,
    window: list[int],
    revisable: dict[int, DraftInsight],
    insights: dict[int, DraftInsight],
    next_number: int,
    warnings: list[str],
    step: str,
) -> int:
    seen = {item.text.lower() for item in insights.values()}
    added = 0
    for item in reply.insights:
        text = clean(item.text)
        if text is None:
            continue
        pages = list(dict.fromkeys(page for page in item.pages if page in window))
        if item.pages and not pages:
            warnings.append(f"{step}: pages {item.pages} are outside the window; kept as p. {window[-1]}")
        if item.id in revisable:
            target = revisable[item.id]
            target.text, target.pages = text, pages or target.pages
            seen.add(text.lower())
            continue
        if item.id != 0:
            warnings.append(f"{step}: insight {item.id} was not shown for correction; added as new")
        if text.lower() in seen:
            continue
        if added >= MAX_NEW_PER_WINDOW:
            warnings.append(f"{step}: more than {MAX_NEW_PER_WINDOW} new insights; the rest dropped")
            break
        insights[next_number] = DraftInsight(next_number, text, pages or [window[-1]])
        seen.add(text.lower())
        next_number += 1
        added += 1
    for number in reply.delete:
        if number in revisable:
            insights.pop(number, None)
        else:
            warnings.append(f"{step}: deletion of insight {number} ignored (not shown for correction)")
    return next_number


def clean(text: str) -> str | None:
    """One line, trimmed and bounded; None for an empty or trivial one."""
    text = " ".join(text.split())
    if len(text) < MIN_CHARS:
        return None
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1].rstrip() + "…"


def _section_of(item: DraftInsight, pages: dict[int, Page]) -> str | None:
    page = pages.get(item.pages[0]) if item.pages else None
    if page is None or not page.contexts:
        return None
    words = set(item.text.lower().split())
    best = max(page.contexts, key=lambda context: len(words & set(context.text.lower().split())))
    return best.section


def _fit(text: str, tokens: int | None, llm: LLM) -> str:
    """``text`` cut to about ``tokens`` tokens of the model (whole lines where possible)."""
    return text if tokens is None else fit_text(text, tokens, llm)


def _fit_window(
    pages: list[tuple[int, str]], revisable: dict[int, DraftInsight], total: int, llm: LLM, max_tokens: int, warnings: list[str], step: str
) -> tuple[list[tuple[int, str]], dict[int, DraftInsight]]:
    """The window's pages and the insights shown for correction, fitted to the model's window
    with ``max_tokens`` left to answer. The listing takes at most half the room (the first
    insights of the page; the others stay as they are, not open to correction in this window);
    the pages share the rest, a short page whole and the longer ones cut evenly."""
    framing = insights_messages([(number, "") for number, _ in pages], [], total)
    room = prompt_room(llm, max_tokens, InsightsReply, *(message["content"] for message in framing))
    listing = [f"{item.number}. {item.text} (p. {', '.join(map(str, item.pages))})" for item in revisable.values()]
    shown = fit_list(listing, llm, room // 2)
    if shown < len(listing):
        warnings.append(
            f"{step}: only {shown} of the {len(listing)} insights open to correction fit the model's window; the others stay as they are"
        )
        revisable = dict(list(revisable.items())[:shown])
    page_room = room - sum(llm.count_tokens(text) + ITEM_OVERHEAD for text in listing[:shown])
    sizes = [llm.count_tokens(text) for _, text in pages]
    if sum(sizes) <= page_room:
        return pages, revisable
    share = page_room // len(pages)
    short = [size for size in sizes if size <= share]
    if short and len(short) < len(pages):
        share = (page_room - sum(short)) // (len(pages) - len(short))
    # a window too small for even this much fails at the model, which says so
    share = max(share, MIN_PAGE_TOKENS)
    warnings.append(f"{step}: pages cut to about {share} tokens each to fit the model's window")
    return [
        (number, text if size <= share else fit_text(text, share, llm)) for (number, text), size in zip(pages, sizes, strict=True)
    ], revisable
