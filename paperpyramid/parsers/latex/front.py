"""The front matter: title, authors with their affiliations, abstract, the paper's arXiv id.

Authors are read in the forms the common classes use: ``\\author{A \\\\ Affil \\and B ...}``
(article, ACL), ``\\author[1]{A}`` with ``\\address[1]{...}`` or ``\\affiliation`` (elsarticle),
``\\author{A}`` followed by ``\\address``/``\\affiliation``/``\\email`` (amsart, revtex),
``\\IEEEauthorblockN``/``\\IEEEauthorblockA`` (IEEEtran) and ``\\institute`` with ``\\inst{n}`` (llncs).
"""

from __future__ import annotations

import re

from paperpyramid.document import Author
from paperpyramid.parsers.latex.scan import find_end, read_group, read_optional, skip_space
from paperpyramid.parsers.latex.text import plain

__all__ = ["abstract_latex", "arxiv_id", "authors", "title"]

_COMMANDS = re.compile(r"\\(author|address|affiliation|affil|institute|email|IEEEauthorblockN|IEEEauthorblockA|fntext)(?![A-Za-z])\*?")
_SPLIT_AUTHORS = re.compile(r"\\(?:and|And|AND)(?![A-Za-z])")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ARXIV_NAME = re.compile(
    r"^(?:arxiv[-_:]?)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/?\d{7})(?:v\d+)?(?:\.(?:tar\.gz|tgz|gz|tar|tex))?$", re.I
)
_ARXIV_STATED = re.compile(r"\\(?:arxiv|arXiv|arxivid|eprint)\s*\{(?:arXiv:)?(\d{4}\.\d{4,5})")


def _argument(text: str, index: int) -> tuple[str | None, str | None, int]:
    optional, index = read_optional(text, index)
    at = skip_space(text, index)
    if at < len(text) and text[at] == "{":
        content, index = read_group(text, at)
        return optional, content, index
    return optional, None, index


def title(front: str) -> str | None:
    match = re.search(r"\\title(?![A-Za-z])\*?", front)
    if match is None:
        return None
    _, content, _ = _argument(front, match.end())
    if content is None:
        return None
    return plain(re.sub(r"\\\\(?:\[[^\]]*\])?", " ", content), math_as_text=True) or None


def authors(front: str) -> list[Author]:
    found: list[Author] = []
    keyed: dict[str, list[Author]] = {}  # \author[1,2] or \inst{1}: the affiliation keys an author names
    pending: list[Author] = []  # authors still waiting for an \address or \affiliation
    institutes: list[str] = []
    for match in _COMMANDS.finditer(front):
        command = match.group(1)
        optional, content, _ = _argument(front, match.end())
        if content is None:
            continue
        if command in ("author", "IEEEauthorblockN"):
            if command == "author" and "\\IEEEauthorblockN" in content:
                continue  # its blocks come as their own matches
            if not pending or command == "author":
                pending = [] if any(author.affiliation for author in pending) else pending
            shared_keys = [key.strip() for key in (optional or "").split(",") if key.strip()]
            for part in _SPLIT_AUTHORS.split(content):
                new = _author_group(part)
                pending.extend(new)
                found.extend(new)
                keys = shared_keys + re.findall(r"\\inst\s*\{([^}]*)\}", part) + re.findall(r"\\fnref\s*\{([^}]*)\}", part)
                for author in new:
                    for key in ",".join(keys).split(","):
                        if key.strip():
                            keyed.setdefault(key.strip(), []).append(author)
        elif command == "email":
            email = _EMAIL.search(content)
            if email and found and found[-1].email is None:
                found[-1].email = email.group()
        elif command == "fntext":
            if optional and optional.strip() in keyed:
                for author in keyed[optional.strip()]:
                    note = plain(content).strip()
                    author.affiliation = note if author.affiliation is None else f"{author.affiliation}; {note}"
        elif command == "institute":
            institutes = [plain(part) for part in _SPLIT_AUTHORS.split(content)]
        else:
            affiliation = plain(re.sub(r"\\\\", ", ", content)).strip(" ,") or None
            if affiliation is None:
                continue
            email = _EMAIL.search(affiliation)
            if email:
                affiliation = _EMAIL.sub("", affiliation).strip(" ,;") or None
            targets = keyed.get((optional or "").strip(), []) if optional else [author for author in pending if author.affiliation is None]
            for author in targets:
                author.affiliation = affiliation if author.affiliation is None else f"{author.affiliation}; {affiliation}"
                if email and author.email is None and len(targets) == 1:
                    author.email = email.group()
            pending = [] if not optional else pending
    for number, institute in enumerate(institutes, 1):
        for author in keyed.get(str(number), []):
            author.affiliation = institute
    return [author for author in found if author.name]


_MARKER = re.compile(r"\$\s*\^\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\\\w+\s*\{[^{}]*\}|\\?\w+)\s*\$|\\textsuperscript\s*\{([^{}]*)\}")
_NAME_SPLIT = re.compile(r"\\q?quad(?![A-Za-z])|\\hspace\*?\s*\{[^}]*\}|\\and(?![A-Za-z])|,|\s+and\s+")
_NOTES = re.compile(
    r"\\(?:thanks|Thanks|footnote|fnref|corref|orcidlink|footnotemark|vspace)(?![A-Za-z])\*?\s*(?:\[[^\]]*\])?\s*(?:\{(?:[^{}]|\{[^{}]*\})*\})?"
)
_INSTITUTION = re.compile(
    r"universit|institut|department|dept\.|school|college|laborator|\blab\b|research|centre|center|inc\.|corporation|academy|hospital|faculty|@",
    re.I,
)


def _markers(latex: str) -> set[str]:
    found: set[str] = set()
    for match in _MARKER.finditer(latex):
        content = (match.group(1) or match.group(2) or "").strip("{} ")
        content = re.sub(r"\\math\w+\s*|[{}\s]", "", content)
        found.update(part for part in re.split(r",|(?=\\)", content) if part)
    return found


def _author_group(content: str) -> list[Author]:
    """``A \\\\ Affil \\\\ email \\and B ...``: name lines, then affiliation lines; superscript
    markers ($^\\dagger$) tie a name to the affiliation line that starts with the same one."""
    result: list[Author] = []
    for part in _SPLIT_AUTHORS.split(content):
        lines = [line for line in re.split(r"\\\\(?:\[[^\]]*\])?|\\newline", part) if plain(line).strip()]
        if not lines:
            continue
        count = 1
        while count < len(lines) and not _MARKER.match(lines[count].strip()) and not _INSTITUTION.search(plain(lines[count])):
            count += 1
        emails = _EMAIL.findall(part)
        affiliations: list[tuple[set[str], str]] = []
        for line in lines[count:]:
            text = plain(_MARKER.sub("", line)).strip(" ,")
            if text and not _EMAIL.search(text) and not re.fullmatch(r"[{}\w.,\s-]*@.*", text):
                affiliations.append((_markers(line.strip()[:40]) if _MARKER.match(line.strip()) else set(), text))
        for name_latex in _NAME_SPLIT.split(_NOTES.sub("", " ".join(lines[:count]))):
            marks = _markers(name_latex)
            name = plain(_MARKER.sub("", name_latex)).strip(" ,*")
            if not name or len(name) > 60:
                continue
            chosen = [text for keys, text in affiliations if marks & keys] or (
                [text for keys, text in affiliations] if not marks or not any(keys for keys, _ in affiliations) else []
            )
            result.append(Author(name=name, affiliation="; ".join(chosen) or None, email=emails.pop(0) if len(emails) == 1 else None))
    return result


def abstract_latex(front: str, body: str) -> tuple[str | None, int, int]:
    """The abstract's LaTeX and where it lies in ``body`` (-1, -1 when it is not in the body)."""
    for text, in_body in ((body, True), (front, False)):
        match = re.search(r"\\begin\s*\{abstract\}", text)
        if match:
            end, after = find_end(text, "abstract", match.end())
            return text[match.end() : end], (match.start() if in_body else -1), (after if in_body else -1)
        command = re.search(r"\\abstract\s*\{", text)
        if command:
            content, after = read_group(text, command.end() - 1)
            return content, (command.start() if in_body else -1), (after if in_body else -1)
    return None, -1, -1


def arxiv_id(name: str, front: str) -> str | None:
    """The paper's own arXiv id, from the bundle's name (arXiv names files by id) or a stated ``\\arxiv{}``."""
    match = _ARXIV_NAME.match(name.rsplit("/", 1)[-1])
    if match:
        return match.group(1)
    stated = _ARXIV_STATED.search(front)
    return stated.group(1) if stated else None
