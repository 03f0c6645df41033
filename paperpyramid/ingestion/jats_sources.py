"""JATS XML among the inputs, and the PDF each pairs with.

PubMed Central distributes full texts as JATS XML: ``.nxml`` in the per-article OA packages,
``.xml`` in the bulk packages (``oa_comm_xml.PMC000xxxxxx.baseline.<date>.tar.gz``). An
``.nxml`` is taken as JATS by its name; an ``.xml`` found in a folder or an archive only when
its opening names a JATS root (``<article>``, E-utilities' ``<pmc-articleset>``), so that a
TEI file or any other XML beside the papers is left alone. Named on its own, any ``.xml`` is
read (a file that is not JATS then fails with the reason).

A JATS file's PDF is the one beside it with the same name, or named after the article's
PMCID (``PMC4709619.pdf`` for an XML whose ``<article-id pub-id-type="pmc">`` is 4709619).
The XML gives the structure and the PDF the pages; that PDF is not ingested again on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.parsers.backends import HEAD_BYTES, looks_like_jats

_PMCID = re.compile(rb"<article-id\s[^>]*pub-id-type=[\"'](?:pmc|pmcid)[\"'][^>]*>\s*(?:PMC)?(\d+)\s*<", re.I)
_SUFFIXES = (".nxml", ".xml")


@dataclass(frozen=True, slots=True)
class JatsSource:
    """A JATS file to read (``xml``) and the PDF that gives its pages, if one is beside it."""

    xml: Path
    pdf: Path | None


def is_jats_name(name: str) -> bool:
    """Whether a file name may be a JATS article's: ``.nxml`` or ``.xml`` (any case)."""
    return name.lower().endswith(_SUFFIXES)


def pmcid_of(path: Path) -> str | None:
    """The PMCID in a JATS file's opening (``"PMC4709619"``), or None."""
    found = _PMCID.search(_head(path))
    return f"PMC{found.group(1).decode()}" if found else None


def find_jats(paths: Iterable[Path], *, named: bool = False) -> list[JatsSource]:
    """The JATS files among ``paths`` (the files a walk found), each with the PDF beside it of
    its name or PMCID. With ``named`` (the files were named on the command line), every
    ``.nxml``/``.xml`` is taken without looking inside. Each folder is listed once."""
    folders: dict[Path, dict[str, Path]] = {}
    found = []
    for path in paths:
        if not is_jats_name(path.name) or not (named or looks_like_jats(path)):
            continue
        if path.parent not in folders:
            folders[path.parent] = _pdfs_by_stem(path.parent)
        pdfs = folders[path.parent]
        pdf = pdfs.get(_stem(path).lower())
        if pdf is None:
            pmcid = pmcid_of(path)
            pdf = pdfs.get(pmcid.lower()) if pmcid else None
        found.append(JatsSource(path, pdf))
    return found


def _stem(path: Path) -> str:
    name = path.name
    return name[: name.rfind(".")]


def _pdfs_by_stem(folder: Path) -> dict[str, Path]:
    pdfs: dict[str, Path] = {}
    for pdf in sorted(folder.iterdir()):
        if pdf.is_file() and pdf.suffix.lower() == ".pdf":
            pdfs.setdefault(pdf.stem.lower(), pdf)
    return pdfs


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(HEAD_BYTES)
    except OSError:
        return b""


__all__ = ["JatsSource", "find_jats", "is_jats_name", "looks_like_jats", "pmcid_of"]
