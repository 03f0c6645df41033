"""Reference-list entries as in-text markers name them: printed numbers, and first author + year.

:func:`assign_keys` gives every entry without a :attr:`~paperpyramid.document.Reference.key` one:
its printed number in a numbered list, else a stable author-year key ("smith2019", "smith2019b"
when two entries would share it). :class:`AuthorYearIndex` finds the entries an author-year
marker ("Smith et al., 2019a") names by reading each entry's raw text, not its key, so it works
whatever keys a parser gave.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from paperpyramid.citations.marker_patterns import LETTER_LABEL, label_key
from paperpyramid.document import Reference

__all__ = [
    "AuthorYearIndex",
    "alphabetical",
    "assign_keys",
    "first_surname",
    "fold",
    "is_fragment",
    "number_labels",
    "numbered_list",
    "printed_letter_labels",
    "years_in",
]

# a year of publication, with its letter ("2019a"); not a piece of an arXiv id ("2004.05150")
# or of a page range or a DOI
_YEAR = re.compile(r"(?<![\d./:\-–])(1[6-9]\d\d|20\d\d)([a-z])?(?![\d]|\.\d)")
# a printed label the parser left at an entry's start ("3 Soubrier, F.", "[3]", "3.")
_LEADING_NUMBER = re.compile(r"^\s*\[?(\d{1,4})[\].]?\s+(?=\S)")
# a letter label the parser left at an entry's start ("[DHK+ 99] A. Delcher"), with a letter in it
_LETTER_LABEL_START = re.compile(rf"^\s*\[((?=[^\]]*[A-Za-z]){LETTER_LABEL})\]\s")
_PARTICLES = {"van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "das", "le", "la", "ter", "ten", "st", "mc"}


def fold(text: str) -> str:
    """``text`` lower-cased without accents, for comparing names ("Márquez" == "marquez")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).lower().replace("’", "'")


def years_in(raw: str) -> list[tuple[int, str]]:
    """(year, letter) of every year printed in a reference's text, in order."""
    return [(int(match.group(1)), match.group(2) or "") for match in _YEAR.finditer(raw)]


def number_labels(references: list[Reference]) -> dict[int, int]:
    """Printed number -> index into ``references`` for a numbered list.

    An entry's label is its key when that is a number, else a number printed at its start,
    else its place in the list (the embedded parser strips "[12]" / "12." labels but keeps the
    order). A label given twice keeps its first entry, and a printed label outranks a place (prose
    the parser took for an entry before "1." does not take the number 1 from it).
    """
    printed: list[tuple[int, int]] = []
    placed: list[tuple[int, int]] = []
    place = 0
    for index, reference in enumerate(references):
        if reference.key is not None and reference.key.isdigit():
            number = int(reference.key)
        elif reference.key is None and (match := _LEADING_NUMBER.match(reference.raw)):
            number = int(match.group(1))
        elif is_fragment(reference.raw):
            continue  # the tail of the entry before, split off by the parser: it has no number of its own
        else:
            placed.append((place + 1, index))
            place += 1
            continue
        printed.append((number, index))
        place = number
    labels: dict[int, int] = {}
    for number, index in printed + placed:
        labels.setdefault(number, index)
    return labels


def printed_letter_labels(references: list[Reference]) -> dict[str, int]:
    """Letter label -> index into ``references`` for a list labelled as BibTeX's alpha styles
    label it ("[DHK+ 99] A. Delcher, …", "[And08a] S. Anders. …"), the label's spaces left out;
    a label given twice keeps its first entry. Empty for any other list."""
    labels: dict[str, int] = {}
    for index, reference in enumerate(references):
        match = _LETTER_LABEL_START.match(reference.raw)
        if match is not None:
            labels.setdefault(label_key(match.group(1)), index)
    return labels


#: a list prints numbers when at least this share of its entries carry one
NUMBERED_SHARE = 0.5
#: a list is in alphabetical order when this share of neighbouring entries is (five entries at least)
SORTED_SHARE = 0.9


def numbered_list(references: list[Reference]) -> bool:
    """Whether the list prints its entries' numbers: a numeric key (the embedded parser keeps the
    printed label as the key) or a number left at the entry's start ("3 Soubrier, F.")."""
    printed = sum(1 for reference in references if (reference.key or "").isdigit() or _LEADING_NUMBER.match(reference.raw))
    return printed >= NUMBERED_SHARE * len(references)


def alphabetical(references: list[Reference]) -> bool:
    """Whether the entries run in alphabetical order of their first authors' family names, as an
    author-year list does (a list numbered by first citation does not)."""
    names = [fold(first_surname(reference)) for reference in references if not is_fragment(reference.raw)]
    names = [name for name in names if name]
    if len(names) < 5:
        return False
    ordered = sum(1 for before, after in zip(names, names[1:], strict=False) if before <= after)
    return ordered >= SORTED_SHARE * (len(names) - 1)


_FRAGMENT_START = re.compile(r"^\s*(?:[a-z]|ISBN|ISSN|doi|DOI|https?:|www\.|Available|Accessed|Retrieved|\[cited|pp?\.\s*\d|\d)")


def is_fragment(raw: str) -> bool:
    """An entry that reads as the end of another: it starts with a lower-case word, an ISBN, a DOI
    or URL, "Available at"..., or is short and has neither a year nor a name and title."""
    if _FRAGMENT_START.match(raw):
        return True
    return len(raw) < 40 and not years_in(raw)


def assign_keys(references: list[Reference], *, numbered: bool) -> None:
    """Give each entry without a key one: its printed number in a numbered list, else an
    author-year key unique within the list. Entries that have a key keep it."""
    taken = {reference.key for reference in references if reference.key is not None}
    if numbered:
        for number, index in number_labels(references).items():
            reference = references[index]
            if reference.key is None and str(number) not in taken:
                reference.key = str(number)
                taken.add(reference.key)
        return
    bases = [_author_year_base(reference, index) for index, reference in enumerate(references)]
    counts: dict[str, int] = {}
    for base in bases:
        counts[base] = counts.get(base, 0) + 1
    seen: dict[str, int] = {}
    for reference, base in zip(references, bases, strict=True):
        if reference.key is not None:
            continue
        key = base
        if counts[base] > 1:  # "smith2019a", "smith2019b" in list order
            seen[base] = seen.get(base, 0) + 1
            key = base + "abcdefghijklmnopqrstuvwxyz"[min(seen[base], 26) - 1]
        while key in taken:
            key += "x"
        reference.key = key
        taken.add(key)


def _author_year_base(reference: Reference, index: int) -> str:
    surname = re.sub(r"[^a-z]", "", fold(first_surname(reference)))
    years = years_in(reference.raw)
    year = str(reference.year or (years[0][0] if years else "")) or "nd"
    return f"{surname}{year}" if surname else f"ref{index + 1}"


def first_surname(reference: Reference) -> str:
    """The family name of an entry's first author, best effort ("Smith" of "Smith, J.",
    "Smith J", "J. Smith" or "John Smith")."""
    name = reference.authors[0] if reference.authors else re.split(r"[,.(]", reference.raw, maxsplit=1)[0]
    name = re.sub(r"^\s*\[?\d{1,4}[\].]?\s+", "", name).strip()
    words = [word for word in re.split(r"\s+", name) if word]
    if not words:
        return ""
    # "Smith JA" / "Smith J.": initials after the name
    if len(words) > 1 and all(re.fullmatch(r"(?:[A-Z]\.?){1,4}-?(?:[A-Z]\.?)?", word) for word in words[1:]):
        return words[0].rstrip(",")
    if "," in name:  # "Smith, John"
        return name.split(",")[0].strip()
    # "J. Smith", "John Smith", "Vincent van Gogh": the last word and the particles before it
    surname = [words[-1]]
    for word in reversed(words[:-1]):
        if fold(word) in _PARTICLES:
            surname.insert(0, word)
        else:
            break
    return " ".join(surname)


@dataclass
class _Entry:
    index: int
    head: str  # the folded author part: the text before the first year
    first: str  # the folded first author's name as printed
    years: list[tuple[int, str]]
    authors: int


@dataclass
class AuthorYearIndex:
    """Finds the entries an author-year citation names, by the entries' raw text."""

    references: list[Reference]
    _entries: list[_Entry] = field(default_factory=list)

    def __post_init__(self) -> None:
        for index, reference in enumerate(self.references):
            raw = re.sub(r"^\s*\[?\d{1,4}[\].]?\s+", "", reference.raw)
            years = years_in(raw)
            cut = _YEAR.search(raw)
            head = raw[: cut.start()] if cut and cut.start() > 0 else raw[:250]
            first = reference.authors[0] if reference.authors else re.split(r",|;|\band\b|&", head, maxsplit=1)[0]
            self._entries.append(_Entry(index, fold(head[:400]), fold(first), years, max(len(reference.authors), 1)))

    def find(self, names: list[str], et_al: bool, year: int, letter: str) -> int | None:
        """The index of the one entry by ``names`` (family names as cited, the first first)
        from ``year`` (with ``letter``, "" for none); None when none or several fit."""
        if not names:
            return None
        first = fold(names[0])
        candidates = [
            entry for entry in self._entries
            if _has_word(entry.first, first) and any(y == year for y, _ in entry.years[:3])
        ]  # fmt: skip
        if not candidates:  # a parser that read the author list badly: the name anywhere before the year
            candidates = [e for e in self._entries if _starts_with_name(e.head, first) and any(y == year for y, _ in e.years[:3])]
        for other in names[1:]:
            folded = fold(other)
            narrowed = [entry for entry in candidates if _has_word(entry.head, folded)]
            candidates = narrowed or candidates
        if len(candidates) > 1 and letter:
            lettered = [entry for entry in candidates if (year, letter) in entry.years[:3]]
            if lettered:
                candidates = lettered
            else:  # letters not printed in the list: "a" is the first entry of that author and year
                position = ord(letter) - ord("a")
                candidates = candidates[position : position + 1]
        if len(candidates) > 1:
            sized = [entry for entry in candidates if (entry.authors >= 3) == et_al and (entry.authors == 2) == (len(names) == 2)]
            candidates = sized if len(sized) == 1 else candidates
        return candidates[0].index if len(candidates) == 1 else None


def _has_word(text: str, word: str) -> bool:
    return bool(word) and re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text) is not None


def _starts_with_name(head: str, name: str) -> bool:
    return _has_word(head[: max(len(name) + 40, 60)], name)
