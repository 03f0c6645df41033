"""The metadata of a JATS article, for :mod:`paperpyramid.parsers.jats`: from ``<article-meta>``
its title, authors and their affiliations, DOI, PubMed ids, arXiv id, publication date, licence,
language and keywords; from ``<journal-meta>`` the journal.

The licence (:func:`licence`) is read from ``<permissions><license>`` in the forms publishers
write it: a Creative Commons URL in ``xlink:href`` (Frontiers, F1000, PLOS in older files), an
``<ali:license_ref>`` holding the URL (NISO's Access and License Indicators: BMC, Nature, MDPI
and PLOS in recent files), a ``license-type`` naming it ("cc-by"; PMC's "open-access" names
none), or only its words in ``<license-p>`` ("... under the Creative Commons Attribution
License ..."; Hindawi, older Springer and MDPI). Each is read by :func:`paperpyramid.licences.licence_key`, in that
order, the words a sentence at a time, and the first that names a licence wins: F1000 gives the
article's CC BY in one ``<license>`` and a CC0 for its data in the next, BMC and Springer the two
in consecutive sentences of one. A licence in none of the keys' terms is kept as its URL, or as
its first words.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from paperpyramid.document import Author, Document
from paperpyramid.licences import licence_key
from paperpyramid.parsers.jats_xml import _child, _children, _collapse, _descendants, _first, _plain
from paperpyramid.parsers.xml_cites import arxiv_id_in, normalise_arxiv_id

__all__ = ["licence", "read_metadata"]

_EMAIL_TAIL = re.compile(r"[;,.]?\s*e-?mails?\s*:.*$", re.I | re.S)
_COMMAS = re.compile(r"(\s*,\s*)+")
_YEAR = re.compile(r"\d{4}")
_MONTHS = {
    name: number for number, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_DIGITS = re.compile(r"\d+")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")
#: how much of a licence's own words is kept when they name no licence :func:`licence_key` knows
LICENCE_WORDS = 200


def read_metadata(article: ET.Element, meta: ET.Element, front: ET.Element | None, document: Document) -> None:
    """Fill ``document``'s metadata from the ``<article-meta>`` ``meta`` (and the journal's from ``front``)."""
    document.title = _plain(meta.find("title-group/article-title")) or None
    for article_id in _children(meta, "article-id"):
        if article_id.get("pub-id-type") == "doi" and _plain(article_id):
            document.doi = _plain(article_id)
            break
    document.arxiv_id = _article_arxiv_id(meta)
    journal_meta = _child(front, "journal-meta")
    if journal_meta is not None:
        document.journal = _plain(_first(journal_meta, "journal-title")) or None
    document.date_published = _publication_date(meta)
    document.authors = _authors(meta)
    document.pmid, document.pmcid = _pubmed_ids(meta)
    document.licence = licence(meta.find("permissions"))
    document.language = (article.get(_XML_LANG) or "").strip() or None
    document.keywords = _keywords(meta)


def _publication_date(meta: ET.Element) -> str | None:
    def rank(date: ET.Element) -> int:
        # JATS 1.0 says pub-type="epub"; 1.1 and later say date-type="pub" publication-format="electronic"
        kind = date.get("pub-type") or ""
        if not kind:
            date_type = date.get("date-type") or "pub"
            kind = (date.get("publication-format") or "pub") if date_type == "pub" else date_type
        order = {"epub": 0, "electronic": 0, "ppub": 1, "print": 1, "epub-ppub": 2, "pub": 3, "collection": 4}
        return order.get(kind, 5 if kind != "pmc-release" else 6)

    dates = sorted(_children(meta, "pub-date"), key=rank)
    for date in dates:
        year = _YEAR.search(_plain(_child(date, "year")))
        if year is None:
            continue
        month = _month(_plain(_child(date, "month")))
        day = _plain(_child(date, "day"))
        if month and day.isdigit() and 1 <= int(day) <= 31:
            return f"{year.group()}-{month:02d}-{int(day):02d}"
        if month:
            return f"{year.group()}-{month:02d}"
        return year.group()
    return None


def _month(text: str) -> int | None:
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else None
    return _MONTHS.get(text[:3].lower())


def _authors(meta: ET.Element) -> list[Author]:
    all_affs = list(_descendants(meta, "aff"))
    affiliations = {aff.get("id"): _affiliation(aff) for aff in all_affs if aff.get("id")}
    correspondence = {node.get("id"): node for node in _descendants(meta, "corresp") if node.get("id")}
    authors: list[Author] = []
    # a group's members, listed inside its <collab>, are not its authors (PubMed's investigators)
    members = {id(group) for collab in _descendants(meta, "collab") for group in _descendants(collab, "contrib-group")}
    for group in _descendants(meta, "contrib-group"):
        if id(group) in members:
            continue
        for contrib in _children(group, "contrib"):
            if contrib.get("contrib-type") not in (None, "author"):
                continue
            name = _person_name(contrib)
            if not name:
                continue
            affs: list[str] = []
            email = _plain(_first(contrib, "email")) or None
            for xref in _descendants(contrib, "xref"):
                for rid in (xref.get("rid") or "").split():
                    if xref.get("ref-type") == "aff" and affiliations.get(rid):
                        affs.append(affiliations[rid])
                    elif xref.get("ref-type") == "corresp" and email is None and rid in correspondence:
                        emails = list(_descendants(correspondence[rid], "email"))
                        if len(emails) == 1:  # with several, whose is whose is not written down
                            email = _plain(emails[0])
            affs += [_affiliation(aff) for aff in _children(contrib, "aff")]
            if not affs and len(all_affs) == 1:
                affs.append(_affiliation(all_affs[0]))
            affiliation = "; ".join(dict.fromkeys(aff for aff in affs if aff)) or None
            authors.append(Author(name=name, affiliation=affiliation, email=email))
    return authors


def _person_name(contrib: ET.Element) -> str:
    name = _child(contrib, "name")
    if name is None:
        name = _child(contrib, "string-name")
    if name is not None:
        given = _plain(_child(name, "given-names"))
        surname = _plain(_child(name, "surname"))
        suffix = _plain(_child(name, "suffix"))
        if surname:
            return " ".join(part for part in (given, surname, suffix) if part)
        return _plain(name)
    collab = _child(contrib, "collab")
    if collab is None:
        return ""
    own = [collab.text or ""] + [
        ("" if child.tag == "contrib-group" else "".join(child.itertext())) + (child.tail or "") for child in collab
    ]
    return _collapse("".join(own))  # the group's name, without the members listed inside it


def _affiliation(aff: ET.Element) -> str:
    """An affiliation without its label and e-mail addresses; parts without separators get commas."""
    pieces: list[str] = [aff.text or ""]
    for child in aff:
        if child.tag not in ("label", "sup", "email", "xref", "fn"):
            pieces.append(_plain(child))
        tail = child.tail or ""
        pieces.append(tail if tail.strip() else ", ")
    text = _collapse("".join(pieces))
    text = _EMAIL_TAIL.sub("", text)
    text = _COMMAS.sub(", ", text)
    return text.strip(" ,;")


def _article_arxiv_id(meta: ET.Element) -> str | None:
    """The article's own arXiv id: an ``<article-id pub-id-type="arxiv">``, else a link to its arXiv page."""
    for article_id in _children(meta, "article-id"):
        if (article_id.get("pub-id-type") or "").lower() == "arxiv" and _plain(article_id):
            return normalise_arxiv_id(_plain(article_id))
    for link in (*_children(meta, "self-uri"), *_children(meta, "ext-link")):
        for value in (v for k, v in link.attrib.items() if k.endswith("href")):
            if "arxiv.org/" in value.lower():
                return arxiv_id_in(value)
    return None


def _pubmed_ids(meta: ET.Element) -> tuple[str | None, str | None]:
    """PubMed's id (digits) and PubMed Central's ("PMC" and digits) from ``<article-id>``: PMC
    writes ``pub-id-type="pmcid"`` with or without the prefix, E-utilities ``"pmc"``."""
    pmid = pmcid = None
    for article_id in _children(meta, "article-id"):
        kind = (article_id.get("pub-id-type") or "").lower()
        if kind not in ("pmid", "pmc", "pmcid"):
            continue
        digits = _DIGITS.search(_plain(article_id))
        if digits is None:
            continue
        if kind == "pmid":
            pmid = pmid or digits.group()
        else:
            pmcid = pmcid or f"PMC{digits.group()}"
    return pmid, pmcid


def licence(permissions: ET.Element | None) -> str | None:
    """The licence a ``<permissions>`` gives: a key of :mod:`paperpyramid.licences` (``cc-by``,
    ``cc0``, ...) from the first ``<license>`` that names one, else the first licence's URL or
    its words (up to :data:`LICENCE_WORDS` characters, cut at a word); None without a licence."""
    if permissions is None:
        return None
    kept: str | None = None
    for element in _children(permissions, "license"):
        urls = [value for name, value in element.attrib.items() if name.endswith("href")]
        urls += [_plain(node) for node in _children(element, "license_ref")]
        urls = [url for url in urls if url]
        paragraphs = [child for child in element if child.tag in ("license-p", "p")]
        words = " ".join(_plain(child) for child in paragraphs) if paragraphs else _plain(element)
        links = [value for link in element.iter() for name, value in link.attrib.items() if link is not element and name.endswith("href")]
        # sentence by sentence: BMC's licence goes on to waive the rights to the data under CC0
        for named in (*urls, element.get("license-type"), *_SENTENCE_END.split(words), *links):
            key = licence_key(named)
            if key is not None:
                return key
        if kept is None:
            kept = next(iter(urls + links), None) or _cut(words, LICENCE_WORDS) or None
    return kept


def _cut(text: str, limit: int) -> str:
    """``text`` as it is when it is short enough, else its words up to ``limit`` characters and "…"."""
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:")
    return f"{cut}…"


def _keywords(meta: ET.Element) -> list[str]:
    """The keywords of every ``<kwd-group>`` of the article, each once, in the order given."""
    found = (_plain(kwd) for group in _children(meta, "kwd-group") for kwd in _descendants(group, "kwd"))
    return list(dict.fromkeys(keyword for keyword in found if keyword))
