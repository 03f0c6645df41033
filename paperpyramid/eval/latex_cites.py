"""In-text citations of an author's LaTeX source: the gold of papers that come without JATS.

A ``\\cite{key}`` (``\\citep``, ``\\citet``, ``\\citealp``, ``\\parencite``, ...) in the running
text is a citation of the entry ``\\bibitem{key}`` in the compiled ``.bbl`` beside the source, or
else in its own ``thebibliography``. What :mod:`paperpyramid.eval.citations` compares is then
the same as for JATS: (citing sentence, entry) pairs, the sentence written without its
markers, each entry with its text for pairing it with a parsed one.

What counts, and why:

- only commands that print a marker: ``\\citeauthor`` and ``\\citeyear`` print a name or a
  year that no parser can tell from running text, and ``\\nocite`` prints nothing;
- only keys with an entry in the list: a ``\\bibliography{refs}`` without its ``.bbl`` gives
  no entries, and such a paper has no citation gold at all;
- not what floats, mathematics or the front matter hold (captions are scored with the
  tables, as for JATS), nor what ``\\verb`` or a verbatim environment shows;
- a footnote's text as a paragraph of its own, as it prints at the foot of the page, and
  ptptex's range ``\\cite{a}\\tocite{c}`` as the entries a to c it prints;
- a numbered list's entries are labelled 1, 2, ... in order (what the PDF prints), an
  ``alpha``-style label (``[Knu84]``) as given, an author-year label not at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from paperpyramid.citations.marker_keys import years_in
from paperpyramid.eval.citations import GoldCitations, _cited_sentences
from paperpyramid.eval.gold import (
    _SECTION_COMMAND,
    _drop_environments,
    _skip_optional,
    bibliography_lists,
    latex_source_and_document,
    latex_to_text,
)
from paperpyramid.eval.heading_cites import BIBITEM
from paperpyramid.eval.latex_source import read_tex, strip_comments
from paperpyramid.eval.reference_pairs import GoldEntry, _doi, _label
from paperpyramid.parsers.latex.scan import read_group

__all__ = ["CITE_COMMANDS", "RANGE_END", "load_latex_citations"]

#: commands that print a citation marker (natbib, biblatex, REVTeX); a trailing ``*`` too
CITE_COMMANDS = frozenset(
    {"cite", "citep", "citet", "citealp", "citealt", "citenum", "onlinecite", "parencite", "textcite", "autocite",
     "footcite", "supercite", "smartcite", "citen", "Cite", "Citep", "Citet", "Citealp", "Citealt", "Parencite", "Textcite", "Autocite"}
)  # fmt: skip
#: ptptex's end of a range of citations, "\\cite{a}\\tocite{c}" printing "a–c"
RANGE_END = "tocite"
_CITE = re.compile(r"\\([A-Za-z]+)\*?")
_FOOTNOTE = re.compile(r"\\footnote(?:text)?(?![A-Za-z])")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# a marker as written into the text before it is read: private-use brackets around its number
_OPEN, _CLOSE = "\ue000", "\ue001"
_MARKER = re.compile(_OPEN + r"(\d+)" + _CLOSE)


def load_latex_citations(path: Path) -> GoldCitations | None:
    """The sentences (text without markers, cited keys) and the entries by key, in list order,
    of a LaTeX source; ``None`` when it has no reference list to cite (see above)."""
    _, document = latex_source_and_document(path)
    bbl = path.with_suffix(".bbl")
    entries = bibliography(strip_comments(read_tex(bbl)) if bbl.is_file() else document)
    if not entries:
        return None
    found: list[tuple[str, list[str]]] = []
    for piece in _between_headings(document):
        text, notes = _notes_apart(_drop_environments(piece))
        for paragraph in [*_PARAGRAPH_BREAK.split(text), *notes]:
            found += _paragraph_sentences(paragraph, entries)
    return GoldCitations(found, {key: entry.text for key, entry in entries.items()}, entries)


def _notes_apart(latex: str) -> tuple[str, list[str]]:
    """``latex`` without its footnotes, and each footnote's text: a note prints at the foot of the
    page, where the parse has it too, not inside the sentence that carries its mark (read in
    place, "Frogs\\footnote{See \\cite{x}.} breed" is one sentence of neither)."""
    out: list[str] = []
    notes: list[str] = []
    cursor = 0
    for match in _FOOTNOTE.finditer(latex):
        if match.start() < cursor:
            continue
        index = _skip_optional(latex, match.end())
        if index >= len(latex) or latex[index] != "{":
            continue
        note, after = read_group(latex, index)
        out.append(latex[cursor : match.start()])
        notes.append(note)
        cursor = after
    out.append(latex[cursor:])
    return "".join(out), notes


def _between_headings(document: str) -> list[str]:
    """The text before, between and after the sectioning commands, without their titles."""
    pieces: list[str] = []
    cursor = 0
    for match in _SECTION_COMMAND.finditer(document):
        index = _skip_optional(document, match.end())
        if match.start() < cursor or index >= len(document) or document[index] != "{":
            continue
        pieces.append(document[cursor : match.start()])
        cursor = read_group(document, index)[1]
    return [*pieces, document[cursor:]]


def bibliography(latex: str) -> dict[str, GoldEntry]:
    """Every ``\\bibitem`` of the ``thebibliography`` lists of a ``.bbl`` or a document, by key,
    in list order (a ``\\bibitem`` shown elsewhere, in a template's example, is no entry)."""
    items = [(body, item) for body in bibliography_lists(latex) for item in BIBITEM.finditer(body)]
    entries: dict[str, GoldEntry] = {}
    for number, (body, item) in enumerate(items):
        following = items[number + 1] if number + 1 < len(items) else None
        stop = following[1].start() if following is not None and following[0] is body else len(body)
        text = latex_to_text(body[item.end() : stop], keep_math=True)
        key = item.group(2).strip()
        if not key or key in entries:
            continue
        years = years_in(text)
        entries[key] = GoldEntry(
            text=text,
            label=_printed_label(item.group(1), number),
            doi=_doi(text),
            year=years[0][0] if years else None,
            year_letter=years[0][1] if years else "",
        )
    return entries


def _printed_label(optional: str | None, number: int) -> str | None:
    """What the list prints before the entry: its number, a short label, or (author-year) none."""
    if optional is None:
        return str(number + 1)
    plain = latex_to_text(optional, keep_math=True)
    if not plain or "(" in plain or " " in plain.strip():
        return None  # natbib's "Smith et al.(2000)": the entry is found by its author and year
    return _label(plain)


def _paragraph_sentences(latex: str, entries: dict[str, GoldEntry]) -> list[tuple[str, list[str]]]:
    """A paragraph's sentences, cut as the JATS side cuts them, each with the keys it cites."""
    cited: list[list[str]] = []

    order = {key: number for number, key in enumerate(entries)}
    listed = list(entries)

    def marker(keys: str, command: str) -> str:
        known = [key for key in (part.strip() for part in keys.split(",")) if key in entries]
        if command == RANGE_END and cited and cited[-1] and known:  # "\\cite{a}\\tocite{c}" prints "a–c"
            first, last = order[cited[-1][-1]], order[known[0]]
            cited[-1] = list(dict.fromkeys([*cited[-1], *listed[first + 1 : last + 1]]))
            return ""
        cited.append(list(dict.fromkeys(known)))
        return f" {_OPEN}{len(cited) - 1}{_CLOSE} "

    text = latex_to_text(_replace_cites(latex, marker), keep_math=False)
    spans = [(m.start(), m.end(), cited[int(m.group(1))]) for m in _MARKER.finditer(text)]
    return _cited_sentences(text, spans) if text else []


def _replace_cites(latex: str, marker: Callable[[str, str], str]) -> str:
    """Each citing command, with its optional arguments and keys, written as ``marker(keys, command)``;
    a range's end (:data:`RANGE_END`) only where it follows a citing command."""
    out: list[str] = []
    cursor = 0
    for match in _CITE.finditer(latex):
        command = match.group(1)
        range_end = command == RANGE_END and not latex[cursor : match.start()].strip()
        if match.start() < cursor or (command not in CITE_COMMANDS and not range_end):
            continue
        index = _skip_optional(latex, match.end())
        if index >= len(latex) or latex[index] != "{":
            continue
        keys, after = read_group(latex, index)
        out += [latex[cursor : match.start()], marker(keys, command)]
        cursor = after
    out.append(latex[cursor:])
    return "".join(out)
