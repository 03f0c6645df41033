"""The main file of a bundle, and its text with every ``\\input``/``\\include``/``\\subfile`` inlined.

Only files inside the bundle are read: an absolute path or one with ``..`` is refused, as is an
``\\input`` loop or nesting past ``max_include_depth``; an ``\\input`` of a file the bundle does
not hold (a package's, like ``\\input{epsf}``) is left out with a warning. A ``\\usepackage`` of a
``.sty`` the bundle holds is inlined too, since authors keep their macros there.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from paperpyramid.parsers.latex.bundle import Bundle
from paperpyramid.parsers.latex.limits import BadSource, LatexLimits
from paperpyramid.parsers.latex.scan import strip_comments

__all__ = ["find_main", "flatten"]

_DOCUMENTCLASS = re.compile(r"\\document(?:class|style)(?![A-Za-z])")
_TEX_SUFFIXES = (".tex", ".ltx", ".latex")
# \input{x}, \input x, \include{x}, \subfile{x}, \import{dir}{x}, \subimport{dir}{x}, \usepackage[..]{a,b}
_INCLUDE = re.compile(
    r"\\(?P<command>input|include|subfile|subfileinclude)(?![A-Za-z])\s*(?:\{(?P<braced>[^{}]*)\}|(?P<bare>[^\s{}\\%]+))"
    r"|\\(?P<importer>sub)?(?:import|inputfrom|includefrom)\*?\s*\{(?P<folder>[^{}]*)\}\s*\{(?P<file>[^{}]*)\}"
    r"|\\usepackage\s*(?:\[[^\]]*\])?\s*\{(?P<packages>[^{}]*)\}"
)
_BEGIN_DOCUMENT = re.compile(r"\\begin\s*\{document\}")
_END_DOCUMENT = re.compile(r"\\end\s*\{document\}")


def _is_tex(path: str) -> bool:
    return path.lower().endswith(_TEX_SUFFIXES)


def find_main(bundle: Bundle) -> str:
    """The path of the main file: one with ``\\documentclass`` that no other file inputs, with
    ``\\begin{document}``, preferring the usual names, then the longest."""
    stripped = {path: strip_comments(text) for path, text in bundle.files.items() if _is_tex(path) or len(bundle.files) == 1}
    candidates = [path for path, text in stripped.items() if _DOCUMENTCLASS.search(text)]
    if not candidates:
        if not stripped:
            raise BadSource(f"{bundle.name}: no .tex file in the bundle")
        raise BadSource(f"{bundle.name}: no \\documentclass in any .tex file")
    included: set[str] = set()
    for text in stripped.values():
        for match in _INCLUDE.finditer(text):
            target = match.group("braced") or match.group("bare") or match.group("file")
            if target:
                name = PurePosixPath(target.strip()).as_posix().removeprefix("./")
                included.update({name, f"{name}.tex"})

    def rank(path: str) -> tuple[bool, bool, bool, int]:
        stem = PurePosixPath(path).stem.lower()
        return (
            path not in included,
            bool(_BEGIN_DOCUMENT.search(stripped[path])),
            stem in ("main", "ms", "paper", "article", "manuscript"),
            len(stripped[path]),
        )

    return max(candidates, key=rank)


def flatten(bundle: Bundle, main: str, limits: LatexLimits, warnings: list[str]) -> str:
    """The main file's text, comments stripped, with every input inlined; raises :class:`BadSource`."""
    flattener = _Flattener(bundle, limits, warnings, str(PurePosixPath(main).parent))
    text = flattener.expand(main, [main])
    if len(text) > limits.max_source_chars:
        raise BadSource(f"{bundle.name}: the source with its inputs is over {limits.max_source_chars:,} characters")
    return text


class _Flattener:
    def __init__(self, bundle: Bundle, limits: LatexLimits, warnings: list[str], root: str) -> None:
        self.bundle = bundle
        self.limits = limits
        self.warnings = warnings
        self.root = "" if root == "." else root
        self.size = 0

    def expand(self, path: str, stack: list[str]) -> str:
        if len(stack) > self.limits.max_include_depth + 1:
            raise BadSource(f"{self.bundle.name}: \\input nested deeper than {self.limits.max_include_depth} ({' -> '.join(stack)})")
        text = strip_comments(self.bundle.files[path])
        self.size += len(text)
        if self.size > self.limits.max_source_chars:
            raise BadSource(f"{self.bundle.name}: the source with its inputs is over {self.limits.max_source_chars:,} characters")
        here = str(PurePosixPath(path).parent)
        pieces: list[str] = []
        last = 0
        for match in _INCLUDE.finditer(text):
            replacement = self.replacement(match, here, stack)
            if replacement is None:
                continue
            pieces.append(text[last : match.start()])
            pieces.append(replacement)
            last = match.end()
        pieces.append(text[last:])
        return "".join(pieces)

    def replacement(self, match: re.Match[str], here: str, stack: list[str]) -> str | None:
        if match.group("packages") is not None:
            found = [self.resolve(name.strip(), self.root, (".sty",), quiet=True) for name in match.group("packages").split(",")]
            local = [path for path in found if path and path not in stack]
            return "".join(self.expand(path, [*stack, path]) for path in local) + match.group() if local else None
        command = match.group("command")
        if command is not None:
            target = (match.group("braced") or match.group("bare") or "").strip()
            base = here if command.startswith("subfile") else self.root
        else:
            folder = match.group("folder").strip()
            target = f"{folder.rstrip('/')}/{match.group('file').strip()}" if folder else match.group("file").strip()
            base = here if match.group("importer") else self.root
        if not target:
            return None
        path = self.resolve(target, base, (".tex", ""))
        if path is None:
            return ""
        if path in stack:
            raise BadSource(f"{self.bundle.name}: \\input loop: {' -> '.join([*stack, path])}")
        body = self.expand(path, [*stack, path])
        if command is not None and command.startswith("subfile"):
            body = _document_body(body)
        return f"\n{body}\n" if command == "include" else f" {body} "

    def resolve(self, target: str, base: str, suffixes: tuple[str, ...], *, quiet: bool = False) -> str | None:
        """The bundle path ``target`` names, looked for beside ``base`` and at the bundle's root."""
        target = target.strip().strip('"')
        pure = PurePosixPath(target.replace("\\", "/"))
        if pure.is_absolute() or target.startswith("~") or re.match(r"^[A-Za-z]:", target):
            raise BadSource(f"{self.bundle.name}: \\input of an absolute path {target!r} (only files inside the bundle are read)")
        if ".." in pure.parts:
            raise BadSource(f"{self.bundle.name}: \\input of {target!r} climbs out of the bundle with '..'")
        for folder in dict.fromkeys((base, self.root, "")):
            for suffix in suffixes:
                candidate = PurePosixPath(folder, f"{pure.as_posix()}{suffix}").as_posix().removeprefix("./")
                if suffix == "" and not _is_tex(candidate) and candidate.endswith(".sty"):
                    continue
                if candidate in self.bundle.files:
                    return candidate
        if not quiet:
            self.warnings.append(f"\\input{{{target}}}: not in the bundle, left out")
        return None


def _document_body(text: str) -> str:
    """A subfile's own ``\\begin{document}...\\end{document}``, without its preamble."""
    start = _BEGIN_DOCUMENT.search(text)
    if start is None:
        return text
    end = _END_DOCUMENT.search(text, start.end())
    return text[start.end() : end.start() if end else len(text)]
