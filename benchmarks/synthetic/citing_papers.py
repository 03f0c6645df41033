"""Generated papers that cite, with known gold: an in-text citation test set.

:func:`generate_citing` writes a paper of running text whose sentences cite a reference list in
one style, with the traps a linker must not take for citations (years, "Fig. 3", "Eq. (2)",
an interval "[0, 1]", "Table 2", "(n = 12)"), and its gold: every marker as printed, its page
and the entries it cites. The same seed and style give the same bytes and gold.

Styles (:data:`CITING_STYLES`): ``numeric`` ("[3]", "[3–5]", "[1, 4]"), ``author_year``
("(Moreau et al., 2019)", "Okafor and Chen (2015)"), ``superscript`` (numbers set small and
raised after the word: "growth³").

Splits follow :mod:`benchmarks.synthetic`: seeds 0-999 are for development, seeds
100000-199999 held out, for reporting only. The held-out papers also draw what dev papers
never do: A4 pages and Helvetica; numeric lists with ";" and page locators ("[4; 7]",
"[3, p. 12]"); author-year markers with "&", "a"/"b" letters for an author's two papers of a
year and several years after one name ("(Rossi 2011a, 2014)"); superscripts after the
full stop or comma ("rose.³"); and other topics.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from benchmarks.synthetic.canvas import FONTS, Canvas, text_width, write_pdf
from benchmarks.synthetic.splits import A4, LETTER, SplitName, split_of
from benchmarks.synthetic.vocabulary import TOPICS, Topic, sentence, title

__all__ = ["CITING_STYLES", "CitingPaper", "CitingStyle", "GoldMarker", "generate_citing"]

CitingStyle = Literal["numeric", "author_year", "superscript"]
CITING_STYLES: tuple[CitingStyle, ...] = ("numeric", "author_year", "superscript")

_SURNAMES = ("Moreau", "Okafor", "Chen", "Rossi", "Lindqvist", "Novak", "Iyer", "Tanaka", "Silva", "Byrne", "Haddad", "Kowalski",
             "Nguyen", "Fischer", "Mensah", "Olsen", "Duarte", "Petrov", "Sato", "Brennan", "Van Dijk", "Keller", "Ortiz", "Abebe")  # fmt: skip
_INITIALS = "ABCDEGHJKLMNPRST"
_JOURNALS = ("Journal of Applied {t}", "{t} Letters", "Annals of {t}", "Reviews in {t}", "{t} Research")
_TRAPS = (
    "The samples were collected between 2014 and 2018 at four sites.",
    "Fig. {n} shows the distribution of the measured values.",
    "The estimate follows from Eq. ({n}) with the weights of Table {n}.",
    "All scores were scaled to the interval [0, 1] before averaging.",
    "The window sizes were drawn from [{n}, {m}] in each run.",
    "Of the participants (n = {m}), most completed the protocol in {y}.",
    "Values in Table {n} are means over {m} replicates, as in {y}.",
    "Section {n} describes the data and Section {m} the model.",
)


@dataclass(frozen=True)
class GoldMarker:
    """One printed marker: its page, its text as printed ("[3–5]", "(Chen, 2019)", "12,13" for a
    superscript) and the 0-based indices of the entries it cites, in the list's order."""

    page: int
    text: str
    entries: tuple[int, ...]


@dataclass(frozen=True)
class CitingPaper:
    seed: int
    split: SplitName
    style: CitingStyle
    markers: tuple[GoldMarker, ...]
    references: tuple[str, ...]  # each entry's title, to find it in a parse
    pages: int
    look: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class _Entry:
    authors: tuple[str, ...]
    year: int
    letter: str
    title: str
    journal: str


@dataclass
class _Run:
    text: str
    raised: bool = False  # a superscript
    marker: int | None = None  # index into the paper's markers
    glue: bool = False  # set with no space before it


@dataclass
class _Layout:
    width: float
    height: float
    margin: float
    columns: int
    gutter: float
    regular: str
    bold: str
    size: float
    pages: list[Canvas] = field(default_factory=list)
    column: int = 0
    y: float = 0.0
    marker_pages: dict[int, int] = field(default_factory=dict)  # a marker's index -> the page it starts on

    @property
    def column_width(self) -> float:
        return (self.width - 2 * self.margin - self.gutter * (self.columns - 1)) / self.columns

    @property
    def leading(self) -> float:
        return self.size * 1.25

    def new_frame(self) -> None:
        if not self.pages or self.column + 1 >= self.columns:
            self.pages.append(Canvas(self.width, self.height))
            self.column = 0
        else:
            self.column += 1
        self.y = self.margin

    def line_slot(self, height: float) -> tuple[Canvas, float, float]:
        if not self.pages or self.y + height > self.height - self.margin:
            self.new_frame()
        y = self.y
        self.y += height
        x = self.margin + self.column * (self.column_width + self.gutter)
        return self.pages[-1], x, y


def generate_citing(seed: int, style: CitingStyle) -> tuple[bytes, CitingPaper]:
    """The PDF of the citing paper of ``seed`` in ``style``, and its gold."""
    split = split_of(seed)
    held_out = split.name == "heldout"
    rng = random.Random(f"paperpyramid-synthetic-citations:{seed}:{style}")
    topic = TOPICS[rng.choice(split.topics)]
    family = "helvetica" if held_out and rng.random() < 0.5 else "times"
    regular, bold, _ = FONTS[family]
    width, height = A4 if held_out else LETTER
    columns = rng.choice((1, 2))
    size = rng.choice((9.0, 9.5, 10.0)) if columns == 2 else rng.choice((10.0, 10.5, 11.0))
    layout = _Layout(width, height, rng.uniform(54.0, 70.0), columns, rng.uniform(14.0, 22.0), regular, bold, size)
    entries = _entries(rng, topic, rng.randint(8, 16), held_out and style == "author_year")
    order = list(range(len(entries)))
    if style == "author_year":  # author-year lists are alphabetical; numbered ones in order of first citation
        order.sort(key=lambda index: (entries[index].authors[0], entries[index].year, entries[index].letter))
        entries = [entries[index] for index in order]
    markers: list[tuple[str, tuple[int, ...]]] = []
    paragraphs = _paragraphs(rng, topic, style, entries, markers, held_out)
    _heading(layout, title(topic, rng), size + 4)
    for number, (heading, runs) in enumerate(paragraphs):
        if heading:
            _heading(layout, f"{number // 3 + 1} {heading}" if rng.random() < 0.5 else heading, size + 1)
        _paragraph(layout, runs, markers)
    _heading(layout, "References", size + 1)
    for index, entry in enumerate(entries):
        _paragraph(layout, [_Run(word) for word in _entry_text(entry, style, index).split()], markers, hanging=True)
    placed = [
        GoldMarker(page, text, cited)
        for (text, cited), page in zip(markers, [layout.marker_pages[index] for index in range(len(markers))], strict=True)
    ]
    look = {"page": f"{width:g}x{height:g}", "columns": str(columns), "body": f"{regular} {size:g}", "topic": topic.name}
    gold = CitingPaper(
        seed, split.name, style, tuple(placed), tuple(entry.title for entry in entries), len(layout.pages), tuple(look.items())
    )
    return write_pdf(layout.pages, f"citing {topic.name} {seed}"), gold


# --------------------------------------------------------------------------- content


def _entries(rng: random.Random, topic: Topic, count: int, twins: bool) -> list[_Entry]:
    entries: list[_Entry] = []
    used: set[tuple[str, int]] = set()
    while len(entries) < count:
        authors = tuple(rng.sample(_SURNAMES, k=rng.choice((1, 2, 3, 3, 4))))
        year = rng.randint(1995, 2023)
        if (authors[0], year) in used:
            continue
        named = title(topic, rng)
        if any(named == entry.title for entry in entries):
            continue  # every entry's title is its own: the scorer finds entries by title
        used.add((authors[0], year))
        entries.append(_Entry(authors, year, "", named, rng.choice(_JOURNALS).format(t=topic.name.capitalize())))
    if twins:  # one author's two papers of one year: "2011a", "2011b"
        first = entries[0]
        entries[0] = _Entry(first.authors, first.year, "a", first.title, first.journal)
        while any((named := title(topic, rng)) == entry.title for entry in entries):
            pass
        entries.append(_Entry((first.authors[0],) + tuple(rng.sample(_SURNAMES, k=1)), first.year, "b", named, first.journal))
    return entries


def _entry_text(entry: _Entry, style: CitingStyle, index: int) -> str:
    names = ", ".join(f"{name}, {_initial(name)}." for name in entry.authors)
    if style == "author_year":
        return f"{names} ({entry.year}{entry.letter}). {entry.title}. {entry.journal}."
    return f"[{index + 1}] {names} {entry.title}. {entry.journal}, {entry.year}."


def _initial(name: str) -> str:
    return _INITIALS[sum(map(ord, name)) % len(_INITIALS)]


def _paragraphs(
    rng: random.Random, topic: Topic, style: CitingStyle, entries: list[_Entry], markers: list[tuple[str, tuple[int, ...]]], held_out: bool
) -> list[tuple[str | None, list[_Run]]]:
    sections = ("Introduction", "Related work", "Methods", "Results", "Discussion")
    cited_so_far = 0
    out: list[tuple[str | None, list[_Run]]] = []
    for number in range(rng.randint(6, 10)):
        runs: list[_Run] = []
        for _ in range(rng.randint(3, 6)):
            roll = rng.random()
            if roll < 0.25:
                trap = rng.choice(_TRAPS).format(n=rng.randint(1, 6), m=rng.randint(7, 40), y=rng.randint(1990, 2023))
                runs += [_Run(word) for word in trap.split()]
                continue
            text = _plain_sentence(topic, rng)
            if roll < 0.8:
                if style == "author_year":
                    cited = sorted(rng.sample(range(len(entries)), k=rng.choice((1, 1, 1, 2, 3))))
                else:  # first citations in order: the next new entry, or ones cited before
                    fresh = cited_so_far < len(entries) and (cited_so_far == 0 or rng.random() < 0.6)
                    if fresh:
                        span = min(len(entries) - cited_so_far, rng.choice((1, 1, 1, 2, 3)))
                        cited = list(range(cited_so_far, cited_so_far + span))
                        cited_so_far += span
                    else:
                        cited = sorted(rng.sample(range(cited_so_far), k=min(cited_so_far, rng.choice((1, 1, 2)))))
                runs += _cite(rng, style, text, cited, entries, markers, held_out)
            else:
                runs += [_Run(word) for word in text.split()]
        out.append((sections[number // 2] if number % 2 == 0 and number // 2 < len(sections) else None, runs))
    return out


def _plain_sentence(topic: Topic, rng: random.Random) -> str:
    """A sentence of the topic without the vocabulary's own "[12]": every marker here is in the gold."""
    while "[" in (text := sentence(topic, rng)):
        pass
    return text


def _numbers(cited: list[int], held_out: bool, rng: random.Random) -> str:
    """ "3", "3–5", "1, 4" (dev) or "1; 4", "3,4" (held-out) of 0-based indices."""
    numbers = [index + 1 for index in cited]
    if len(numbers) >= 3 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    separator = rng.choice(("; ", ",")) if held_out else ", "
    return separator.join(map(str, numbers))


def _cite(
    rng: random.Random, style: CitingStyle, text: str, cited: list[int], entries: list[_Entry], markers: list[tuple[str, tuple[int, ...]]],
    held_out: bool,
) -> list[_Run]:  # fmt: skip
    words = text.rstrip(".").split()
    if style == "numeric":
        listed = _numbers(cited, held_out, rng)
        if held_out and len(cited) == 1 and rng.random() < 0.3:
            listed += f", p. {rng.randint(2, 300)}"
        markers.append((f"[{listed}]", tuple(cited)))
        return [*(_Run(word) for word in words[:-1]), _Run(words[-1]), _Run(f"[{listed}]", marker=len(markers) - 1), _Run(".", glue=True)]
    if style == "superscript":
        listed = _numbers(cited, False, rng).replace(", ", ",")
        markers.append((listed, tuple(cited)))
        after_stop = held_out and rng.random() < 0.5
        last = words[-1] + "." if after_stop else words[-1]
        runs = [*(_Run(word) for word in words[:-1]), _Run(last), _Run(listed, raised=True, marker=len(markers) - 1, glue=True)]
        return runs if after_stop else [*runs, _Run(".", glue=True)]
    # author-year: narrative for one entry now and then, else in parentheses
    if len(cited) == 1 and rng.random() < 0.35:
        name = _cited_names(entries[cited[0]], held_out)
        printed = f"{name} ({entries[cited[0]].year}{entries[cited[0]].letter})"
        markers.append((printed, tuple(cited)))
        lead = [_Run(word, marker=len(markers) - 1) for word in printed.split()]
        return [*lead, _Run("reported"), _Run("that"), *(_Run(word) for word in (words[0].lower(), *words[1:-1])), _Run(words[-1] + ".")]
    items = []
    for index in cited:
        entry = entries[index]
        separator = rng.choice((" ", ", ")) if held_out else ", "
        items.append(f"{_cited_names(entry, held_out)}{separator}{entry.year}{entry.letter}")
    printed = "(" + "; ".join(items) + ")"
    markers.append((printed, tuple(cited)))
    return [*(_Run(word) for word in words), *(_Run(word, marker=len(markers) - 1) for word in printed.split()), _Run(".", glue=True)]


def _cited_names(entry: _Entry, held_out: bool) -> str:
    if len(entry.authors) >= 3:
        return f"{entry.authors[0]} et al."
    if len(entry.authors) == 2:
        return f"{entry.authors[0]} {'&' if held_out else 'and'} {entry.authors[1]}"
    return entry.authors[0]


# --------------------------------------------------------------------------- drawing


def _heading(layout: _Layout, text: str, size: float) -> None:
    layout.y += 0.6 * layout.leading if layout.pages else 0.0
    canvas, x, y = layout.line_slot(size * 1.5)
    canvas.text(x, y + size, text[:90], layout.bold, size)


def _paragraph(layout: _Layout, runs: list[_Run], markers: list[tuple[str, tuple[int, ...]]], *, hanging: bool = False) -> None:
    size, regular = layout.size, layout.regular
    small = size * 0.7
    space = text_width(" ", regular, size)
    lines: list[list[_Run]] = [[]]
    used = 0.0
    for run in runs:
        width = text_width(run.text, regular, small if run.raised else size)
        gap = 0.0 if run.glue or not lines[-1] else space
        if lines[-1] and used + gap + width > layout.column_width - (12.0 if hanging and len(lines) > 1 else 0.0):
            lines.append([])
            used, gap = 0.0, 0.0
        lines[-1].append(run)
        used += gap + width
    layout.y += 0.4 * layout.leading
    for number, line in enumerate(lines):
        canvas, x, y = layout.line_slot(layout.leading)
        x += 12.0 if hanging and number > 0 else 0.0
        page = len(layout.pages)
        for position, run in enumerate(line):
            if position and not run.glue:
                x += space
            if run.raised:
                x += canvas.text(x, y + 0.8 * size - 0.38 * size, run.text, regular, small)
            else:
                x += canvas.text(x, y + 0.8 * size, run.text, regular, size)
            if run.marker is not None:
                layout.marker_pages.setdefault(run.marker, page)  # a marker broken over two lines counts where it starts
