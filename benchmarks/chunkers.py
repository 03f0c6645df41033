#!/usr/bin/env python3
"""How the parser's contexts are cut, beside two chunkers from PyPI, on the shared corpus.

    .venv/bin/python benchmarks/chunkers.py [--peers-path DIR]

semchunk (MIT) and semantic-text-splitter (MIT) are not dependencies: install them apart
(``pip install --target /tmp/chunkers semchunk semantic-text-splitter``) and pass
``--peers-path /tmp/chunkers``. Every chunker cuts the same texts — each body section of the
shared corpus's non-hostile PDFs, its paragraphs joined by blank lines (tables, formulas and
references left out) — to the same window, all-MiniLM-L6-v2's 254 content tokens, counted with
the same tokenizer. There is no chunk gold, so the figures are proxies counted the same way for
all: chunks, their mean fill of the window, chunks over the window, chunks that end inside a
sentence (not after ``. ! ?`` or a closing quote or bracket after one), chunks that end after an
abbreviation or initial ("et al.", "Fig.", "F."), and speed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sentence_split import documents  # this folder: the script's own, first on sys.path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*$")
_ABBREVIATION = re.compile(r"(?:\bet al|\be\.g|\bi\.e|\bFigs?|\bEqs?|\bRefs?|\bvs|\bcf|\bapprox|\bca|\bNo|\bDr|\bsp|\bspp|\b[A-Z])\.$")


def sections(corpus: Path) -> list[object]:
    """The body sections of every readable PDF, with paragraph blocks only."""
    found: list[object] = []
    for document in documents(corpus):
        for section in document.sections:
            section.blocks = [block for block in section.blocks if block.kind == "paragraph"]
            if section.number != "ref" and section.blocks:
                found.append(section)
    return found


def report(name: str, cut: Callable[[object], list[str]], items: list[object], count: Callable[[str], int], window: int) -> str:
    started = time.perf_counter()
    chunks = [chunk.strip() for item in items for chunk in cut(item) if chunk.strip()]
    seconds = time.perf_counter() - started
    tokens = [count(chunk) for chunk in chunks]
    inside = sum(1 for chunk in chunks if not _SENTENCE_END.search(chunk))
    abbreviation = sum(1 for chunk in chunks if _ABBREVIATION.search(chunk))
    return (
        f"{name:22} chunks {len(chunks):5}  mean fill {statistics.mean(tokens) / window:5.2f}  over the window {sum(1 for t in tokens if t > window):3}  "
        f"ending inside a sentence {inside / len(chunks):5.1%}  after an abbreviation {abbreviation:3}  {seconds:6.2f} s ({len(items) / seconds:,.0f} sections/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--peers-path", type=Path, help="a folder semchunk and semantic-text-splitter were installed into")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from paperpyramid.contexts import split_section
    from paperpyramid.tokens import TokenCounter

    counter = TokenCounter()
    window = counter.max_content_tokens

    def count(text: str) -> int:
        return len(counter.tokenizer.encode(text, add_special_tokens=False).ids)

    items = sections(args.corpus)
    texts = {id(item): "\n\n".join(block.text for block in item.blocks) for item in items}  # type: ignore[attr-defined]
    print(f"{len(items)} sections, {sum(map(len, texts.values())):,} characters, window {window} tokens ({args.corpus})")
    print(report("ours (split_section)", lambda item: [draft.text for draft in split_section(item, counter, window)], items, count, window))  # type: ignore[arg-type]
    if args.peers_path:
        sys.path.insert(0, str(args.peers_path))
    try:
        import semchunk
    except ImportError:
        print("semchunk: skipped (pip install --target DIR semchunk semantic-text-splitter, then --peers-path DIR)")
    else:
        chunker = semchunk.chunkerify(count, window)
        print(report("semchunk", lambda item: chunker(texts[id(item)]), items, count, window))
    try:
        from semantic_text_splitter import TextSplitter
    except ImportError:
        print("semantic-text-splitter: skipped")
    else:
        splitter = TextSplitter.from_huggingface_tokenizer(counter.tokenizer, window)
        print(report("semantic-text-splitter", lambda item: splitter.chunks(texts[id(item)]), items, count, window))


if __name__ == "__main__":
    main()
