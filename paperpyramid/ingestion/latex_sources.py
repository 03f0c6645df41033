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
from collections import Counter
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
    """The sources among ``paths`` (the files a walk found), each with its bundle and PDF. Each
    folder is listed and indexed once, however many sources it holds (an arXiv dump unpacked
    into one folder holds thousands)."""
    files = list(paths)
    candidates = [path for path in files if is_source_name(path.name) and (not _is_tex(path) or is_main_tex(path))]
    mains = Counter(path.parent for path in candidates if _is_tex(path))
    # another paper's source (an arXiv .gz) in a main .tex's folder: the folder is not its bundle
    # (PDFs beside it may be its figures)
    others = Counter(path.parent for path in files if is_source_name(path.name) and not _is_tex(path))
    folders: dict[Path, _FolderPdfs] = {}
    sources = []
    for path in candidates:
        alone = not _is_tex(path) or mains[path.parent] > 1 or others[path.parent] > 0
        if path.parent not in folders:
            folders[path.parent] = _FolderPdfs(path.parent)
        sources.append(LatexSource(path, path if alone else path.parent, folders[path.parent].paired(path)))
    return sources


class _FolderPdfs:
    """A folder's PDFs, by name stem and by arXiv id."""

    def __init__(self, folder: Path) -> None:
        pdfs = sorted(pdf for pdf in folder.iterdir() if pdf.is_file() and pdf.suffix.lower() == ".pdf")
        self.by_stem: dict[str, Path] = {}
        self.by_id: dict[str, list[Path]] = {}
        for pdf in pdfs:
            self.by_stem.setdefault(pdf.stem, pdf)
            found = arxiv_stem(pdf.name)
            if found is not None:
                self.by_id.setdefault(found, []).append(pdf)

    def paired(self, source: Path) -> Path | None:
        """The PDF of ``source``'s name, else of its arXiv id (its latest version), else None."""
        stem = source.name
        for suffix in (".gz", ".tar", ".tgz", ".tex", ".ltx"):
            stem = stem.removesuffix(suffix) if stem.lower().endswith(suffix) else stem
        if stem in self.by_stem:
            return self.by_stem[stem]
        wanted = arxiv_stem(source.name)
        return max(self.by_id.get(wanted, []), key=_version, default=None) if wanted else None  # v10 after v2


def _version(pdf: Path) -> tuple[int, str]:
    found = re.search(r"v(\d+)(?=$|[-_.])", pdf.stem)
    return (int(found.group(1)) if found else 0, pdf.name)


def _is_tex(path: Path) -> bool:
    return path.name.lower().endswith((".tex", ".ltx"))


__all__ = ["LatexSource", "arxiv_stem", "find_sources", "is_main_tex", "is_source_name"]
