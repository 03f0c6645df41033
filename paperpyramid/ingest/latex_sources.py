"""LaTeX sources among the inputs, and the PDF each pairs with.

A source is a ``.tex`` file that declares ``\\documentclass`` (an ``\\input`` part does not), or
an arXiv source file: ``<id>.gz`` (a gzipped tar or a gzipped ``.tex``; arXiv's bulk source
tars hold one per paper), ``<id>.tar.gz`` when its name is an arXiv id. A ``.tex`` is read with
its folder when it is the folder's only main file (its ``\\input`` parts and figures beside it),
else alone with the ``.bbl`` of its name. Its PDF is the one beside it with the same name, or
whose name starts with the same arXiv id (``2004.14974v2.pdf`` for ``2004.14974.gz``); that PDF
gives the pages and is not ingested again on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from paperpyramid import arxiv_ids

#: bytes of a .tex read to find ``\documentclass`` (it comes before the body)
HEAD_BYTES = 64 * 1024
_DOCUMENTCLASS = re.compile(rb"^[^%\n]*\\documentclass", re.M)


@dataclass(frozen=True, slots=True)
class LatexSource:
    """A source to read (``bundle``: a file, or the folder of a main ``.tex``), the file it was
    found as (``main``), and the PDF it pairs with."""

    main: Path
    bundle: Path
    pdf: Path | None


def is_main_tex(path: Path) -> bool:
    """Whether ``path`` is a ``.tex`` that declares ``\\documentclass`` before its body."""
    try:
        with path.open("rb") as handle:
            return bool(_DOCUMENTCLASS.search(handle.read(HEAD_BYTES)))
    except OSError:
        return False


def is_source_name(name: str) -> bool:
    """A name a source has: ``.tex``, ``.ltx``, or an arXiv id with ``.gz``/``.tar.gz``."""
    lower = name.lower()
    if lower.endswith((".tex", ".ltx")):
        return True
    stem = lower.removesuffix(".gz").removesuffix(".tar")
    return lower.endswith(".gz") and stem != lower and arxiv_ids.at_start(stem) is not None


def arxiv_stem(name: str) -> str | None:
    """The arXiv id a file name starts with ("2004.14974v2.pdf" -> "2004.14974"), or None."""
    return arxiv_ids.at_start(Path(name).name)


def find_sources(paths: Iterable[Path]) -> list[LatexSource]:
    """The sources among ``paths`` (the files a walk found), each with its bundle and PDF."""
    files = list(paths)
    candidates = [path for path in files if is_source_name(path.name) and (not path.name.lower().endswith((".tex", ".ltx")) or is_main_tex(path))]
    mains_per_folder: dict[Path, int] = {}
    for path in candidates:
        if path.name.lower().endswith((".tex", ".ltx")):
            mains_per_folder[path.parent] = mains_per_folder.get(path.parent, 0) + 1
    sources = []
    for path in candidates:
        alone = not path.name.lower().endswith((".tex", ".ltx")) or mains_per_folder[path.parent] > 1 or _shares_folder(path, files)
        beside = [pdf for pdf in path.parent.iterdir() if pdf.is_file() and pdf.suffix.lower() == ".pdf"]
        sources.append(LatexSource(path, path if alone else path.parent, paired_pdf(path, beside)))
    return sources


def paired_pdf(source: Path, pdfs: Iterable[Path]) -> Path | None:
    """The PDF beside ``source`` with its name, else with its arXiv id, else None."""
    beside = [pdf for pdf in pdfs if pdf.parent == source.parent]
    stem = source.name
    for suffix in (".gz", ".tar", ".tgz", ".tex", ".ltx"):
        stem = stem.removesuffix(suffix) if stem.lower().endswith(suffix) else stem
    same = [pdf for pdf in beside if pdf.stem == stem]
    if same:
        return same[0]
    wanted = arxiv_stem(source.name)
    by_id = [pdf for pdf in beside if wanted is not None and arxiv_stem(pdf.name) == wanted]
    return max(by_id, key=_version, default=None)  # the latest version: v10 after v2


def _version(pdf: Path) -> tuple[int, str]:
    found = re.search(r"v(\d+)(?=$|[-_.])", pdf.stem)
    return (int(found.group(1)) if found else 0, pdf.name)


def _shares_folder(main: Path, files: list[Path]) -> bool:
    """Whether ``main``'s folder holds another paper's source (an arXiv ``.gz``): then the
    folder is not its bundle. (PDFs beside it may be its figures.)"""
    return any(path.parent == main.parent and path != main and is_source_name(path.name) and not _is_tex(path) for path in files)


def _is_tex(path: Path) -> bool:
    return path.name.lower().endswith((".tex", ".ltx"))


__all__ = ["LatexSource", "arxiv_stem", "find_sources", "is_main_tex", "is_source_name", "paired_pdf"]
