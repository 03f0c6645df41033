"""Reference lists to entries: numbered markers, hanging indents, or author-year starts; and
where a list printed without a heading begins (:func:`headless_list_start`)."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence

from paperpyramid.document import Reference
from paperpyramid.parsers.embedded.blocks import Block, join_lines
from paperpyramid.parsers.embedded.layout import Line, LineGroup
from paperpyramid.parsers.reference_headings import is_reference_heading

_MARKER = re.compile(r"^\s*(\[\d{1,4}\]|\d{1,4}\.(?!\d)|\(\d{1,4}\))\s*")
#: a number closed by a parenthesis, as Japanese physics journals label entries ("1) L. Lamport:");
#: read only where such numbers count up, since a line may open with "2019) Title" too
_PAREN_NUMBER = re.compile(r"^\s*(\d{1,3}\))\s*(?=\S)")
#: a list is read by its numbers alone when it counts from one this far at least
_LEAST_COUNTED = 3
#: a bare number may skip this many labels the text layer lost and still open the next entry
_SKIPPED_LABELS = 2
#: a number alone before the entry's first capital: "12 Smith J, …" or a superscript "¹²Smith J, …"
_BARE_NUMBER = re.compile(r"^\s*([0-9]{1,3}|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})\s*(?=[A-ZÀ-ÖØ-Þ])")
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)[a-z]?\b")
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.I)
_AUTHOR_START = re.compile(
    r"^(van |von |de |der |di |la |le |du |d')?[A-Z][\w'’\-]+(,| [A-Z]\.|,? [A-Z][a-z]+,? [A-Z]\.|\s+[A-Z]{1,3}[,.\s])"
)

#: a first author and the year right after (MNRAS: "Jones C. D., 2015, …"; "Smith, J. A. (2019)"): an
#: entry's start even where entries of one line each leave no line short of the margin
_NAME_YEAR = re.compile(r"^[A-Z][\w'’\-]+,? (?:[A-Z]\.\s?-?){1,3},? (?:et al\.,? )?\(?(?:1[89]\d\d|20\d\d)[a-z]?\b")

#: a line of links a publisher sets under an entry ("Publisher Full Text", "PubMed Abstract |
#: Free Full Text", "View Article Google Scholar"): no part of the entry
LINKS_ONLY = re.compile(
    r"^(?:(?:PubMed(?:\s+(?:Abstract|Central))?|Publisher\s+(?:Full\s+Text|Site)|(?:Free\s+)?Full\s+Text|Reference\s+Source|"
    r"CrossRef|Google\s+Scholar|View\s+Article|Scopus|Web\s+of\s+Science)\s*[|·•,/]?\s*)+$",
    re.I,
)


#: a line that opens an entry of a list printed without a heading: "[1] E. Witten," or a
#: superscript label set before the first initial, "1R. P. Feynman," (REVTeX prints no heading)
_HEADLESS_ENTRY = re.compile(r"^\s*(?:\[(\d{1,3})\](?=\s*\S)|(\d{1,3})\s?(?=[A-ZÀ-ÖØ-Þ][a-z]?\.\s?[A-ZÀ-ÖØ-Þ]))")
#: what an entry holds: an initial ("R. P. Feynman", "Hu W.,"), a year, an arXiv id or a web address
_CITED_WORK = re.compile(r"\b[A-Z]\.|\b(?:1[89]\d\d|20\d\d)\b|\b[a-z\-]+/\d{7}\b|\bhttps?://|\bwww\.")
#: a list without a heading is taken only when its labels count up 1, 2, 3, … this far at least
_HEADLESS_LEAST = 3
#: … and when this share of the labels after entry 1 keeps counting up
_HEADLESS_ORDERED = 0.8
#: the lines read for an entry's cited work: its label's line and those up to the next label
_ENTRY_LINES = 4
#: a note REVTeX merges into its list ("notes and references"): a raised number glued to a
#: capitalised word ("1For help …", "2Available with …")
_NOTE_ENTRY = re.compile(r"^\s*(\d{1,2})(?=[A-ZÀ-ÖØ-Þ][a-z])")
#: the notes that may open such a list before its first cited work
_LEADING_NOTES = 4


def headless_list_start(blocks: Sequence[LineGroup]) -> int | None:
    """The index of the block where a reference list printed without a heading begins, or None.

    REVTeX sets the list of APS and AIP journals after the text with no heading: its entries
    open with "[1]" or with a raised number before the first initial ("1R. P. Feynman"). The list
    is the last run of labelled lines that starts at entry 1 and counts up from there to the end
    of the paper, mostly one by one (a line the layout broke may hide a label); a numbered list in
    the text ("[1] … [2] …" that stops, or that other text follows) is not taken. An entry names
    a work (an initial, a year, an arXiv id or a web address) on its lines up to the next label.
    REVTeX also merges the paper's notes into the list, first where they are cited first ("1For
    help …"): a run that starts at entry 2 to 5 opens at the notes numbered 1 on just before it.
    Meant for a paper in which no heading names a reference list."""
    lines = [(index, line) for index, block in enumerate(blocks) for line in block.lines]
    labels = [
        (at, int(match.group(1) or match.group(2))) for at, (_, line) in enumerate(lines) if (match := _HEADLESS_ENTRY.match(line.text))
    ]
    if not labels:
        return None
    ends = [at for at, _ in labels[1:]] + [len(lines)]
    cited = [
        bool(_CITED_WORK.search(" ".join(line.text for _, line in lines[at : min(end, at + _ENTRY_LINES)])))
        for (at, _), end in zip(labels, ends, strict=True)
    ]
    for position, (at, number) in enumerate(labels):
        if not 1 <= number <= _LEADING_NOTES + 1:
            continue
        after = [label for _, label in labels[position:]]
        rising = sum(1 for before, label in zip(after, after[1:], strict=False) if before < label <= before + 3)
        works = sum(cited[position:])  # "[1] We propose …" in the text names no work
        if not (
            after[:_HEADLESS_LEAST] == list(range(number, number + _HEADLESS_LEAST))
            and rising >= _HEADLESS_ORDERED * (len(after) - 1)
            and works >= _HEADLESS_ORDERED * len(after)
        ):
            continue
        first = at if number == 1 else _leading_notes(lines, labels[position - 1][0] if position else -1, at, number)
        if first is not None:
            return lines[first][0]
    return None


def unheaded_list_start(blocks: Sequence[Block]) -> int | None:
    """:func:`headless_list_start` in a paper in which no heading names a reference list, else
    None: where a heading names the list, a run of labelled lines that counts up to the end of
    the paper may start in a table of the works cited ("[1] A. B. Smith, 2019, 45 patients")."""
    if any(block.kind == "heading" and is_reference_heading(" ".join(block.title.split()).lower()) for block in blocks):
        return None
    return headless_list_start(blocks)


def _leading_notes(lines: list[tuple[int, Line]], after: int, at: int, number: int) -> int | None:
    """Where the notes numbered 1 to ``number`` - 1 open, in order just before the entry at line
    ``at`` and after the label at line ``after`` (none of the list's entries between), or None."""
    notes = [(place, int(match.group(1))) for place in range(after + 1, at) if (match := _NOTE_ENTRY.match(lines[place][1].text))]
    if [label for _, label in notes[-(number - 1) :]] != list(range(1, number)):
        return None
    return notes[-(number - 1)][0]


#: an institution an author's address names ("Max-Planck-Institut für Aeronomie", "Department of …")
_ADDRESS = re.compile(r"\b(?:Universit|Institut|Department|Dept\.|Laborator|College|Faculty|School of|Observatory)|-Institut", re.I)


#: the label over the authors' addresses after the list (JSS and the R Journal: "Affiliation:"),
#: or the diamond TUGboat opens an author's signature with ("⋄ Robin Fairbairns")
_ADDRESS_LABEL = re.compile(
    r"^\s*(?:(?:affiliations?|(?:authors?['’]?\s+)?(?:e-?mail\s+)?addresses|address(?:es)?\s+for\s+correspondence|corresponding\s+authors?)\s*:|⋄\s*\S)",
    re.I,
)


def address_ends_list(blocks: Sequence[Block], index: int) -> bool:
    """Whether the block at ``index``, inside a reference list, is the authors' address printed
    after the list, which ends it. Either it opens with the label over the addresses
    ("Affiliation:", "Authors' addresses:", TUGboat's "⋄"), which no entry opens with; or (AGU: "P. W. Daly,
    Max-Planck-Institut für Aeronomie, D–37189 Katlenburg-Lindau, Germany") it names an
    institution, opens with no label nor with a surname before initials as an entry does, and
    neither it nor anything after it up to the next heading holds a year or a label (an entry
    after it would)."""
    text = blocks[index].text
    if _ADDRESS_LABEL.match(text):
        return True
    # a line in lower case carries the entry above on ("tural Analysis …, Cambridge University Press")
    if not _ADDRESS.search(text) or _MARKER.match(text) or _AUTHOR_START.match(text) or text.lstrip()[:1].islower():
        return False
    for block in blocks[index:]:
        if block.kind == "heading":
            break
        if block.kind == "paragraph" and (_YEAR.search(block.text) or _MARKER.match(block.text)):
            return False
    return True


#: a paragraph in the body's type after a numbered list is set this much larger than the list
_LARGER = 0.5
#: the list's first lines that say its type (a long list is not counted again for every block after it)
_SIZE_SAMPLE = 200


def body_text_ends_list(block: Block, list_lines: Sequence[Line], body_size: float, *, numbered: bool) -> bool:
    """Whether a paragraph after a reference list is the body's text again, which ends the list
    (SMF: a note on where to find the manuals, set under the list in the body's type; OUP: the
    authors' biographies under an author-year list): it opens with no label, runs over two lines
    or more and is set in the body's type, larger than most of the list's lines; a list set in
    the body's own type is never ended so. Under an unnumbered list, where a larger line may be
    an entry's own (pinp sets some of its entries' lines larger), the paragraph must also open
    after an entry's full stop, open no entry and name no DOI nor web address."""
    if len(block.lines) < 2 or _MARKER.match(block.text) or block.size < body_size - 0.3 or not list_lines:
        return False
    list_size = Counter(round(line.size, 1) for line in list_lines[:_SIZE_SAMPLE]).most_common(1)[0][0]
    if block.size < list_size + _LARGER:
        return False
    if numbered:
        return True
    text = block.text.lstrip()
    return (
        list_lines[-1].text.rstrip().endswith(".")
        and text[:1].isupper()
        and not (_AUTHOR_START.match(text) or _NAME_YEAR.match(text) or _DOI.search(text) or _WEB.search(text))
    )


#: a web address: a larger line holding one is an entry's (pinp: "URL https://doi.org/…"), not the body's
_WEB = re.compile(r"\bhttps?:|\bwww\.|\bURL\b")


def split_references(lines: list[Line]) -> list[Reference]:
    """Split the lines of a references section into parsed entries (see :func:`split_list`)."""
    return split_list(lines)[0]


def split_list(lines: list[Line]) -> tuple[list[Reference], list[list[Line]]]:
    """Split the lines of a references section into parsed entries, and the page footnotes the
    reading order set among them (each a run of lines), which are no entry but the document's
    text all the same; in a numbered list each entry's printed number is its key, so that a
    marker "[12]" finds entry 12 even where an entry before it was cut in two or lost. A line of
    links stays with the entry above it, and ends it. The prose after a list without numbers
    (:func:`_prose_after`) is returned as one more such run."""
    lines = [line for line in lines if line.text.strip()]
    links = {id(line) for line in lines if LINKS_ONLY.match(line.text.strip())}
    if not lines:
        return [], []
    notes = _column_notes(lines, links)
    footnotes: list[list[Line]] = []
    for at, line in enumerate(lines):
        if id(line) in notes:
            if at and id(lines[at - 1]) in notes:
                footnotes[-1].append(line)
            else:
                footnotes.append([line])
    lines = [line for line in lines if id(line) not in notes]
    groups = _split(lines, links)
    cut = _prose_after(groups)
    if cut < len(groups):  # the prose after the list is the document's text, no entry
        footnotes.append([line for _, _, group in groups[cut:] for line in group])
    references = []
    for number, text, _ in groups[:cut]:
        if len(text) > 15:
            reference = parse_reference(text)
            reference.key = number
            references.append(reference)
    return references, footnotes


#: a page's footnote under the list is set this much smaller than most of the list's lines …
_NOTE_SMALLER = 0.5
#: … and opens with its mark ("19The Kaggle …", "*See …"), unless set this much smaller still
_NOTE_SHARE = 0.8
_NOTE_MARK = re.compile(r"^\s*(?:\d{1,2}(?=[A-ZÀ-ÖØ-Þ][a-z])|[*†‡§¶])")
_WORDS = re.compile(r"[^\W\d_]{3}")


def _column_notes(lines: list[Line], links: set[int]) -> set[int]:
    """The ids of the lines of a page's footnote that the reading order set inside the list (ACL,
    PNAS: the note at the foot of a column the list runs through, between the column's last entry
    and the next column's first): a run of lines at the foot of a column, set smaller than most of
    the list's lines and apart from the list's lines above it in that column (by more than the
    list's usual space between lines), whose first line opens with a note's mark (a raised number
    glued to its first word, an asterisk or dagger) or is set much smaller still. Such a note,
    read into the entry above it, cut that entry in two; an entry's own line in a smaller face (a
    web address) follows the line above it at the usual space."""
    size = Counter(round(line.size, 1) for line in lines[:_SIZE_SAMPLE]).most_common(1)[0][0]
    place = [(line.page, line.column) for line in lines]
    gaps = [
        line.top - above.bottom
        for above, line in zip(lines, lines[1:], strict=False)
        if (above.page, above.column) == (line.page, line.column)
    ]
    usual = statistics.median(gaps[:_SIZE_SAMPLE]) if gaps else 0.0
    small = [line.size <= size - _NOTE_SMALLER and id(line) not in links for line in lines]
    notes: set[int] = set()
    end = len(lines)
    while end > 1:
        start = end - 1
        while start > 0 and small[start - 1] and place[start - 1] == place[end - 1]:
            start -= 1
        first = lines[start]
        at_foot = small[end - 1] and (end == len(lines) or place[end] != place[end - 1])
        apart = start > 0 and place[start - 1] == place[start] and first.top - lines[start - 1].bottom > usual + 0.5 * first.height
        marked = _NOTE_MARK.match(first.text) or first.size <= _NOTE_SHARE * size
        if at_foot and apart and marked and any(_WORDS.search(line.text) for line in lines[start:end]):
            notes.update(id(line) for line in lines[start:end])
        end = start
    return notes


#: prose after a list is cut off only as a run of this many groups of lines at least
_PROSE_GROUPS = 2
#: … after a list of which at least this share of entries print a year
_DATED_SHARE = 0.5


def _prose_after(groups: list[tuple[str | None, str, list[Line]]]) -> int:
    """Where the prose printed after a list without numbers begins (the number of groups when
    none is): the run of groups at the list's end that hold no year, DOI or web address and do
    not open with an author, after entries that mostly print a year. A journal's statements
    (Frontiers: "Conflict of Interest Statement: …" and the licence), an appendix or an R help
    page set after the list, or CSTUG's abstract in the other language read as entries of a
    line each, since such a list is split at every line that starts at the margin."""
    if any(number is not None for number, _, _ in groups):
        return len(groups)
    cut = len(groups)
    while cut > 1 and _reads_as_prose(groups[cut - 1][1]):
        cut -= 1
    dated = sum(1 for _, text, _ in groups[:cut] if _YEAR.search(text))
    if len(groups) - cut < _PROSE_GROUPS or dated < _DATED_SHARE * cut:
        return len(groups)
    return cut


def _reads_as_prose(text: str) -> bool:
    """No part of a cited work: neither a year, a DOI nor a web address, nor an author's name opening it."""
    return not (_YEAR.search(text) or _DOI.search(text) or _WEB.search(text) or _AUTHOR_START.match(text) or _NAME_YEAR.match(text))


def _split(lines: list[Line], links: set[int]) -> list[tuple[str | None, str, list[Line]]]:
    """(printed number, text, lines) of each entry; ``links`` holds the ids of the lines of links,
    which end the entry they follow and open none."""
    groups: list[list[Line]] = []
    for marker in (_MARKER, _PAREN_NUMBER, _BARE_NUMBER):
        labels = {id(line): match.group(1) for line in lines if (match := marker.match(line.text))}
        numbers = {key: _number_of(label) for key, label in _one_form(labels).items()}
        counted = list(numbers.values())
        labelled = len(numbers) >= max(2, len(lines) * 0.15) or _counts_from_one(counted) or _one_entry(lines, numbers)
        if labelled and (marker is _MARKER or _in_sequence(counted)):
            bare = _points_lost(lines, numbers) if marker is _MARKER else {}
            numbers.update(bare)
            last: int | None = None  # the number the last entry opened with
            for line in _from_entry_one(lines, numbers):
                number = numbers.get(id(line))
                if number is not None and (marker is _MARKER or _next_number(number, last, started=bool(groups))) or not groups:
                    groups.append([line])
                    last = number
                else:
                    groups[-1].append(line)
            return [
                (*_numbered(join_lines([line.text for line in group]), _BARE_NUMBER if id(group[0]) in bare else marker), group)
                for group in groups
            ]
    # hanging indent: an entry's first line sits left of its continuation lines
    by_column: dict[tuple[int, int], float] = {}
    for line in lines:
        key = (line.page, line.column)
        by_column[key] = min(by_column.get(key, line.x0), line.x0)
    indented = sum(1 for line in lines if line.x0 > by_column[(line.page, line.column)] + 3)
    hanging = 0.2 * len(lines) <= indented <= 0.85 * len(lines)
    previous: Line | None = None
    for line in lines:
        left = by_column[(line.page, line.column)]
        starts = not groups
        if id(line) in links:
            pass  # a line of links opens no entry
        elif hanging:
            starts = starts or line.x0 <= left + 3
        else:
            gap = (
                line.top - previous.bottom
                if previous is not None and previous.page == line.page and previous.column == line.column
                else 0.0
            )
            # an entry ends with a point, a parenthesis or its pages (MNRAS: "Jones C. D., 2015, J. Int. Stuff, 17, 198")
            ended = previous is not None and (previous.text.rstrip().endswith((".", ")")) or previous.text.rstrip()[-1:].isdigit())
            starts = (
                starts
                or (previous is not None and id(previous) in links)
                or gap > line.height * 0.5
                or (ended and bool(_AUTHOR_START.match(line.text)) and previous is not None and previous.x1 < _right(lines, previous) - 15)
                or (ended and bool(_NAME_YEAR.match(line.text)))
            )
        if starts:
            groups.append([line])
        else:
            groups[-1].append(line)
        previous = line
    return [(None, join_lines([line.text for line in group]), group) for group in groups]


#: a note labelled by a letter, as REVTeX labels the title's notes: "a)Electronic mail: …"
_LETTER_NOTE = re.compile(r"^\s*[a-z]\)\s?\S")


def _from_entry_one(lines: list[Line], numbers: dict[int, int]) -> list[Line]:
    """The lines of a numbered list without the notes labelled by letters before its entry 1:
    REVTeX sets the title's notes ("a)Also at Physics Department, …") at the head of its list,
    and they are none of its entries. Other lines before entry 1 stay (a section's prose run on
    into the list is kept as text), and so do lines before a later first label (an entry whose
    label the text layer lost)."""
    first = next((at for at, line in enumerate(lines) if id(line) in numbers), 0)
    if first and numbers.get(id(lines[first])) == 1 and _LETTER_NOTE.match(lines[0].text):
        return lines[first:]
    return lines


def _points_lost(lines: list[Line], numbers: dict[int, int]) -> dict[int, int]:
    """The lines of a list labelled "12." or "[12]" that open with the bare number of the entry
    after the one above, below the next label, and are set where the labels are set in their
    column: entries whose label lost its point or brackets in the text layer ("40 Spinelli S, …"
    between "39. Ishida Y, …" and "41. Lautenschlager C, …"), by their line id."""
    left: dict[tuple[int, int], float] = {}
    for line in lines:
        if id(line) in numbers:
            left[line.page, line.column] = min(left.get((line.page, line.column), line.x0), line.x0)
    following: list[int | None] = []  # the number of the next labelled line after each line
    upcoming: int | None = None
    for line in reversed(lines):
        following.append(upcoming)
        upcoming = numbers.get(id(line), upcoming)
    following.reverse()
    found: dict[int, int] = {}
    last: int | None = None
    for line, ahead in zip(lines, following, strict=True):
        if id(line) in numbers:
            last = numbers[id(line)]
            continue
        match = _BARE_NUMBER.match(line.text)
        aligned = (line.page, line.column) in left and line.x0 <= left[line.page, line.column] + 3
        is_next = last is not None and match is not None and match.group(1) == str(last + 1) and (ahead is None or ahead > last + 1)
        if is_next and aligned and last is not None:
            found[id(line)] = last = last + 1
    return found


def _one_form(labels: dict[int, str]) -> dict[int, str]:
    """The labels of the form most lines open with ("[12]", "12." or "(12)"): a list labels its
    entries one way, so "(1996), [hep-ph/…]" or "379. [astro-ph/…]" opening a continuation line
    of a list labelled "[6]" opens no entry."""
    forms = Counter(_form(label) for label in labels.values())
    if len(forms) < 2:
        return labels
    form = forms.most_common(1)[0][0]
    return {key: label for key, label in labels.items() if _form(label) == form}


def _form(label: str) -> str:
    """How a label is set: "[", "(", "." or ")" around its number, or "" for a bare number."""
    return label[0] if label[0] in "[(" else label[-1] if label[-1] in ".)" else ""


def _numbered(text: str, pattern: re.Pattern[str] = _MARKER) -> tuple[str | None, str]:
    """An entry's printed number ("[12]", "12.", "(12)", a bare or superscript "12") and its text without it."""
    marker = pattern.match(text)
    if marker is None:
        return None, text
    return str(_number_of(marker.group(1))), text[marker.end() :]


def _number_of(marker: str) -> int:
    return int(re.sub(r"\D", "", marker.translate(_SUPERSCRIPTS)))


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def _in_sequence(numbers: list[int]) -> bool:
    """Whether the bare numbers lines open with count up one by one, mostly: a list numbered
    without brackets or points ("12 Smith J, …", a superscript "¹²"), not a column of years or pages."""
    steps = sum(1 for before, after in zip(numbers, numbers[1:], strict=False) if after == before + 1)
    return bool(numbers) and numbers[0] <= 2 and steps >= 0.7 * (len(numbers) - 1)


def _counts_from_one(numbers: list[int]) -> bool:
    """Numbered lines that count 1, 2, 3, … with no step missed: a list however much other text
    its section holds (a guide's section on how to cite, run on into the list)."""
    return len(numbers) >= _LEAST_COUNTED and numbers == list(range(1, len(numbers) + 1))


def _one_entry(lines: list[Line], numbers: dict[int, int]) -> bool:
    """A list of one entry labelled 1 on its first line, a few lines long ("[1] Ewins, D. J., …",
    a raised "1Rebek, A., …"): numbered, so that the text's marker "1" finds it."""
    return len(lines) <= _ENTRY_LINES and list(numbers.values()) == [1] and id(lines[0]) in numbers


def _next_number(number: int, last: int | None, *, started: bool) -> bool:
    """A bare number opens an entry only as one of the next few after the last entry's (not
    "2019 Jan" or a page): a label the page lost (set apart at a column's head, read as a page
    number) does not end the list there."""
    if not started:
        return number <= 2
    return last is None or last < number <= last + 1 + _SKIPPED_LABELS


def _right(lines: list[Line], line: Line) -> float:
    return max(item.x1 for item in lines if item.page == line.page and item.column == line.column)


def parse_reference(raw: str) -> Reference:
    """Pull year, DOI, authors and title out of one reference string (best effort)."""
    raw = re.sub(r"\s+", " ", raw).strip()
    doi_match = _DOI.search(raw)
    doi = doi_match.group(0).rstrip(".,;)") if doi_match else None
    year_match = _YEAR.search(raw)
    year = int(year_match.group(1)) if year_match else None
    authors_part, title = _authors_and_title(raw, year_match)
    authors = [name.strip(" .") for name in re.split(r",\s*(?:and\s+)?|\s+and\s+|;\s*|\s*&\s*", authors_part) if len(name.strip(" .")) > 1][
        :50
    ]
    return Reference(raw=raw, title=title, authors=authors, year=year, doi=doi)


def _authors_and_title(raw: str, year_match: re.Match[str] | None) -> tuple[str, str | None]:
    # "Authors (2019). Title. Venue" or "Authors. 2019. Title. Venue"
    if year_match and year_match.start() < len(raw) * 0.6:
        before = raw[: year_match.start()].rstrip(" (")
        after = raw[year_match.end() :].lstrip(" ).,:")
        if len(before) < 400 and after:
            title = re.split(r"(?<=[a-z0-9?!])\.\s", after, maxsplit=1)[0].strip(" .")
            if 10 <= len(title) <= 300:
                return before.rstrip(" ,."), title
    # "Authors. Title. Venue, Year": the title is the segment after the author list
    parts = re.split(r"(?<=[a-z\]\)]{2})\.\s+(?=[A-Z0-9\"“])", raw)
    if len(parts) >= 2:
        title = parts[1].strip(" .")
        return parts[0], title if 10 <= len(title) <= 300 else None
    return raw[:200], None
