"""Expanding the macros an author defines, without running TeX.

What is understood: ``\\newcommand``/``\\renewcommand``/``\\providecommand``/``\\DeclareRobustCommand``
(with parameters and an optional first argument's default), ``\\def`` with undelimited parameters
(``\\def\\x#1#2{...}``; a delimited one is dropped), ``\\let``, ``\\DeclareMathOperator``,
``\\newenvironment``, and the switches ``\\iffalse``/``\\iftrue`` and ``\\newif`` toggles, so a
block commented out with ``\\iffalse ... \\fi`` is left out. Expansion works on a stack of tokens,
so a macro's result is expanded again; the number of expansions and the growth of the text are
bounded, and ``\\def\\a{\\a\\a}`` is refused with :class:`~paperpyramid.parsers.latex.limits.BadSource`.

Structural commands (``\\section``, ``\\cite``, ``\\label``, ...) are never redefined, so a class
file's restyling cannot hide a heading; a redefined counter format (``\\theequation``) is kept
in :attr:`Expansion.counter_formats` for the numbering to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperpyramid.parsers.latex.limits import BadSource, LatexLimits

__all__ = ["Expansion", "expand_macros"]

_TOKEN = re.compile(
    r"(?P<verbatim>\\begin\s*\{(?P<env>verbatim\*?|lstlisting|minted|comment)\}.*?\\end\s*\{(?P=env)\})"
    r"|(?P<verb>\\verb\*?(?P<delim>[^A-Za-z\s*])[^\n]*?(?P=delim))"
    r"|\\[A-Za-z@]+\*?|\\.|\\$|#[1-9#]|[{}]|[^\\{}#]+|#",
    re.DOTALL,
)
_DEFINERS = frozenset(
    {
        "newcommand",
        "renewcommand",
        "providecommand",
        "DeclareRobustCommand",
        "newcommand*",
        "renewcommand*",
        "providecommand*",
        "DeclareRobustCommand*",
    }
)
_DEFS = frozenset({"def", "gdef", "edef", "xdef"})
_PREFIXES = frozenset({"long", "global", "protected", "outer"})
_PROTECTED = frozenset(
    {
        "part", "chapter", "section", "subsection", "subsubsection", "paragraph", "subparagraph", "appendix",
        "title", "author", "and", "affiliation", "address", "email", "thanks", "maketitle", "begin", "end", "item",
        "caption", "label", "ref", "eqref", "autoref", "cref", "Cref", "pageref", "bibitem", "newblock", "footnote",
        "input", "include", "tag", "nonumber", "notag", "url", "href", "bibliography", "bibliographystyle",
        "numberwithin", "counterwithin", "newtheorem", "multicolumn", "multirow", "hline", "documentclass", "usepackage",
    }
)  # fmt: skip
# A control word followed by a letter from another token (a macro's body, then its argument)
# would read as one longer command; a space keeps them apart, as TeX's tokens are.
_LETTER_START = re.compile(r"[A-Za-z@]")
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z@]+$")
_COUNTER_FORMATS = frozenset({"theequation", "thesection", "thesubsection", "thetable", "thefigure"})


@dataclass
class _Macro:
    params: int
    default: list[str] | None  # the first parameter is optional, with this default
    body: list[str]


@dataclass
class Expansion:
    """The expanded text and what the numbering needs to know of the definitions."""

    text: str
    counter_formats: dict[str, str] = field(default_factory=dict)
    expansions: int = 0


def expand_macros(text: str, limits: LatexLimits) -> Expansion:
    """Expand the author's macros in ``text`` (comments already stripped); raises :class:`BadSource`."""
    return _Expander(text, limits).run()


def _tokenize(text: str) -> list[str]:
    return [match.group() for match in _TOKEN.finditer(text)]


class _Expander:
    def __init__(self, text: str, limits: LatexLimits) -> None:
        self.stack = _tokenize(text)[::-1]
        self.limits = limits
        self.max_chars = len(text) * limits.max_expansion_growth + 1_000_000
        self.macros: dict[str, _Macro] = {}
        self.environments: dict[str, tuple[_Macro, list[str]]] = {}
        self.switches: dict[str, bool] = {}
        self.counter_formats: dict[str, str] = {}
        self.expansions = 0
        self.pushed = 0

    def run(self) -> Expansion:
        out: list[str] = []
        stack = self.stack
        while stack:
            token = stack.pop()
            if token[0] != "\\" or len(token) < 2 or not (token[1].isalpha() or token[1] == "@"):
                if out and _LETTER_START.match(token) and _CONTROL_WORD_END.search(out[-1]):
                    out.append(" ")  # "\\ntt#1" gave "\\ttfamily" + "amsmath": keep them two words
                out.append(token)
                continue
            name = token[1:]
            if name in self.macros:
                self.expand(name)
            elif name in _DEFINERS:
                self.newcommand(name.rstrip("*"))
            elif name in _DEFS:
                self.define()
            elif name in _PREFIXES:
                continue
            elif name == "let":
                self.let()
            elif name in ("DeclareMathOperator", "DeclareMathOperator*"):
                self.math_operator()
            elif name in ("newenvironment", "renewenvironment", "newenvironment*", "renewenvironment*"):
                self.newenvironment()
            elif name == "newif":
                switch = self.pop_name()
                if switch and switch.startswith("if"):
                    self.switches[switch[2:]] = False
            elif name in ("iffalse", "iftrue") or (name.startswith("if") and name[2:] in self.switches):
                self.conditional(name == "iftrue" or (name != "iffalse" and self.switches[name[2:]]))
            elif name.endswith(("true", "false")) and name.removesuffix("true").removesuffix("false") in self.switches:
                self.switches[name.removesuffix("true").removesuffix("false")] = name.endswith("true")
            elif name == "begin" and self.environments:
                self.begin_environment(out)
            elif name == "end" and self.environments:
                self.end_environment(out)
            else:
                out.append(token)
        return Expansion("".join(out), self.counter_formats, self.expansions)

    # ---- reading tokens back off the stack

    def skip_spaces(self) -> None:
        stack = self.stack
        while stack and stack[-1].isspace():
            stack.pop()
        if stack and stack[-1][0] not in "\\{}#" and stack[-1][0].isspace():
            stack[-1] = stack[-1].lstrip()

    def group(self) -> list[str]:
        """The tokens of the brace group (or the one token) next on the stack."""
        self.skip_spaces()
        stack = self.stack
        if not stack:
            return []
        token = stack.pop()
        if token == "{":
            depth = 1
            tokens: list[str] = []
            while stack:
                token = stack.pop()
                if token == "{":
                    depth += 1
                elif token == "}":
                    depth -= 1
                    if depth == 0:
                        return tokens
                tokens.append(token)
            return tokens
        if token[0] not in "\\}#" and len(token) > 1:  # one character of a run of text
            stack.append(token[1:])
            return [token[0]]
        return [token]

    def optional(self) -> list[str] | None:
        """The tokens of a ``[...]`` argument next on the stack, or None."""
        self.skip_spaces()
        stack = self.stack
        if not stack or not stack[-1].startswith("["):
            return None
        first = stack.pop()[1:]
        tokens: list[str] = []
        depth = 0
        if first:
            stack.append(first)
        while stack:
            token = stack.pop()
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
            elif depth == 0 and token[0] not in "\\#" and "]" in token:
                before, _, after = token.partition("]")
                if before:
                    tokens.append(before)
                if after:
                    stack.append(after)
                return tokens
            tokens.append(token)
        return tokens

    def pop_name(self) -> str | None:
        """A macro name, bare (``\\x``) or braced (``{\\x}``)."""
        tokens = self.group()
        names = [token for token in tokens if not token.isspace()]
        if len(names) == 1 and names[0].startswith("\\"):
            return names[0][1:]
        return None

    # ---- definitions

    def register(self, name: str | None, macro: _Macro, *, only_new: bool = False) -> None:
        if name is None or name in _PROTECTED or name.startswith("cite") or name.endswith("cite"):
            return
        if name in _COUNTER_FORMATS:
            self.counter_formats[name] = "".join(macro.body)
            return
        if only_new and name in self.macros:
            return
        self.macros[name] = macro

    def newcommand(self, kind: str) -> None:
        if self.stack and self.stack[-1].startswith("*"):
            self.stack[-1] = self.stack[-1][1:] or " "
        name = self.pop_name()
        count = self.optional()
        default = self.optional()
        body = self.group()
        params = int("".join(count).strip()) if count and "".join(count).strip().isdigit() else 0
        self.register(name, _Macro(min(params, 9), default, body), only_new=kind == "providecommand")

    def define(self) -> None:
        stack = self.stack
        name = stack.pop()[1:] if stack and stack[-1].startswith("\\") else None
        parameters: list[str] = []
        while stack and stack[-1] != "{":
            parameters.append(stack.pop())
            if len(parameters) > 64:
                return
        body = self.group()
        simple = "".join(parameters).strip()
        if simple and simple != "".join(f"#{i}" for i in range(1, len(simple) // 2 + 1)):
            return  # delimited parameters: not understood, the definition is dropped
        self.register(name, _Macro(len(simple) // 2, None, body))

    def let(self) -> None:
        stack = self.stack
        name = stack.pop()[1:] if stack and stack[-1].startswith("\\") else None
        self.skip_spaces()
        if stack and stack[-1].startswith("="):
            stack[-1] = stack[-1][1:]
            if not stack[-1]:
                stack.pop()
            self.skip_spaces()
        target = stack.pop() if stack else ""
        if name and target.startswith("\\") and target[1:] in self.macros:
            self.register(name, self.macros[target[1:]])

    def math_operator(self) -> None:
        name = self.pop_name()
        body = self.group()
        self.register(name, _Macro(0, None, ["\\operatorname", "{", *body, "}"]))

    def newenvironment(self) -> None:
        name = "".join(self.group()).strip()
        count = self.optional()
        default = self.optional()
        begin = self.group()
        end = self.group()
        params = int("".join(count).strip()) if count and "".join(count).strip().isdigit() else 0
        if name and name not in ("document", "abstract", "thebibliography") and re.fullmatch(r"[A-Za-z*]+", name):
            self.environments[name] = (_Macro(min(params, 9), default, begin), end)

    def conditional(self, keep_then: bool) -> None:
        """Keep one branch of ``\\if... \\else ... \\fi``; nested ifs are counted."""
        stack = self.stack
        depth = 0
        kept: list[str] = []
        in_then = True
        while stack:
            token = stack.pop()
            if token.startswith("\\if") and token[3:].isalpha():
                depth += 1
            elif token == "\\fi":
                if depth == 0:
                    break
                depth -= 1
            elif token == "\\else" and depth == 0:
                in_then = False
                continue
            if in_then == keep_then:
                kept.append(token)
        self.push(kept)

    # ---- expansion

    def push(self, tokens: list[str]) -> None:
        self.pushed += sum(len(token) for token in tokens)
        if self.pushed > self.max_chars:
            raise BadSource(f"macro expansion grows the source past {self.max_chars:,} characters")
        self.stack.extend(reversed(tokens))

    def count(self, name: str) -> None:
        self.expansions += 1
        if self.expansions > self.limits.max_expansions:
            raise BadSource(f"macro \\{name} expands without end (over {self.limits.max_expansions:,} expansions)")

    def arguments(self, macro: _Macro) -> list[list[str]]:
        args: list[list[str]] = []
        for index in range(macro.params):
            if index == 0 and macro.default is not None:
                optional = self.optional()
                args.append(macro.default if optional is None else optional)
            else:
                args.append(self.group())
        return args

    def expand(self, name: str) -> None:
        self.count(name)
        macro = self.macros[name]
        self.push(_substitute(macro.body, self.arguments(macro)))

    def begin_environment(self, out: list[str]) -> None:
        name = "".join(self.group()).strip()
        if name not in self.environments:
            out.extend(["\\begin", "{", name, "}"])
            return
        self.count(name)
        macro, _ = self.environments[name]
        self.push(_substitute(macro.body, self.arguments(macro)))

    def end_environment(self, out: list[str]) -> None:
        name = "".join(self.group()).strip()
        if name not in self.environments:
            out.extend(["\\end", "{", name, "}"])
            return
        self.count(name)
        self.push(self.environments[name][1])


def _substitute(body: list[str], args: list[list[str]]) -> list[str]:
    if not args and "##" not in body:
        return body
    result: list[str] = []
    for token in body:
        if len(token) == 2 and token[0] == "#":
            if token[1] == "#":
                result.append("#")
            elif token[1].isdigit() and int(token[1]) <= len(args):
                result.extend(args[int(token[1]) - 1])
            continue
        result.append(token)
    return result
