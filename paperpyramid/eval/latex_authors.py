"""The authors of a LaTeX source, as its title block prints them: the gold of the metadata scorer.

Classes write authors in many ways, and one reader has to take them all:

- one ``\\author`` per person, the affiliation beside it in commands of its own (ACM's
  ``\\affiliation``, Quantum's, OUP's ``\\address``) or on its first line after a comma
  (``\\author{Sam U. Llaun, Academy of Lagado, Lagado}``);
- one ``\\author`` for everyone, people set apart by ``\\and``, ``\\And``, ``\\quad``,
  ``\\hfill``, ``\\hspace``, a skip, commas or "and", with their affiliations on further lines
  (ACL, AIAA, SPIE, JACoW, R News, JSS); a block with no person's name in it is signed by an
  organisation, its first piece;
- JSS's ``\\Plainauthor{A, B}``, which lists the names alone and is preferred when present.

Within an author block every command that is not a font change carries something other than
a name (a note, a mark, an ORCID, an e-mail, an address label): it goes with its arguments.
What is left is cut at the separators, and a piece is a name when it looks like one: two to six
words, each capitalised or a particle ("van", "del"), no word that only names an institution
("University", "Institute", "Affiliation") or a place in an address ("Burlington House",
"Colonel Glenn Highway"), no number, no e-mail. In a source with an
``\\author`` per person the first piece of each is its name whatever it looks like (an
organisation may sign a paper); only the pieces after it must look like names. A mark set by a
name (``Jeffrey Leek$^1$*``, the corresponding author's star) is no part of it, and in one block
for everyone a line under the first that opens with a single word before a comma is an address
(``Shanghai, P.R. China``), none of whose pieces is a name.

Only the front matter is read: ``\\author`` in the body (a template's example, a biography at
the end) prints no author of this paper; verbatim text is no command at all.
"""

from __future__ import annotations

import re
import unicodedata

from paperpyramid.eval.gold import (
    _ACCENT,
    _SECTION_COMMAND,
    _SYMBOLS,
    _accented,
    _skip_optional,
    latex_to_text,
)
from paperpyramid.eval.latex_source import verbatim_as_text
from paperpyramid.parsers.latex.scan import read_group

__all__ = ["latex_authors"]

_AUTHOR_COMMAND = re.compile(r"\\(?:author|authors|authorsnames)(?![A-Za-z])")
_PLAIN_AUTHOR = re.compile(r"\\Plainauthor(?![A-Za-z])")
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
# what sets one author apart from the next, as commands (read before any command is dropped)
_SEPARATOR_COMMAND = re.compile(
    r"\\(?:and|And|AND|quad|qquad|hfill|hfil|par|newline|[A-Za-z]*skip[A-Za-z]*)(?![A-Za-z])|\\hspace\*?\s*\{[^{}]*\}|\\\\(?:\s*\[[^\]]*\])?|\\&"
)
_AND = re.compile(r"\\(?:and|And|AND)(?![A-Za-z])")
_CUT = "\x00"
# ... and as text, once the commands are gone
_SEPARATOR_TEXT = re.compile(r"\x00|[,;]|\band\b|\s&\s")
_COMMAND = re.compile(r"\\([A-Za-z]+)\*?")
_MATH = re.compile(r"(?<!\\)\$[^$]*\$")
#: font changes and boxes: their arguments are the name itself
_FORMATTING = frozenset(
    {"textbf", "textit", "emph", "textsc", "textrm", "textsf", "texttt", "textup", "textmd", "textnormal", "mbox", "hbox",
     "text", "bf", "it", "sc", "rm", "sf", "em", "upshape", "itshape", "bfseries", "scshape", "normalfont", "MakeUppercase",
     "uppercase", "large", "Large", "small", "normalsize", "footnotesize", "LARGE", "huge", "Huge", "scriptsize", "protect",
     "Name"}
)  # fmt: skip
#: words that name an institution or a placeholder for one, never a person
_INSTITUTION_WORDS = frozenset(
    {"university", "universitat", "universite", "universidad", "universita", "universiteit", "institute", "institut",
     "instituto", "istituto", "department", "departement", "dept", "faculty", "school", "college", "laboratory",
     "laboratories", "lab", "labs", "center", "centre", "academy", "society", "press", "board", "inc", "ltd", "corporation", "company",
     "gmbh", "hospital", "foundation", "division", "group", "organization", "organisation", "affiliation", "address",
     "city", "country", "street", "editors", "committee", "subcommittee", "research", "sciences", "journal", "ag", "llc",
     "house", "road", "avenue", "highway", "hall", "building", "campus", "engineering"}
)  # fmt: skip
_PARTICLES = frozenset(
    {
        "van",
        "von",
        "de",
        "del",
        "della",
        "der",
        "den",
        "da",
        "di",
        "du",
        "dos",
        "das",
        "la",
        "le",
        "ten",
        "ter",
        "bin",
        "ibn",
        "y",
        "zu",
        "al",
    }
)
_LETTERS = re.compile(r"[^\W\d_]+")


def latex_authors(source: str) -> list[str]:
    """The authors' names of a LaTeX source (comments already stripped), in order; see above."""
    front = _front_matter(verbatim_as_text(source))
    plain = _groups(front, _PLAIN_AUTHOR)
    if plain:
        return [name for group in plain for name in map(_chunk_text, _cut(group)) if _looks_like_name(name)]
    groups = _groups(front, _AUTHOR_COMMAND)
    names: list[str] = []
    for group in groups:
        if len(groups) > 1:  # an \\author per person: its name first, its affiliation after
            chunks = [_chunk_text(chunk) for chunk in _cut(re.split(r"\\\\", group)[0])]
            chunks = [chunk for chunk in chunks if chunk]
            names += [chunk for number, chunk in enumerate(chunks) if _usable(chunk) and (number == 0 or _looks_like_name(chunk))]
        elif _AND.search(group):  # people set apart by \\and: each one's names on its first line, the address under them
            pieces = [re.split(r"\\\\", piece.strip())[0] for piece in _AND.split(group)]
            names += [name for piece in pieces for name in map(_chunk_text, _cut(piece)) if _looks_like_name(name)]
        else:
            lines = [[chunk for chunk in map(_chunk_text, _cut(line)) if _usable(chunk)] for line in _lines(group)]
            chunks = [chunk for line in lines for chunk in line]
            people = [chunk for number, line in enumerate(lines) if number == 0 or not _address_line(line) for chunk in line]
            # a block without a person's name is signed by an organisation: its first piece
            names += [name for name in people if _looks_like_name(name)] or chunks[:1]
    return names


_LINE_BREAK = re.compile(r"\\\\(?:\s*\[[^\]]*\])?")
_BRACE = re.compile(r"(?<!\\)[{}]")


def _lines(block: str) -> list[str]:
    """An author block cut at its forced line breaks (``\\\\``) outside any group."""
    lines: list[str] = []
    start = 0
    for match in _LINE_BREAK.finditer(block):
        braces = _BRACE.findall(block, start, match.start())
        if braces.count("{") == braces.count("}"):
            lines.append(block[start : match.start()])
            start = match.end()
    return [*lines, block[start:]]


def _address_line(line: list[str]) -> bool:
    """Whether a line under the first of an author block is an address: it opens with a single
    word before a comma, a city ("Shanghai, P.R. China"; "Hinxton, Cambridge, UK"), which no
    person's name is. Its other pieces ("P.R. China") are then no names either; a line that opens
    with a name ("P. Contributor, Name of Institute, City, Country") keeps it."""
    return len(line) > 1 and len(line[0].split()) == 1


def _front_matter(source: str) -> str:
    """The preamble and the document up to its first sectioning command."""
    start = _BEGIN_DOCUMENT.search(source)
    heading = _SECTION_COMMAND.search(source, start.end()) if start else None
    return source[: heading.start()] if heading else source


def _groups(source: str, command: re.Pattern[str]) -> list[str]:
    found = []
    for match in command.finditer(source):
        index = _skip_optional(source, match.end())
        if index < len(source) and source[index] == "{":
            found.append(read_group(source, index)[0])
    return found


def _cut(block: str) -> list[str]:
    """An author block's pieces: cut at the separators, with every non-font command dropped."""
    block = re.sub(r"\\[,;:!](?![A-Za-z])", " ", block)  # a thin or medium space (\\;) is no separator
    block = _HREF.sub(r" \1", block)  # a link prints its text: \\href{mailto:…}{Edzer Pebesma}
    block = _SEPARATOR_COMMAND.sub(_CUT, _MATH.sub(" ", _ACCENT.sub(_accented, block)))
    return _SEPARATOR_TEXT.split(_drop_commands(block))


def _drop_commands(text: str) -> str:
    """Drop each command that is not a font change or a letter (``\\o``), with all its arguments."""
    out: list[str] = []
    cursor = 0
    for match in _COMMAND.finditer(text):
        name = match.group(1)
        if match.start() < cursor or name in _FORMATTING or name in _SYMBOLS:
            continue
        out.append(text[cursor : match.start()])
        index = match.end()
        while True:
            index = _skip_optional(text, index)  # \\footnotemark[1]: the mark goes too
            if index >= len(text) or text[index] != "{":
                break
            _, index = read_group(text, index)
        out.append(" ")
        cursor = index
    out.append(text[cursor:])
    return "".join(out)


_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")


def _chunk_text(chunk: str) -> str:
    """A piece as printed, without a byline's "by" (R Journal, R News: "by Benedikt Gräler, …")
    or the marks set by a name."""
    text = _MARKS.sub(" ", latex_to_text(chunk, keep_math=False))
    return re.sub(r"^by\s+", "", " ".join(text.split()).strip(" ."))


# marks that tie a name to a note or a role ("Jeffrey Leek$^1$*": the corresponding author)
_MARKS = re.compile(r"[*†‡§¶]+")


def _usable(text: str) -> bool:
    return bool(text) and "\ufffd" not in text and "@" not in text


def _looks_like_name(text: str) -> bool:
    """Two to six words, capitalised or particles, no institution word, no bare number."""
    if not _usable(text) or not 2 <= len(_LETTERS.findall(text)) <= 6:
        return False
    for word in text.split():
        plain = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch)).lower().strip(".")
        if word.isdigit() or plain in _INSTITUTION_WORDS:
            return False
        if not (word[0].isupper() or plain in _PARTICLES):
            return False
    return True
