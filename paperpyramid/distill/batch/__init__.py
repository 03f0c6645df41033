"""Batch distillation: the distillation's requests written as OpenAI Batch API files (which
vLLM's ``run_batch`` reads too), the results read back and stored as a live run would store them.

    answering.py  the model the ordinary distillation runs against, answered from imported results
    store.py      the requests written and the results imported (``<corpus>.batch.sqlite``)
    results.py    reading OpenAI and vLLM batch output lines
    rounds.py     a round: import, distil what is answered, write the next requests
    estimate.py   tokens and cost per article before anything is sent (``--dry-run``)

The workflow, its rounds and what stays live are in docs/guides/batch-distillation.md.
"""

from paperpyramid.distill.batch.answering import BatchLLM, BatchRequestFailed, custom_id, request_line
from paperpyramid.distill.batch.estimate import ArticleEstimate, estimate_corpus
from paperpyramid.distill.batch.results import NotABatchOutput, read_output_file
from paperpyramid.distill.batch.rounds import BatchRound, batch_step, distil_from_results, import_results, write_round
from paperpyramid.distill.batch.store import BatchStore, ImportCount, PendingRequest, store_path

__all__ = [
    "ArticleEstimate",
    "BatchLLM",
    "BatchRequestFailed",
    "BatchRound",
    "BatchStore",
    "ImportCount",
    "NotABatchOutput",
    "PendingRequest",
    "batch_step",
    "custom_id",
    "distil_from_results",
    "estimate_corpus",
    "import_results",
    "read_output_file",
    "request_line",
    "store_path",
    "write_round",
]
