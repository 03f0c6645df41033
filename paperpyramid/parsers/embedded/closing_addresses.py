"""The addresses amsart and the classes built on it print after the references, each author's
with the e-mail addresses under it (:func:`closing_addresses`), which :mod:`.affiliations` gives
the authors where nothing else does; and the small words of a place's name, which tell a place
from a sentence (:func:`lower_case_words`).
"""

from __future__ import annotations

import re
from itertools import pairwise

from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.author_names import PARTICLES
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.institutions import names_institution

# the labels of the contact lines amsart sets under an author's closing address ("Email address:", aomart's
# "E-mail :", "URL:", "Current address:"); their lines are no address's
_CONTACT_LABEL = re.compile(r"\b(?:e-?mail(?:\s+address(?:es)?)?|url|current address|home\s?page)\s*:", re.I)
# a reference list's entry, which the closing addresses follow: "[4] M. Hochster, …", "12. Berg A, …"
_REFERENCE_ENTRY = re.compile(r"^\s*(?:\[[^\]]{1,12}\]|\d{1,3}\.\s)")
# what a reference's last line holds and no address: its year closing it or a sentence (Harvard's "World Health
# Organization, 2016. Global Report …"), in brackets or not, its pages
_CITED = re.compile(r"(?:^|[\s,(])(?:19|20)\d\d[a-z]?\)?$|\((?:19|20)\d\d[a-z]?\)|(?:19|20)\d\d[a-z]?[.;:]\s|\bpp\.|\bet al\b")
# the small words of a place's name and address, in lower case among its capitalised words ("of", "und", "cedex")
_PLACE_WORDS = PARTICLES | {
    "of",
    "and",
    "for",
    "the",
    "at",
    "in",
    "on",
    "an",
    "und",
    "für",
    "et",
    "des",
    "zu",
    "zur",
    "am",
    "im",
    "sur",
    "rue",
    "cedex",
}


def closing_addresses(blocks: list[Block], body_size: float) -> list[tuple[str, list[str]]]:
    """The addresses that close the article, in the authors' order, each with the e-mail
    addresses listed under it: amsart and the classes built on it print each author's address
    after the references, in type smaller than the body's ("Department of Mathematics,
    Washington State University, Pullman, WA" / "99164-3113 USA" / "Email address:
    alangenz@wsu.edu"). The last page's closing blocks set smaller than the body are read from
    the end up, page furniture under them aside, and cut into addresses (:func:`_closing_entries`);
    the addresses are those from the last up to the first that is none (a reference's last
    line, a note): one naming an institution (:data:`.institutions.AFFILIATION`,
    :data:`.institutions.INSTITUTION`) or with a contact line under it, its words capitalised
    but a place's small words (:data:`_PLACE_WORDS`) and a slip ("wiedner Hauptstae"), nothing of
    a reference (:data:`_CITED`); none where the first of them opens no block (the end of a note
    or of a reference cut into lines)."""
    closing: list[Block] = []
    for block in reversed(blocks):
        if block.page != blocks[-1].page or block.kind in ("caption", "formula", "table") or _REFERENCE_ENTRY.match(block.text):
            break
        if block.size >= body_size - 0.5 and not _CONTACT_LABEL.match(block.text):
            break
        if closing or block.kind != "furniture" or names_institution(block.text):
            closing.insert(0, block)
    kept: list[tuple[str, list[str], bool]] = []
    for place, contacts, opening in reversed(_closing_entries(closing)):
        lower = len(lower_case_words(place))
        if not (contacts or names_institution(place)) or lower > max(1, 0.15 * len(_words(place))) or _CITED.search(place):
            break
        kept.insert(0, (place, contacts, opening))
    return [(place, contacts) for place, contacts, _ in kept] if kept and kept[0][2] else []


def _closing_entries(closing: list[Block]) -> list[tuple[str, list[str], bool]]:
    """The closing blocks' lines cut into addresses, each with its contact lines and whether it
    opens a block: an address opens with the first line after a contact line (a labelled one,
    or a web or e-mail address alone under it), or after a wider space than the lines' (amsart's
    \\medskip between addresses); a contact's label inside an address's line ends the address
    there (smfart's "…, F-75231 Paris cedex 05 • E-mail : …")."""
    lines = [(line, index == 0) for block in closing for index, line in enumerate(block.lines)]
    pitches = [line.top - above.top for (above, _), (line, _) in pairwise(lines) if line.top > above.top]
    leading = min(pitches, default=0.0)
    entries: list[tuple[list[str], list[str], bool]] = []
    after_contact = True
    for index, (line, first) in enumerate(lines):
        text = line.text.strip()
        label = _CONTACT_LABEL.search(text)
        contact = (label is not None and label.start() == 0) or (after_contact and bool(entries) and _web_or_mail(text))
        spaced = index > 0 and line.top - lines[index - 1][0].top > 1.3 * leading
        if contact:
            if entries:
                entries[-1][1].append(text)
        elif after_contact or spaced or not entries:
            entries.append(([text], [], first))
        else:
            entries[-1][0].append(text)
        if label is not None and label.start() > 0:
            entries[-1][0][-1] = text[: label.start()].rstrip(" •·,;")
            entries[-1][1].append(text[label.start() :])
        after_contact = label is not None or contact
    return [(blk.join_lines(texts).strip(" .,;"), contacts, first) for texts, contacts, first in entries]


def _web_or_mail(text: str) -> bool:
    """A web or e-mail address alone on its line (a contact line's second: "http://borisv.lk.net")."""
    return len(text.split()) <= 2 and ("@" in text or "http" in text or "www." in text)


def lower_case_words(text: str) -> list[str]:
    """The words of ``text`` in lower case that no place's name holds (:data:`_PLACE_WORDS`): a
    sentence's, where a place would have none."""
    return [word for word in _words(text) if word[:1].islower() and word.lower() not in _PLACE_WORDS]


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_][\w'’-]*", text)


__all__ = ["closing_addresses", "lower_case_words"]
