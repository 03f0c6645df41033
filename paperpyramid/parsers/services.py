"""The service-backed parsers (``auto``, ``grobid``, ``unstructured``, ``nougat``): the
embedded parse, always made (it is the fallback, and cheap), merged with what GROBID, the
table service and Nougat deliver. A service that is down, slow or refuses the document costs
that part only: the document falls back to the next source and the reason is recorded on it.

Which services a run uses is decided once, at its start (:func:`resolve_services`): a service
named explicitly (``--parser grobid``) must answer, or the run stops with a clear error;
``auto`` uses the configured services that answer and records why the others were left out.
"""

from __future__ import annotations

import logging
from pathlib import Path

import httpx

from paperpyramid.document import Document
from paperpyramid.errors import BadInput, ServiceUnavailable
from paperpyramid.parsers import SERVICES_OF
from paperpyramid.parsers.embedded import parse_pdf as parse_embedded
from paperpyramid.parsers.merge import Delivered, merge
from paperpyramid.settings import IngestSettings, ServiceSettings

log = logging.getLogger(__name__)

_HEALTH = {"grobid": "/api/isalive", "tables": "/healthz", "nougat": "/healthz"}
_NAMES = {"grobid": "GROBID", "tables": "the table service", "nougat": "the Nougat service"}


def service_url(services: ServiceSettings, service: str) -> str | None:
    url: str | None = getattr(services, f"{service}_url")
    return url.rstrip("/") if url else None


def _enabled_url(services: ServiceSettings, service: str) -> str:
    url = service_url(services, service)
    assert url is not None, f"{service} enabled without a URL"  # resolve_services enables only configured ones
    return url


def is_reachable(url: str, service: str, timeout: float = 5.0) -> str | None:
    """None when the service answers its health check, else why not (one line)."""
    try:
        response = httpx.get(url + _HEALTH[service], timeout=timeout)
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}"
    if response.status_code != 200 or (service == "grobid" and response.text.strip().lower() != "true"):
        return f"health check answered HTTP {response.status_code}"
    return None


def resolve_services(options: IngestSettings) -> tuple[IngestSettings, list[str]]:
    """Decide which services this run uses; return the settings to pass down and the notes
    to record on every article (why a configured service is not used).

    Raises :class:`ServiceUnavailable` when a service named explicitly is missing or down.
    """
    wanted = SERVICES_OF.get(options.parser)
    if wanted is None:
        return options, []
    enabled: list[str] = []
    notes: list[str] = []
    for service in wanted:
        url = service_url(options.services, service)
        if url is None:
            if options.parser != "auto":
                raise ServiceUnavailable(
                    f"--parser {options.parser} needs {_NAMES[service]}: set PAPERPYRAMID_INGEST__SERVICES__{service.upper()}_URL"
                )
            continue
        problem = is_reachable(url, service)
        if problem is None:
            enabled.append(service)
            continue
        if options.parser != "auto":
            raise ServiceUnavailable(f"{_NAMES[service]} is not reachable at {url} ({problem}); start it or use --parser embedded")
        notes.append(
            f"{_NAMES[service]} not reachable at {url} at the start of the run ({problem}): its part came from the embedded parser"
        )
        log.warning(notes[-1])
    services = options.services.model_copy(update={"enabled": enabled, "notes": notes})
    return options.model_copy(update={"services": services}), notes


def parse_pdf(
    path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None, options: IngestSettings | None = None
) -> Document:
    """Parse with the services the run enabled, merged over the embedded parse."""
    options = options or IngestSettings(parser="auto")
    if options.services.enabled is None:
        options, _ = resolve_services(options)
    notes = options.services.notes
    embedded = parse_embedded(path, password=password, max_pages=max_pages, time_limit=time_limit, ocr=options.ocr)
    services = options.services
    delivered = Delivered(warnings=list(notes))
    timeout = min(services.timeout, time_limit) if time_limit else services.timeout
    enabled = services.enabled or []
    if "grobid" in enabled:
        delivered.grobid = _attempt(delivered, "grobid", lambda: _grobid(path, _enabled_url(services, "grobid"), timeout))
    if "tables" in enabled:
        delivered.tables = _attempt(delivered, "tables", lambda: _tables(path, _enabled_url(services, "tables"), timeout))
    if "nougat" in enabled:
        result = _attempt(delivered, "nougat", lambda: _nougat(path, _enabled_url(services, "nougat"), timeout))
        if result is not None:
            delivered.formulas, pages, warnings = result
            delivered.formula_pages = set(pages)
            delivered.warnings += warnings
    return merge(embedded, delivered)


def _attempt(delivered: Delivered, service: str, call):  # type: ignore[no-untyped-def]
    """Run one service call; on an outage or a refusal record why and deliver nothing."""
    try:
        return call()
    except ServiceUnavailable as exc:
        delivered.warnings.append(f"{_NAMES[service]} unavailable ({exc}): this part came from the embedded parser")
    except BadInput as exc:
        delivered.warnings.append(f"{_NAMES[service]} could not read the document ({exc}): this part came from the embedded parser")
    return None


def _grobid(path: Path, url: str, timeout: float) -> Document:
    from paperpyramid.parsers import grobid

    return grobid.parse_pdf(path, url=url, time_limit=timeout)


def _tables(path: Path, url: str, timeout: float):  # type: ignore[no-untyped-def]
    from paperpyramid.parsers import unstructured

    return unstructured.parse_tables(path, url=url, timeout=timeout)


def _nougat(path: Path, url: str, timeout: float):  # type: ignore[no-untyped-def]
    from paperpyramid.parsers import nougat

    formulas, warnings = nougat.parse_formulas(path, url=url, timeout=timeout)
    return formulas, sorted({formula.page for formula in formulas}), warnings
