"""The byte-level BPE tokenizer of a GGUF file (``tokenizer.ggml.model == "gpt2"``), built in
memory as a ``tokenizers.Tokenizer`` from ``tokenizer.ggml.tokens`` and ``tokenizer.ggml.merges``.

SmolLM2's pre-tokenizer (``tokenizer.ggml.pre == "smollm"``) splits every digit apart and then
applies GPT-2's byte-level regex, without a prefix space; the control tokens (``<|im_start|>``,
``<|im_end|>``, ``<|endoftext|>``, ...) are special tokens, matched whole in the text.
"""

from __future__ import annotations

from typing import Any

from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

_CONTROL = 3  # llama.cpp's token type for control tokens
_PRE_TOKENIZERS = ("smollm", "default", "gpt2")


def build_tokenizer(metadata: dict[str, Any]) -> Tokenizer:
    """The tokenizer that the GGUF metadata describes."""
    model = metadata.get("tokenizer.ggml.model")
    if model != "gpt2":
        raise ValueError(f"tokenizer model {model!r} is not supported (gpt2 byte-level BPE only)")
    pre = metadata.get("tokenizer.ggml.pre", "default")
    if pre not in _PRE_TOKENIZERS:
        raise ValueError(f"pre-tokenizer {pre!r} is not supported ({', '.join(_PRE_TOKENIZERS)})")
    tokens: list[str] = metadata["tokenizer.ggml.tokens"]
    vocab = {token: index for index, token in enumerate(tokens)}
    merges = [tuple(merge.split(" ", 1)) for merge in metadata["tokenizer.ggml.merges"]]
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=False, byte_fallback=False))
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    if pre == "smollm":
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
    else:
        tokenizer.pre_tokenizer = byte_level
    tokenizer.decoder = decoders.ByteLevel()
    types: list[int] = metadata.get("tokenizer.ggml.token_type", [])
    specials = [AddedToken(tokens[index], special=True, normalized=False) for index, kind in enumerate(types) if kind == _CONTROL]
    tokenizer.add_special_tokens(specials)
    return tokenizer


def token_bytes(tokens: list[str]) -> list[bytes]:
    """Each vocabulary entry's bytes: byte-level BPE spells byte ``b`` as one printable character."""
    alphabet = _byte_alphabet()
    return [bytes(alphabet[char] for char in token) if all(char in alphabet for char in token) else token.encode() for token in tokens]


def _byte_alphabet() -> dict[str, int]:
    """GPT-2's map from a printable character back to the byte it stands for."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    codes = list(printable)
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            codes.append(256 + extra)
            extra += 1
    return {chr(code): byte for byte, code in zip(printable, codes, strict=True)}
