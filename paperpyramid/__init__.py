"""paperpyramid: academic PDFs in, a searchable, distilled SQLite corpus out.

Writing: ``paperpyramid.ingest(sources, db=...)`` parses PDFs into a corpus file; the opened
corpus then grows with ``Corpus.embed()``, ``Corpus.distill()``, and is published with
``Corpus.snapshot()`` or written out with ``Corpus.export()``, each returning a typed report.
Reading: ``Corpus.open(path_or_url)``; ``Corpus.ask`` returns an :class:`Answer` of cited claims,
``Corpus.retrieve`` and ``Corpus.find`` the passages. The types they return are exported here.

``Snapshot`` is loaded on first use (the object-store client it needs costs half a second to
import); everything else is imported with the package.
"""

from typing import TYPE_CHECKING, Any

from paperpyramid._version import __version__
from paperpyramid.api import (  # noqa: E402
    ArticleDistilled,
    DistillReport,
    DocumentResult,
    EmbedReport,
    ExportReport,
    IngestReport,
    ingest,
)
from paperpyramid.asking.answer import Answer, CitedClaim  # noqa: E402
from paperpyramid.asking.trace import Fact, Found, Limits, Step  # noqa: E402
from paperpyramid.citation_graph import CitationLink, CitingPassage  # noqa: E402
from paperpyramid.corpus import Article, ContextRow, Corpus, IngestLogRow, ReadOnlyCorpus, SectionRow  # noqa: E402
from paperpyramid.db.corpus_rows import SectionNode  # noqa: E402
from paperpyramid.document import Figure, Formula, Reference, Table  # noqa: E402
from paperpyramid.retrieval import Citation, Passage, SearchHit  # noqa: E402
from paperpyramid.retrieval.api import RetrievalOptions  # noqa: E402
from paperpyramid.retrieval.filters import Filters  # noqa: E402

if TYPE_CHECKING:
    from paperpyramid.db.snapshot import Snapshot


def __getattr__(name: str) -> Any:
    if name == "Snapshot":
        from paperpyramid.db.snapshot import Snapshot

        return Snapshot
    raise AttributeError(f"module 'paperpyramid' has no attribute {name!r}")


__all__ = [
    "Answer", "Article", "ArticleDistilled", "CitationLink", "Citation", "CitedClaim", "CitingPassage", "ContextRow", "Corpus",
    "DistillReport", "DocumentResult", "EmbedReport", "ExportReport", "Fact", "Figure", "Filters", "Formula", "Found", "IngestLogRow",
    "IngestReport", "Limits", "Passage", "ReadOnlyCorpus", "Reference", "RetrievalOptions", "SearchHit", "SectionNode", "SectionRow",
    "Snapshot", "Step", "Table", "__version__", "ingest",
]  # fmt: skip
