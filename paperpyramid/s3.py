"""The object store, through the ``minio`` client: connection from settings, ``s3://`` URIs,
paged listing, downloads to temporary files, and retries of transient errors.

Transient: timeouts, refused or dropped connections, HTTP 5xx and S3's SlowDown. Anything
else is raised at once, as one of paperpyramid's exceptions (which pickle, unlike minio's
``S3Error``: a worker process can hand them to its parent): a bucket that does not exist or
refuses the credentials is a :class:`ConfigurationError`, a listed object deleted before its
download an :class:`ObjectGone`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

import urllib3
from minio import Minio
from minio.error import InvalidResponseError, S3Error, ServerError

from paperpyramid.errors import BadInput, ConfigurationError, ObjectGone, PaperPyramidError, ServiceUnavailable
from paperpyramid.settings import S3Settings

log = logging.getLogger(__name__)
T = TypeVar("T")

_TRANSIENT_CODES = {"SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "RequestTimeTooSkewed"}
#: refusals of the credentials themselves: no request of the run can succeed
_BAD_CREDENTIALS = {
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "ExpiredToken",
    "InvalidToken",
    "TokenRefreshRequired",
    "AuthorizationHeaderMalformed",
}
#: refusals of these credentials on this bucket (or of this one object, on a download)
_DENIED = {"AccessDenied", "AllAccessDisabled", "AccountProblem"}


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


def _access_denied(uri: str, code: str | None, settings: S3Settings) -> ConfigurationError:
    if settings.access_key_id:
        return ConfigurationError(f"access denied to {uri} with the given AWS_ACCESS_KEY_ID ({code})")
    return ConfigurationError(f"access denied to {uri} without credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY ({code})")


def _listing_error(exc: Exception, location: S3Location, settings: S3Settings) -> PaperPyramidError | None:
    """One line naming why ``location`` cannot be listed (no such bucket, credentials refused,
    not an S3 server), or None for an error that is not about the settings."""
    if isinstance(exc, S3Error):
        if exc.code == "NoSuchBucket":
            return ConfigurationError(f"no bucket named {location.bucket} at {settings.endpoint_url}")
        if exc.code in _BAD_CREDENTIALS or exc.code in _DENIED:
            return _access_denied(f"s3://{location.bucket}/", exc.code, settings)
        return ConfigurationError(f"cannot list {location.uri()} at {settings.endpoint_url}: {exc.code}: {exc.message}")
    status = getattr(exc, "_code", None)  # minio keeps the HTTP status of a non-XML reply private
    if isinstance(exc, InvalidResponseError) and isinstance(status, int) and status < 500:
        # a web page, not an S3 answer: AWS_ENDPOINT_URL names another service (MinIO's console port, say)
        kind = getattr(exc, "_content_type", None) or "no content type"
        return ConfigurationError(f"{settings.endpoint_url} did not answer as an S3 server (HTTP {status}, {kind}); check AWS_ENDPOINT_URL")
    if isinstance(exc, ValueError):  # minio checks bucket names before asking
        return ConfigurationError(f"cannot list {location.uri()}: {exc}")
    return None


def iter_objects(client: Minio, location: S3Location, settings: S3Settings, *, suffixes: tuple[str, ...] = (".pdf",)) -> Iterator[S3Object]:
    """Objects under the prefix whose names end with ``suffixes`` (any case), page by page:
    the server's listing is consumed lazily, never held in memory whole. A listing broken off
    by a transient error restarts after the last key seen. A bucket that does not exist or
    refuses the credentials raises :class:`ConfigurationError` (one line)."""
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
                refusal = _listing_error(exc, location, settings)
                if refusal is not None:
                    raise refusal from exc
                raise
            failures += 1
            log.warning("listing %s broke off, resuming after %r in %.1f s: %s", location.uri(), start_after, delay, exc)
            time.sleep(delay)
            delay = min(delay * 2, 30.0)


def download(client: Minio, obj: S3Object, target: Path, settings: S3Settings) -> Path:
    """Download one object to ``target`` (a path in a temporary folder), with retries.

    Raises :class:`ObjectGone` when the object was deleted since it was listed,
    :class:`BadInput` when this one object is refused, :class:`ConfigurationError` when no
    object can be (the bucket is gone, the credentials are refused) and
    :class:`ServiceUnavailable` after the retries of an outage."""
    try:
        with_retries(lambda: client.fget_object(obj.bucket, obj.key, str(target)), settings, f"downloading {obj.uri}")
    except S3Error as exc:
        refusal = _download_error(exc, obj, settings)
    else:
        return target
    # raised outside the except block, unchained: this error may travel to a parent process, and
    # where tracebacks travel with it (Dask's tblib) the S3Error would too, with its open response
    raise refusal


def open_object(client: Minio, obj: S3Object, settings: S3Settings) -> Any:
    """Open one object as a stream (an archive read member by member), with retries; the caller
    closes it and releases its connection. Raises as :func:`download` does."""
    try:
        return with_retries(lambda: client.get_object(obj.bucket, obj.key), settings, f"opening {obj.uri}")
    except S3Error as exc:
        refusal = _download_error(exc, obj, settings)
    raise refusal


def _download_error(exc: S3Error, obj: S3Object, settings: S3Settings) -> PaperPyramidError:
    if exc.code in ("NoSuchKey", "NotFound"):
        return ObjectGone(f"{obj.uri}: the object was deleted before it could be downloaded ({exc.code})", uri=obj.uri)
    if exc.code == "NoSuchBucket":
        return ConfigurationError(f"no bucket named {obj.bucket} at {settings.endpoint_url}")
    if exc.code in _BAD_CREDENTIALS:
        return _access_denied(f"s3://{obj.bucket}/", exc.code, settings)
    if exc.code in _DENIED:  # this object's policy or encryption key, perhaps not the others'
        return BadInput(f"{obj.uri}: access denied with the given credentials ({exc.code})")
    return BadInput(f"{obj.uri}: could not be downloaded ({exc.code}: {exc.message})")
