"""paperpyramid: academic PDFs in, a searchable, distilled SQLite corpus out.

``Corpus.open(path_or_url)`` reads a corpus; the rows it returns are the types exported here.
"""

__version__ = "0.1.0"

from paperpyramid.article_parts import Figure, Formula, Reference, SectionNode, Table  # noqa: E402
from paperpyramid.citation_graph import CitationLink, CitingPassage  # noqa: E402
from paperpyramid.corpus import Article, ContextRow, Corpus, IngestLogRow, SectionRow  # noqa: E402
from paperpyramid.retrieval import SearchHit  # noqa: E402
from paperpyramid.retrieval.filters import Filters  # noqa: E402

__all__ = [
    "Article", "CitationLink", "CitingPassage", "ContextRow", "Corpus", "Figure", "Filters", "Formula", "IngestLogRow", "Reference", "SearchHit", "SectionNode",
    "SectionRow", "Table", "__version__",
]  # fmt: skip
