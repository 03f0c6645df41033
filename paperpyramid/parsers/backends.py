"""The built-in parsers behind the one contract (:mod:`.contract`): each takes a
:class:`~.contract.Source` and the run's settings and calls its backend with what that backend
needs. Backends are imported on first use (heavy ones are optional extras).

A document read with a PDF gets its coverage of the PDF's text layer, with a warning naming the
words most often missing when it is low: no text vanishes silently.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from paperpyramid import arxiv_ids
from paperpyramid.document import Document
from paperpyramid.parsers.contract import Parser, PdfParser, Source
from paperpyramid.settings import IngestSettings

log = logging.getLogger(__name__)

#: below this share of the text layer's words an article is stored with a warning
COVERAGE_WARNING = 0.95
#: bytes of an .xml read to find its root element (the front matter comes first)
HEAD_BYTES = 64 * 1024
_JATS_ROOT = re.compile(rb"<(?:[\w.-]+:)?(?:article|pmc-articleset)[\s>/]")


def looks_like_jats(path: Path) -> bool:
    """Whether ``path`` is taken as JATS: an ``.nxml``, or an ``.xml`` whose opening holds a JATS
    root element (``<article>``, E-utilities' ``<pmc-articleset>``). Reads at most
    :data:`HEAD_BYTES`; an unreadable file is not JATS."""
    if path.name.lower().endswith(".nxml"):
        return True
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return False
    return _JATS_ROOT.search(head) is not None


def parse_embedded(source: Source, options: IngestSettings) -> Document:
    """A PDF with the embedded parser (offline), its scans read by OCR as the settings say."""
    from paperpyramid.parsers.embedded import parse_pdf

    path = source.file()
    with _ocr(options):
        document = parse_pdf(path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit, ocr=options.ocr)
    return with_coverage(document, path, options.password)


def parse_with_services(source: Source, options: IngestSettings) -> Document:
    """A PDF with the services the run enabled (``auto``, ``grobid``, ``unstructured``,
    ``nougat``), merged over the embedded parse."""
    from paperpyramid.parsers import services

    path = source.file()
    with _ocr(options):
        document = services.parse_pdf(
            path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit, options=options
        )
    return with_coverage(document, path, options.password)


def from_pdf_parser(parse: PdfParser) -> Parser:
    """A PDF parser of one's own (``--parser package.module:function``, called with the PDF's
    path and the limits) as a parser of the contract."""

    def parse_source(source: Source, options: IngestSettings) -> Document:
        path = source.file()
        with _ocr(options):
            document = parse(path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit)
        return with_coverage(document, path, options.password)

    parse_source.__name__ = parse_source.__qualname__ = getattr(parse, "__name__", "parse_source")
    parse_source.__doc__ = getattr(parse, "__doc__", None)
    return parse_source


def parse_jats(source: Source, options: IngestSettings) -> Document:
    """JATS XML (``jats``), its pages from ``source.pdf`` when one came with it (``jats+pdf``)."""
    from paperpyramid.parsers.jats import parse_jats as read_jats

    document = read_jats(
        source.file(), pdf_path=source.pdf, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit
    )
    return with_coverage(document, source.pdf, options.password)


def parse_latex(source: Source, options: IngestSettings) -> Document:
    """A LaTeX source (``latex``: a file, or a main ``.tex``'s folder), its pages from
    ``source.pdf`` when one came with it (``latex+pdf``); the arXiv id from its name when the
    source names none."""
    from paperpyramid.parsers.latex import parse_source

    document = parse_source(source.file(), name=source.name, pdf=source.pdf, password=options.password, max_pages=options.max_pages,
                            time_limit=options.time_limit)  # fmt: skip
    if document.arxiv_id is None:
        document.arxiv_id = arxiv_ids.at_start(Path(source.name).name)  # "arxiv-1707.08043-….tex", "2101.00001.gz"
    return with_coverage(document, source.pdf, options.password)


def parse_pubmed_record(source: Source, options: IngestSettings) -> Document:
    """One record of a PubMed baseline or update file: ``source.name`` is ``<pmid>.<version>``,
    ``source.data`` the record's XML."""
    from paperpyramid.parsers.pubmed import PubmedRecord, parse_record

    pmid, _, version = source.name.partition(".")
    return parse_record(PubmedRecord(pmid=pmid, version=int(version) if version.isdigit() else 1, xml=source.content()))


@contextmanager
def _ocr(options: IngestSettings) -> Iterator[None]:
    from paperpyramid.parsers.embedded.ocr import using

    with using(options.tesseract):
        yield


def with_coverage(document: Document, pdf: Path | None, password: str | None) -> Document:
    """``document`` with its coverage of ``pdf``'s text layer (none without a PDF), and a warning
    naming the words most often missing when it is low. A failure to measure costs the
    measure, never the document."""
    if pdf is None:
        return document
    from paperpyramid.parsers.coverage import coverage_of, document_texts, text_layer_words, words

    try:
        layer = text_layer_words(pdf, password=password, glyphs=document.glyph_map, ocr_text=document.ocr_text)
    except Exception as exc:  # the parse succeeded; a second read of the file must not undo it
        log.warning("coverage of %s not measured: %s", pdf.name, exc)
        return document
    document.coverage = coverage_of(layer, document_texts(document))
    if document.coverage is not None and document.coverage < COVERAGE_WARNING:
        found = words(" ".join(document_texts(document)))
        missing = [word for word, _ in (layer - found).most_common(8)]
        document.warnings.append(
            f"coverage {document.coverage:.2f}: {1 - document.coverage:.0%} of the PDF's words reach no text, table, "
            f"caption or reference (most often missing: {', '.join(missing)})"
        )
    return document


__all__ = [
    "COVERAGE_WARNING",
    "from_pdf_parser",
    "looks_like_jats",
    "parse_embedded",
    "parse_jats",
    "parse_latex",
    "parse_pubmed_record",
    "parse_with_services",
    "with_coverage",
]
