"""What :func:`~paperpyramid.parsers.pubmed.read_pubmed` yields, in file order: a record, a list of
deletions, or a refusal of a part of the file that could not be read."""

from __future__ import annotations

from dataclasses import dataclass

#: A record larger than this is refused, by the reader and by the parser. PubMed's largest records
#: (thousands of authors with their affiliations) are about 2 MB; a 10 MB abstract is no abstract.
MAX_RECORD_BYTES = 8 << 20


@dataclass(frozen=True, slots=True)
class PubmedRecord:
    """One ``<PubmedArticle>`` (or ``<PubmedBookArticle>``) element, its bytes exactly as the file
    holds them (UTF-8). ``version`` is the PMID's ``Version`` attribute (1 when absent): a revised
    record in an update file carries the same PMID, with the same or a higher version."""

    pmid: str
    version: int
    xml: bytes


@dataclass(frozen=True, slots=True)
class PubmedDeletion:
    """A ``<DeleteCitation>`` list of an update file: the PMIDs to remove from the corpus."""

    pmids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PubmedRefusal:
    """A record, or a part of the file, that was not read: ``where`` names it (the file, the
    record's number and PMID where known), ``reason`` says why in one line."""

    where: str
    reason: str


PubmedItem = PubmedRecord | PubmedDeletion | PubmedRefusal
