"""Model calls kept in bounds, both ways.

Out: a reply's lists are cut to the ``maxItems`` their schema advertises (:func:`~paperpyramid.llm.caps.cap_lists`), so
a model that answers 2,000 concepts where the schema asks for at most 30 costs 30 rows, not
2,000, and says so in the article's warnings. In: every part of a prompt is fitted to the
model's context window with room left for the answer (:func:`prompt_room`, :func:`fit_list`,
:func:`fit_text`), so that no stored text, however long or many, makes a prompt the model
cannot read.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from paperpyramid.llm import LLM
from paperpyramid.llm.caps import cap_lists
from paperpyramid.llm.structured import schema_instructions

#: tokens of a chat template and numbering around a prompt's parts, beyond what is counted
MARGIN = 128
#: tokens added to each item of a listing (its number, a newline)
ITEM_OVERHEAD = 4


def prompt_room(llm: LLM, max_tokens: int, schema: type[BaseModel], *fixed: str) -> int:
    """Tokens a prompt's variable parts may take: the window less the answer (``max_tokens``),
    the schema instructions the backend adds, the ``fixed`` texts (system prompt, framing) and
    a margin. Never below zero."""
    used = max_tokens + llm.count_tokens(schema_instructions(schema)) + sum(llm.count_tokens(text) for text in fixed) + MARGIN
    return max(llm.context_window - used, 0)


def answer_tokens(llm: LLM, max_tokens: int) -> int:
    """``max_tokens``, but at most half the model's window: the prompt needs the other half."""
    return max(min(max_tokens, llm.context_window // 2), 1)


def fit_list(texts: Sequence[str], llm: LLM, room: int) -> int:
    """How many of ``texts``, from the start, fit in ``room`` tokens as a listing."""
    used = 0
    for index, text in enumerate(texts):
        used += llm.count_tokens(text) + ITEM_OVERHEAD
        if used > room:
            return index
    return len(texts)


def fit_text(text: str, tokens: int, llm: LLM) -> str:
    """``text`` cut to about ``tokens`` of the model's tokens (at a line break where one is near)."""
    size = llm.count_tokens(text)
    if size <= tokens:
        return text
    cut = text[: max(int(len(text) * tokens / max(size, 1)), 0)]
    # the estimate can err high or low: shrink until the tokenizer agrees (bounded)
    for _ in range(8):
        if llm.count_tokens(cut) <= tokens:
            break
        cut = cut[: int(len(cut) * 0.9)]
    return cut[: cut.rfind("\n")] if "\n" in cut[len(cut) // 2 :] else cut


__all__ = ["answer_tokens", "cap_lists", "fit_list", "fit_text", "prompt_room"]
