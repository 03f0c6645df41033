from paperpyramid.ingest.pipeline import IngestResult, IngestSummary, ingest

__all__ = ['IngestResult', 'IngestSummary', 'ingest']
