"""Markdown text: inline code, prose escaping, docstring blocks."""

from __future__ import annotations

import inspect
import re
import textwrap

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|data|attr|mod|exc|obj|const):`~?([^`]+)`")
# names worth showing as code when prose gives them bare: environment variables and --options
_ENV_NAME = re.compile(r"(?<![\w$`])\$?[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?:_*\*)?(?:=[\w.:/-]+)?(?![\w`*])")
_OPTION_NAME = re.compile(r"(?<![\w`/-])--[a-z][a-z0-9-]*(?:/--[a-z][a-z0-9-]*)?(?![\w`])")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    return f"`{target.rsplit('.', 1)[-1] if '~' in match.group(0) else target}`"


def _escape_prose(text: str, table: bool) -> str:
    text = text.replace("\\", "\\\\").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for char in "*_[]":
        text = text.replace(char, "\\" + char)
    if table:
        text = text.replace("|", "\\|")
    return text


def md_inline(text: str, *, table: bool = False) -> str:
    """``text`` (a help string or a docstring's paragraph) as Markdown that shows it as written:
    code spans kept, Sphinx roles made code, bare environment variables and --options made code,
    everything else escaped (``<id>`` is not HTML, ``*.pdf`` not emphasis)."""
    text = _SPHINX_ROLE.sub(_role, text)
    pieces: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        pieces.append(_prose(text[last : match.start()], table))
        pieces.append(code(match.group(2).strip() if match.group(1) == "``" else match.group(2)))
        last = match.end()
    pieces.append(_prose(text[last:], table))
    return "".join(pieces)


def _prose(text: str, table: bool) -> str:
    out: list[str] = []
    last = 0
    for match in sorted([*_ENV_NAME.finditer(text), *_OPTION_NAME.finditer(text)], key=lambda m: m.start()):
        if match.start() < last:
            continue
        out.append(_escape_prose(text[last : match.start()], table))
        out.append(code(match.group(0)))
        last = match.end()
    out.append(_escape_prose(text[last:], table))
    return "".join(out)


def code(text: str) -> str:
    """A code span that holds ``text`` whatever backticks it contains."""
    text = " ".join(text.split())
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(text: str | None) -> str:
    """A docstring or a command's help as Markdown paragraphs: prose paragraphs joined and
    escaped, list items kept one a line, indented blocks (and the block after ``::``) as code."""
    if not text:
        return ""
    text = inspect.cleandoc(text)
    paragraphs = re.split(r"\n\s*\n", text)
    out: list[str] = []
    literal_next = False
    for paragraph in paragraphs:
        lines = [line for line in paragraph.splitlines() if line.strip() != "\b"]  # click's no-rewrap marker
        if not lines:
            continue
        if literal_next or all(line.startswith("    ") for line in lines):
            out.append("```text\n" + textwrap.dedent("\n".join(lines)).rstrip() + "\n```")
            literal_next = False
            continue
        joined = "\n".join(lines)
        if joined.rstrip().endswith("::"):
            literal_next = True
            joined = joined.rstrip()[:-1]
        if re.match(r"\s*(?:[-*] |\d+\. )", lines[0]):
            items: list[str] = []
            for line in lines:
                item = re.match(r"\s*([-*]|\d+\.) (.*)", line)
                if item:
                    items.append(f"{'-' if item.group(1) in '-*' else item.group(1)} {md_inline(item.group(2))}")
                elif items:
                    items[-1] += " " + md_inline(line.strip())
            out.append("\n".join(items))
        else:
            out.append(md_inline(" ".join(line.strip() for line in joined.splitlines())))
    return "\n\n".join(out)


def first_paragraph(text: str | None) -> str:
    return re.split(r"\n\s*\n", inspect.cleandoc(text))[0] if text else ""


def first_sentence(text: str | None) -> str:
    """The first sentence of the first paragraph, on one line (a stop after a word of two letters
    or more, before a capital, ends it: "p. N" does not)."""
    paragraph = " ".join(first_paragraph(text).split())
    return re.split(r"(?<=[a-z0-9)\]]{2})\.\s+(?=[A-Z])", paragraph, maxsplit=1)[0].rstrip(".") + "." if paragraph else ""


def anchor(heading: str) -> str:
    # MkDocs' toc slug: lower case, punctuation dropped, spaces to hyphens
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower())
