"""Which entry of a parsed reference list is which ``<ref>`` of the JATS gold.

The scorer of in-text citations (:mod:`paperpyramid.eval.citations`) needs each parsed entry's
gold ``<ref>``: a citation to an entry left unpaired counts as a miss, so a pairing that fails
measures the scorer, not the parser. JATS gives an entry as printed (``<mixed-citation>``) or as
its fields alone (``<element-citation>``: no punctuation, no "vol./no./pp.", journal names
abbreviated), so the pairing uses what both sides reliably carry, strongest first:

1. both carry a DOI, and it is the same;
2. the gold's first author's surname is printed at the head of the parsed entry, the gold's year
   is printed in it, and so are seven in ten words of the gold's title at least;
3. their words overlap: a Dice coefficient of at least 0.5 (a book inside a chapter's entry is
   not it).

Two entries are never paired when both carry DOIs that differ, or the parsed entry prints the
gold's year with another letter only ("2020a" for "2020b"); nor, by word overlap, when more than
three in ten words of the gold's title (three words or more) are missing from the parsed entry.

When the gold numbers its entries (``<label>``) the way the parsed list is keyed (of the pairs
found above whose parsed key is a gold label, nine in ten agree, three at least), the number comes first: entries of the same number
pair when a rule above pairs them, or when the gold's year or first surname is printed in the
parsed entry (and no other DOI); only then do the rules pair entries of different numbers (a
piece of an entry that the parser split off, say).

Pairs are taken best first, each entry of either side at most once.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from paperpyramid.citations.marker_keys import fold, years_in
from paperpyramid.document import Reference
from paperpyramid.parsers.jats_refs import reference as jats_reference

__all__ = ["GoldEntry", "gold_entries", "pair_references"]

_WORD = re.compile(r"[^\W\d_]{2,}")
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+")
_DOI_END = ".,;:)]}>"
#: the share of the gold title's words a parsed entry must print
_TITLE_SHARE = 0.7
#: the least Dice overlap of words for rule 3
_OVERLAP = 0.5
#: how far into a parsed entry its first author's surname is looked for
_HEAD = 100
#: labels agree with the parsed keys on at least this share of the pairs found by content, and this many
_LABEL_AGREEMENT, _LABEL_LEAST = 0.9, 3

# what a pair rests on, weakest first
_BY_LABEL, _BY_WORDS, _BY_AUTHOR_YEAR_TITLE, _BY_DOI = 1, 2, 3, 4


@dataclass(frozen=True)
class GoldEntry:
    """A gold ``<ref>``: its text, and the fields the pairing reads (any may be missing)."""

    text: str
    label: str | None = None
    doi: str | None = None
    surname: str | None = None
    year: int | None = None
    #: the letter after the year ("2020b"), telling apart one author's works of a year
    year_letter: str = ""
    title: str | None = None


def gold_entries(root: ET.Element) -> dict[str, GoldEntry]:
    """Every ``<ref>`` with an id under ``root``, by id, in list order: its text as printed (or,
    for fields alone, written from them, unless that loses most of its words), its label, DOI,
    first author's surname, year and title."""
    entries: dict[str, GoldEntry] = {}
    for ref in root.iter("ref"):
        ref_id = ref.get("id")
        if not ref_id:
            continue
        label = ref.find("label")
        parsed = jats_reference(ref)
        text = " ".join("".join(ref.itertext()).split())
        if parsed is not None and 2 * len(_words(parsed.raw)) >= len(_words(text)):
            text = parsed.raw  # fields alone run together ("LohmannR.HaidK."): their entry written out reads better
        entries[ref_id] = GoldEntry(
            text=text,
            label=_label(" ".join("".join(label.itertext()).split())) if label is not None else None,
            doi=_doi(parsed.doi) if parsed is not None else None,
            surname=_first_surname(ref),
            year=parsed.year if parsed is not None else None,
            year_letter=_year_letter(ref, text, parsed.year) if parsed is not None else "",
            title=parsed.title if parsed is not None else None,
        )
    return entries


def _first_surname(ref: ET.Element) -> str | None:
    """The surname of the first author (not editor) of a ``<ref>``, or its first group author."""
    groups = [group for group in ref.iter("person-group") if group.get("person-group-type") in (None, "author")]
    for holder in groups or [ref]:
        for node in holder.iter():
            if node.tag in {"name", "string-name"}:
                surname = node.find("surname")
                if surname is not None and "".join(surname.itertext()).strip():
                    return " ".join("".join(surname.itertext()).split())
            elif node.tag == "collab" and "".join(node.itertext()).strip():
                return " ".join("".join(node.itertext()).split())
    return None


def _year_letter(ref: ET.Element, text: str, year: int | None) -> str:
    """The letter after the entry's year, from its ``<year>`` or else its text."""
    node = ref.find(".//year")
    source = "".join(node.itertext()) if node is not None else text
    return next((letter for found, letter in years_in(source) if found == year), "")


def _label(text: str) -> str | None:
    """A printed label as compared: letters and digits, lower-cased ("[12]" and "12." are "12")."""
    return re.sub(r"[\W_]+", "", text).lower() or None


def _doi(text: str | None) -> str | None:
    if not text:
        return None
    match = _DOI.search(text)
    return match.group().rstrip(_DOI_END).lower() if match else None


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


@dataclass(frozen=True)
class _Parsed:
    """A parsed entry as the pairing reads it."""

    key: str
    words: frozenset[str]
    doi: str | None
    head: str
    years: frozenset[tuple[int, str]]

    @classmethod
    def of(cls, reference: Reference, key: str) -> _Parsed:
        return cls(
            key=key,
            words=frozenset(_words(reference.raw)),
            doi=_doi(reference.doi) or _doi(reference.raw),
            head=fold(reference.raw)[:_HEAD],
            years=frozenset(years_in(reference.raw)),
        )


@dataclass(frozen=True)
class _Gold:
    """A gold entry as the pairing reads it."""

    entry: GoldEntry
    words: frozenset[str]
    title: frozenset[str]
    surname: re.Pattern[str] | None

    @classmethod
    def of(cls, entry: GoldEntry) -> _Gold:
        surname = re.compile(r"(?<!\w)" + re.escape(fold(entry.surname)) + r"(?!\w)") if entry.surname else None
        return cls(entry, frozenset(_words(entry.text)), frozenset(_words(entry.title or "")), surname)


def _conflict(parsed: _Parsed, gold: GoldEntry) -> bool:
    """Whether the two are surely different works: both carry a DOI and neither is the other cut
    short (a DOI broken over two lines), or the gold's year is printed with other letters only
    ("2020a" for the gold's "2020b")."""
    if parsed.doi is not None and gold.doi is not None and not (parsed.doi.startswith(gold.doi) or gold.doi.startswith(parsed.doi)):
        return True
    letters = {letter for year, letter in parsed.years if year == gold.year}
    return bool(gold.year_letter) and bool(letters) and "" not in letters and gold.year_letter not in letters


def _prints_year(parsed: _Parsed, gold: GoldEntry) -> bool:
    return any(year == gold.year for year, _ in parsed.years)


def _names_first_author(parsed: _Parsed, gold: _Gold) -> bool:
    return gold.surname is not None and gold.surname.search(parsed.head) is not None


def _rule(parsed: _Parsed, gold: _Gold) -> tuple[int, float] | None:
    """The strongest content rule that pairs the two, with their word overlap; None if none does."""
    if _conflict(parsed, gold.entry):
        return None
    shared = len(parsed.words & gold.words)
    overlap = 2 * shared / (len(parsed.words) + len(gold.words)) if shared else 0.0
    if parsed.doi is not None and parsed.doi == gold.entry.doi:
        return _BY_DOI, overlap
    share = len(gold.title & parsed.words) / len(gold.title) if gold.title else None
    if share is not None and share >= _TITLE_SHARE and _prints_year(parsed, gold.entry) and _names_first_author(parsed, gold):
        return _BY_AUTHOR_YEAR_TITLE, overlap
    title_missing = share is not None and share < _TITLE_SHARE and len(gold.title) >= 3
    if overlap >= _OVERLAP and not title_missing:
        return _BY_WORDS, overlap
    return None


def _same_label(key: str, gold: GoldEntry) -> int:
    return int(gold.label is not None and gold.label == _label(key))


def _greedy(scored: list[tuple[tuple[int, int, float, int], str, str]]) -> dict[str, str]:
    pairs: dict[str, str] = {}
    used: set[str] = set()
    for _, key, ref_id in sorted(scored, reverse=True):
        if key not in pairs and ref_id not in used:
            pairs[key] = ref_id
            used.add(ref_id)
    return pairs


def pair_references(references: list[Reference], gold: dict[str, GoldEntry]) -> dict[str, str]:
    """Parsed reference key -> gold ref id, one to one, best first (see the module's rules)."""
    parsed = [_Parsed.of(reference, reference.key) for reference in references if reference.key is not None]
    prepared = {ref_id: _Gold.of(entry) for ref_id, entry in gold.items()}
    by_content: dict[tuple[str, str], tuple[int, float]] = {}
    for entry in parsed:
        for ref_id, gold_entry in prepared.items():
            found = _rule(entry, gold_entry)
            if found is not None:
                by_content[entry.key, ref_id] = found
    first = _greedy([((0, *content, _same_label(key, gold[ref_id])), key, ref_id) for (key, ref_id), content in by_content.items()])
    if not _numbered_alike(first, gold):
        return first
    scored = []
    for entry in parsed:
        for ref_id, gold_entry in prepared.items():
            content = by_content.get((entry.key, ref_id))
            same_label = _same_label(entry.key, gold_entry.entry)
            if same_label and content is not None:
                scored.append(((2, *content, 1), entry.key, ref_id))
            elif same_label and _label_confirmed(entry, gold_entry):
                scored.append(((1, _BY_LABEL, 0.0, 1), entry.key, ref_id))
            elif content is not None:
                scored.append(((0, *content, 0), entry.key, ref_id))
    return _greedy(scored)


def _label_confirmed(parsed: _Parsed, gold: _Gold) -> bool:
    """Whether an entry of the same number is the same work: no conflict, and the year or first surname printed."""
    return not _conflict(parsed, gold.entry) and (_prints_year(parsed, gold.entry) or _names_first_author(parsed, gold))


def _numbered_alike(pairs: dict[str, str], gold: dict[str, GoldEntry]) -> bool:
    """Whether the gold's labels are the parsed keys, on the pairs found by content whose keys
    are gold labels too (a piece split off an entry may be keyed by a year, say)."""
    labels = {entry.label for entry in gold.values() if entry.label is not None}
    labelled = [
        (_label(key), gold[ref_id].label) for key, ref_id in pairs.items() if gold[ref_id].label is not None and _label(key) in labels
    ]
    agree = sum(1 for key, label in labelled if key == label)
    return agree >= _LABEL_LEAST and agree >= _LABEL_AGREEMENT * len(labelled)
