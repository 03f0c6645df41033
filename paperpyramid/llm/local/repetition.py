"""A repetition loop at the end of a decoded token stream: one n-gram over and over.

Decoding greedily, a small model can fall into a loop ("1.1.1.1…", one phrase again and again)
that only ``max_tokens`` would end, hundreds of tokens later. :class:`LoopGuard` is fed the ids
as they come and says when the stream's tail is one n-gram of at most :data:`MAX_PERIOD` tokens
repeated back to back over at least :data:`MIN_SPAN` tokens (and :data:`MIN_REPEATS` times):
a stretch no sentence, number or JSON structure of an answer holds.
"""

from __future__ import annotations

from collections import deque

#: the longest n-gram looked for, in tokens
MAX_PERIOD = 16
#: how many tokens a loop covers before it ends the generation
MIN_SPAN = 32
#: how many times an n-gram repeats, at least, before it is a loop
MIN_REPEATS = 3


class LoopGuard:
    """Watches a token stream for a repetition loop; :meth:`add` each id, in order.

    For each period ``p`` it keeps how many of the last ids equal the id ``p`` before them: the
    tail is one ``p``-gram repeated over ``run + p`` tokens. Constant work per id."""

    def __init__(self, max_period: int = MAX_PERIOD, min_span: int = MIN_SPAN, min_repeats: int = MIN_REPEATS) -> None:
        if max_period < 1 or min_span < 2 or min_repeats < 2:
            raise ValueError("a loop needs a period of one token or more, repeated at least twice")
        self._recent: deque[int] = deque(maxlen=max_period)
        self._runs = [0] * (max_period + 1)
        #: per period, the tokens the repeated tail must cover
        self._spans = [max(min_span, min_repeats * period) for period in range(max_period + 1)]
        self.looping = False

    def add(self, token: int) -> bool:
        """Take the next id; whether the stream now ends in a loop."""
        recent, runs = self._recent, self._runs
        for period in range(1, len(runs)):
            runs[period] = runs[period] + 1 if period <= len(recent) and recent[-period] == token else 0
            if runs[period] + period >= self._spans[period]:
                self.looping = True
        recent.append(token)
        return self.looping

    def extend(self, tokens: list[int]) -> bool:
        """Take several ids; whether the stream ends in a loop, or ran into one on the way."""
        for token in tokens:
            self.add(token)
        return self.looping
