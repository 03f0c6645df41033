"""One PubMed record to a :class:`~paperpyramid.document.Document`: the article's metadata, its
indexing (MeSH headings, keywords, publication types) and its abstract, the only text a record
has. A structured abstract's labelled parts (``<AbstractText Label="METHODS">``) are sections
titled by their labels; an unlabelled abstract is one section, "Abstract". There are no pages:
the document is not ``paged``, and every block's page is 1.

The record's bytes come from a file of the internet; they are parsed without a DTD (a DTD inside a
record is refused), so no entity is declared, expanded or fetched.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from paperpyramid.document import Author, Block, Document, Section
from paperpyramid.errors import BadInput
from paperpyramid.parsers.pubmed.fields import (
    article_id,
    authors,
    elocation_doi,
    mesh_terms,
    pmcid,
    publication_date,
    text,
    texts,
)
from paperpyramid.parsers.pubmed.items import MAX_RECORD_BYTES, PubmedRecord

NAME = "pubmed"
_PROVENANCE = {"sections": NAME, "text": NAME, "metadata": NAME, "pages": "none"}
# a record's MathML may use the prefix its file's DTD declares; parsed alone it needs a declaration
_WITH_PREFIXES = b'<PubmedRecord xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink">'
# NLM's label for a part of a structured abstract that has none
_NO_LABEL = "UNLABELLED"


def parse_record(record: PubmedRecord) -> Document:
    """The article a PubMed record describes, as a :class:`Document` (not paged; its sections
    are the abstract's parts). Raises :class:`~paperpyramid.errors.BadInput` for a record that
    is not well-formed XML, holds a DTD, is larger than the reader's bound, is neither a
    ``<PubmedArticle>`` nor a ``<PubmedBookArticle>``, or whose PMID is not ``record.pmid``."""
    root = _element(record)
    if root.tag == "PubmedArticle":
        document = _article(root, record.pmid)
    elif root.tag == "PubmedBookArticle":
        document = _book(root, record.pmid)
    else:
        raise BadInput(f"PMID {record.pmid}: <{root.tag}> is not a PubMed record")
    if document.pmid != record.pmid:
        raise BadInput(f"PMID {record.pmid}: the record's own PMID is {document.pmid!r}")
    document.provenance = dict(_PROVENANCE)
    return document


def _element(record: PubmedRecord) -> ET.Element:
    xml = record.xml
    if len(xml) > MAX_RECORD_BYTES:
        raise BadInput(f"PMID {record.pmid}: the record is larger than {MAX_RECORD_BYTES >> 20} MiB")
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
        raise BadInput(f"PMID {record.pmid}: a DTD inside a record is refused (its entities could expand or be fetched)")
    try:
        return ET.fromstring(xml)
    except ET.ParseError as exc:
        if "unbound prefix" in str(exc):
            try:
                return ET.fromstring(_WITH_PREFIXES + xml + b"</PubmedRecord>")[0]
            except (ET.ParseError, IndexError):
                pass
        raise BadInput(f"PMID {record.pmid}: the record is not well-formed XML ({exc})") from exc


def _article(root: ET.Element, pmid: str) -> Document:
    citation = root.find("MedlineCitation")
    article = citation.find("Article") if citation is not None else None
    if citation is None or article is None:
        raise BadInput(f"PMID {pmid}: the record has no <MedlineCitation>/<Article>")
    journal = article.find("Journal")
    data = root.find("PubmedData")
    id_lists = [data.find("ArticleIdList") if data is not None else None]
    issue = journal.find("JournalIssue") if journal is not None else None
    pub_date = issue.find("PubDate") if issue is not None else None
    document = Document(
        title=text(article.find("ArticleTitle")) or text(article.find("VernacularTitle")) or None,
        authors=authors(article.find("AuthorList")),
        date_published=publication_date(pub_date, article.iterfind("ArticleDate")),
        journal=_journal(journal, citation),
        doi=article_id(id_lists, "doi") or elocation_doi(article.iterfind("ELocationID")),
        pmid=text(citation.find("PMID")) or None,
        pmcid=pmcid(article_id(id_lists, "pmc")),
        language=text(article.find("Language")) or None,
        publication_types=texts(article.find("PublicationTypeList"), "PublicationType"),
        keywords=_keywords(citation),
        mesh=mesh_terms(citation.find("MeshHeadingList")),
        paged=False,
    )
    _read_abstract(article.find("Abstract"), document)
    return document


def _journal(journal: ET.Element | None, citation: ET.Element) -> str | None:
    if journal is not None and (name := text(journal.find("Title")) or text(journal.find("ISOAbbreviation"))):
        return name
    info = citation.find("MedlineJournalInfo")
    return text(info.find("MedlineTA") if info is not None else None) or None


def _keywords(parent: ET.Element) -> list[str]:
    """The keywords of every ``<KeywordList>`` (NLM's and the authors'), each once."""
    return list(dict.fromkeys(keyword for keywords in parent.iterfind("KeywordList") for keyword in texts(keywords, "Keyword")))


def _book(root: ET.Element, pmid: str) -> Document:
    """A ``<PubmedBookArticle>``: a book, or a chapter of one (then the book is its venue)."""
    book_document = root.find("BookDocument")
    if book_document is None:
        raise BadInput(f"PMID {pmid}: the record has no <BookDocument>")
    book = book_document.find("Book")
    book_title = text(book.find("BookTitle")) if book is not None else ""
    chapter = text(book_document.find("ArticleTitle"))
    data = root.find("PubmedBookData")
    id_lists = [book_document.find("ArticleIdList"), data.find("ArticleIdList") if data is not None else None]
    elocations = [*book_document.iterfind("ELocationID"), *(book.iterfind("ELocationID") if book is not None else ())]
    document = Document(
        title=chapter or book_title or text(book_document.find("VernacularTitle")) or None,
        authors=_book_authors(book_document, book),
        date_published=publication_date(book.find("PubDate") if book is not None else None),
        journal=(book_title or None) if chapter else None,
        doi=article_id(id_lists, "doi") or elocation_doi(elocations),
        pmid=text(book_document.find("PMID")) or None,
        pmcid=pmcid(article_id(id_lists, "pmc")),
        language=text(book_document.find("Language")) or None,
        publication_types=texts(book_document, "PublicationType"),
        keywords=_keywords(book_document),
        paged=False,
    )
    _read_abstract(book_document.find("Abstract"), document)
    return document


def _book_authors(book_document: ET.Element, book: ET.Element | None) -> list[Author]:
    """The chapter's authors, else the book's; editors only where no one else is named."""
    lists = [*book_document.iterfind("AuthorList"), *(book.iterfind("AuthorList") if book is not None else ())]
    authors_first = sorted(lists, key=lambda author_list: author_list.get("Type") == "editors")  # a stable sort
    for author_list in authors_first:
        found = authors(author_list)
        if found:
            return found
    return []


def _read_abstract(abstract: ET.Element | None, document: Document) -> None:
    """The abstract's parts as sections (one a label; unlabelled parts join the section before
    them, or make an "Abstract" section), and the whole as ``document.abstract``, each labelled
    part led by its label ("METHODS: ...")."""
    if abstract is None:
        return
    paragraphs: list[str] = []
    for part in abstract.iterfind("AbstractText"):
        body = text(part)
        if not body:
            continue
        label = " ".join((part.get("Label") or "").split())
        label = "" if label.upper() == _NO_LABEL else label
        if label or not document.sections:
            document.sections.append(Section(title=label or "Abstract", level=1))
        document.sections[-1].blocks.append(Block(body, 1))
        paragraphs.append(f"{label}: {body}" if label else body)
    document.abstract = "\n\n".join(paragraphs) or None
