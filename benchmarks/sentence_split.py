#!/usr/bin/env python3
"""The parser's sentence splitter beside pysbd, on the paragraphs of the shared corpus.

    .venv/bin/python benchmarks/sentence_split.py [--pysbd-path DIR]

pysbd (MIT) is not a dependency: install it apart (``pip install --target /tmp/pysbd pysbd``)
and pass ``--pysbd-path /tmp/pysbd``. There is no sentence gold here, so the figures are
proxies counted the same way for both, on every body paragraph of the shared corpus's
non-hostile PDFs (references left out): splits right after an abbreviation or an initial
("et al.", "Fig.", "U.S.", "F."), splits whose next sentence starts in lower case (a
sentence cut in two), sentences over 500 characters (boundaries missed), and speed.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperpyramid.document import Document

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
_ABBREVIATION = re.compile(
    r"(?:\bet al|\be\.g|\bi\.e|\bFigs?|\bEqs?|\bRefs?|\bvs|\bcf|\bapprox|\bca|\bNo|\bDr|\bProf|\bSt|\bsp|\bspp|\bvar|\bresp|\b[A-Z])\.$"
)


def documents(corpus: Path) -> Iterator[Document]:
    """The embedded parser's documents of the corpus's PDFs, the hostile ones and any that
    fail to parse left out (they have no text to split)."""
    from paperpyramid.parsers.embedded import parse_pdf

    for path in sorted(corpus.glob("*.pdf")):
        if path.name.startswith("hostile"):
            continue
        try:
            yield parse_pdf(path)
        except Exception:  # an unparseable PDF has no text to split
            continue


def paragraphs(corpus: Path) -> list[str]:
    found: list[str] = []
    for document in documents(corpus):
        for section in document.sections:
            if section.number != "ref":
                found += [block.text for block in section.blocks if block.kind == "paragraph" and len(block.text) > 40]
    return found


def report(name: str, split: Callable[[str], list[str]], texts: list[str]) -> str:
    started = time.perf_counter()
    out = [[part for part in split(text) if part.strip()] for text in texts]
    seconds = time.perf_counter() - started
    sentences = [part.strip() for parts in out for part in parts]
    after_abbreviation = sum(1 for parts in out for part in parts[:-1] if _ABBREVIATION.search(part.strip()))
    lower = sum(1 for parts in out for a, b in zip(parts, parts[1:], strict=False) if b.strip()[:1].islower())
    long = sum(1 for sentence in sentences if len(sentence) > 500)
    return (
        f"{name:10} sentences {len(sentences):6}  after an abbreviation or initial {after_abbreviation:4}  "
        f"next in lower case {lower:4}  over 500 chars {long:4}  {seconds:7.2f} s ({len(texts) / seconds:,.0f} paragraphs/s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--pysbd-path", type=Path, help="a folder pysbd was installed into (pip install --target DIR pysbd)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from paperpyramid.tokens import sentence_spans

    texts = paragraphs(args.corpus)
    print(f"{len(texts)} paragraphs, {sum(map(len, texts)):,} characters, from {args.corpus}")
    print(report("ours", lambda text: [text[a:b] for a, b in sentence_spans(text)], texts))
    if args.pysbd_path:
        sys.path.insert(0, str(args.pysbd_path))
    try:
        import pysbd
    except ImportError:
        print("pysbd: skipped (pip install --target /tmp/pysbd pysbd, then --pysbd-path /tmp/pysbd)")
        return
    segmenter = pysbd.Segmenter(language="en", clean=False, char_span=False)
    print(report("pysbd", segmenter.segment, texts))


if __name__ == "__main__":
    main()
