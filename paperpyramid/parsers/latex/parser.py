"""A LaTeX source bundle to a :class:`~paperpyramid.document.Document`, without running TeX.

The steps, each its own module: read the bundle (:mod:`.bundle`), find the main file and inline
its inputs (:mod:`.inputs`), expand the author's macros (:mod:`.macros`), read the front matter
(:mod:`.front`), walk the body (:mod:`.body`), read the bibliography (:mod:`.bibliography`) and
print citations as its style would (:mod:`.citations`); with the paper's PDF, give every block
its page (:mod:`.page_finder`).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from paperpyramid._version import __version__
from paperpyramid.document import Block, Document, Figure, Formula, Section, Table
from paperpyramid.parsers.latex.bibliography import BibEntry, bbl_entries, bib_entries, to_reference
from paperpyramid.parsers.latex.body import Walker
from paperpyramid.parsers.latex.bundle import Bundle, read_bundle
from paperpyramid.parsers.latex.citations import style_for
from paperpyramid.parsers.latex.equations import EquationCounter
from paperpyramid.parsers.latex.front import abstract_latex, arxiv_id, authors, title
from paperpyramid.parsers.latex.inputs import find_main, flatten
from paperpyramid.parsers.latex.limits import BadSource, LatexLimits
from paperpyramid.parsers.latex.macros import expand_macros
from paperpyramid.parsers.latex.scan import find_end, read_group, read_optional, skip_space
from paperpyramid.parsers.latex.text import CITE_COMMANDS, TextContext, to_text
from paperpyramid.parsers.reference_headings import SQUASHED_REFERENCE_HEADINGS, squash

__all__ = ["NAME", "parse_source"]

NAME = "latex"
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_END_DOCUMENT = re.compile(r"\\end\s*\{document\}")
_FIRST_HEADING = re.compile(r"\\(?:part|chapter|section|subsection)(?![A-Za-z])")
_FRONT_COMMANDS = re.compile(
    r"\\(?:title|author|address|affiliation|affil|institute|email|date|thanks|keywords|IEEEauthorblockN|IEEEauthorblockA|"
    r"dedicatory|subjclass|curraddr|urladdr|received|revised|accepted|titlerunning|authorrunning|tnotetext|fntext|cortext|ead|shorttitle|shortauthors)(?![A-Za-z])\*?"
)
_NUMBERWITHIN = re.compile(r"\\(?:numberwithin|counterwithin)\*?\s*\{(\w+)\}\s*\{(?:section|chapter)\}")
_NEWTHEOREM = re.compile(
    r"\\newtheorem(?P<star>\*?)\s*\{(?P<env>[^}]+)\}\s*(?:\[(?P<shared>[^\]]+)\])?\s*\{(?P<name>[^}]*)\}\s*(?:\[(?P<within>[^\]]+)\])?"
)
_CITE = re.compile(r"\\(" + "|".join(sorted(CITE_COMMANDS, key=len, reverse=True)) + r"|nocite)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^}]*)\}")


def parse_source(
    source: Path | bytes,
    *,
    name: str = "",
    pdf: Path | None = None,
    limits: LatexLimits | None = None,
    password: str | None = None,
    max_pages: int | None = None,
    time_limit: float | None = None,
) -> Document:
    """Parse a LaTeX source bundle: a directory, a ``.tar``/``.tar.gz``, a ``.tex`` or a gzipped
    ``.tex`` (a path, or its bytes with ``name``), told apart by content.

    With ``pdf`` (the same paper's PDF) every block gets the page it is printed on and the
    document's provenance reads ``latex+pdf``; without it every page is 1 and a warning says so.
    Raises :class:`~paperpyramid.parsers.latex.limits.BadSource` (a ``BadInput``) for a bundle
    that cannot or must not be read, with a one-line reason.
    """
    limits = limits or LatexLimits()
    if not name and isinstance(source, Path):
        name = source.name
    bundle = read_bundle(source, name=name, limits=limits)
    document = parse_bundle(bundle, limits=limits)
    if pdf is None:
        document.warnings.append("no PDF: page numbers unknown")
    else:
        from paperpyramid.parsers.latex.page_finder import assign_pages

        assign_pages(document, pdf, password=password, max_pages=max_pages, time_limit=time_limit)
    return document


def parse_bundle(bundle: Bundle, *, limits: LatexLimits) -> Document:
    """Parse a bundle already read (see :func:`parse_source`)."""
    warnings: list[str] = []
    main = find_main(bundle)
    expansion = expand_macros(flatten(bundle, main, limits, warnings), limits)
    source = expansion.text
    begin = _BEGIN_DOCUMENT.search(source)
    if begin is None:
        raise BadSource(f"{bundle.name}: {main} has no \\begin{{document}}")
    end = _END_DOCUMENT.search(source, begin.end())
    preamble = source[: begin.start()]
    body = source[begin.end() : end.start() if end else len(source)]

    document = Document(warnings=warnings)
    first_heading = _FIRST_HEADING.search(body)
    front = preamble + body[: first_heading.start() if first_heading else len(body)]
    document.title = title(front)
    document.authors = authors(front)
    document.arxiv_id = arxiv_id(bundle.name, front)
    abstract, abstract_start, abstract_end = abstract_latex(front, body)
    if abstract_start >= 0:
        body = body[:abstract_start] + body[abstract_end:]
    body = _drop_front_commands(body)

    within: set[str] = set(_NUMBERWITHIN.findall(source))
    theequation = expansion.counter_formats.get("theequation", "")
    theorems = _theorems(source)
    within |= {counter for _, counter, numbered_within in theorems.values() if numbered_within and counter}
    walker = Walker(
        theorems=theorems,
        equations=EquationCounter(within_section="equation" in within or "\\thesection" in theequation or "\\thechapter" in theequation),
        within_section=frozenset(counter for counter in within if counter != "equation"),
    )
    documentclass = re.search(r"\\document(?:class|style)\s*(?:\[[^\]]*\])?\s*\{\s*([^}]*?)\s*\}", preamble)
    class_name = documentclass.group(1) if documentclass else ""
    walker.appendix_equations = "." if class_name == "elsarticle" else "" if class_name.startswith("revtex") else None
    walker.has_chapters = bool(re.search(r"\\chapter(?![A-Za-z])", body))
    entries = _bibliography(bundle, main, body, warnings)
    style = style_for(entries, preamble + body[-5000:])

    def place_references(section: int) -> None:
        current = walker.sections[section] if walker.sections else None
        if current is not None and not current.blocks and squash(current.title) in SQUASHED_REFERENCE_HEADINGS:
            current.number = "ref"
            current.level, current.parent = 1, None
            index = section
        else:
            walker.sections.append(Section(title="References", level=1, number="ref"))
            index = len(walker.sections) - 1
        for entry in entries:
            reference = to_reference(entry)
            document.references.append(reference)
            walker.sections[index].blocks.append(Block(reference.raw, 1, "list_item"))

    walker.bibliography = place_references
    walker.cite = style
    walker.walk(body)
    if entries and not walker.bibliography_done:
        walker.bibliography_here()
    walker.render(style)

    if abstract is not None:
        section = Section(title="Abstract", level=1)
        for paragraph in re.split(r"\n[ \t]*\n", abstract):
            text, cites = to_text(paragraph, TextContext(labels=walker.labels, cite=style))
            if text:
                section.blocks.append(Block(text, 1, "paragraph", cites=cites))
        if section.blocks:
            document.abstract = "\n\n".join(block.text for block in section.blocks)
            _prepend(walker, section)
    document.sections = [section for section in walker.sections if section.blocks or section.title or section.number]
    _reindex(walker, document)
    document.tables, document.formulas, document.figures = walker.tables, walker.formulas, walker.figures
    version = f"{NAME} {__version__}"
    document.provenance = {"sections": version, "text": version, "references": version, "tables": version, "formulas": version}
    return document


def _prepend(walker: Walker, section: Section) -> None:
    """The abstract as the first section; every index into the sections moves by one."""
    walker.sections.insert(0, section)
    for other in walker.sections[1:]:
        if other.parent is not None:
            other.parent += 1
    items: list[Table | Formula | Figure] = [*walker.tables, *walker.formulas, *walker.figures]
    for item in items:
        if item.section is not None:
            item.section += 1


def _reindex(walker: Walker, document: Document) -> None:
    """Drop empty untitled sections, keeping parents and the objects' section indexes right."""
    kept = {id(section): index for index, section in enumerate(document.sections)}
    old = {index: kept.get(id(section)) for index, section in enumerate(walker.sections)}
    for section in document.sections:
        section.parent = old.get(section.parent) if section.parent is not None else None
    items: list[Table | Formula | Figure] = [*walker.tables, *walker.formulas, *walker.figures]
    for item in items:
        if item.section is not None:
            item.section = old.get(item.section)


def _drop_front_commands(body: str) -> str:
    """``\\title``, ``\\author``, ``\\address``... in the body are front matter, not text."""
    pieces: list[str] = []
    index = 0
    for match in _FRONT_COMMANDS.finditer(body):
        if match.start() < index:
            continue
        pieces.append(body[index : match.start()])
        at = match.end()
        _, at = read_optional(body, at)
        start = skip_space(body, at)
        if start < len(body) and body[start] == "{":
            _, at = read_group(body, start)
        index = at
    pieces.append(body[index:])
    return "".join(pieces)


def _theorems(source: str) -> dict[str, tuple[str, str, str | None]]:
    theorems: dict[str, tuple[str, str, str | None]] = {}
    for match in _NEWTHEOREM.finditer(source):
        counter = "" if match.group("star") else (match.group("shared") or match.group("env")).strip()
        shared = theorems.get(counter)
        within = match.group("within") or (shared[2] if shared else None)
        theorems[match.group("env").strip()] = (match.group("name").strip(), counter, within)
    return theorems


def _bibliography(bundle: Bundle, main: str, body: str, warnings: list[str]) -> list[BibEntry]:
    """The entries of an inline ``thebibliography``, else the main file's ``.bbl``, else the cited ``.bib`` entries."""
    inline = re.search(r"\\begin\s*\{thebibliography\}", body)
    if inline:
        end, _ = find_end(body, "thebibliography", inline.end())
        return bbl_entries(body[inline.end() : end])
    stem = str(PurePosixPath(main).with_suffix(""))
    bbls = [path for path in bundle.files if path.endswith(".bbl")]
    chosen = f"{stem}.bbl" if f"{stem}.bbl" in bundle.files else (bbls[0] if len(bbls) == 1 else None)
    if chosen is not None:
        return bbl_entries(bundle.files[chosen])
    cited: list[str] = []
    for match in _CITE.finditer(body):
        cited.extend(key.strip() for key in match.group(2).split(",") if key.strip())
    bib: dict[str, BibEntry] = {}
    for path in bundle.files:
        if path.endswith(".bib"):
            bib.update(bib_entries(bundle.files[path]))
    if not bib:
        if cited:
            warnings.append("citations but no .bbl or .bib in the bundle: no reference list")
        return []
    if "*" in cited:
        return list(bib.values())
    return [bib[key] for key in dict.fromkeys(cited) if key in bib]
