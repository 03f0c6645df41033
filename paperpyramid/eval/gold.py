"""Readers that turn gold files (publisher JATS, GROBID TEI, author LaTeX) into one model.

Every reader answers the same four questions about the *body* of a paper, so that a
parse can be scored against any of them: the title, the section headings in document
order, the running text of the paragraphs, and how many references the paper cites.

What counts as the body follows each format's own structure:

- JATS (``.nxml``): the main article's ``<body>`` only. F1000 files append referee
  reports as ``<sub-article>`` elements with bodies of their own; those are not the
  paper. Sections in ``<abstract>``, ``<notes>`` or ``<back>`` are not body sections.
- TEI (``.tei.xml``): ``<text>/<body>``; acknowledgements and annexes live in
  ``<back>`` and are left out, as are figure heads.
- LaTeX (``.tex``): from the first sectioning command to ``\\end{document}``, so title,
  authors and abstract are left out; appendix sections are included, and so are the run-in
  headings of ``\\paragraph`` and ``\\subparagraph``, which the page prints as headings.
  What ``\\verb`` or a verbatim environment shows is text, never a command: a sample
  ``\\section{#1}`` set in a listing is no heading. A note (``\\footnote``) inside a heading or
  the title prints at the foot of the page, not in the heading. Files pulled in by ``\\input``
  or ``\\include`` are read in their place when they ship beside the source
  (:mod:`paperpyramid.eval.latex_source`). A heading that a class or an environment prints by
  itself (a nomenclature, AASTeX's "APPENDIX", lists of figures and tables) counts like one
  typed with ``\\section*``, and a class's logo macro (``\\PTPTeX``, ``\\TUB``) prints its name.
  A report's ``\\chapter`` is a heading too. The author's macros are expanded by the LaTeX
  parser's own expander (:mod:`paperpyramid.parsers.latex.macros`), those of a package shipped
  beside the source included. A reference list typed by hand under a closing "References"
  heading, in a source with no list command, is the reference list and no body section. The
  title is ``\\title``'s (BiocStyle's ``\\bioctitle``), without a subtitle set under it in a
  font of its own.

A parse carries no markup that says where its back matter begins, so both sides are held to
the same rule when section titles are compared: a heading that names back matter
(acknowledgements, funding, competing interests, author contributions, data availability,
ethics and consent, abbreviations, supplementary material, a publisher's note: see
:func:`back_matter`) is left out of the gold and of the parse alike, wherever it stands.

Body text leaves out captions, tables and mathematics in every format: the score that
uses it is word recall, and what it should measure is whether a parser kept the
running text, not how it rendered a table or a formula.

Gold files are trusted input (they ship with the corpus), so the standard library's
XML parser is used as is.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from paperpyramid.eval.heading_cites import HeadingCites
from paperpyramid.eval.latex_source import read_source, read_tex, strip_comments
from paperpyramid.parsers.latex.limits import BadSource, LatexLimits
from paperpyramid.parsers.latex.macros import expand_macros
from paperpyramid.parsers.latex.scan import read_group
from paperpyramid.parsers.reference_headings import SQUASHED_REFERENCE_HEADINGS

__all__ = ["GoldPaper", "abstract_heading", "back_matter", "latex_to_text", "load_gold", "load_jats", "load_latex", "load_tei"]


@dataclass
class GoldPaper:
    """What a paper's body looks like: the reference a parse is scored against.

    The same model holds a parser's prediction, so that both sides are compared alike.
    ``n_references`` is ``None`` where the source does not say how many references
    the paper has.
    """

    title: str | None
    section_titles: list[str]
    body_text: str
    n_references: int | None


SUPPORTED_SUFFIXES = (".nxml", ".tei.xml", ".tex")


def load_gold(path: Path) -> GoldPaper:
    """Read one gold file, choosing the reader by its suffix (.nxml, .tei.xml or .tex)."""
    name = path.name.lower()
    if name.endswith(".nxml"):
        return load_jats(path)
    if name.endswith(".tei.xml"):
        return load_tei(path)
    if name.endswith(".tex"):
        return load_latex(path)
    raise ValueError(f"no gold reader for {path.name!r}; supported suffixes: {', '.join(SUPPORTED_SUFFIXES)}")


# Leading section numbering: "2", "2.1", "2.1.", "3)", "III.", "iv)", "A.", "A.1", "b)".
# Letters and roman numerals need a "." or ")" so that "A Novel Model" or "Mixed
# Methods" keep their first word.
_NUMBERING = re.compile(
    r"""^\s*(?:
        \d+(?:\.\d+)*(?:[.):]|(?=\s)|$)
      | [ivxlcdm]+[.)]
      | [a-z](?:\.\d+)+\.?(?=\s|$)
      | [a-z](?:\.\d+)*[.)]
    )""",
    re.VERBOSE,
)
_NOT_WORD = re.compile(r"[\W_]+")


#: back-matter headings as :func:`soft_norm` writes them
_BACK_MATTER = {
    "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "funding", "fundinginformation",
    "financialsupport", "competinginterests", "conflictofinterest", "conflictsofinterest", "conflictofinterests",
    "conflictofintereststatement", "conflictsofintereststatement", "declarationofcompetinginterest", "declarations",
    "authorcontributions", "authorscontributions", "authorcontribution", "authorscontribution", "contributions",
    "availabilityofdataandmaterials", "availabilityofdataandmaterial", "dataavailability", "dataavailabilitystatement",
    "ethicsapprovalandconsenttoparticipate", "consentforpublication", "ethicsstatement", "publishersnote", "abbreviations",
    "authordetails", "authorsinformation", "additionalinformation", "disclosure", "disclosures", "supplementaryinformation",
    "supplementarymaterial", "supplementarymaterials", "supportinginformation", "electronicsupplementarymaterial",
}  # fmt: skip


#: how longer back-matter headings begin ("Financial support and sponsorship", "Funding
#: statement", "Acknowledgements and funding", "Conflict of interest disclosures", ...)
_BACK_MATTER_OPENINGS = (
    "acknowledg", "funding", "financialsupport", "financialdisclosure", "competinginterest", "conflictofinterest",
    "conflictsofinterest", "declarationofcompetinginterest", "declarationofinterest", "authorcontribution",
    "authorscontribution", "dataavailability", "availabilityofdata", "ethicsapproval", "consentforpublication",
    "publishersnote", "supplementarymaterial", "supplementaryinformation", "supportinginformation",
)  # fmt: skip


def back_matter(title: str) -> bool:
    """Whether a section title names back matter rather than the body ("Acknowledgments",
    "Conflict of Interests", "Authors' contributions", "Publisher's Note", "Financial support
    and sponsorship", ...): one of the names above, or a heading that begins like one."""
    plain = soft_norm(title)
    return plain in _BACK_MATTER or plain.startswith(_BACK_MATTER_OPENINGS)


#: "Abstract" as babel prints it in the languages papers carry a second abstract in (an
#: engineering class sets Spanish, Russian and Vietnamese ones in its appendix), as
#: :func:`soft_norm` writes them
_ABSTRACT_NAMES = frozenset({
    "abstract", "resumen", "résumé", "resumé", "resumo", "resum", "zusammenfassung", "sommario", "riassunto",
    "samenvatting", "streszczenie", "abstrakt", "sammanfattning", "sammendrag", "tiivistelmä", "özet",
    "аннотация", "анотація", "резюме", "περίληψη", "tómtắtnộidung", "摘要", "要旨", "초록",
})  # fmt: skip


def abstract_heading(title: str) -> bool:
    """Whether a heading is an abstract's, in English or another language: the abstract is not
    a body section on either side (the gold leaves the abstract environment out)."""
    return soft_norm(title) in _ABSTRACT_NAMES


def soft_norm(title: str) -> str:
    """A heading reduced to what GROBID's benchmark compares in its "soft" mode.

    Lower case, leading numbering dropped, then every space and punctuation mark removed:
    ``"2.1. Related Work"`` and ``"Related work"`` both become ``"relatedwork"``.
    NFKC folds the ligatures PDF text often carries ("ﬁ" -> "fi").
    """
    text = unicodedata.normalize("NFKC", title).lower().strip()
    text = _NUMBERING.sub("", text, count=1)
    return _NOT_WORD.sub("", text)


# --------------------------------------------------------------------------- XML helpers


def _local(tag: str) -> str:
    """An element's name without its namespace, so JATS and TEI read alike."""
    return tag.rsplit("}", 1)[-1]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _child(element: ET.Element, name: str) -> ET.Element | None:
    return next((child for child in element if _local(child.tag) == name), None)


def _text_without(element: ET.Element, skip: frozenset[str]) -> Iterator[str]:
    """The text under ``element``, leaving out whole subtrees whose name is in ``skip``."""
    if element.text:
        yield element.text
    for child in element:
        if _local(child.tag) not in skip:
            yield from _text_without(child, skip)
        if child.tail:  # the tail belongs to the parent, even after a skipped child
            yield child.tail


def _paragraphs(root: ET.Element, containers: frozenset[str], skip: frozenset[str]) -> list[str]:
    """Text of every ``<p>`` under ``root``, not descending into ``containers``.

    A nested ``<p>`` (a list item inside a paragraph) is read on its own, so ``p`` is
    always in the skipped names when a paragraph's own text is gathered.
    """
    found: list[str] = []
    inline_skip = skip | {"p"}

    def walk(element: ET.Element) -> None:
        for child in element:
            name = _local(child.tag)
            if name in containers:
                continue
            if name == "p":
                text = _collapse("".join(_text_without(child, inline_skip)))
                if text:
                    found.append(text)
            walk(child)

    walk(root)
    return found


# --------------------------------------------------------------------------- JATS

# Captions, tables and boxed material are printed apart from the running text.
_JATS_CONTAINERS = frozenset({"fig", "fig-group", "table-wrap", "table-wrap-group", "supplementary-material", "boxed-text"})
_JATS_SKIP = frozenset({"disp-formula", "inline-formula", "math", "tex-math", "table-wrap", "fig", "fig-group"})


def load_jats(path: Path) -> GoldPaper:
    """Read a publisher JATS file: the main article's body, not its referee reports."""
    root = ET.parse(path).getroot()
    body = _child(root, "body")
    title_element = root.find("./front/article-meta/title-group/article-title")
    title = _collapse("".join(title_element.itertext())) if title_element is not None else ""
    sections: list[str] = []
    paragraphs: list[str] = []
    if body is not None:
        sections = _jats_section_titles(body)
        paragraphs = _paragraphs(body, _JATS_CONTAINERS, _JATS_SKIP)
    return GoldPaper(
        title=title or None,
        section_titles=sections,
        body_text="\n\n".join(paragraphs),
        n_references=_jats_reference_count(root),
    )


def _jats_section_titles(body: ET.Element) -> list[str]:
    titles: list[str] = []
    for sec in body.iter():
        if _local(sec.tag) != "sec":
            continue
        title = _child(sec, "title")
        text = _collapse("".join(title.itertext())) if title is not None else ""
        if text:  # an untitled <sec> groups text but prints no heading
            titles.append(text)
    return titles


def _jats_reference_count(root: ET.Element) -> int | None:
    """References in the main article's ``<back>``; a sub-article's list is its own."""
    back = _child(root, "back")
    if back is None:
        return None
    ref_lists = [e for e in back.iter() if _local(e.tag) == "ref-list"]
    if not ref_lists:
        return None
    # ref-lists may nest (a titled list holding sub-lists); count each <ref> once
    return len({id(e) for ref_list in ref_lists for e in ref_list.iter() if _local(e.tag) == "ref"})


# --------------------------------------------------------------------------- TEI

_TEI = "{http://www.tei-c.org/ns/1.0}"
_TEI_CONTAINERS = frozenset({"figure", "note", "formula"})
_TEI_SKIP = frozenset({"formula", "figure", "note"})


def load_tei(path: Path) -> GoldPaper:
    """Read a GROBID TEI file: ``<div><head>`` and ``<p>`` of ``<text>/<body>``."""
    root = ET.parse(path).getroot()
    body = root.find(f"./{_TEI}text/{_TEI}body")
    sections: list[str] = []
    paragraphs: list[str] = []
    if body is not None:
        for div in body.iter(f"{_TEI}div"):
            head = div.find(f"{_TEI}head")
            text = _collapse("".join(head.itertext())) if head is not None else ""
            if text:  # GROBID opens some bodies with a headless div of stray paragraphs
                sections.append(text)
        paragraphs = _paragraphs(body, _TEI_CONTAINERS, _TEI_SKIP)
    return GoldPaper(
        title=_tei_title(root),
        section_titles=sections,
        body_text="\n\n".join(paragraphs),
        n_references=_tei_reference_count(root),
    )


def _tei_title(root: ET.Element) -> str | None:
    titles = root.findall(f"./{_TEI}teiHeader/{_TEI}fileDesc/{_TEI}titleStmt/{_TEI}title")
    main = [t for t in titles if t.get("type") == "main"] or titles
    text = _collapse("".join(main[0].itertext())) if main else ""
    return text or None


def _tei_reference_count(root: ET.Element) -> int | None:
    """Entries of the bibliography, not the header's own ``<biblStruct>`` (the paper itself)."""
    lists = list(root.iter(f"{_TEI}listBibl"))
    if not lists:
        return None
    return sum(len(bibl.findall(f"{_TEI}biblStruct")) for bibl in lists)


# --------------------------------------------------------------------------- LaTeX

# smfart's \Subsection sets a subsection's title on a line of its own (its \subsection runs in);
# a report's or a book's \chapter is its top heading
_SECTION_COMMAND = re.compile(r"\\(?:chapter|section|[sS]ubsection|subsubsection|paragraph|subparagraph)(?![A-Za-z])\*?")
# BiocStyle's \bioctitle[running head]{title} sets the title as \title does
_TITLE_COMMAND = re.compile(r"\\(?:bioc)?title(?![A-Za-z])")
_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z])")
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_END_DOCUMENT = re.compile(r"\\end\s*\{document\}")
# A reference list the author typed as a section heading is not a body section; the
# parser's side leaves its references section out too. A section of that name that holds
# running text instead (a template's "References" section about how to cite) is a body
# section, printed like any other.
_REFERENCE_LIST = re.compile(r"\\(?:begin\s*\{thebibliography\}|bibliography\s*\{|printbibliography(?![A-Za-z]))")


def load_latex(path: Path) -> GoldPaper:
    """Read an author's LaTeX source; references come from the paired ``.bbl`` if present."""
    source, document = latex_source_and_document(path)
    bbl = path.with_suffix(".bbl")
    cites = HeadingCites(strip_comments(read_tex(bbl)) if bbl.is_file() else "".join(bibliography_lists(document)), source)
    sections, body = _latex_sections_and_body(_with_printed_headings(document, source), cites)
    return GoldPaper(
        title=_latex_title(source),
        section_titles=sections,
        body_text=body,
        n_references=_latex_reference_count(path, document),
    )


def latex_source_and_document(path: Path) -> tuple[str, str]:
    """The whole source as :func:`read_source` gives it with the author's macros expanded (with
    their arguments, ``\\iffalse`` blocks left out), and the part of it between
    ``\\begin{document}`` and ``\\end{document}``."""
    source = read_source(path)
    # the LaTeX parser's expander, one place that knows how macros expand; a macro that expands
    # without end leaves the source as written
    with contextlib.suppress(BadSource):
        source = expand_macros(source, LatexLimits()).text
    start = _BEGIN_DOCUMENT.search(source)
    end = _END_DOCUMENT.search(source, start.end() if start else 0)
    return source, source[start.end() if start else 0 : end.start() if end else len(source)]


# Headings a command or an environment prints by itself, with no sectioning command in the
# source (and an appendix's section left untitled, which prints its label). The page shows them like any other heading (and a parser reads them as one), so the
# gold counts them as a heading where it stands: the nomenclature of engineering classes
# (asmeconf, asmejour, prtec; nomencl's \printnomenclature) and the lists of figures and tables.
_PRINTED_HEADINGS = (
    (re.compile(r"\\begin\s*\{nomenclature\}|\\printnomenclature(?![A-Za-z])"), "Nomenclature"),
    (re.compile(r"\\listoffigures(?![A-Za-z])"), "List of Figures"),
    (re.compile(r"\\listoftables(?![A-Za-z])"), "List of Tables"),
)
_DOCUMENT_CLASS = re.compile(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{\s*([^}\s]+)\s*\}")
_APPENDIX = re.compile(r"\\appendix(?![A-Za-z])\*?")
_UNTITLED_SECTION = re.compile(r"\\section\*?\s*\{\s*\}")
# Classes whose \appendix prints a heading of its own above the first appendix (AASTeX sets
# "APPENDIX"); in most classes it only changes how the sections after it are numbered.
_APPENDIX_HEADING_CLASSES = ("aastex",)
# Classes that print the lists of figures and tables after the references unless told not to
# (asmejour's "nolists" option).
_CLOSING_LISTS_CLASSES = {"asmejour": "nolists"}


def _with_printed_headings(document: str, source: str) -> str:
    """``document`` with a ``\\section*`` put where a command, an environment or the class
    prints a heading by itself (see above): "Nomenclature" and "APPENDIX" are as much printed
    headings as a ``\\section*{Nomenclature}``, so both count alike."""
    for pattern, title in _PRINTED_HEADINGS:
        document = pattern.sub(r"\\section*{" + title + r"}\g<0>", document)
    appendix = _APPENDIX.search(document)
    if appendix is not None:  # an untitled appendix prints its label: "Appendix" ("APPENDIX A")
        start = appendix.end()
        document = document[:start] + _UNTITLED_SECTION.sub(r"\\section{Appendix}", document[start:])
    declared = _DOCUMENT_CLASS.search(source)
    if declared is None:
        return document
    options = {option.strip() for option in (declared.group(1) or "").split(",")}
    name = declared.group(2)
    if name.startswith(_APPENDIX_HEADING_CLASSES) and appendix is not None:
        document = document[: appendix.start()] + "\\section*{Appendix}" + document[appendix.end() :]
    if name in _CLOSING_LISTS_CLASSES and _CLOSING_LISTS_CLASSES[name] not in options:
        document += "\n\\section*{List of Figures}\n\\section*{List of Tables}\n"
    return document


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index].isspace():
        index += 1
    return index


def _skip_optional(text: str, index: int) -> int:
    """Skip space and any optional ``[...]`` arguments (short title, ``\\citep[see][]``)."""
    index = _skip_space(text, index)
    while index < len(text) and text[index] == "[":
        close = text.find("]", index)
        if close < 0:
            return index
        index = _skip_space(text, close + 1)
    return index


def _latex_title(source: str) -> str | None:
    match = _TITLE_COMMAND.search(source)
    if match is None:
        return None
    index = _skip_optional(source, match.end())  # amsart: \title[running head]{title}
    if index >= len(source) or source[index] != "{":
        return None
    content, _ = read_group(source, index)
    return heading_text(_without_subtitle(_drop_command_arguments(content, _TITLE_BOXES))) or None


# a font or size switch opening a line: "\\ \large ...", "\\ {\small ...}", "\\ \textit{...}"; or a size
# switch typed just before the break ("Title \small \\[12pt] For version 1.0", BradleyTerry2's \pkginfo): the
# switch changes the font of the lines under the title, not of the words before it
_SUBTITLE_LINE = re.compile(
    r"\\\\(?:\s*\[[^\]]*\])?\s*\{?\s*\\(?:large|small|normalsize|footnotesize|scriptsize|tiny|"
    r"text(?:it|rm|sl|up|md|normal)|emph|it|sl|rm|normalfont|mdseries|itshape|upshape)(?![A-Za-z])"
    r"|\\(?:large|small|normalsize|footnotesize|scriptsize|tiny)(?![A-Za-z])\s*\\\\"
)
_LINE_BREAK = re.compile(r"\s*\\\\(?:\s*\[[^\]]*\])?")
# a group that sets text in a font of its own: "\\textbf{...}", "{\\bfseries ...}"
_WRAPPER = re.compile(r"\s*(?:\\(?:text(?:bf|sf|rm|tt|sc|it|sl|up|md|normal)|emph|mbox)\s*)?\{")


def _without_subtitle(title: str) -> str:
    """A title without the subtitle set under it: the lines after a break that the author set
    apart in a smaller or lighter font ("Main title\\\\ \\large A subtitle"), or those left
    outside the group that sets the first lines in bold (HilbertVis's ``\\textbf{Visualising ...
    curve}\\\\ Description of the packages ...``). The page prints the title above, the
    subtitle in a font of its own below, and a title is the first. A colon joins the two into
    one title, as references cite it ("A Sample Paper:\\\\ \\emph{A Template}")."""
    title = _unwrapped(title)
    line = _SUBTITLE_LINE.search(title)
    cut = line.start() if line is not None else None
    if cut is None and (opening := _WRAPPER.match(title)) is not None:
        end = read_group(title, opening.end() - 1)[1]
        after = _LINE_BREAK.match(title, end)
        same_font = after is not None and title.startswith(opening.group(0).strip(), _skip_space(title, after.end()))
        cut = end if after is not None and not same_font else None  # "\\textbf{A}\\\\ \\textbf{B}" is one title
    if cut is None:
        return title
    printed = latex_to_text(title[:cut], keep_math=True)
    return title if not printed or printed.endswith(":") else title[:cut]


def _unwrapped(title: str) -> str:
    """The inside of groups that hold the whole title (``\\textsf{...}``, ``{\\sffamily ...}``)."""
    while (opening := _WRAPPER.match(title)) is not None:
        inner, end = read_group(title, opening.end() - 1)
        if title[end:].strip():
            break
        title = inner
    return title


def heading_text(latex: str) -> str:
    """A heading or title as printed: its notes (``\\footnote``) go to the foot of the page."""
    return latex_to_text(_drop_command_arguments(latex, _HEADING_NOTES), keep_math=True)


_HEADING_NOTES = {"footnote": 1, "footnotetext": 1, "protect": 0}
# a box in a title holds a note set over it, not the title (a vignette's "This vignette corresponds
# to an article published in …" in an \fbox above the JSS title)
_TITLE_BOXES = {"fbox": 1, "framebox": 1}


def _latex_sections_and_body(document: str, cites: Callable[[str], str]) -> tuple[list[str], str]:
    """Section headings in order, their citations written by ``cites`` as printed, and the text
    from the first heading on without them."""
    headings: list[str] = []
    pieces: list[str] = []
    cursor: int | None = None
    for match in _SECTION_COMMAND.finditer(document):
        index = _skip_optional(document, match.end())
        if index >= len(document) or document[index] != "{":
            continue  # a \section mentioned in running text, not a heading
        content, after = read_group(document, index)
        if cursor is not None:
            pieces.append(document[cursor : match.start()])
        cursor = after
        headings.append(heading_text(cites(content)))
    if cursor is not None:
        pieces.append(document[cursor:])
    if pieces and _typed_reference_list(headings[-1], document):
        headings, pieces = headings[:-1], pieces[:-1]  # the list is neither a heading nor body text
    titles = [title for title, piece in zip(headings, pieces, strict=True) if title and _body_heading(title, piece)]
    body = latex_to_text(_drop_environments("\n\n".join(pieces)), keep_math=False)
    return titles, body


def _body_heading(title: str, piece: str) -> bool:
    """Whether a heading counts as a body section: not "Abstract", and not the heading of the
    reference list (a "References" section that holds the list, or nothing but it)."""
    if abstract_heading(title):
        return False
    name = _squash(title)
    if name not in SQUASHED_REFERENCE_HEADINGS:
        return True
    return not (_REFERENCE_LIST.search(piece) or not latex_to_text(_drop_environments(piece), keep_math=False))


def _typed_reference_list(last_heading: str, document: str) -> bool:
    """Whether the document's last section is a reference list typed by hand: a "References"
    (or "Bibliography", ...) section at the end of a document that has no list command anywhere
    (vignettes set their few references as paragraphs or items). The page prints it as the
    reference list all the same, so, like a parse's reference section, it is no body section;
    a template's "References" section about how to cite comes before the real list."""
    return _squash(last_heading) in SQUASHED_REFERENCE_HEADINGS and not _REFERENCE_LIST.search(document)


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def _latex_reference_count(path: Path, document: str) -> int | None:
    """``\\bibitem`` entries in the compiled ``.bbl`` beside the file, else those of the
    document's own lists (a ``\\bibitem`` shown in verbatim text is no entry)."""
    bbl = path.with_suffix(".bbl")
    if bbl.is_file():
        return len(_BIBITEM.findall(strip_comments(read_tex(bbl))))
    lists = bibliography_lists(document)
    if lists:
        return sum(len(_BIBITEM.findall(body)) for body in lists)
    return None  # \\bibliography{...} without its .bbl: the count is unknown


_LIST_BEGIN = re.compile(r"\\begin\s*\{thebibliography\}")
_LIST_END = re.compile(r"\\end\s*\{thebibliography\}")


def bibliography_lists(latex: str) -> list[str]:
    """The content of each ``thebibliography`` environment (to the end, if it is not closed)."""
    found: list[str] = []
    for opening in _LIST_BEGIN.finditer(latex):
        closing = _LIST_END.search(latex, opening.end())
        found.append(latex[opening.end() : closing.start() if closing else len(latex)])
    return found


# Environments whose content is not running text: floats, display mathematics, the
# front matter (its text is title/authors/abstract, not body) and the bibliography.
_DROPPED_ENVIRONMENTS = (
    "figure", "figure*", "table", "table*", "wrapfigure", "tabular", "tabular*",
    "equation", "equation*", "align", "align*", "alignat", "alignat*", "eqnarray",
    "eqnarray*", "gather", "gather*", "multline", "multline*", "displaymath", "math",
    "tikzpicture", "algorithm", "algorithmic", "lstlisting", "verbatim", "comment",
    "thebibliography", "abstract", "frontmatter", "keyword",
)  # fmt: skip
_ENVIRONMENT = re.compile(
    r"\\begin\s*\{(" + "|".join(map(re.escape, _DROPPED_ENVIRONMENTS)) + r")\}.*?\\end\s*\{\1\}",
    re.DOTALL,
)


def _drop_environments(text: str) -> str:
    return _ENVIRONMENT.sub(" ", text)


_DISPLAY_MATH = re.compile(r"(?<!\\)\$\$.*?(?<!\\)\$\$|(?<!\\)\\\[.*?\\\]", re.DOTALL)
_MATH_OPENING = re.compile(r"(?<!\\)\$|(?<!\\)\\\(")
_MATH_MARK = re.compile(r"(?<!\\)[{}$]")
_MATH_CLOSING = re.compile(r"(?<!\\)\$")


def _inline_math(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with each inline formula (``$...$``, ``\\(...\\)``) given to ``replace``.

    A ``$`` closes the formula only outside the groups opened in it: a macro may set text with
    mathematics of its own inside a formula (``\\vec`` as ``\\mbox{\\boldmath$#1$}``), and pairing
    the dollars one by one would leave the formula's pieces in the text. An unbalanced formula
    closes at its next ``$``. A ``$`` with no partner is left as it stands.
    """
    out: list[str] = []
    cursor = 0
    while (opening := _MATH_OPENING.search(text, cursor)) is not None:
        if opening.group() == "\\(":
            closing = text.find("\\)", opening.end())
            close_start, close_end = (closing, closing + 2) if closing >= 0 else (-1, -1)
        else:
            close_start = close_end = -1
            depth = 0
            for mark in _MATH_MARK.finditer(text, opening.end()):
                depth += {"{": 1, "}": -1}.get(mark.group(), 0)
                if depth < 0:
                    break
                if mark.group() == "$" and depth == 0:
                    close_start, close_end = mark.start(), mark.end()
                    break
            if close_start < 0 and (plain := _MATH_CLOSING.search(text, opening.end())) is not None:
                close_start, close_end = plain.start(), plain.end()
        if close_start < 0:
            out.append(text[cursor : opening.end()])
            cursor = opening.end()
            continue
        out.append(text[cursor : opening.start()])
        out.append(replace(text[opening.end() : close_start]))
        cursor = close_end
    out.append(text[cursor:])
    return "".join(out)


# Commands whose arguments are never printed as words (keys, labels, sizes, files),
# with how many arguments go; \textcolor{red}{words} loses the colour, not the words.
_DROPPED_ARGUMENTS = {
    "label": 1, "ref": 1, "eqref": 1, "cref": 1, "Cref": 1, "autoref": 1, "pageref": 1,
    "nocite": 1, "includegraphics": 1, "vspace": 1, "hspace": 1, "footnotemark": 0,
    "bibliography": 1, "bibliographystyle": 1, "input": 1, "include": 1, "thanks": 1,
    "fnref": 1, "tnoteref": 1, "corref": 1, "ead": 1, "color": 1, "textcolor": 1,
    "colorbox": 1, "setlength": 2, "addtolength": 2, "setcounter": 2, "newtheorem": 2,
    "definecolor": 3, "newcommand": 2, "renewcommand": 2, "providecommand": 2,
    "DeclareMathOperator": 2, "index": 1,  # makeidx's \index writes to the index file, printing nothing here
    # NFSS font selection (pls's \pkg is {\normalfont\fontseries{b}\selectfont #1}): a series, not words
    "fontseries": 1, "fontshape": 1, "fontfamily": 1, "fontencoding": 1, "fontsize": 2, "usefont": 4,
}  # fmt: skip
# \def\name#1#2{body}: the parameter text is not braced, so it needs its own pattern.
_DEF = re.compile(r"\\[gex]?def\s*\\[A-Za-z@]+(?:#\d)*")
_COMMAND = re.compile(r"\\([A-Za-z]+)\*?")
_BARE_COMMAND = re.compile(r"\s*\\[A-Za-z]+")
_TEXORPDFSTRING = re.compile(r"\\texorpdfstring(?![A-Za-z])")
_BEGIN_END = re.compile(r"\\(?:begin|end)\s*\{[^}]*\}")
_ACCENT = re.compile(
    r"\\([\'`^\"~=.])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))"
    r"|\\([cvuHkr])(?:\s*\{\s*(\\?[A-Za-z])\s*\}|\s+([A-Za-z]))"
)
_COMBINING = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
    "=": "\u0304", ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306",
    "H": "\u030b", "k": "\u0328", "r": "\u030a",
}  # fmt: skip
_SYMBOLS = {
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å",
    "AA": "Å", "l": "ł", "L": "Ł", "i": "i", "j": "j", "S": "§", "P": "¶", "LaTeX": "LaTeX",
    "TeX": "TeX", "ldots": "...", "dots": "...", "textendash": "–", "textemdash": "—",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip
# Logos and names that classes and packages print through a macro of their own, defined in a
# .cls or .sty the gold does not read: "How to obtain the \\PTPTeX\\ style file" prints the name.
# (A macro the source itself defines with plain text is expanded from its definition instead.)
_LOGOS = {
    "BibTeX": "BibTeX", "LaTeXe": "LaTeX2ε", "AmS": "AMS", "AMS": "AMS", "AmSTeX": "AMS-TeX",
    "AMSTeX": "AMS-TeX", "AmSLaTeX": "AMS-LaTeX", "AMSLaTeX": "AMS-LaTeX", "SLiTeX": "SliTeX",
    "SliTeX": "SliTeX", "XeTeX": "XeTeX", "XeLaTeX": "XeLaTeX", "LuaTeX": "LuaTeX",
    "LuaLaTeX": "LuaLaTeX", "pdfTeX": "pdfTeX", "pdfLaTeX": "pdfLaTeX", "eTeX": "e-TeX",
    "ConTeXt": "ConTeXt", "MF": "METAFONT", "MP": "METAPOST", "plainTeX": "plain TeX",
    "KOMAScript": "KOMA-Script", "CTAN": "CTAN", "TUB": "TUGboat", "TUG": "TUG",
    "PracTeX": "PracTeX", "PTPTeX": "PTPTeX", "BibLaTeX": "BibLaTeX", "Cplusplus": "C++",
    "revtex": "REVTeX",
}  # fmt: skip
_SYMBOLS.update(_LOGOS)
# math operators print their names upright: a title's "$\\log(1 - \\exp(-a))$" reads "log(1 - exp(-a))"
_OPERATORS = ("log", "ln", "lg", "exp", "sin", "cos", "tan", "cot", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan",
              "max", "min", "sup", "inf", "lim", "det", "dim", "ker", "deg", "gcd", "arg", "Pr")  # fmt: skip
_SYMBOLS.update({name: name for name in _OPERATORS})
_GREEK = frozenset(name for name, letter in _SYMBOLS.items() if "GREEK" in unicodedata.name(letter[0], ""))
_ESCAPES = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "", "}": ""}
# Size and face switches print nothing and, as every control word, take the spaces after them:
# small capitals set by hand inside a word ("{P\\smaller[3]LAIN}", "{T\\small EX}") print "PLAIN",
# "TEX", so they go with their size (relsize's ``[3]``, ``{-1}``) and leave no space behind.
_SWITCH = re.compile(
    r"\\(?:tiny|scriptsize|footnotesize|small|normalsize|large|Large|LARGE|huge|Huge|smaller|larger|relsize\s*\{[-+\d.\s]*\}"
    r"|rm|sf|tt|bf|it|sl|sc|em|normalfont|(?:rm|sf|tt)family|(?:bf|md)series|(?:it|sl|sc|up)shape)(?![A-Za-z])"
    r"(?:\s*\[\s*[-+]?\d+\s*\])?[ \t]*\n?[ \t]*"
)


def latex_to_text(latex: str, *, keep_math: bool) -> str:
    """Roughly the words LaTeX would print, for headings and word-level recall.

    Commands are dropped and their arguments kept, except for commands whose arguments
    are keys or sizes (``\\label``, ``\\cite``, ``\\vspace``), which go entirely.
    With ``keep_math`` inline mathematics is kept as plain symbols (a heading's
    ``$\\lambda$`` prints as λ); without it mathematics is dropped, since PDF text of
    formulas is too unlike the source to score words against.
    """
    text = _replace_texorpdfstring(latex)
    text = _drop_definitions(text)
    text = _drop_command_arguments(text)
    text = _DISPLAY_MATH.sub(" ", text)
    if keep_math:
        text = _inline_math(text, lambda math: math)
        text = re.sub(r"(?<!\\)[_^]", "{}", text)  # $\omega_h$ prints ωh: the command's name ends at the mark
    else:
        text = _inline_math(text, lambda math: " ")
    text = _BEGIN_END.sub(" ", text)
    text = re.sub(r"\\\\(?:\s*\[[^\]]*\])?", " ", text)  # forced line break, maybe spaced
    text = _SWITCH.sub(_switch_replacement, text)
    text = re.sub(r"\\[-/@]", "", text)  # hyphenation hint, italic correction, spacing hint
    text = _ACCENT.sub(_accented, text)
    text = re.sub(r"\\([&%$#_{}])", lambda m: _ESCAPES[m.group(1)], text)
    text = re.sub(r"\\[,;:! ]", " ", text)
    text = re.sub(r"\\([A-Za-z]+)\*?", _command_replacement, text)
    text = text.replace("~", " ").replace("{", "").replace("}", "")
    text = re.sub(r"\s+([,.;:!?)])", r"\1", text)  # "\\sysname: x" left "VeriSci : x"
    return _collapse(unicodedata.normalize("NFC", text))


def _switch_replacement(match: re.Match[str]) -> str:
    """Nothing inside a word ("P\\smaller[3]LAIN"), a space elsewhere: the words beside a switch
    stay apart, and a command before it ("\\protect\\ttfamily x") does not take the next word as its name."""
    before = match.string[max(0, match.start() - 40) : match.start()]
    return "" if before[-1:].isalnum() and not re.search(r"\\[A-Za-z]+$", before) else " "


def _accented(match: re.Match[str]) -> str:
    accent = match.group(1) or match.group(4)
    letter = match.group(2) or match.group(3) or match.group(5) or match.group(6) or ""
    return letter.lstrip("\\") + _COMBINING[accent]


def _command_replacement(match: re.Match[str]) -> str:
    # An unknown command prints nothing we can know; its arguments stay as words.
    # Upright Greek (\upomega, upgreek and newtxmath) prints the same letter.
    name = match.group(1)
    if name.startswith("up") and name[2:] in _GREEK:
        return _SYMBOLS[name[2:]]
    return _SYMBOLS.get(name, " ")


def _replace_texorpdfstring(text: str) -> str:
    """``\\texorpdfstring{TeX}{plain}`` becomes its TeX form: that is what the PDF prints.

    The plain form is for PDF bookmarks; a heading typeset as ``$\\lambda$`` shows "λ" on
    the page, while its bookmark may say "lambda".
    """
    while (match := _TEXORPDFSTRING.search(text)) is not None:
        first = _skip_space(text, match.end())
        if first >= len(text) or text[first] != "{":
            text = text[: match.start()] + text[match.end() :]
            continue
        printed, end = read_group(text, first)
        second = _skip_space(text, end)
        if second < len(text) and text[second] == "{":
            _, end = read_group(text, second)
        text = text[: match.start()] + " " + printed + " " + text[end:]
    return text


def _drop_definitions(text: str) -> str:
    """Remove ``\\def`` macro definitions met in the body; they print nothing."""
    while (match := _DEF.search(text)) is not None:
        end = match.end()
        if end < len(text) and text[end] == "{":
            _, end = read_group(text, end)
        text = text[: match.start()] + " " + text[end:]
    return text


def _dropped_argument_count(name: str) -> int | None:
    if name.startswith("cite"):  # cite, citep, citet, citealp, citeauthor, ...
        return 1
    return _DROPPED_ARGUMENTS.get(name)


def _drop_command_arguments(text: str, commands: dict[str, int] | None = None) -> str:
    """Remove the commands of ``_DROPPED_ARGUMENTS`` (or of ``commands``) with their arguments."""
    out: list[str] = []
    cursor = 0
    for match in _COMMAND.finditer(text):
        count = commands.get(match.group(1)) if commands is not None else _dropped_argument_count(match.group(1))
        if count is None or match.start() < cursor:
            continue  # a printing command, or one inside arguments already dropped
        out.append(text[cursor : match.start()])
        index = match.end()
        for _ in range(count):
            probe = _skip_optional(text, index)
            if probe < len(text) and text[probe] == "{":
                _, index = read_group(text, probe)
            elif bare := _BARE_COMMAND.match(text, probe):  # \setlength\tabcolsep{2pt}
                index = bare.end()
            else:
                break
        out.append(" ")
        cursor = index
    out.append(text[cursor:])
    return "".join(out)
