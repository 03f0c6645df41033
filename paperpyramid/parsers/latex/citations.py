"""How the PDF prints a citation: the bibliography style told from the source, and the markers.

Numeric styles number the entries in the reference list's order ("[3, 4]"); natbib's author-year
styles print the ``\\bibitem[Short(Year)Long]`` label ("(Ahmad and Afzal, 2018)", "Lo et al. (2020)");
an alpha label (``\\bibitem[Knu84]``) prints as is ("[Knu84]"). natbib's ``numbers`` option,
``\\biboptions{numbers}`` and elsarticle's default (numeric unless ``authoryear``) turn natbib
labels into numbers again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from paperpyramid.parsers.latex.bibliography import BibEntry
from paperpyramid.parsers.latex.text import plain

__all__ = ["CitationStyle", "style_for"]

_NATBIB_OPTIONS = re.compile(r"\\usepackage\s*\[([^\]]*)\]\s*\{natbib\}|\\biboptions\s*\{([^}]*)\}|\\setcitestyle\s*\{([^}]*)\}")
_ACL_STYLE = re.compile(
    r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{(?:acl|naacl|emnlp|eacl|coling|tacl|aacl)\w*\}|\\bibliographystyle\s*\{acl\w*\}"
)
_NATBIB_LABEL = re.compile(r"^(?P<short>.*?)\((?P<year>[^()]*)\)(?P<long>.*)$", re.DOTALL)


@dataclass
class CitationStyle:
    kind: str  # "numeric", "authoryear" or "alpha"
    round_brackets: bool = False
    cite_parenthetical: bool = False  # the ACL styles make \\cite print as \\citep
    numbers: dict[str, int] = field(default_factory=dict)
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (short authors, year)
    alpha: dict[str, str] = field(default_factory=dict)

    def __call__(self, command: str, keys: list[str], pre: str | None, post: str | None) -> str:
        """The marker ``\\<command>[pre][post]{keys}`` prints."""
        command = command.lower()
        if command in ("citeauthor",):
            return "; ".join(self.labels.get(key, (key, ""))[0] for key in keys)
        if command in ("citeyear", "citeyearpar"):
            years = ", ".join(self.labels.get(key, ("", "?"))[1] for key in keys)
            return f"({years})" if command == "citeyearpar" else years
        if self.kind == "authoryear":
            if command == "cite" and self.cite_parenthetical:
                command = "citep"
            return self._author_year(command, keys, pre, post)
        items = [str(self.numbers.get(key, "?")) if self.kind == "numeric" else self.alpha.get(key, "?") for key in keys]
        body = _wrap(", ".join(items), pre, post)
        if command in ("citet", "textcite", "citealt") and self.labels:
            shorts = [self.labels.get(key, ("", ""))[0] for key in keys]
            if all(shorts):
                return "; ".join(f"{short} [{item}]" for short, item in zip(shorts, items, strict=True))
        if command in ("citenum", "citealp"):
            return body
        return f"({body})" if self.round_brackets else f"[{body}]"

    def _author_year(self, command: str, keys: list[str], pre: str | None, post: str | None) -> str:
        pairs = [self.labels.get(key, (key, "?")) for key in keys]
        if command in ("citet", "cite", "textcite", "citealt"):
            parts = [f"{short} {year}" if command == "citealt" else f"{short} ({year})" for short, year in pairs]
            if post and parts and command != "citealt":
                parts[-1] = parts[-1][:-1] + f", {post})"
            return "; ".join(parts)
        body = _wrap("; ".join(f"{short}, {year}" for short, year in pairs), pre, post)
        return body if command == "citealp" else f"({body})"


def _wrap(body: str, pre: str | None, post: str | None) -> str:
    if pre:
        body = f"{pre} {body}"
    if post:
        body = f"{body}, {post}"
    return body


def style_for(entries: list[BibEntry], preamble: str) -> CitationStyle:
    """The style the preamble (with ``\\bibliographystyle``: the whole source may be given) and the entries' labels point to."""
    natbib = [(entry.key, _NATBIB_LABEL.match(_unbrace(entry.label))) for entry in entries if entry.label]
    labelled = [match for _, match in natbib if match]
    options = " ".join("".join(groups) for groups in _NATBIB_OPTIONS.findall(preamble))
    documentclass = re.search(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{([^}]*)\}", preamble)
    class_options = documentclass.group(1) or "" if documentclass else ""
    class_name = documentclass.group(2).strip() if documentclass else ""
    numeric_requested = "numbers" in options or (class_name == "elsarticle" and "authoryear" not in options + class_options)
    round_brackets = "round" in options
    style = CitationStyle("numeric", round_brackets=round_brackets)
    style.cite_parenthetical = bool(_ACL_STYLE.search(preamble))
    style.numbers = {entry.key: number for number, entry in enumerate(entries, 1)}
    for key, match in natbib:
        if match:
            style.labels[key] = (plain(match.group("short")).strip(' "'), plain(match.group("year")).strip())
    for entry in entries:  # a .bib entry has no label: make one from its fields
        if entry.fields and entry.key not in style.labels:
            style.labels[entry.key] = _bib_label(entry.fields)
    if (labelled and len(labelled) >= len(natbib) / 2 and not numeric_requested) or (
        not labelled and entries and all(entry.fields for entry in entries) and "numbers" not in options and "natbib" in preamble
    ):
        style.kind = "authoryear"
    elif natbib and not labelled:
        style.kind = "alpha"
        style.alpha = {key: plain(_unbrace(entry.label or "")) for entry in entries for key in [entry.key] if entry.label}
    return style


def _unbrace(label: str | None) -> str:
    label = (label or "").strip()
    while label.startswith("{") and label.endswith("}"):
        label = label[1:-1].strip()
    return label


def _bib_label(fields: dict[str, str]) -> tuple[str, str]:
    names = [name.strip() for name in re.split(r"\s+and\s+", fields.get("author", "")) if name.strip()]
    families = [plain(name.split(",")[0] if "," in name else name.split()[-1]) for name in names]
    short = (
        families[0]
        if len(families) == 1
        else f"{families[0]} and {families[1]}"
        if len(families) == 2
        else f"{families[0]} et al."
        if families
        else "?"
    )
    return short, (fields.get("year") or fields.get("date", "")[:4] or "?")
