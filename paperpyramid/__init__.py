"""paperpyramid: academic PDFs in, a searchable, distilled SQLite corpus out."""

__version__ = "0.1.0"

from paperpyramid.corpus import Corpus  # noqa: E402

__all__ = ["Corpus", "__version__"]
