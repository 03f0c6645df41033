"""The reference list: ``\\bibitem`` entries of a ``.bbl`` or an inline ``thebibliography``, a
biblatex ``.bbl``, or, with neither, the cited entries of the ``.bib`` files.

Each entry keeps its cite key, its optional ``\\bibitem[label]`` (natbib's ``Short(Year)Long``
or an alpha label like ``Knu84``) and its LaTeX; :func:`to_reference` makes the
:class:`~paperpyramid.document.Reference` (readable text; title, authors, year, DOI and arXiv
id where they can be told).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperpyramid.document import Reference
from paperpyramid.parsers.latex.scan import read_group, read_optional, skip_space
from paperpyramid.parsers.latex.text import plain

__all__ = ["BibEntry", "bbl_entries", "bib_entries", "to_reference"]

_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z])")
_END_BIBLIOGRAPHY = re.compile(r"\\end\s*\{thebibliography\}")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+?)(?=[.,;]?(?:[\s}]|$))")
_ARXIV = re.compile(r"(?:arxiv[:\s/]*|abs/)(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
_YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)[a-z]?\b")
_BIBINFO = re.compile(r"\\bibinfo\s*\{(\w+)\}")
_NEWBLOCK = re.compile(r"\\newblock(?![A-Za-z])")


@dataclass
class BibEntry:
    key: str
    label: str | None  # the [..] of \bibitem, raw
    latex: str  # the entry's LaTeX (a .bib entry: its fields rendered as a sentence)
    fields: dict[str, str] | None = None  # a .bib or biblatex entry's fields


def bbl_entries(text: str) -> list[BibEntry]:
    """The ``\\bibitem`` entries of a ``thebibliography`` (a .bbl, or inline), or of a biblatex .bbl."""
    if "\\entry{" in text and "\\bibitem" not in text:
        return _biblatex_entries(text)
    end = _END_BIBLIOGRAPHY.search(text)
    text = text[: end.start()] if end else text
    starts = list(_BIBITEM.finditer(text))
    entries: list[BibEntry] = []
    for number, match in enumerate(starts):
        label, index = read_optional(text, match.end())
        at = skip_space(text, index)
        if at >= len(text) or text[at] != "{":
            continue
        key, index = read_group(text, at)
        stop = starts[number + 1].start() if number + 1 < len(starts) else len(text)
        entries.append(BibEntry(key.strip(), label, text[index:stop].strip()))
    return entries


def _biblatex_entries(text: str) -> list[BibEntry]:
    entries: list[BibEntry] = []
    for match in re.finditer(r"\\entry\{([^}]*)\}\{(\w+)\}\{[^}]*\}(.*?)\\endentry", text, re.DOTALL):
        body = match.group(3)
        fields = {name: value for name, value in re.findall(r"\\field\{(\w+)\}\{((?:[^{}]|\{[^{}]*\})*)\}", body)}
        fields.update(
            {name.lower(): value.strip() for name, value in re.findall(r"\\verb\{(\w+)\}\s*\\verb (.*?)\s*\\endverb", body, re.DOTALL)}
        )
        names = []
        block = re.search(r"\\name\{author\}\{\d+\}\{[^}]*\}\{(.*?)\n\s*\}", body, re.DOTALL)
        for person in re.finditer(r"family=\{([^}]*)\}[^{}]*?(?:given=\{([^}]*)\})?", block.group(1) if block else ""):
            names.append(f"{person.group(2) or ''} {person.group(1)}".strip())
        if names:
            fields["author"] = " and ".join(names)
        entries.append(BibEntry(match.group(1), None, _sentence(fields), fields))
    return entries


def bib_entries(text: str) -> dict[str, BibEntry]:
    """The entries of a ``.bib`` file by key (``@string`` macros and ``@comment`` skipped)."""
    entries: dict[str, BibEntry] = {}
    for match in re.finditer(r"@(\w+)\s*[{(]\s*([^,\s]+)\s*,", text):
        kind = match.group(1).lower()
        if kind in ("string", "comment", "preamble"):
            continue
        fields = _bib_fields(text, match.end())
        entries[match.group(2)] = BibEntry(match.group(2), None, _sentence(fields), fields)
    return entries


_BARE = re.compile(r"[^,}\s]*")
_COMMA = re.compile(r"\s*(#[^,]*)?,?")


def _bib_fields(text: str, index: int) -> dict[str, str]:
    fields: dict[str, str] = {}
    field = re.compile(r"\s*(\w[\w-]*)\s*=\s*")
    while index < len(text):
        match = field.match(text, index)
        if match is None:
            break
        index = match.end()
        if index < len(text) and text[index] == "{":
            value, index = read_group(text, index)
        elif index < len(text) and text[index] == '"':
            end = text.find('"', index + 1)
            end = len(text) if end < 0 else end
            value, index = text[index + 1 : end], end + 1
        else:
            bare = _BARE.match(text, index)  # matched in place: slicing here made a large .bib quadratic
            value = bare.group() if bare else ""
            index += len(value)
        fields[match.group(1).lower()] = " ".join(value.split())
        comma = _COMMA.match(text, index)
        index += len(comma.group()) if comma else 0
        if index < len(text) and text[skip_space(text, index)] in "})":
            break
    return fields


def _sentence(fields: dict[str, str]) -> str:
    """A .bib entry as the reference list would print it, roughly: Authors. Year. Title. Venue."""
    authors = ", ".join(name.strip() for name in re.split(r"\s+and\s+", fields.get("author", "")) if name.strip())
    year = fields.get("year") or (fields.get("date") or "")[:4]
    venue = fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle") or fields.get("publisher") or ""
    parts = [part for part in (authors, year, fields.get("title", ""), venue) if part]
    text = ". ".join(part.rstrip(".") for part in parts)
    if fields.get("doi"):
        text += f". doi:{fields['doi']}"
    if fields.get("eprint") and "arxiv" in (fields.get("archiveprefix", "") + fields.get("eprinttype", "")).lower():
        text += f". arXiv:{fields['eprint']}"
    return text


def to_reference(entry: BibEntry) -> Reference:
    """The :class:`Reference` of one entry, fields best effort."""
    raw = plain(_NEWBLOCK.sub(" ", entry.latex))
    reference = Reference(raw=raw, key=entry.key)
    fields = entry.fields or _bibinfo_fields(entry.latex)
    if fields:
        reference.title = plain(fields["title"]).strip(" .") or None if "title" in fields else None
        if "author" in fields:
            reference.authors = [plain(name).strip() for name in re.split(r"\s+and\s+|\n", fields["author"]) if name.strip()]
        year = _YEAR.search(fields.get("year", "") or fields.get("date", ""))
        reference.year = int(year.group(1)) if year else None
        venue = fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle")
        reference.venue = plain(venue) if venue else None
    if reference.title is None or not reference.authors:
        _guess_fields(entry, reference)
    if reference.year is None:
        year = _YEAR.search(raw)
        reference.year = int(year.group(1)) if year else None
    doi = _DOI.search(entry.latex) or _DOI.search(raw)
    reference.doi = doi.group(1) if doi else (fields or {}).get("doi") or None
    arxiv = _ARXIV.search(entry.latex) or _ARXIV.search(raw)
    reference.arxiv_id = arxiv.group(1) if arxiv else None
    return reference


def _bibinfo_fields(latex: str) -> dict[str, str]:
    """elsarticle's ``\\bibinfo{title}{...}`` marks; several authors join with " and "."""
    fields: dict[str, str] = {}
    for match in _BIBINFO.finditer(latex):
        at = skip_space(latex, match.end())
        if at < len(latex) and latex[at] == "{":
            value, _ = read_group(latex, at)
            name = match.group(1)
            fields[name] = f"{fields[name]} and {value}" if name == "author" and name in fields else value
    return fields


def _guess_fields(entry: BibEntry, reference: Reference) -> None:
    """Authors and title from a plain ``\\newblock``-separated entry: authors (and year) first, title next."""
    blocks = [plain(block).strip() for block in _NEWBLOCK.split(entry.latex)]
    blocks = [block for block in blocks if block]
    if len(blocks) >= 2:
        head = _YEAR.sub("", blocks[0]).strip(" .,()")
        if not reference.authors and head:
            names = re.split(r",\s*and\s+|\s+and\s+|,\s*(?=[A-Z][^,]*\s)", head)
            reference.authors = [name.strip(" .,") for name in names if name.strip(" .,")]
        if reference.title is None:
            reference.title = blocks[1].strip(" .") or None
        return
    quoted = re.search(r"[“\"](.+?)[”\"]", reference.raw)
    if reference.title is None and quoted:
        reference.title = quoted.group(1).strip(" ,.")
