"""Article metadata against the gold files: title, authors, DOI, journal and year.

What citations and filters rest on, read from the same gold files as the section scores:

- JATS (``.nxml``): ``article-title``, the ``contrib`` authors (a ``<collab>`` group among them), the ``doi`` article id, the
  journal's title (its abbreviations count too), the year of the electronic publication
  (else the print, else the first ``pub-date``); the year of any other ``pub-date`` counts as
  right too (a paper online in December 2015 and printed in a 2016 issue prints 2016 on
  every page, and is cited as 2016).
- TEI (``.tei.xml``): the header's title, the ``analytic`` authors, its DOI ``idno``, the
  ``monogr`` title as journal and the publication date's year; GROBID leaves the last three
  empty for proceedings, and an empty field is not scored.
- LaTeX (``.tex``): ``\\title`` (its notes left out) and the authors of the front matter, in
  whichever of the classes' forms (:mod:`paperpyramid.eval.latex_authors`); no DOI, journal or year.

A field the gold file does not give is ``None`` and is left out of that field's accuracy.
Authors are compared by family name (accents and case folded), as a multiset: a paper's
authors are right when the same people are found, none missing and none extra.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from paperpyramid.eval.gold import (
    _collapse,
    _latex_title,
    latex_source_and_document,
    soft_norm,
)
from paperpyramid.eval.latex_authors import latex_authors
from paperpyramid.retrieval.filters import year_of

_TEI = "{http://www.tei-c.org/ns/1.0}"


@dataclass(slots=True)
class Metadata:
    """An article's bibliographic fields; ``None`` where a side does not say."""

    title: str | None = None
    authors: list[str] | None = None
    doi: str | None = None
    #: the journal's name and any abbreviations of it a gold file lists
    journal: list[str] | None = None
    year: int | None = None
    #: gold only: the years of the paper's other publication dates (print, collection), also right
    other_years: tuple[int, ...] = ()
    #: each author's affiliations by family name (see :func:`family_name`)
    affiliations: dict[str, list[str]] | None = None


FIELDS = ("title", "authors", "doi", "journal", "year")


@dataclass(slots=True)
class MetadataScore:
    """Per field: True (right), False (wrong or missing), None (the gold file does not say)."""

    fields: dict[str, bool | None] = field(default_factory=dict)
    #: authors' family names: matched, gold and predicted counts (for precision and recall)
    authors_matched: int = 0
    authors_gold: int = 0
    authors_predicted: int = 0
    #: author-affiliation pairs: gold ones found, gold ones, predicted ones right, predicted ones
    affiliations_found: int = 0
    affiliations_gold: int = 0
    affiliations_right: int = 0
    affiliations_predicted: int = 0


def load_gold_metadata(path: Path) -> Metadata:
    """Read the metadata of one gold file, choosing the reader by its suffix."""
    name = path.name.lower()
    if name.endswith(".nxml"):
        return _jats(ET.parse(path).getroot())
    if name.endswith(".tei.xml"):
        return _tei(ET.parse(path).getroot())
    if name.endswith(".tex"):
        source, _ = latex_source_and_document(path)
        return _latex(source)  # as the section gold reads it
    return Metadata()


def _text(element: ET.Element | None) -> str:
    return _collapse("".join(element.itertext())) if element is not None else ""


def _jats(root: ET.Element) -> Metadata:
    meta = root.find("./front/article-meta")
    journal_meta = root.find("./front/journal-meta")
    if meta is None:
        return Metadata()
    authors = []
    affs = {aff.get("id"): _aff_text(aff) for aff in meta.iter("aff")}
    affiliations: dict[str, list[str]] = {}
    members = {id(contrib) for collab in meta.iter("collab") for contrib in collab.iter("contrib")}  # a group's, not authors
    for contrib in meta.iter("contrib"):
        if id(contrib) in members:
            continue
        name = contrib.find("name")
        collab = contrib.find("collab")
        if contrib.get("contrib-type") == "author" and name is None and collab is not None and _collab_text(collab):
            authors.append(_collab_text(collab))  # a group that signs ("ABC Study Group"), as the parsers take it
        if contrib.get("contrib-type") == "author" and name is not None:
            authors.append(_collapse(f"{name.findtext('given-names') or ''} {name.findtext('surname') or ''}"))
            refs = [
                affs[rid] for x in contrib.iter("xref") if x.get("ref-type") == "aff" for rid in (x.get("rid") or "").split() if rid in affs
            ]
            refs += [_aff_text(aff) for aff in contrib.iter("aff")]
            if not refs and len(affs) == 1:
                refs = list(affs.values())
            if refs:
                affiliations[family_name(authors[-1])] = refs
    doi = next((_text(e) for e in meta.findall("article-id") if e.get("pub-id-type") == "doi"), None)
    journals = [] if journal_meta is None else [_text(e) for e in journal_meta.iter() if e.tag in ("journal-title", "abbrev-journal-title")]
    pub_dates = meta.findall("pub-date")
    dates = {d.get("pub-type") or d.get("date-type"): d.findtext("year") for d in pub_dates}
    year = dates.get("epub") or dates.get("ppub") or dates.get("pub") or next(iter(dates.values()), None)
    return Metadata(
        title=_text(meta.find("./title-group/article-title")) or None,
        authors=authors or None,
        doi=doi or None,
        journal=[j for j in journals if j] or None,
        year=int(year) if year and year.strip().isdigit() else None,
        other_years=tuple(sorted({int(y) for y in (d.findtext("year") for d in pub_dates) if y and y.strip().isdigit() and y != year})),
        affiliations=affiliations or None,
    )


def _collab_text(collab: ET.Element) -> str:
    """A ``<collab>``'s own name, without the members some journals list inside it."""
    parts = [collab.text or ""] + [
        ("" if child.tag == "contrib-group" else "".join(child.itertext())) + (child.tail or "") for child in collab
    ]
    return _collapse("".join(parts))


def _aff_text(aff: ET.Element) -> str:
    """An ``<aff>``'s text without its label."""
    parts = [aff.text or ""] + [("" if child.tag == "label" else "".join(child.itertext())) + (child.tail or "") for child in aff]
    return _collapse("".join(parts))


def _tei(root: ET.Element) -> Metadata:
    header = root.find(f"./{_TEI}teiHeader/{_TEI}fileDesc")
    if header is None:
        return Metadata()
    titles = header.findall(f"./{_TEI}titleStmt/{_TEI}title")
    main = [t for t in titles if t.get("type") == "main"] or titles
    bibl = header.find(f"./{_TEI}sourceDesc/{_TEI}biblStruct")
    authors: list[str] = []
    affiliations: dict[str, list[str]] = {}
    doi = journal = when = None
    if bibl is not None:
        for author in bibl.findall(f"./{_TEI}analytic/{_TEI}author"):
            person = author.find(f"{_TEI}persName")
            if person is None:
                continue
            authors.append(_collapse(" ".join(_text(part) for part in person)))
            orgs = [" ".join(_text(org) for org in aff.iter(f"{_TEI}orgName")) for aff in author.findall(f"{_TEI}affiliation")]
            if any(orgs):
                affiliations[family_name(authors[-1])] = [org for org in orgs if org]
        doi = next((_text(e) for e in bibl.iter(f"{_TEI}idno") if (e.get("type") or "").upper() == "DOI"), None)
        journal = _text(bibl.find(f"./{_TEI}monogr/{_TEI}title")) or None
        date = bibl.find(f"./{_TEI}monogr/{_TEI}imprint/{_TEI}date")
        when = date.get("when") if date is not None else None
    return Metadata(
        title=_text(main[0]) if main else None,
        authors=authors or None,
        doi=doi,
        journal=[journal] if journal else None,
        year=year_of(when),
        affiliations=affiliations or None,
    )


def _latex(source: str) -> Metadata:
    """The title as the section gold reads it (:func:`~paperpyramid.eval.gold._latex_title`: notes and boxed notes left out)."""
    return Metadata(title=_latex_title(source), authors=latex_authors(source) or None)


def family_name(name: str) -> str:
    """The last word of a name, accents and case folded: 'Danny A. J. Gómez-Ramírez' -> 'gomezramirez';
    an initial set close ('B.Benciolini') is no part of it."""
    words = [w for w in re.split(r"\s+", name.strip()) if w and w.lower().rstrip(".") not in ("jr", "iii", "ii", "iv")]
    last = words[-1].rsplit(".", 1)[-1] or words[-1] if words else ""
    folded = unicodedata.normalize("NFKD", last)
    return "".join(ch for ch in folded if ch.isalnum()).lower()


def normalise_doi(doi: str) -> str:
    return re.sub(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", "", doi.strip(), flags=re.I).rstrip(".").lower()


def score_metadata(gold: Metadata, predicted: Metadata) -> MetadataScore:
    """Compare each field the gold side gives; see the module docstring for the rules."""
    score = MetadataScore()
    if gold.title:
        score.fields["title"] = bool(predicted.title) and soft_norm(predicted.title or "") == soft_norm(gold.title)
    if gold.authors:
        gold_names = Counter(family_name(n) for n in gold.authors)
        predicted_names = Counter(family_name(n) for n in predicted.authors or [])
        score.authors_gold = sum(gold_names.values())
        score.authors_predicted = sum(predicted_names.values())
        score.authors_matched = sum((gold_names & predicted_names).values())
        score.fields["authors"] = gold_names == predicted_names
    if gold.doi:
        score.fields["doi"] = bool(predicted.doi) and normalise_doi(predicted.doi or "") == normalise_doi(gold.doi)
    if gold.journal:
        # NLM's titles add a qualifier after " : " ("World Journal of Emergency Surgery : WJES") that no page prints
        titles = [*gold.journal, *(j.split(" : ")[0] for j in gold.journal if " : " in j)]
        names = {soft_norm(re.sub(r"^the\s+", "", j, flags=re.I)) for j in titles}
        found = (predicted.journal or [""])[0]
        score.fields["journal"] = bool(found) and soft_norm(re.sub(r"^the\s+", "", found, flags=re.I)) in names
    if gold.year:
        score.fields["year"] = predicted.year == gold.year or predicted.year in gold.other_years
    if gold.affiliations:
        _score_affiliations(score, gold.affiliations, predicted.affiliations or {})
    return score


_CONTENT_WORD = re.compile(r"[^\W\d_]{4,}")


def _words(text: str) -> set[str]:
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).lower()
    return set(_CONTENT_WORD.findall(folded))


def _same_place(gold: str, predicted: str) -> bool:
    """One affiliation for another: half of the gold's words of four letters or more (the
    institution, the department, the city) in the predicted text, and vice versa for a short
    predicted text that names only the institution."""
    gold_words, predicted_words = _words(gold), _words(predicted)
    if not gold_words or not predicted_words:
        return False
    shared = len(gold_words & predicted_words)
    return shared >= 0.5 * min(len(gold_words), len(predicted_words)) and shared >= min(2, len(predicted_words))


def _score_affiliations(score: MetadataScore, gold: dict[str, list[str]], predicted: dict[str, list[str]]) -> None:
    """Author-affiliation pairs: recall over the gold's (for every gold author), precision over
    the predicted ones of the same authors."""
    for author, places in gold.items():
        mine = predicted.get(author, [])
        score.affiliations_gold += len(places)
        score.affiliations_found += sum(1 for place in places if any(_same_place(place, other) for other in mine))
        score.affiliations_predicted += len(mine)
        score.affiliations_right += sum(1 for other in mine if any(_same_place(place, other) for place in places))


def accuracies(scores: list[MetadataScore]) -> dict[str, tuple[float | None, int]]:
    """Per field: (share right, papers scored)."""
    result: dict[str, tuple[float | None, int]] = {}
    for name in FIELDS:
        values = [s.fields[name] for s in scores if s.fields.get(name) is not None]
        result[name] = (sum(1 for v in values if v) / len(values) if values else None, len(values))
    return result
