"""The Python write side's entry and reports: :func:`ingest` (PDFs into a corpus file) and the
typed reports it and :class:`paperpyramid.Corpus`'s write methods (``embed``, ``distill``,
``export``) return. It sits under :mod:`paperpyramid.corpus` and over the stages it runs.

- :mod:`.ingesting`: :func:`ingest`, the pipeline the ``ingest`` command runs, with options by name;
- :mod:`.reports`: the reports, plain dataclasses, and how each is made from a stage's summary;
- :mod:`.progress`: the progress bar shown on stderr when a call asks for one.

Importing this package is cheap: the pipelines load when a call needs them.
"""

from paperpyramid.api.ingesting import ingest
from paperpyramid.api.reports import (
    ArticleDistilled,
    DistillReport,
    DocumentResult,
    DocumentStatus,
    EmbedReport,
    ExportReport,
    IngestReport,
)

__all__ = ["ArticleDistilled", "DistillReport", "DocumentResult", "DocumentStatus", "EmbedReport", "ExportReport", "IngestReport", "ingest"]
