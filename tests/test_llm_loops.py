"""The embedded model's decoding ends on a repetition loop, as it ends when out of tokens.

The guard is checked on token ids (a loop ends it at its bound, English and JSON never do), the
decoder with scripted logits over the real vocabulary and grammar (a model that writes "1." for
ever), and the real model on a prompt that sends it into a loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from paperpyramid.asking.answer import ANSWER_SYSTEM, AnswerReply
from paperpyramid.errors import ConfigurationError
from paperpyramid.llm.local import LocalLLM, model_path
from paperpyramid.llm.local.repetition import MIN_SPAN, LoopGuard
from paperpyramid.settings import LLMSettings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def llm() -> LocalLLM:
    try:
        model_path()
    except ConfigurationError as exc:
        pytest.skip(str(exc))
    return LocalLLM(LLMSettings(backend="local", cache=False))


def _first_loop(tokens: Sequence[int], guard: LoopGuard | None = None) -> int | None:
    """How many ids the guard took before it saw a loop (None: it never did)."""
    guard = guard or LoopGuard()
    for count, token in enumerate(tokens, 1):
        if guard.add(token):
            return count
    return None


def test_a_loop_ends_at_its_bound_whatever_its_period() -> None:
    assert _first_loop([7] * 100) == MIN_SPAN  # one token over and over
    assert _first_loop([5, 6] * 100) == MIN_SPAN  # "1." "1." ...
    assert _first_loop([1, 2, 3] + [5, 6] * 100) == 3 + MIN_SPAN  # after some text
    phrase = list(range(100, 116))  # a 16-token phrase: three times over
    assert _first_loop(phrase * 5) == 48
    assert _first_loop(list(range(200, 217)) * 5) is None  # 17 tokens: longer than any period looked for
    # a repeat that stops short of the bound, then other text: never a loop, and no memory of it
    near = [5, 6] * (MIN_SPAN // 2 - 1) + [9]
    assert _first_loop(near * 20) is None
    guard = LoopGuard()
    assert not guard.extend([1, 2, 3]) and guard.extend([4] * MIN_SPAN) and guard.add(5)  # once looping, it stays so


def _text_of(xml: Path) -> str:
    """An article's words, its markup dropped: abstract, body and reference list."""
    return " ".join(re.sub(r"<[^>]+>", " ", xml.read_text(encoding="utf-8")).split())


def test_english_and_json_are_no_loop(llm: LocalLLM) -> None:
    texts = [
        _text_of(ROOT / "tests" / "data" / "gold" / "plos-one-2014-fanged-frog-internal-fertilization.nxml"),
        ANSWER_SYSTEM,
        " ".join(str(number) for number in range(1, 400)),  # counting: each number another token
        '{"claims": [' + ", ".join(f'{{"text": "Claim {n} of the answer.", "passages": [{n % 4 + 1}, 2]}}' for n in range(10)) + "]}",
        "Table 2: 0.12 0.15 0.11 0.19 0.13 0.18 0.21 0.17 0.16 0.14 0.22 0.25 0.23 0.24 0.26 0.28",
    ]
    for text in texts:
        tokens = llm._encode(text)
        assert len(tokens) > 40
        assert _first_loop(tokens) is None, text[:80]


def _writing_for_ever(llm: LocalLLM, pieces: Sequence[str]) -> Callable[[Sequence[int]], npt.NDArray[np.float32]]:
    """Scripted logits: the model always prefers the piece after the last one it wrote (the first
    after anything else), then an opening brace, as a small model stuck in a loop does."""
    ids = [llm._encode(piece) for piece in [*pieces, "{"]]
    assert all(len(one) == 1 for one in ids), ids
    after = {ids[index][0]: ids[(index + 1) % len(pieces)][0] for index in range(len(pieces))}
    vocab = len(llm._file().metadata["tokenizer.ggml.tokens"])

    def step(fed: Sequence[int]) -> npt.NDArray[np.float32]:
        logits = np.linspace(0.0, -1.0, vocab, dtype=np.float32)
        logits[ids[-1][0]] = 5.0
        logits[after.get(fed[-1], ids[0][0])] = 10.0
        return logits

    return step


def test_decoding_stops_in_a_loop_and_closes_the_answer(llm: LocalLLM) -> None:
    decoder = llm._decoder(AnswerReply)
    text, used = decoder.decode(_writing_for_ever(llm, ["1", "."]), [1], 600)
    reply = AnswerReply.model_validate_json(text)  # closed as when out of room: valid JSON
    (claim,) = reply.claims
    assert set(claim.text) == {"1", "."} and 20 <= len(claim.text) <= MIN_SPAN + 2, claim.text
    assert used < 60, used  # not the 400 characters the schema allows, nor the 600 tokens asked for


@pytest.mark.llm
@pytest.mark.slow
def test_the_embedded_model_stops_a_loop_it_runs_into(llm: LocalLLM) -> None:
    """A prompt that sends SmolLM2-135M into "1.1.1.1…": the answer ends soon after the loop begins."""
    passages = "\n".join(f"[{n}] Section 1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1.1 of the study." for n in (1, 2))
    messages = [
        {"role": "system", "content": ANSWER_SYSTEM},
        {"role": "user", "content": f"Question: Which section numbers do the passages give?\n\nPassages:\n{passages}\n\nAnswer in claims."},
    ]
    reply = llm.complete(messages, AnswerReply, max_tokens=600)
    looped = [claim.text for claim in reply.value.claims if "1.1.1.1.1.1.1.1.1.1" in claim.text]
    assert looped, reply.value
    assert reply.usage.completion_tokens < 200, (reply.usage, reply.value)
    assert all(len(text) < 150 for text in looped), looped
