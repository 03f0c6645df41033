"""Inline LaTeX to readable text: what the PDF prints, as far as the source can tell.

Accents become letters, ``~`` a space, ``--`` an en dash, ``\\emph{x}`` its words; commands whose
arguments are keys or sizes (``\\label``, ``\\vspace``) go whole; an unknown command goes and its
arguments stay as words. Inline mathematics is kept as its LaTeX between ``$`` signs: a PDF's
math glyphs do not extract to reliable text, while ``$\\alpha_i$`` is exact, short and readable
by people and language models alike (``\\(..\\)`` is written ``$..$`` too).

``\\ref``/``\\eqref``/``\\cref`` print the numbers the document gives their labels, and the
citation commands print the marker the bibliography style would (see
:mod:`paperpyramid.parsers.latex.citations`); each marker comes back as a
:class:`~paperpyramid.document.Cite` with its span in the final text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from paperpyramid.document import Cite
from paperpyramid.parsers.latex.scan import read_group, read_optional, skip_space
from paperpyramid.parsers.latex.symbols import COMBINING as _COMBINING
from paperpyramid.parsers.latex.symbols import DROP as _DROP
from paperpyramid.parsers.latex.symbols import ESCAPES as _ESCAPES
from paperpyramid.parsers.latex.symbols import GREEK as _GREEK
from paperpyramid.parsers.latex.symbols import SYMBOLS as _SYMBOLS

__all__ = ["CITE_COMMANDS", "TextContext", "to_text", "plain"]

_OPEN, _CLOSE = "\ue000", "\ue001"  # around a citation marker until its span is measured

CITE_COMMANDS = frozenset(
    {
        "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar", "citenum",
        "Cite", "Citep", "Citet", "Citealp", "Citealt", "Citeauthor", "parencite", "Parencite", "textcite",
        "Textcite", "autocite", "Autocite", "footcite", "smartcite", "supercite", "citeA", "shortcite", "onlinecite",
    }
)  # fmt: skip
_TOKEN = re.compile(r"\\[A-Za-z@]+\*?|\\.|\$\$|\$|---|--|``|''|[{}~&]|[^\\{}$~\-`'&]+|.", re.DOTALL)
_SPACE = re.compile(r"[ \t\n\r\f\v]+")


@dataclass
class TextContext:
    """What rendering needs beyond the text: label numbers, the citation style, where footnotes go."""

    #: label -> (kind, printed number): ("section", "2.1"), ("equation", "3"), ("table", "2"), ...
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: (command, keys, pre-note, post-note) -> the printed marker; None: markers are the keys
    cite: Callable[[str, list[str], str | None, str | None], str] | None = None
    #: footnote texts (LaTeX) found while rendering, for the caller to place
    footnotes: list[str] | None = None


def plain(latex: str, context: TextContext | None = None, *, math_as_text: bool = False) -> str:
    """The readable text of ``latex``, without citation spans; ``math_as_text``: inline math as
    letters and symbols (a heading's ``$\\lambda$`` prints as λ) instead of its LaTeX."""
    return to_text(latex, context or TextContext(), math_as_text=math_as_text)[0]


def to_text(latex: str, context: TextContext, *, math_as_text: bool = False) -> tuple[str, list[Cite]]:
    """The readable text of ``latex`` and its citations, with spans into that text."""
    keys: list[list[str]] = []
    latex = latex.replace(_OPEN, "").replace(_CLOSE, "")  # the source's own would be taken for markers
    raw = "".join(_Renderer(context, keys, math_as_text).render(latex))
    text = _SPACE.sub(" ", unicodedata.normalize("NFC", raw)).strip()
    text = re.sub(r" (?=[,.;:)\]])", "", text)
    text = re.sub(r"(?<=[(\[]) ", "", text)
    cites: list[Cite] = []
    if _OPEN not in text:
        return text, cites
    out: list[str] = []
    length = 0
    index = 0
    for piece in re.split(f"([{_OPEN}{_CLOSE}])", text):
        if piece == _OPEN:
            start = length
        elif piece == _CLOSE:
            cites.append(Cite(start, length, keys[index]))
            index += 1
        else:
            out.append(piece)
            length += len(piece)
    return "".join(out), cites


class _Renderer:
    def __init__(self, context: TextContext, keys: list[list[str]], math_as_text: bool = False) -> None:
        self.math_as_text = math_as_text
        self.context = context
        self.keys = keys
        self.depth = 0

    def render(self, text: str) -> list[str]:
        self.depth += 1
        if self.depth > 64:  # groups nested this deep are not prose
            self.depth -= 1
            return [text]
        out: list[str] = []
        index = 0
        length = len(text)
        while index < length:
            match = _TOKEN.match(text, index)
            if match is None:
                break
            token = match.group()
            index = match.end()
            if token[0] == "\\" and len(token) > 1 and (token[1].isalpha() or token[1] == "@"):
                index = self.command(token.rstrip("*")[1:], text, index, out)
            elif token[0] == "\\":
                symbol = token[1:]
                if (
                    symbol in _COMBINING
                    and symbol not in "=."
                    or symbol in ("=", ".")
                    and index < length
                    and (text[index].isalpha() or text[index] == "{")
                ):
                    index = self.accent(symbol, text, index, out)
                elif symbol == "(":
                    end = text.find("\\)", index)
                    end = length if end < 0 else end
                    out.append(f" ${_SPACE.sub(' ', text[index:end]).strip()}$")
                    index = end + 2
                elif symbol == "[":
                    end = text.find("\\]", index)
                    end = length if end < 0 else end
                    out.append(f" $${_SPACE.sub(' ', text[index:end]).strip()}$$ ")
                    index = end + 2
                else:
                    out.append(_ESCAPES.get(symbol, ""))
            elif token in ("$", "$$"):
                end = _math_end(text, index, token)
                math = _SPACE.sub(" ", text[index:end]).strip()
                out.append(math_text(math) if self.math_as_text else f"{token}{math}{token}")
                index = min(end + len(token), length)
            elif token in ("{", "}"):
                continue
            elif token == "~" or token == "&":
                out.append(" ")
            else:
                out.append({"---": "—", "--": "–", "``": "“", "''": "”"}.get(token, token))
        self.depth -= 1
        return out

    def accent(self, symbol: str, text: str, index: int, out: list[str]) -> int:
        argument, index = _accent_argument(text, index)
        letter = plain_letters(argument)
        out.append(f"{letter[:1]}{_COMBINING[symbol]}{letter[1:]}" if letter else "")
        return index

    def command(self, name: str, text: str, index: int, out: list[str]) -> int:
        if name in _COMBINING and len(name) == 1:
            return self.accent(name, text, index, out)
        if name in CITE_COMMANDS:
            return self.citation(name, text, index, out)
        if name in ("ref", "eqref", "cref", "Cref", "autoref", "Autoref", "ref*", "subref", "nameref"):
            _, index = read_optional(text, index)
            at = skip_space(text, index)
            if at < len(text) and text[at] == "{":
                argument, index = read_group(text, at)
                out.append(self.reference(name, argument))
            return index
        if name == "footnote" or name == "footnotetext" or name == "tnote" or name == "thanks":
            _, index = read_optional(text, index)
            at = skip_space(text, index)
            if at < len(text) and text[at] == "{":
                argument, index = read_group(text, at)
                if self.context.footnotes is not None and name != "thanks":
                    self.context.footnotes.append(argument)
            return index
        if name in ("url", "path", "nolinkurl"):
            at = skip_space(text, index)
            if at < len(text) and text[at] == "{":
                argument, index = read_group(text, at)
                out.append(f" {argument.strip()} ")
            return index
        if name in ("MakeUppercase", "uppercase", "MakeLowercase", "lowercase"):
            at = skip_space(text, index)
            if at < len(text) and text[at] == "{":
                argument, index = read_group(text, at)
                rendered = "".join(self.render(argument))
                out.append(rendered.upper() if "pper" in name else rendered.lower())
            return index
        if name in _DROP:
            count = _DROP[name]
            _, index = read_optional(text, index)
            for _ in range(count):
                at = skip_space(text, index)
                if at < len(text) and text[at] == "{":
                    _, index = read_group(text, at)
                _, index = read_optional(text, index)
            if name == "texorpdfstring":  # the TeX form prints; the PDF-string form is for bookmarks
                at = skip_space(text, index)
                if at < len(text) and text[at] == "{":
                    printed, index = read_group(text, at)
                    at = skip_space(text, index)
                    if at < len(text) and text[at] == "{":
                        _, index = read_group(text, at)
                    out.extend(self.render(printed))
            elif name == "ensuremath":
                at = skip_space(text, index)
                if at < len(text) and text[at] == "{":
                    math, index = read_group(text, at)
                    out.append(f"${math.strip()}$")
            return index
        symbol = _SYMBOLS.get(name)
        if symbol is not None:
            out.append(symbol)
            if text.startswith("{}", index):
                index += 2
            return _skip_blank(text, index) if symbol not in ("\n", "\n\n") else index
        return _skip_blank(text, index)  # unknown: the command goes, its arguments stay as words

    def reference(self, name: str, label: str) -> str:
        printed: list[str] = []
        for key in (part.strip() for part in label.split(",")):
            kind, number = self.context.labels.get(key, ("", "??"))
            if name == "eqref" or (kind == "equation" and name in ("cref", "Cref", "autoref", "Autoref")):
                number = f"({number})"
            if name in ("cref", "Cref", "autoref", "Autoref") and kind:
                word = _CREF.get(kind, kind)
                number = f"{word.capitalize() if name[0].isupper() or name == 'autoref' else word} {number}"
            printed.append(number)
        return " " + ", ".join(printed) if name in ("cref", "Cref", "autoref", "Autoref") else ", ".join(printed)

    def citation(self, name: str, text: str, index: int, out: list[str]) -> int:
        first, index = read_optional(text, index)
        second, index = read_optional(text, index)
        pre, post = (first, second) if second is not None else (None, first)
        at = skip_space(text, index)
        if at >= len(text) or text[at] != "{":
            return index
        argument, index = read_group(text, at)
        keys = [key.strip() for key in argument.split(",") if key.strip()]
        if not keys:
            return index
        render = self.context.cite
        pre_text = plain(pre) if pre else None
        post_text = plain(post) if post else None
        marker = render(name, keys, pre_text, post_text) if render else f"[{', '.join(keys)}]"
        if marker:
            out.append(f"{_OPEN}{marker}{_CLOSE}")
            self.keys.append(keys)
        return index


def math_text(math: str) -> str:
    """Inline math as plain letters and symbols: ``\\lambda_i`` is λi."""
    math = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), " " if m.group(1) in ("quad", "qquad") else ""), math)
    return re.sub(r"[{}^_$]|\\.", "", math)


_CREF = {"section": "section", "equation": "eq.", "table": "table", "figure": "fig.", "appendix": "appendix"}


def _skip_blank(text: str, index: int) -> int:
    """TeX eats the spaces after a control word ("\\TeX book" prints "TeXbook"), not a blank line."""
    while index < len(text) and text[index] in " \t":
        index += 1
    if index < len(text) and text[index] == "\n" and not text.startswith("\n\n", index):
        index += 1
    return index


def _math_end(text: str, start: int, delimiter: str) -> int:
    index = start
    while True:
        end = text.find(delimiter, index)
        if end < 0:
            return len(text)
        if end > 0 and text[end - 1] == "\\" and (end < 2 or text[end - 2] != "\\"):
            index = end + 1
            continue
        return end


def _accent_argument(text: str, index: int) -> tuple[str, int]:
    at = skip_space(text, index)
    if at < len(text) and text[at] == "{":
        return read_group(text, at)
    if at < len(text) and text[at] == "\\":
        match = re.compile(r"\\[A-Za-z]+").match(text, at)
        if match:
            return match.group(), match.end()
    return text[at : at + 1], at + 1


def plain_letters(argument: str) -> str:
    """The letter an accent sits on: ``{\\i}`` is i, ``{o}`` is o."""
    argument = argument.strip()
    if argument in ("\\i", "\\j"):
        return argument[1]
    return "".join(plain(argument).split()) if "\\" in argument or "{" in argument else argument
