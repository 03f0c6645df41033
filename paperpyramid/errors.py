r"""Exceptions, in three families that a caller treats differently::

    PaperPyramidError
    ├── BadInput                  the document itself is unusable; retrying will not help
    │   ├── NotAPdf               no %PDF header (an HTML landing page saved as .pdf, ...)
    │   ├── PdfCorrupt            truncated, fuzzed or otherwise unreadable
    │   ├── PdfEncrypted          needs a password (pass --password)
    │   ├── NeedsOcr              image-only pages with no text layer
    │   ├── TooManyPages          over the configured page limit
    │   ├── ParseTimeout          the per-document time limit ran out
    │   ├── ObjectGone            a listed bucket object was deleted before it could be downloaded
    │   └── BadSource             (paperpyramid.parsers.latex) a LaTeX source refused: a path out of its
    │                             bundle, an \input loop, a member or expansion over its limit, no \documentclass
    ├── ServiceUnavailable        an outage (a parser service, the bucket, an LLM endpoint); retrying may help
    │   └── BadVectors            (paperpyramid.embeddings) an embedding endpoint answered NaN, null, zero or
    │                             wrong-length vectors; names the endpoint and carries the usable ones
    ├── LLMOutputError            a model answered, but not in the shape asked, even after a repair retry
    ├── ConfigurationError        settings that cannot work (unknown backend, missing extra, a bucket
    │   │                         that does not exist or refuses the credentials)
    │   ├── MissingExtra          an optional extra is not installed; names the pip command
    │   └── NotACorpus            the --db file is another SQLite database, or no database at all
    ├── ReadOnlyCorpus            (paperpyramid.corpus) a write (embed, distill, snapshot) asked of a corpus
    │                             opened from a snapshot URL
    └── SnapshotError             (paperpyramid.db.snapshot) a snapshot not found, not a corpus
        └── SnapshotCorrupt       a downloaded file does not match its manifest's sha256

Anything else is a bug. Batch jobs never raise these for one document: they record the
reason (``str(exc)``, one line a person understands) against the input and go on.

Every one of them pickles with its message and attributes, whatever its ``__init__`` takes:
a worker process hands them to its parent.
"""

from __future__ import annotations

from typing import Any


def _rebuild(cls: type[PaperPyramidError], args: tuple[Any, ...], state: dict[str, Any]) -> PaperPyramidError:
    # without calling __init__, whose signature may differ from ``args`` (MissingExtra's does)
    exc = cls.__new__(cls, *args)
    exc.args = args
    exc.__dict__.update(state)
    return exc


class PaperPyramidError(Exception):
    """Base of every error paperpyramid raises on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.args, self.__dict__)


class BadInput(PaperPyramidError):
    """The input document cannot be parsed; retrying will not help."""


class NotAPdf(BadInput):
    """No %PDF header (an HTML landing page saved as .pdf, ...)."""


class PdfCorrupt(BadInput):
    """Truncated, fuzzed or otherwise unreadable."""


class PdfEncrypted(BadInput):
    """Needs a password (pass --password)."""


class NeedsOcr(BadInput):
    """Image-only pages with no text layer, or an unreadable one."""


class TooManyPages(BadInput):
    """Over the configured page limit."""


class ParseTimeout(BadInput):
    """The per-document time limit ran out."""


class ObjectGone(BadInput):
    """A bucket object that was listed no longer exists when its worker downloads it (deleted,
    or moved, in between). ``uri`` is the object's ``s3://`` address."""

    def __init__(self, message: str, *, uri: str = "") -> None:
        super().__init__(message)
        self.uri = uri


class ServiceUnavailable(PaperPyramidError):
    """A service (parser backend, object store) could not be reached; retrying may help."""


class LLMOutputError(PaperPyramidError):
    """A model's reply did not validate against the schema asked for, even after one repair
    retry. ``raw`` is the last reply's text (cut to 2,000 characters); ``usage`` what the
    failed attempts cost (a :class:`paperpyramid.llm.Usage`)."""

    def __init__(self, message: str, *, raw: str = "", usage: object = None) -> None:
        super().__init__(message)
        self.raw = raw[:2000]
        self.usage = usage


class ConfigurationError(PaperPyramidError):
    """Settings that cannot work: an unknown backend name, a missing optional extra, a bucket
    that does not exist or refuses the credentials."""


class MissingExtra(ConfigurationError):
    def __init__(self, module: str, extra: str) -> None:
        super().__init__(f"{module} is not installed; install it with: pip install 'paperpyramid[{extra}]'")
        self.module = module
        self.extra = extra


class NotACorpus(ConfigurationError, ValueError):
    """The file given as a corpus is another SQLite database (paperpyramid never adds its tables
    to one), not a database at all, or a corpus of another schema version."""
