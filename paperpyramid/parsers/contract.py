"""The one parser contract: ``parse(source, options) -> Document``.

A :class:`Source` says what to read: its ``kind`` chooses the parser in the registry
(:mod:`paperpyramid.parsers.registry`), ``path`` is the file (or a LaTeX source's folder), ``pdf``
the PDF that gives an XML or LaTeX source its pages, ``data`` a source held in memory (a PubMed
record). ``options`` are the run's :class:`~paperpyramid.settings.IngestSettings`: the password,
the page and time limits, OCR, the parser services. A parser returns one
:class:`~paperpyramid.document.Document` or raises :class:`~paperpyramid.errors.BadInput` with a
one-line reason; it never touches the database, the bucket or another parser's source.

The source kinds built in: ``pdf`` (read by the PDF backend the settings name: ``--parser``),
``jats`` and ``jats+pdf`` (PubMed Central's XML, alone or with its PDF), ``latex`` and
``latex+pdf``, ``pubmed-record`` (one record of a PubMed baseline or update file).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from paperpyramid.errors import BadInput

if TYPE_CHECKING:
    from paperpyramid.document import Document
    from paperpyramid.settings import IngestSettings

PDF = "pdf"
JATS = "jats"
JATS_PDF = "jats+pdf"
LATEX = "latex"
LATEX_PDF = "latex+pdf"
PUBMED_RECORD = "pubmed-record"


@dataclass(frozen=True, slots=True)
class Source:
    """One thing to parse. ``name`` is the name it came by (a file's, an archive member's, a
    bucket key's last part, a PubMed record's ``<pmid>.<version>``), for messages and ids; the
    file at ``path`` may be a temporary copy with another name."""

    kind: str
    path: Path | None = None
    pdf: Path | None = None
    name: str = ""
    data: bytes | None = None

    @property
    def label(self) -> str:
        """The name to show: ``name``, else the file's."""
        return self.name or (self.path.name if self.path is not None else self.kind)

    def file(self) -> Path:
        """The file to read; a source held only in memory is refused with the reason."""
        if self.path is None:
            raise BadInput(f"{self.label}: a {self.kind} source needs a file")
        return self.path

    def content(self) -> bytes:
        """The source's bytes: ``data``, else the file's."""
        return self.data if self.data is not None else self.file().read_bytes()


class Parser(Protocol):
    """The contract every parser keeps, whatever the kind of source."""

    def __call__(self, source: Source, options: IngestSettings, /) -> Document: ...


class PdfParser(Protocol):
    """A PDF parser of one's own, named by ``--parser package.module:function``: called with the
    PDF's path and the run's limits (:func:`paperpyramid.parsers.registry.from_pdf_parser` makes it
    a :class:`Parser`)."""

    def __call__(self, path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document: ...


__all__ = ["JATS", "JATS_PDF", "LATEX", "LATEX_PDF", "PDF", "PUBMED_RECORD", "Parser", "PdfParser", "Source"]
