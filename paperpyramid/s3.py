"""The object store, through the ``minio`` client: connection from settings, ``s3://`` URIs,
paged listing, downloads to temporary files, and retries of transient errors.

Transient: timeouts, refused or dropped connections, HTTP 5xx and S3's SlowDown. Anything
else (no such bucket, access denied) is raised at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlparse

import urllib3
from minio import Minio
from minio.error import S3Error, ServerError

from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.settings import S3Settings

log = logging.getLogger(__name__)
T = TypeVar("T")

_TRANSIENT_CODES = {"SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "RequestTimeTooSkewed"}


@dataclass(frozen=True, slots=True)
class S3Location:
    bucket: str
    prefix: str = ""

    def uri(self, key: str | None = None) -> str:
        return f"s3://{self.bucket}/{key if key is not None else self.prefix}"


@dataclass(frozen=True, slots=True)
class S3Object:
    bucket: str
    key: str
    etag: str
    size: int

    @property
    def uri(self) -> str:
        return f"s3://{self.bucket}/{self.key}"


def parse_s3_uri(uri: str) -> S3Location:
    """``s3://bucket/some/prefix`` -> S3Location("bucket", "some/prefix")."""
    parsed = urlparse(uri)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise ConfigurationError(f"not an s3:// URI: {uri!r} (expected s3://BUCKET/PREFIX)")
    return S3Location(parsed.netloc, parsed.path.lstrip("/"))


def make_client(settings: S3Settings) -> Minio:
    """A minio client for the configured endpoint (``AWS_ENDPOINT_URL`` and friends)."""
    parsed = urlparse(settings.endpoint_url if "://" in settings.endpoint_url else f"http://{settings.endpoint_url}")
    if not parsed.netloc:
        raise ConfigurationError(f"bad S3 endpoint {settings.endpoint_url!r}; set AWS_ENDPOINT_URL, e.g. http://localhost:9000")
    # short timeouts and no urllib3 retries: retries are ours, with backoff and a log line
    http = urllib3.PoolManager(timeout=urllib3.Timeout(connect=5, read=60), retries=False, maxsize=16)
    return Minio(
        parsed.netloc,
        access_key=settings.access_key_id,
        secret_key=settings.secret_access_key,
        secure=parsed.scheme == "https",
        region=settings.region,
        http_client=http,
    )


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, ServerError):
        return True
    if isinstance(exc, S3Error):
        return exc.code in _TRANSIENT_CODES
    return isinstance(exc, urllib3.exceptions.HTTPError | ConnectionError | TimeoutError)


def with_retries(call: Callable[[], T], settings: S3Settings, what: str, *, sleep: Callable[[float], None] = time.sleep) -> T:
    """Run ``call``; on a transient error wait (0.5 s, 1 s, 2 s, … up to 30 s) and try again,
    ``settings.retries`` times, then raise :class:`ServiceUnavailable`."""
    delay = settings.backoff
    for attempt in range(settings.retries + 1):
        try:
            return call()
        except Exception as exc:
            if not is_transient(exc):
                raise
            if attempt == settings.retries:
                raise ServiceUnavailable(f"S3 unavailable while {what} ({settings.endpoint_url}): {type(exc).__name__}: {exc}") from exc
            log.warning("S3 error while %s (attempt %d of %d), retrying in %.1f s: %s", what, attempt + 1, settings.retries + 1, delay, exc)
            sleep(delay)
            delay = min(delay * 2, 30.0)
    raise AssertionError("unreachable")


def iter_objects(client: Minio, location: S3Location, settings: S3Settings, *, suffixes: tuple[str, ...] = (".pdf",)) -> Iterator[S3Object]:
    """Objects under the prefix whose names end with ``suffixes`` (any case), page by page:
    the server's listing is consumed lazily, never held in memory whole. A listing broken off
    by a transient error restarts after the last key seen."""
    start_after: str | None = None
    delay = settings.backoff
    failures = 0
    while True:
        try:
            for item in client.list_objects(location.bucket, prefix=location.prefix or None, recursive=True, start_after=start_after):
                if item.is_dir or item.object_name is None:
                    continue
                start_after = item.object_name
                failures = 0
                if item.object_name.lower().endswith(suffixes):
                    yield S3Object(location.bucket, item.object_name, (item.etag or "").strip('"'), item.size or 0)
            return
        except Exception as exc:
            if not is_transient(exc) or failures >= settings.retries:
                if is_transient(exc):
                    raise ServiceUnavailable(f"S3 unavailable while listing {location.uri()}: {exc}") from exc
                raise
            failures += 1
            log.warning("listing %s broke off, resuming after %r in %.1f s: %s", location.uri(), start_after, delay, exc)
            time.sleep(delay)
            delay = min(delay * 2, 30.0)


def download(client: Minio, obj: S3Object, target: Path, settings: S3Settings) -> Path:
    """Download one object to ``target`` (a path in a temporary folder), with retries."""
    with_retries(lambda: client.fget_object(obj.bucket, obj.key, str(target)), settings, f"downloading {obj.uri}")
    return target
