"""The reference list of a JATS article, for :mod:`paperpyramid.parsers.jats`: each ``<ref>`` as a
:class:`~paperpyramid.document.Reference`.

A ``<ref>`` holds its entry as a ``<mixed-citation>`` (the fields with the punctuation between
them, as printed), an ``<element-citation>`` (the fields alone) or, in older files, a
``<citation>`` or ``<nlm-citation>``. The entry's text (``raw``) is the mixed citation as printed,
or, for fields alone, a Vancouver-style string written from them; the title, authors ("Surname
GI"), year, DOI, venue and arXiv id are read from the fields, then from the text.
"""

from __future__ import annotations

import functools
import operator
import re
import xml.etree.ElementTree as ET

from paperpyramid.document import Reference
from paperpyramid.parsers.jats_xml import _INLINE_SPECIAL, _NO_TEXT, _TAG, _inline_raw, _inline_text, _plain, _tidy
from paperpyramid.parsers.xml_cites import arxiv_id_in, normalise_arxiv_id

__all__ = ["citation_arxiv_id", "reference"]

_CITATIONS = frozenset({"mixed-citation", "element-citation", "citation", "nlm-citation"})
_LABEL = frozenset({"label"})
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+")
_YEAR = re.compile(r"\d{4}")
_PAREN_YEAR = re.compile(r"\((1[5-9]\d\d|20\d\d)[a-z]?\)")
_GIVEN_NAME_PARTS = re.compile(r"[\s.\-]+")
_TAIL = operator.attrgetter("tail")


def reference(ref: ET.Element) -> Reference | None:
    """The entry a ``<ref>`` holds (without its key and arXiv id), or None for an empty one."""
    citation = next(ref.iter("mixed-citation"), None)
    if citation is None:
        citation = next((node for node in ref.iter() if node.tag in _CITATIONS), None)
    if citation is None:
        text = _inline_text(ref, skip=_LABEL)
        return Reference(raw=text) if text else None
    authors, etal = _citation_authors(citation)
    article_title = _field(citation, "article-title")
    chapter_title = _field(citation, "chapter-title")
    source = _field(citation, "source")
    title = (article_title or chapter_title or source).rstrip(".") or None
    venue = source if (article_title or chapter_title) and source else (_plain(citation.find("publisher-name")) or None)
    field_doi = _field_doi(citation)
    year_text = _plain(citation.find("year"))  # read once: the composed text prints it too
    raw = _citation_text(citation) if _has_own_text(citation) else _compose(citation, authors, etal, title, source, field_doi, year_text)
    year_match = _YEAR.search(year_text)
    year = int(year_match.group()) if year_match else None
    if year is None:
        paren = _PAREN_YEAR.search(raw)
        year = int(paren.group(1)) if paren else None
    return Reference(raw=raw, title=title, authors=authors, year=year, doi=field_doi or _doi_in(raw), venue=venue)


def _field(citation: ET.Element, name: str) -> str:
    node = citation.find(name)
    return _inline_text(node) if node is not None else ""


def _has_own_text(citation: ET.Element) -> bool:
    """Whether a citation carries its own punctuation between fields (mixed content), so its text reads as printed."""
    if citation.text and citation.text.strip():
        return True
    # the children's tails joined at C speed: some tail is more than whitespace when the whole is
    return bool("".join(filter(None, map(_TAIL, citation))).strip())


def _citation_text(citation: ET.Element) -> str:
    """A mixed citation as printed; a list of names without separators (F1000 leaves the
    commas to its stylesheet) is written out as "Surname GI, Surname GI, et al"."""
    inside = set(map(_TAG, citation.iter()))
    if inside.isdisjoint(_INLINE_SPECIAL) and ("person-group" not in inside or all(map(_has_own_text, citation.findall("person-group")))):
        return _tidy("".join(citation.itertext()))  # all of it reads as it is (most citations)
    parts = [citation.text or ""]
    for child in citation:
        tag = child.tag
        if tag == "person-group" and not _has_own_text(child):
            names, etal = _names(child)
            parts.append(" " + ", ".join(names) + (", et al" if etal and names else "") + " ")
        elif tag not in _NO_TEXT:
            parts.append(_inline_raw(child))
        if child.tail:
            parts.append(child.tail)
    return _tidy("".join(parts))


def _citation_authors(citation: ET.Element) -> tuple[list[str], bool]:
    """The authors of a cited work (not its editors) as "Surname GI", and whether "et al" follows."""
    groups = list(citation.iter("person-group"))
    holders = [group for group in groups if group.get("person-group-type") in (None, "author")] if groups else [citation]
    names: list[str] = []
    etal = False
    for holder in holders:
        more, holder_etal = _names(holder)
        names += more
        etal = etal or holder_etal
    return names, etal


def _names(holder: ET.Element) -> tuple[list[str], bool]:
    names: list[str] = []
    etal = False
    for node in holder:
        tag = node.tag
        if tag == "name" or tag == "string-name":
            surname = _plain(node.find("surname"))
            name = f"{surname} {_initials(_plain(node.find('given-names')))}".strip() if surname else _plain(node)
        elif tag == "collab":
            name = _plain(node)
        else:
            etal = etal or tag == "etal"
            continue
        if name:
            names.append(name)
    return names, etal


@functools.lru_cache(maxsize=4096)  # the same given names come back article after article
def _initials(given: str) -> str:
    """ "Djoko T." -> "DT", "H.W." -> "HW"; given names already written as initials ("DT") stay."""
    if 0 < len(given) <= 4 and given.isascii() and given.isalpha() and given.isupper():
        return given
    return "".join(part[0].upper() for part in _GIVEN_NAME_PARTS.split(given) if part and part[0].isalpha())


def _compose(citation: ET.Element, authors: list[str], etal: bool, title: str | None, source: str, doi: str | None, year: str) -> str:
    """A reference string in Vancouver order, for element citations that hold fields without punctuation."""
    who = ", ".join(authors) + (", et al" if etal and authors else "")
    volume = _plain(citation.find("volume"))
    issue = _plain(citation.find("issue"))
    first = _plain(citation.find("fpage"))
    last = _plain(citation.find("lpage"))
    where = year
    if volume:
        where += f";{volume}"
    if issue:
        where += f"({issue})"
    if first:
        where += f":{first}" + (f"-{last}" if last else "")
    parts = [who, title or "", source if source and source != title else "", where.strip(";")]
    if doi:
        parts.append(f"doi:{doi}")
    return ". ".join([part.rstrip(".") for part in parts if part]) + "."  # a list: join makes one of a generator first


def citation_arxiv_id(ref: ET.Element, raw: str) -> str | None:
    """A cited work's arXiv id: a ``<pub-id pub-id-type="arxiv">``, an arXiv link, else "arXiv:…" in its text."""
    for pub_id in ref.iter("pub-id"):
        if (pub_id.get("pub-id-type") or "").lower() == "arxiv":
            value = _plain(pub_id)
            found = normalise_arxiv_id(value) if value else None
            if found:
                return found
    for link in ref.iter("ext-link"):
        for value in [*(v for k, v in link.attrib.items() if k.endswith("href")), _plain(link)]:
            found = arxiv_id_in(value)
            if found:
                return found
    found = arxiv_id_in(raw)
    if found is None and "arx" in "".join(ref.itertext()).lower():  # as arxiv_id_in looks first
        found = arxiv_id_in(_plain(ref))
    return found


def _field_doi(citation: ET.Element) -> str | None:
    """The DOI a citation's fields give: a ``<pub-id pub-id-type="doi">``, else one in a link."""
    for pub_id in citation.iter("pub-id"):
        if pub_id.get("pub-id-type") == "doi":
            value = _plain(pub_id)
            if value:
                return value
    for link in citation.iter("ext-link"):
        for value in [_plain(link), *(v for k, v in link.attrib.items() if k.endswith("href"))]:
            found = _doi_in(value)
            if found:
                return found
    return None


def _doi_in(text: str) -> str | None:
    match = _DOI.search(text) if "10." in text else None  # every DOI starts "10."
    return match.group().rstrip(".,;)") if match else None
