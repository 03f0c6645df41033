"""Where inputs come from and how work is fanned out; :mod:`.pipeline` is the conductor.

Its names load on first use, so that ``import paperpyramid`` stays light (the pipeline imports
the parsers and the object-store client). The stage the public function
:func:`paperpyramid.ingest` (:mod:`paperpyramid.api.ingesting`) drives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paperpyramid.ingestion.pipeline import IngestResult, IngestSummary, ingest

__all__ = ["IngestResult", "IngestSummary", "ingest"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from paperpyramid.ingestion import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'paperpyramid.ingest' has no attribute {name!r}")
