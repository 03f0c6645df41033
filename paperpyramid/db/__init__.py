"""The SQLite corpus: schema and migrations (``schema``) and the single writer (``writer``)."""

from paperpyramid.db.schema import SCHEMA_VERSION, migrate, schema_version
from paperpyramid.db.writer import CorpusWriter, DuplicateArticle

__all__ = ["SCHEMA_VERSION", "CorpusWriter", "DuplicateArticle", "migrate", "schema_version"]
