"""``benchmarks/metadata_real.py`` scores a paper the parser refuses as a miss and goes on: one
unreadable PDF of batch 10 (spatstat's, before its bitmap fonts were read) stopped the whole run."""

from __future__ import annotations

import sys
from pathlib import Path

from paperpyramid.eval.metadata import Metadata

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from metadata_real import run  # noqa: E402


def test_a_refused_paper_is_a_miss_with_its_reason_and_the_run_goes_on(tmp_path: Path) -> None:
    refused = tmp_path / "refused.pdf"
    refused.write_bytes(b"<html>not a paper</html>")
    result = run([(refused, Metadata(title="A Title", authors=["Ann Berg"]))])
    assert result["accuracy"]["title"] == 0.0 and result["accuracy"]["authors"] == 0.0
    assert any(miss.startswith("refused.pdf refused: ") and "no %PDF header" in miss for miss in result["misses"])
