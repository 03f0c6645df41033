"""Authors' affiliations from the title page: the institutions printed under the names, each
given to the authors whose marks point at it.

The affiliation lines follow the author names on the first page, before the abstract or the
first heading, and stop at the correspondence, dates, editor or licence. An affiliation
starts at its number or mark, printed in front of it ("1 Bioinformatics and ...",
"2. Center for ...", or a superscript set apart as its own tiny block just left of the
line); lines without one continue it. Each author's marks are the digits and symbols printed
right after the name ("O'Connell1,2", "De Marchis1,2,3*"). With a single affiliation and no
numbering, every author has it; marks that point nowhere give nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperpyramid.document import Author
from paperpyramid.parsers.embedded.blocks import KNOWN_HEADINGS, Block

_INSTITUTION = re.compile(
    r"\b(universit|institut|departament|department|dept\b|school|college|laborator|hospital|centre|center|faculty|division|academy|"
    r"corporation|clinic|ministry|group|research|council|foundation|inc\b|ltd\b|gmbh)",
    re.I,
)
# where the affiliations end: correspondence, e-mail, dates, editor, licence, keywords
_END = re.compile(
    r"^\s*(\*|✉|correspond|received|accepted|published|submitted|academic editor|edited by|editor\b|copyright|©|"
    r"citation|open access|key ?words|how to cite|first published|abstract|summary|background)",
    re.I,
)
_SYMBOLS = "*†‡§¶#∗♦♣♠♢♡♥◇⋆+"
# an affiliation's mark where it starts: "1 Bioinformatics", "2. Center", "†Allen", "αAllen"
_START = re.compile(rf"(?:^|(?<=[\s,;]))(?P<mark>\d{{1,2}}(?=\.?\s)|[{_SYMBOLS}]|[α-ω](?=[A-Z]))\.?\s*(?=[A-Z])")
_MARK_BLOCK = re.compile(rf"^\s*(\d{{1,2}}|[{_SYMBOLS}a-h])\s*$")
_AUTHOR_MARKS = rf"[\d,{_SYMBOLS}α-ω]"
# names read into an affiliation (an author grid read across): "… for AI Doug Downeyα,η Luca …"
_NAMES = re.compile(rf"\s(?=(?:[A-Z](?:[a-z][\w’'-]*|\.)\s+){{1,3}}[A-Z][\w’'-]*[a-z][α-ω{_SYMBOLS}\d])")


def attach_affiliations(authors: Sequence[Author], blocks: list[Block], title_end: int) -> None:
    """Set ``author.affiliation`` from the title page's affiliation lines (see the module)."""
    if not authors or title_end < 0:
        return
    entries, zone = _entries(blocks, title_end)
    if not entries:
        return
    if list(entries) == [None]:
        # one affiliation, unmarked: everybody's, unless the names carry marks it does not show
        if not any(_marks_of(author.name, zone) for author in authors):
            for author in authors:
                author.affiliation = author.affiliation or entries[None]
        return
    for author in authors:
        found = [entries[mark] for mark in _marks_of(author.name, zone) if mark in entries]
        if found and not author.affiliation:
            author.affiliation = "; ".join(dict.fromkeys(found))


def _entries(blocks: list[Block], title_end: int) -> tuple[dict[str | None, str], str]:
    """The affiliations by their mark (``None``: unmarked), and the author zone's text."""
    title = blocks[title_end]
    page_blocks = [block for block in blocks[title_end + 1 :] if block.page == title.page]
    markers = [block for block in page_blocks if _MARK_BLOCK.match(block.text)]
    zone: list[str] = []
    stream: list[str] = []
    for block in page_blocks:
        text = block.text.strip()
        if block.kind == "title" or _MARK_BLOCK.match(text):
            if not stream and _MARK_BLOCK.match(text):
                zone.append(text)  # a name's mark set apart: "Zejiang Shen" "1"
            continue
        known = block.kind == "heading" and (
            block.title.lower().strip(" .:") in KNOWN_HEADINGS or (block.number is not None and not _INSTITUTION.search(text))
        )  # "1 Allen Institute for AI" set as a numbered heading is an affiliation
        if known or block.kind in ("caption", "formula") or (stream and block.kind == "heading" and not _INSTITUTION.search(text)):
            break  # names set in a heading's style are not yet told from headings: they stay in the zone
        if not stream:
            if not (_INSTITUTION.search(text) or _START.match(text)):
                zone.append(text)
                if len(zone) > 12:
                    return {}, ""
                continue
        elif len(text) > 400 or (len(block.lines) > 3 and not _INSTITUTION.search(block.lines[0].text)):
            break  # the abstract, run in without a heading
        ended = False
        for line in block.lines:
            if _END.match(line.text):
                ended = True
                break
            text = _without_emails(line.text)
            if not text:
                continue
            mark = next((m.text.strip() for m in markers if abs(m.top - line.top) <= 4 and 0 <= line.x0 - m.lines[-1].x1 < 12), None)
            stream.append(f"{mark} {text}" if mark is not None and not _START.match(text) else text)
        if ended:
            break
    return _split(" ".join(stream)), " ".join(zone)


def _without_emails(text: str) -> str:
    """A line without its e-mail addresses ("Italy; E-Mails: a@b.it (A.B.)" -> "Italy"); what
    is left of a line of addresses alone (an underscore read as a space leaves pieces) goes too."""
    kept = re.split(r"\b(?:e-?mails?|email addresses)\b\s*:?", re.sub(r"\{[^}]*\}\S*", " ", text), maxsplit=1, flags=re.I)[0]
    kept = " ".join(word for word in kept.split() if "@" not in word and "{" not in word and "}" not in word)
    if kept.strip() == text.strip():
        return kept.strip()
    return kept.strip(" ;,") if any(word[:1].isupper() for word in kept.split()) else ""


def _split(text: str) -> dict[str | None, str]:
    """The stream of affiliation lines cut at each mark."""
    text = " ".join(text.split())
    starts = list(_START.finditer(text))
    if not starts:
        return {None: text.strip(" ,;")} if text else {}
    entries: dict[str | None, str] = {}
    if starts[0].start() > 0:
        entries[None] = text[: starts[0].start()].strip(" ,;")
    for index, match in enumerate(starts):
        stop = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        piece = _NAMES.split(text[match.end() : stop], maxsplit=1)[0].strip(" ,;")
        if piece:
            entries[match.group("mark")] = piece
    return entries


def _marks_of(name: str, zone: str) -> list[str]:
    """The marks printed right after ``name`` in the author zone ("Webb1", "O'Connell1,2")."""
    surname = name.split()[-1]
    match = re.search(rf"{re.escape(surname)}\s*(?P<marks>{_AUTHOR_MARKS}+)", zone, re.I)
    return re.findall(rf"\d{{1,2}}|[{_SYMBOLS}α-ω]", match.group("marks")) if match else []


__all__ = ["attach_affiliations"]
