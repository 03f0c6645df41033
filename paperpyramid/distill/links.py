"""Linking an insight to the verbatim contexts it came from, by page and by words.

Candidates are the contexts on the insight's pages (the pages either side when none match
there); each is scored by the insight's distinct words it contains, weighted by how rare the
word is in the article (idf), over the insight's total weight. The best context is kept, with
any other scoring at least 0.8 of it (a fact split across two passages), at most three, and
only when the best covers at least a fifth of the insight: a link is a promise that the
verbatim text says what the insight says.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from paperpyramid.distill.page_texts import Page

_WORD = re.compile(r"[a-z0-9][a-z0-9.\-]*[a-z0-9]|[a-z0-9]")
_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "than",
        "then",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "how",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "not",
        "no",
        "can",
        "could",
        "may",
        "might",
        "will",
        "would",
        "shall",
        "should",
        "paper",
        "study",
        "we",
        "our",
        "they",
        "their",
        "there",
        "here",
        "also",
        "such",
        "both",
        "each",
        "into",
        "over",
        "under",
        "between",
    ]
)

MAX_LINKS = 3
RUNNER_UP = 0.8
MIN_COVER = 0.2


def words(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in _STOP}


class Linker:
    """Scores insights against one article's pages."""

    def __init__(self, pages: Sequence[Page]) -> None:
        self.pages = {page.number: page for page in pages}
        self.context_words = {context.context_id: words(context.text) for page in pages for context in page.contexts}
        frequency: Counter[str] = Counter(word for bag in self.context_words.values() for word in bag)
        count = max(len(self.context_words), 1)
        self.idf = {word: math.log(1 + count / seen) for word, seen in frequency.items()}
        self.default_idf = math.log(1 + count)

    def link(self, text: str, pages: Sequence[int]) -> list[tuple[str, float]]:
        """(context id, score in 0..1), best first; empty when nothing covers the insight."""
        wanted = words(text)
        if not wanted:
            return []
        total = sum(self.idf.get(word, self.default_idf) for word in wanted)
        for candidates in (list(pages), [page + step for page in pages for step in (-1, 1)]):
            scored = []
            for number in dict.fromkeys(candidates):
                page = self.pages.get(number)
                for context in page.contexts if page else []:
                    shared = wanted & self.context_words[context.context_id]
                    scored.append((context.context_id, sum(self.idf.get(word, self.default_idf) for word in shared) / total))
            scored.sort(key=lambda pair: -pair[1])
            if scored and scored[0][1] >= MIN_COVER:
                best = scored[0][1]
                return [(context_id, round(score, 4)) for context_id, score in scored[:MAX_LINKS] if score >= RUNNER_UP * best]
        return []
