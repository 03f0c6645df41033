"""Evaluation of parses against gold files: readers of the gold, scoring and reports."""

from paperpyramid.eval.gold import GoldPaper, load_gold
from paperpyramid.eval.parse import (
    EvalReport,
    PaperScore,
    evaluate,
    predicted_from_db,
    render_report,
    report_to_json,
    score_paper,
    soft_norm,
)

__all__ = [
    "EvalReport",
    "GoldPaper",
    "PaperScore",
    "evaluate",
    "load_gold",
    "predicted_from_db",
    "render_report",
    "report_to_json",
    "score_paper",
    "soft_norm",
]
