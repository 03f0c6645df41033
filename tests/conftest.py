"""Shared fixtures. Tests that need ../shared (the full corpus, recorded service outputs)
skip with a reason when it is absent, as on a user's machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample"
HOSTILE = DATA / "hostile"
GOLD = DATA / "gold"
SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


@pytest.fixture
def shared_corpus() -> Path:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS}): the full-corpus tests run only beside the project's shared material")
    return CORPUS
