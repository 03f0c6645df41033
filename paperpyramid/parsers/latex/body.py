"""The body of a LaTeX document to sections and blocks, numbered as the PDF prints them.

The walk reads the text between ``\\begin{document}`` and ``\\end{document}`` once, in order:
headings open sections (``\\section`` "1", ``\\subsection`` "1.1", starred ones unnumbered,
``\\appendix`` switching to "A"), blank lines end paragraphs, display mathematics, floats and
lists become blocks of their own, and other environments (``center``, ``quote``, theorems) are
walked through. Blocks keep their LaTeX until the walk is over, because a ``\\ref`` may point
forward: :meth:`Walker.render` then turns them into text with every label's number known.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from paperpyramid.document import Block, BlockKind, Figure, Formula, Section, Table
from paperpyramid.parsers.latex.body_parts import captions as _captions
from paperpyramid.parsers.latex.body_parts import inline_math_end as _inline_math_end
from paperpyramid.parsers.latex.body_parts import letter as _letter
from paperpyramid.parsers.latex.body_parts import rest_label
from paperpyramid.parsers.latex.body_parts import split_items as _split_items
from paperpyramid.parsers.latex.equations import DISPLAY_ENVIRONMENTS, EquationCounter, displays
from paperpyramid.parsers.latex.scan import find_end, read_group, read_optional, skip_space
from paperpyramid.parsers.latex.tabular import find_tabulars, tabular_cells
from paperpyramid.parsers.latex.text import TextContext, plain, to_text

__all__ = ["Walker"]

_LEVELS = {"part": 0, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5, "subparagraph": 6}
_EVENT = re.compile(
    r"\\(?P<heading>part|chapter|section|subsection|subsubsection|paragraph|subparagraph)(?![A-Za-z])(?P<star>\*?)"
    r"|\\begin\s*\{(?P<env>[^{}]+)\}|\\(?P<appendix>appendix)(?![A-Za-z])|(?P<bracket>\\\[)|(?P<dollars>\$\$)"
    r"|(?P<blank>\n[ \t]*\n)|\\(?P<par>par)(?![A-Za-z])|\\(?P<bib>bibliography|printbibliography)(?![A-Za-z])"
    r"|(?P<dollar>(?<!\\)\$)|\\(?P<noop>maketitle|tableofcontents|clearpage|newpage|noindent)(?![A-Za-z])"
)
_FLOATS = {"figure": "figure", "figure*": "figure", "wrapfigure": "figure", "SCfigure": "figure", "table": "table",
           "table*": "table", "wraptable": "table", "algorithm": "algorithm", "algorithm*": "algorithm", "sidewaystable": "table",
           "sidewaysfigure": "figure", "listing": "listing"}  # fmt: skip
_LISTS = frozenset({"itemize", "enumerate", "description", "compactitem", "compactenum", "inparaenum", "asparaenum"})
_SKIPPED = frozenset({"tikzpicture", "picture", "pspicture", "comment", "filecontents", "filecontents*", "titlepage", "thebibliography",
                      "frontmatter", "keyword", "keywords", "IEEEkeywords", "abstract", "CCSXML"})  # fmt: skip
_INLINE_ENVS = re.compile(r"^(?:[pbBvV]?matrix|smallmatrix|cases|dcases|array|aligned|alignedat|gathered|split|subarray|tabular\*?)$")


@dataclass
class _Pending:
    section: int
    block: Block
    latex: str | None  # None: the text is final already
    prefix: str = ""


@dataclass
class Walker:
    """Walks one document body; ``theorems`` maps environment -> (printed name, counter name, within)."""

    theorems: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)
    equations: EquationCounter = field(default_factory=EquationCounter)
    within_section: frozenset[str] = frozenset()  # table, figure counters reset per section
    bibliography: Callable[[int], None] | None = None  # called at \bibliography with the current section
    sections: list[Section] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    formulas: list[Formula] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    pending: list[_Pending] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    heading_numbers: list[int] = field(default_factory=lambda: [0] * 6)
    appendix: bool = False
    has_chapters: bool = False
    bibliography_done: bool = False
    #: the class numbers equations per appendix with this separator ("." elsarticle, "" revtex), or None
    appendix_equations: str | None = None
    #: how citations print, for headings (rendered as the walk meets them)
    cite: Callable[[str, list[str], str | None, str | None], str] | None = None
    _captions: list[tuple[Table | Figure, str, str]] = field(default_factory=list)  # object, caption LaTeX, printed label
    _table_blocks: list[tuple[Table, Block]] = field(default_factory=list)
    _figure_blocks: list[tuple[Figure, Block]] = field(default_factory=list)

    # ---- sections

    def current(self) -> int:
        if not self.sections:
            self.sections.append(Section(title="", level=1))
        return len(self.sections) - 1

    def heading(self, command: str, starred: bool, title_latex: str) -> None:
        level = _LEVELS[command] - (0 if self.has_chapters else 1)
        level = max(level, 1)
        number: str | None = None
        if not starred and command != "part":
            depth = level - 1
            self.heading_numbers[depth] += 1
            for deeper in range(depth + 1, len(self.heading_numbers)):
                self.heading_numbers[deeper] = 0
            parts = [str(n) for n in self.heading_numbers[: depth + 1]]
            if self.appendix:
                parts[0] = _letter(self.heading_numbers[0])
            number = ".".join(parts)
            if level == 1:
                self.equations.new_section(number)
                for name in self.within_section:
                    self.counters[name] = 0
        parent = next(
            (i for i in range(len(self.sections) - 1, -1, -1) if self.sections[i].level < level and self.sections[i].number != "ref"), None
        )
        title = plain(title_latex, TextContext(labels=self.labels, cite=self.cite), math_as_text=True)
        self.sections.append(Section(title=title, level=level, number=number, parent=parent))

    def start_appendix(self) -> None:
        if self.appendix_equations is not None:  # elsarticle: (A.1); revtex: (A1)
            self.equations.within_section = True
            self.equations.separator = self.appendix_equations
        self.appendix = True
        self.heading_numbers = [0] * 6

    # ---- blocks

    def add(self, kind: BlockKind, latex: str | None, text: str = "", prefix: str = "") -> Block:
        block = Block(text, 1, kind)
        index = self.current()
        self.sections[index].blocks.append(block)
        self.pending.append(_Pending(index, block, latex, prefix))
        return block

    def paragraph(self, latex: str, kind: BlockKind = "paragraph", prefix: str = "") -> None:
        if latex.strip() or prefix:
            self.add(kind, latex, prefix=prefix)

    def label_all(self, latex: str, kind: str, number: str) -> None:
        for label in re.findall(r"\\label\s*\{([^{}]*)\}", latex):
            self.labels[label.strip()] = (kind, number)

    def next_count(self, name: str) -> str:
        self.counters[name] = self.counters.get(name, 0) + 1
        count = str(self.counters[name])
        if name in self.within_section and self.heading_numbers[0]:
            top = _letter(self.heading_numbers[0]) if self.appendix else str(self.heading_numbers[0])
            return f"{top}.{count}"
        return count

    # ---- the walk

    def walk(self, text: str, kind: BlockKind = "paragraph", prefix: str = "") -> None:
        """Walk ``text``; paragraphs get ``kind``, and the first one ``prefix`` ("Theorem 2.").."""
        buffer: list[str] = []
        index = 0

        def flush() -> None:
            nonlocal prefix
            latex = "".join(buffer)
            buffer.clear()
            if latex.strip():
                self.paragraph(latex, kind, prefix)
                prefix = ""

        while (match := _EVENT.search(text, index)) is not None:
            buffer.append(text[index : match.start()])
            index = match.end()
            group = "heading" if match.lastgroup == "star" else match.lastgroup
            if group == "dollar":  # inline math: kept in the paragraph whole, whatever it holds
                end = _inline_math_end(text, index)
                buffer.append(text[match.start() : end])
                index = end
            elif group in ("blank", "par"):
                flush()
            elif group == "heading":
                command = match.group("heading")
                _, index = read_optional(text, index)
                at = skip_space(text, index)
                title_latex = ""
                if at < len(text) and text[at] == "{":
                    title_latex, index = read_group(text, at)
                if command in ("paragraph", "subparagraph"):  # a run-in heading: printed, never numbered
                    flush()
                    self.heading(command, True, title_latex)
                    continue
                flush()
                self.heading(command, bool(match.group("star")), title_latex)
                if not match.group("star") and command != "part":
                    self.label_after_heading(text, index)
            elif group == "appendix":
                flush()
                self.start_appendix()
            elif group in ("bracket", "dollars"):
                flush()
                closing = "\\]" if group == "bracket" else "$$"
                end = text.find(closing, index)
                end = len(text) if end < 0 else end
                self.display(match.group(), text[index:end])
                index = end + len(closing)
            elif group == "bib":
                flush()
                _, index = read_optional(text, index)
                at = skip_space(text, index)
                if match.group("bib") == "bibliography" and at < len(text) and text[at] == "{":
                    _, index = read_group(text, at)
                self.bibliography_here()
            elif group == "noop":
                continue
            else:
                index = self.environment(match.group("env").strip(), text, match, index, buffer, flush)
        buffer.append(text[index:])
        flush()

    def label_after_heading(self, text: str, index: int) -> None:
        label = re.match(r"\s*\\label\s*\{([^{}]*)\}", text[index:])
        if label:
            section = self.sections[-1]
            self.labels[label.group(1).strip()] = ("appendix" if self.appendix else "section", section.number or "")

    def bibliography_here(self) -> None:
        if self.bibliography is not None and not self.bibliography_done:
            self.bibliography_done = True
            self.bibliography(self.current())

    def environment(self, name: str, text: str, match: re.Match[str], index: int, buffer: list[str], flush: Callable[[], None]) -> int:
        end, after = find_end(text, name, index)
        body = text[index:end]
        base = name.rstrip("*")
        if _INLINE_ENVS.match(name) and name not in ("tabular", "tabular*"):
            buffer.append(text[match.start() : after])
            return after
        if base in DISPLAY_ENVIRONMENTS and base != "math":
            flush()
            self.display(name, body)
        elif name == "subequations":
            self.equations.begin_subequations()
            self.label_all(body[: body.find("\\begin")] if "\\begin" in body else "", "equation", self.equations.sub_parent or "")
            self.walk(body)
            self.equations.end_subequations()
        elif name in _FLOATS:
            flush()
            self.float(_FLOATS[name], body)
        elif name in ("tabular", "tabular*", "tabularx", "longtable"):
            flush()
            self.float("table", text[match.start() : after])
        elif name in _LISTS:
            flush()
            self.items(name, body)
        elif name == "thebibliography":
            flush()
            self.bibliography_here()
        elif name in ("appendices", "appendix"):
            flush()
            self.start_appendix()
            self.walk(body)
        elif name in self.theorems or name == "proof":
            flush()
            note, rest = read_optional(body, 0)
            if name == "proof":
                prefix = f"{plain(note)}." if note else "Proof."
            else:
                printed, counter, within = self.theorems[name]
                number = self.next_count(counter) if counter else ""
                if number:
                    self.label_all(rest_label(body), "theorem", number)
                prefix = " ".join(part for part in (printed, number) if part) + (f" ({plain(note)})." if note else ".")
            self.walk(body[rest:] if note is not None else body, prefix=prefix)
        elif name in _SKIPPED or name.startswith(("tikz", "axis")):
            flush()
        elif name in ("verbatim", "verbatim*", "lstlisting", "minted"):
            flush()
            self.add("paragraph", None, text=body.strip("\n"))
        else:  # center, quote, minipage, an unknown environment: its content is text
            self.walk(re.sub(r"^\s*(?:\[[^\]]*\])?(?:\{[^{}]*\})?", "", body) if name == "minipage" else body)
        return after

    def display(self, environment: str, body: str) -> None:
        for shown in displays(environment, body, self.equations):
            for label in shown.labels:
                self.labels[label.strip()] = ("equation", shown.number or "")
            section = self.current()
            formula = Formula(text=shown.latex, page=1, latex=shown.latex, label=shown.number, section=section)
            self.formulas.append(formula)
            self.add("formula", None, text=f"{shown.latex} ({shown.number})" if shown.number else shown.latex)

    def float(self, kind: str, body: str) -> None:
        captions = _captions(body)
        section = self.current()
        if kind == "table" or (kind != "figure" and find_tabulars(body) and not captions):
            number = self.next_count("table") if captions else ""
            self.label_all(body, "table", number)
            label = f"Table {number}" if number else None
            table = Table(caption="", cells=[], page=1, label=label, section=section)
            table_cells = [row for tabular in find_tabulars(body) for row in tabular_cells(tabular)]
            width = max((len(row) for row in table_cells), default=0)
            table.cells = [row + [""] * (width - len(row)) for row in table_cells]
            self.tables.append(table)
            block = self.add("table", None)
            self._captions.append((table, captions[0] if captions else "", label or ""))
            self._table_blocks.append((table, block))
            return
        printed = {"figure": "Figure", "algorithm": "Algorithm", "listing": "Listing"}[kind]
        for caption in captions or [""]:
            number = self.next_count(kind)
            self.label_all(body, kind if kind != "algorithm" else "algorithm", number)
            figure = Figure(caption="", page=1, label=f"{printed} {number}", section=section)
            self.figures.append(figure)
            block = self.add("caption", None)
            self._captions.append((figure, caption, figure.label or ""))
            self._figure_blocks.append((figure, block))
            break  # subfigures' captions are read as one figure's

    def items(self, name: str, body: str) -> None:
        items = _split_items(body)
        for number, (label, content) in enumerate(items, 1):
            marker = (
                f"{plain(label)}"
                if label is not None
                else (f"{number}." if name in ("enumerate", "compactenum", "inparaenum", "asparaenum") else "•")
            )
            self.walk(content, kind="list_item", prefix=marker)

    # ---- text, once every label is known

    def render(self, cite: Callable[[str, list[str], str | None, str | None], str] | None) -> None:
        footnote_count = 0
        for pending in self.pending:
            if pending.latex is None:
                continue
            notes: list[str] = []
            context = TextContext(labels=self.labels, cite=cite, footnotes=notes)
            text, cites = to_text(pending.latex, context)
            if pending.prefix:
                shift = len(pending.prefix) + 1
                text = f"{pending.prefix} {text}".strip()
                for one in cites:
                    one.start += shift
                    one.end += shift
            pending.block.text = text
            pending.block.cites = cites
            blocks = self.sections[pending.section].blocks
            at = blocks.index(pending.block) + 1
            for note in notes:
                footnote_count += 1
                note_text, note_cites = to_text(note, TextContext(labels=self.labels, cite=cite))
                shift = len(str(footnote_count)) + 1
                for one in note_cites:
                    one.start += shift
                    one.end += shift
                blocks.insert(at, Block(f"{footnote_count} {note_text}", 1, "paragraph", cites=note_cites))
                at += 1
        for item, caption_latex, label in self._captions:
            caption, cites = to_text(caption_latex, TextContext(labels=self.labels, cite=cite))
            item.caption = caption
            block = next(b for it, b in [*self._table_blocks, *self._figure_blocks] if it is item)
            heading = f"{label}: {caption}" if label and caption else label or caption
            shift = len(heading) - len(caption)
            block.cites = [type(one)(one.start + shift, one.end + shift, one.keys) for one in cites]
            if isinstance(item, Table) and item.cells:
                block.text = f"{heading}\n\n{item.markdown}" if heading else item.markdown
            else:
                block.text = heading
        for section in self.sections:
            section.blocks = [block for block in section.blocks if block.text.strip()]
