"""Memory of `paperpyramid ingest --watch` over a bucket that is already fully ingested.

    .venv/bin/python benchmarks/watch_memory.py [--objects 2000] [--minutes 10] [--poll 1]

Starts a SeaweedFS server on 127.0.0.1 (as the tests do), uploads ``--objects`` small distinct
PDFs, ingests them once, then runs the real command line with ``--watch`` (every pass lists
every object and finds it done) for ``--minutes``, sampling the process's resident memory
every 10 s. Reported: RSS after the first minute and at the end, the growth between them, and
the samples. Before the summary stopped keeping results, each pass kept one per listed object
(about 300 bytes each): 2,000 objects listed every second or two is tens of MB in 10 minutes.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=2000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between listings")
    args = parser.parse_args()

    from paperpyramid.ingestion import ingest
    from paperpyramid.settings import IngestSettings, Settings
    from tests.pdf_maker import text_pdf
    from tests.s3server import SeaweedServer

    with tempfile.TemporaryDirectory() as folder:
        server = SeaweedServer(Path(folder) / "s3")
        server.start()
        try:
            for name, value in server.env.items():
                os.environ[name] = value
            server.make_bucket("watched")
            client = server.client()
            for index in range(args.objects):
                data = text_pdf([[(f"Paper number {index}", 12)]])
                client.put_object("watched", f"incoming/p{index:06d}.pdf", io.BytesIO(data), len(data))
            db = Path(folder) / "corpus.sqlite"
            started = time.perf_counter()
            first = ingest(["s3://watched/incoming/"], db, Settings(ingest=IngestSettings(workers=2, embed=False)))
            print(f"ingested {first.count('done')} objects in {time.perf_counter() - started:.0f} s", flush=True)

            command = [
                str(Path(sys.executable).with_name("paperpyramid")),
                "ingest",
                "s3://watched/incoming/",
                "--db",
                str(db),
                "--watch",
                "--poll-interval",
                str(args.poll),
                "--max-poll-interval",
                str(args.poll),
                "--workers",
                "1",
                "--no-embed",
            ]
            watcher = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            process = psutil.Process(watcher.pid)
            samples: list[tuple[float, float]] = []
            begin = time.monotonic()
            try:
                while (elapsed := time.monotonic() - begin) < args.minutes * 60:
                    samples.append((round(elapsed), process.memory_info().rss / 2**20))
                    time.sleep(10)
                samples.append((round(time.monotonic() - begin), process.memory_info().rss / 2**20))
            finally:
                watcher.terminate()
                watcher.wait(timeout=30)
        finally:
            server.stop()

    after_minute = next((rss for t, rss in samples if t >= 60), samples[0][1])
    end = samples[-1][1]
    report = {
        "objects": args.objects,
        "minutes": args.minutes,
        "poll_seconds": args.poll,
        "rss_after_1_min_mib": round(after_minute, 1),
        "rss_at_end_mib": round(end, 1),
        "growth_mib": round(end - after_minute, 1),
        "samples": [(t, round(rss, 1)) for t, rss in samples],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
