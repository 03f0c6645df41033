"""The environment's names for settings: one scheme, ``PAPERPYRAMID_<GROUP>__<FIELD>``, and the
older names still read for a while, each with a :class:`DeprecationWarning` naming its successor.

This module imports nothing from paperpyramid, so that the few readers below the settings object
(the OCR program's path in a parser process, the snapshot cache, the service's token) read the
same names as :class:`paperpyramid.settings.Settings`.
"""

from __future__ import annotations

import os
import warnings

__all__ = ["DEPRECATED_ENV", "deprecated_values", "read_env"]

#: old variable -> the variable that replaced it
DEPRECATED_ENV: dict[str, str] = {
    "PAPERPYRAMID_GROBID_URL": "PAPERPYRAMID_INGEST__SERVICES__GROBID_URL",
    "PAPERPYRAMID_TABLES_URL": "PAPERPYRAMID_INGEST__SERVICES__TABLES_URL",
    "PAPERPYRAMID_NOUGAT_URL": "PAPERPYRAMID_INGEST__SERVICES__NOUGAT_URL",
    "PAPERPYRAMID_TESSERACT": "PAPERPYRAMID_INGEST__TESSERACT",
    "PAPERPYRAMID_S3_ENDPOINT_URL": "PAPERPYRAMID_S3__ENDPOINT_URL",
    "PAPERPYRAMID_S3_ACCESS_KEY_ID": "PAPERPYRAMID_S3__ACCESS_KEY_ID",
    "PAPERPYRAMID_S3_SECRET_ACCESS_KEY": "PAPERPYRAMID_S3__SECRET_ACCESS_KEY",
    "PAPERPYRAMID_S3_REGION": "PAPERPYRAMID_S3__REGION",
    "PAPERPYRAMID_S3_RETRIES": "PAPERPYRAMID_S3__RETRIES",
    "PAPERPYRAMID_S3_BACKOFF": "PAPERPYRAMID_S3__BACKOFF",
    "PAPERPYRAMID_DB": "PAPERPYRAMID_CORPUS__DB",
    "PAPERPYRAMID_CACHE_DIR": "PAPERPYRAMID_CORPUS__CACHE_DIR",
    "PAPERPYRAMID_API_TOKEN": "PAPERPYRAMID_SERVE__API_TOKEN",
}
_REPLACED = {new: old for old, new in DEPRECATED_ENV.items()}
_PREFIX = "PAPERPYRAMID_"


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: set {new} instead", DeprecationWarning, stacklevel=3)


def read_env(name: str) -> str | None:
    """The value of the variable ``name``; when it is unset and replaced an older one, the older
    one's value (with a deprecation warning)."""
    value = os.environ.get(name)
    if value is not None:
        return value
    old = _REPLACED.get(name)
    if old is not None and old in os.environ:
        _warn(old, name)
        return os.environ[old]
    return None


def adopt_deprecated() -> list[tuple[str, str]]:
    """For a process that reads only the new names (the command line's options do): each older
    variable still set whose successor is not is copied to its successor in this process's
    environment. Returns the ``(old, new)`` pairs copied, for the caller to warn about."""
    adopted = [(old, new) for old, new in DEPRECATED_ENV.items() if old in os.environ and new not in os.environ]
    for old, new in adopted:
        os.environ[new] = os.environ[old]
    return adopted


def deprecated_values(*, group: str | None = None, skip: tuple[str, ...] = ()) -> dict[str, object]:
    """The settings the older variables set (and their successors do not), nested as
    ``Settings`` takes them: ``{"ingest": {"services": {"grobid_url": ...}}}``; only ``group``'s
    when given, never those of the groups in ``skip``. Each variable read warns once per call, so
    a reader asks only for the groups it fills."""
    nested: dict[str, object] = {}
    for old, new in DEPRECATED_ENV.items():
        path = new[len(_PREFIX) :].lower().split("__")
        if old not in os.environ or new in os.environ or path[0] in skip or group not in (None, path[0]):
            continue
        _warn(old, new)
        node = nested
        for part in path[:-1]:
            child = node.setdefault(part, {})
            assert isinstance(child, dict)
            node = child
        node[path[-1]] = os.environ[old]
    return nested
