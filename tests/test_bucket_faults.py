"""Ordinary S3 faults in the bucket queue (issue 11, item 4), against a real S3 server
(SeaweedFS on 127.0.0.1): an object deleted between listing and download is logged and the
run goes on; a missing bucket or refused credentials is one line and exit 2; every exception
that may cross the process boundary pickles."""

from __future__ import annotations

import inspect
import io
import multiprocessing
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from paperpyramid import errors
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.errors import ConfigurationError
from paperpyramid.ingestion import IngestResult, ingest
from paperpyramid.ingestion.executors import open_executor
from paperpyramid.ingestion.pipeline import WorkItem, parse_item
from paperpyramid.s3 import iter_objects, make_client, parse_s3_uri
from paperpyramid.settings import IngestSettings, S3Settings, Settings
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
GOOD = sorted(SAMPLE.glob("*.pdf"))
ENDPOINT = "http://127.0.0.1:8333"


def put(server, bucket: str, key: str, data: bytes) -> None:
    server.make_bucket(bucket)
    server.client().put_object(bucket, key, io.BytesIO(data), len(data))


def paper(n: int) -> bytes:
    # bytes after %%EOF are ignored by PDF readers: a distinct file, the same paper
    return GOOD[n % len(GOOD)].read_bytes() + f"\n% copy {n}\n".encode()


def log(db: Path) -> dict[str, tuple[str, str | None]]:
    with sqlite3.connect(db) as connection:
        return {uri: (status, error) for uri, status, error in connection.execute("SELECT source_uri, status, error FROM ingest_log")}


# -- every exception pickles ----------------------------------------------------------------

ERROR_CLASSES = sorted(
    (
        cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, BaseException) and cls.__module__ == errors.__name__
    ),
    key=lambda cls: cls.__name__,
)


def _instance(cls: type[BaseException]) -> BaseException:
    """One of ``cls``, each argument its __init__ takes given a value of its own name."""
    if cls.__init__ is BaseException.__init__:
        return cls(f"{cls.__name__} message")
    args: list[object] = []
    kwargs: dict[str, object] = {}
    for name, parameter in list(inspect.signature(cls.__init__).parameters.items())[1:]:
        if parameter.kind is parameter.KEYWORD_ONLY:
            kwargs[name] = f"{name}-value"
        elif parameter.kind is parameter.POSITIONAL_OR_KEYWORD:
            args.append(f"{name}-value")
    return cls(*args, **kwargs)


def test_the_error_module_is_found_by_introspection():
    names = {cls.__name__ for cls in ERROR_CLASSES}
    assert {"PaperPyramidError", "BadInput", "ObjectGone", "ConfigurationError", "MissingExtra", "LLMOutputError", "NotACorpus"} <= names


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda cls: cls.__name__)
def test_every_exception_survives_pickling_with_its_message_and_attributes(cls):
    exc = _instance(cls)
    try:  # raised from a minio S3Error, as in the worker: the cause must not travel (it holds a lock)
        raise exc from RuntimeError("the cause")
    except BaseException as raised:
        copy = pickle.loads(pickle.dumps(raised))
    assert type(copy) is cls
    assert str(copy) == str(exc) and copy.args == exc.args
    assert vars(copy) == vars(exc)


def test_custom_signatures_keep_their_attributes():
    extra = pickle.loads(pickle.dumps(errors.MissingExtra("grobid-client-python", "grobid")))
    assert (extra.module, extra.extra) == ("grobid-client-python", "grobid")
    assert str(extra) == "grobid-client-python is not installed; install it with: pip install 'paperpyramid[grobid]'"
    reply = pickle.loads(pickle.dumps(errors.LLMOutputError("no valid JSON", raw="x" * 3000, usage=(12, 34))))
    assert (str(reply), len(reply.raw), reply.usage) == ("no valid JSON", 2000, (12, 34))


# -- an object deleted between listing and download -----------------------------------------

GONE = "the object was deleted before it could be downloaded (NoSuchKey)"


@contextmanager
def _spawned_pool():
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@pytest.mark.parametrize("executor", [_spawned_pool, lambda: open_executor("dask", 1)], ids=["spawn-pool", "dask"])
def test_parse_item_on_a_deleted_object_gives_a_reason_in_process_and_across_processes(s3_env, executor):
    put(s3_env, "faults1", "gone.pdf", paper(0))
    s3 = S3Settings()
    (obj,) = list(iter_objects(make_client(s3), parse_s3_uri("s3://faults1/"), s3))
    s3_env.client().remove_object("faults1", "gone.pdf")  # listed, then deleted
    item = WorkItem(obj.uri, obj=obj)
    options = IngestSettings(workers=0)
    here = parse_item(item, options, s3)
    assert here.document is None and here.error == f"unavailable: s3://faults1/gone.pdf: {GONE}"
    wrong_key = s3.model_copy(update={"access_key_id": "not-a-key"})
    with executor() as pool:
        there = pool.submit(parse_item, item, options, s3).result(timeout=120)
        assert there.document is None and there.error == here.error
        # a refusal no object can escape crosses the process boundary as itself, not as a TypeError
        # (Dask pickles the cause and context too: minio's S3Error, with its open response, must not be one)
        with pytest.raises(ConfigurationError) as refused:
            pool.submit(parse_item, item, options, wrong_key).result(timeout=120)
    assert str(refused.value) == "access denied to s3://faults1/ with the given AWS_ACCESS_KEY_ID (InvalidAccessKeyId)"


@pytest.mark.slow
@pytest.mark.parametrize("workers", [0, 1])
def test_object_deleted_between_listing_and_download_is_logged_and_the_run_completes(s3_env, tmp_path, workers):
    bucket = f"faults-race-{workers}"
    keys = ["a.pdf", "b.pdf", "c-deleted.pdf", "d.pdf"]
    for n, key in enumerate(keys):
        put(s3_env, bucket, key, paper(n))
    db = tmp_path / "c.sqlite"
    seen: list[IngestResult] = []

    def on_result(result: IngestResult) -> None:
        # the first result comes after the listing and before c-deleted.pdf is handed to a worker
        # (a worker gets the next document only when one comes back)
        if not seen:
            s3_env.client().remove_object(bucket, "c-deleted.pdf")
        seen.append(result)

    # one document a transaction: the first result comes when a.pdf is stored, not with its batch
    summary = ingest([f"s3://{bucket}/"], db, Settings(ingest=IngestSettings(workers=workers, write_batch=1)), on_result=on_result)
    outcome = log(db)
    assert outcome[f"s3://{bucket}/c-deleted.pdf"] == ("failed", f"unavailable: s3://{bucket}/c-deleted.pdf: {GONE}")
    assert {outcome[f"s3://{bucket}/{key}"][0] for key in keys if key != "c-deleted.pdf"} == {"done"}
    assert (summary.count("done"), summary.count("failed")) == (3, 1)
    # put back, the object is ingested by a plain re-run (no --retry-failed): it was never bad input
    put(s3_env, bucket, "c-deleted.pdf", paper(2))
    rerun = ingest([f"s3://{bucket}/"], db, Settings(ingest=IngestSettings(workers=workers)))
    assert rerun.count("done") == 1 and log(db)[f"s3://{bucket}/c-deleted.pdf"][0] == "done"


def test_archive_deleted_between_listing_and_opening_is_logged_and_the_run_completes(s3_env, tmp_path):
    import tarfile

    bucket = "faults-archive"
    put(s3_env, bucket, "a.pdf", paper(0))
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as tar:
        data = paper(1)
        info = tarfile.TarInfo("inside.pdf")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    put(s3_env, bucket, "b-deleted.tar", packed.getvalue())
    put(s3_env, bucket, "c.pdf", paper(2))
    db = tmp_path / "c.sqlite"
    deleted: list[bool] = []

    def on_result(result: IngestResult) -> None:
        if not deleted:  # a.pdf is done; the listing already holds b-deleted.tar
            s3_env.client().remove_object(bucket, "b-deleted.tar")
            deleted.append(True)

    summary = ingest([f"s3://{bucket}/"], db, Settings(ingest=IngestSettings(workers=0, write_batch=1)), on_result=on_result)
    outcome = log(db)
    status, reason = outcome[f"s3://{bucket}/b-deleted.tar"]
    assert status == "failed" and reason.startswith("unavailable: ") and "deleted before" in reason, reason
    assert outcome[f"s3://{bucket}/a.pdf"][0] == outcome[f"s3://{bucket}/c.pdf"][0] == "done"
    assert (summary.count("done"), summary.count("failed")) == (2, 1)


# -- a missing bucket or refused credentials: one line, exit 2 ------------------------------


def _cli_ingest(source: str, db: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "paperpyramid.cli", "ingest", source, "--db", str(db), "--workers", "0"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("source", "credentials", "message"),
    [
        pytest.param("s3://no-such-bucket/papers/", {}, f"no bucket named no-such-bucket at {ENDPOINT}", id="missing-bucket"),
        pytest.param(
            "s3://faults-cli/papers/",
            {"AWS_ACCESS_KEY_ID": "not-a-key"},
            "access denied to s3://faults-cli/ with the given AWS_ACCESS_KEY_ID (InvalidAccessKeyId)",
            id="unknown-key",
        ),
        pytest.param(
            "s3://faults-cli/papers/",
            {"AWS_SECRET_ACCESS_KEY": "not-the-secret"},
            "access denied to s3://faults-cli/ with the given AWS_ACCESS_KEY_ID (SignatureDoesNotMatch)",
            id="wrong-secret",
        ),
        pytest.param(
            "s3://faults-cli/papers/",
            {"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""},
            "access denied to s3://faults-cli/ without credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (AccessDenied)",
            id="no-credentials",
        ),
    ],
)
def test_cli_ingest_names_the_real_cause_in_one_line_and_exits_3(s3_env, tmp_path, source, credentials, message):
    put(s3_env, "faults-cli", "papers/a.pdf", paper(0))
    env = {**os.environ, **s3_env.env, **credentials, "COLUMNS": "300"}
    result = _cli_ingest(source, tmp_path / "c.sqlite", env)
    output = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert result.returncode == 3, (result.stdout, result.stderr[-3000:])
    assert output[-1] == f"error: {message}", output
    assert "Traceback" not in result.stderr and len(output) <= 2, output  # the line, and at most an empty progress bar


def test_listing_a_bucket_that_does_not_exist_is_a_configuration_error(s3_env):
    s3 = S3Settings()
    with pytest.raises(ConfigurationError, match=r"^no bucket named faults-absent at http://127\.0\.0\.1:8333$"):
        next(iter_objects(make_client(s3), parse_s3_uri("s3://faults-absent/x/"), s3))
    with pytest.raises(ConfigurationError, match=r"^cannot list s3://b/: invalid bucket name b$"):
        next(iter_objects(make_client(s3), parse_s3_uri("s3://b/"), s3))


def test_an_endpoint_that_is_not_s3_is_named_in_one_line(s3_env):
    # SeaweedFS's filer answers HTTP on 8888, but not as S3: AWS_ENDPOINT_URL set to the wrong port
    s3 = S3Settings(endpoint_url="http://127.0.0.1:8888")
    with pytest.raises(
        ConfigurationError, match=r"^http://127\.0\.0\.1:8888 did not answer as an S3 server \(HTTP \d+, .*\); check AWS_ENDPOINT_URL$"
    ):
        next(iter_objects(make_client(s3), parse_s3_uri("s3://faults-cli/"), s3))
