"""The Docker files cannot be run here (no engine), so what can be checked by reading them is:
every service URL the containers are given names a service and a port that service serves, and
the ingest service waits for the parser services it checks once per run."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest

DOCKER = Path(__file__).resolve().parents[1] / "docker"
yaml = pytest.importorskip("yaml", reason="PyYAML reads the compose file (it comes with dask)")


def _compose() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((DOCKER / "docker-compose.yml").read_text())  # type: ignore[no-any-return]


def _served_ports(service: dict, name: str) -> set[int]:  # type: ignore[type-arg]
    """The ports a service listens on: its expose list, the container side of its published ports,
    and what its own Dockerfile exposes."""
    ports = {int(str(port)) for port in service.get("expose", [])}
    ports |= {int(str(mapping).rsplit(":", 1)[-1]) for mapping in service.get("ports", [])}
    dockerfile = service.get("build", {}).get("dockerfile")
    if dockerfile:
        text = (DOCKER.parent / dockerfile).read_text()
        ports |= {int(port) for port in re.findall(r"^EXPOSE (\d+)", text, re.M)}
    return ports


def test_every_service_url_names_a_service_on_a_port_it_serves() -> None:
    compose = _compose()
    services = compose["services"]
    environment = compose["x-s3-environment"]
    urls = {name: value for name, value in environment.items() if name.endswith("_URL") and value and "${" not in value}
    urls["NOUGAT_URL (comment)"] = re.search(r"NOUGAT_URL \((http://[^ )]+)", (DOCKER / "docker-compose.yml").read_text()).group(1)  # type: ignore[union-attr]
    assert {"PAPERPYRAMID_INGEST__SERVICES__GROBID_URL", "PAPERPYRAMID_INGEST__SERVICES__TABLES_URL"} <= set(urls)
    for name, url in urls.items():
        parsed = urlparse(url)
        assert parsed.hostname in services, (name, url)
        served = _served_ports(services[parsed.hostname], parsed.hostname)
        assert parsed.port in served, f"{name} = {url}, but {parsed.hostname} serves {sorted(served)}"
    # the Dockerfile's own port agrees with the compose file's (Nougat: 8503 in both)
    nougat = services["nougat"]
    assert (
        {int(port) for port in nougat["expose"]}
        == {8503}
        == set(map(int, re.findall(r"--port\", \"(\d+)", (DOCKER / "Dockerfile.nougat").read_text())))
    )


def test_ingest_waits_for_the_parser_services_it_checks_once() -> None:
    services = _compose()["services"]
    depends = services["ingest"]["depends_on"]
    for name in ("grobid", "tables"):
        assert depends[name]["condition"] == "service_healthy"
        assert "healthcheck" in services[name]
