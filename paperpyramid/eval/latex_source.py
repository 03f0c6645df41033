"""A LaTeX gold file read as the compiler reads it, before any heading or text is taken out.

Every LaTeX reader of the gold (sections, citations, metadata) starts from the same source:

- decoded whatever the file's age (UTF-8, else Latin-1) with one kind of line end;
- without ``%`` comments, so a commented-out ``\\include`` or ``\\section`` is not read;
- with what ``\\verb`` or a verbatim environment shows turned into plain words: a
  ``\\section{#1}`` or an ``\\end{document}`` set in a listing is text on the page, not a
  command (an ACM sample shows ``\\end{document}`` in running text, and reading it as the
  document's end lost every section after it);
- with the files it pulls in by ``\\input`` or ``\\include`` read in their place, when they
  ship beside it: a JSS paper's reference card or a thesis's chapters are printed in the PDF,
  so they belong to its gold. Only files in the source's own folder (or below it) are read,
  to a bounded depth and size; a file that is not there leaves the command as it was, and the
  text readers drop it;
- with a package of the author's own (``\\usepackage{ape}``, an ``ape.sty`` shipped beside the
  source, as vignettes do) read before the command, under the same bounds: the macros it defines
  print in the headings and text (``\\section{Implementation in \\ape}`` prints "ape"). A package
  that does not ship beside the source (a TeX distribution's) is not read.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["read_source", "read_tex", "strip_comments", "verbatim_as_text"]


def read_tex(path: Path) -> str:
    """Decode a .tex file; older sources are Latin-1, and some carry CRLF line ends."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # every byte decodes, so this is the last resort
    return text.replace("\r\n", "\n").replace("\r", "\n")


# (possessive: the line's text up to its first sign that is neither escaped nor inside a \verb, never less)
_COMMENT = re.compile(r"^((?:[^\\%\n]|\\verb\*?([^A-Za-z\s*])[^\n]*?\2|\\.)*+)%.*$", re.MULTILINE)


def strip_comments(text: str) -> str:
    """Drop ``%`` comments (escaped ``\\%`` stays, and a ``%`` inside ``\\verb|…|``: ``\\verb|%|``
    shows the sign), which also drops ``%%% >>>`` markers."""
    return _COMMENT.sub(r"\1", text)


# Environments whose content LaTeX prints as it stands, commands and all.
_VERBATIM_ENVIRONMENT = re.compile(r"\\begin\s*\{(verbatim\*?|Verbatim|lstlisting|minted|comment)\}.*?\\end\s*\{\1\}", re.DOTALL)
_VERB = re.compile(r"\\verb\*?([^A-Za-z\s*])(.*?)\1")
_VERB_SPECIALS = re.compile(r"[\\{}$&^_~#%]")


def verbatim_as_text(text: str) -> str:
    """Verbatim environments out, ``\\verb|...|`` as plain words: neither holds commands, so a
    ``\\section`` shown in them is not a heading (and a ``#1`` there is no title)."""
    text = _VERBATIM_ENVIRONMENT.sub(" ", text)
    return _VERB.sub(lambda m: " " + _VERB_SPECIALS.sub(" ", m.group(2)) + " ", text)


# \input{file}, \input file (plain TeX's form), \include{file}
_INPUT = re.compile(r"\\(?:input|include)(?![A-Za-z])\s*(?:\{\s*([^{}\s]+)\s*\}|([^\s{}\\%]+))")
# \usepackage[options]{a,b}, \RequirePackage{a}: only a package shipped beside the source is read
_PACKAGE = re.compile(r"\\(?:usepackage|RequirePackage)(?![A-Za-z])\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
#: how deep files pulled in may pull in others (a thesis: main -> chapter -> table)
_MAX_DEPTH = 4
#: characters read from pulled-in files in all, so that a stray large file cannot stall the scorer
_MAX_INPUT_CHARS = 4_000_000


def read_source(path: Path) -> str:
    """The source of ``path`` without comments, verbatim as text, and its inputs read inline."""
    folder = path.resolve().parent
    budget = [_MAX_INPUT_CHARS]
    return _inlined(_prepared(path), folder, {path.resolve()}, _MAX_DEPTH, budget)


def _prepared(path: Path) -> str:
    return verbatim_as_text(strip_comments(read_tex(path)))


def _inlined(text: str, folder: Path, reading: set[Path], depth: int, budget: list[int]) -> str:
    if depth <= 0 or ("\\in" not in text and "ackage" not in text):
        return text

    def read(found: Path | None) -> str | None:
        """The file's text with its own inputs read, or None when it is not to be read."""
        if found is None or found in reading:
            return None  # not shipped, outside the folder, or a loop: leave the command
        size = found.stat().st_size
        if size > budget[0]:
            return None
        budget[0] -= size
        return _inlined(_prepared(found), folder, reading | {found}, depth - 1, budget)

    def replace_input(match: re.Match[str]) -> str:
        inner = read(_input_file(match.group(1) or match.group(2), folder))
        return match.group(0) if inner is None else "\n" + inner + "\n"

    def replace_package(match: re.Match[str]) -> str:
        names = (name.strip() for name in match.group(1).split(","))
        packages = [inner for name in names if name and (inner := read(_local_file(name + ".sty", folder)))]
        if not packages:
            return match.group(0)
        return "\n".join(["", *packages, match.group(0)])  # the command stays for the other readers

    # packages first: an input read below has had its own packages read already
    return _INPUT.sub(replace_input, _PACKAGE.sub(replace_package, text))


def _input_file(name: str, folder: Path) -> Path | None:
    """The file ``\\input{name}`` reads, as TeX looks for it (``name``, then ``name.tex``), if it
    lies in ``folder`` or below it."""
    for candidate in (name, name + ".tex") if not name.endswith(".tex") else (name,):
        if (found := _local_file(candidate, folder)) is not None:
            return found
    return None


def _local_file(name: str, folder: Path) -> Path | None:
    """``folder/name`` if it is a file in ``folder`` or below it."""
    try:
        resolved = (folder / name).resolve()
    except (OSError, RuntimeError):
        return None
    return resolved if resolved.is_relative_to(folder) and resolved.is_file() else None
