"""``benchmarks/measuring.py``: the measuring process the speed benchmarks share, driven for real.

A worker here is a few lines of Python in a fresh interpreter, speaking the same JSON-lines
protocol as the benchmarks' workers: the driver's requests and answers, a timeout, a worker that
dies (its stderr's last words in the error), the goodbye, and the protocol channel that keeps a
worker's prints off the pipe.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from measuring import Measuring, WorkerDied, pin_to_core  # noqa: E402

WORKER = textwrap.dedent(
    """
    import json, sys, time
    sys.path.insert(0, {benchmarks!r})
    from measuring import protocol_channel
    send = protocol_channel()
    print("a parser's notice, on stdout")  # must not reach the driver's pipe
    send({{"event": "ready"}})
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "echo":
            send({{"echo": request["value"]}})
        elif request["cmd"] == "sleep":
            time.sleep(request["seconds"])
            send({{"slept": True}})
        elif request["cmd"] == "die":
            sys.stderr.write("worker: giving up on purpose\\n")
            sys.stderr.flush()
            raise SystemExit(3)
        elif request["cmd"] == "stop":
            send({{"event": "bye", "served": True}})
            break
    """
)


def _start(tmp_path: Path) -> Measuring:
    script = tmp_path / "worker.py"
    script.write_text(WORKER.format(benchmarks=str(ROOT / "benchmarks")))
    return Measuring("toy", [sys.executable, str(script)], env=dict(os.environ), cwd=tmp_path, log=tmp_path / "toy.stderr.log")


def test_requests_are_answered_and_prints_stay_off_the_pipe(tmp_path: Path) -> None:
    worker = _start(tmp_path)
    assert worker.read(timeout=60) == {"event": "ready"}
    assert worker.request({"cmd": "echo", "value": [1, "two"]}, timeout=60) == {"echo": [1, "two"]}
    assert worker.stop({"cmd": "stop"}, answered=True) == {"event": "bye", "served": True}
    assert worker.proc.returncode == 0
    assert "a parser's notice" in (tmp_path / "toy.stderr.log").read_text()


def test_a_slow_answer_times_out(tmp_path: Path) -> None:
    worker = _start(tmp_path)
    worker.read(timeout=60)
    with pytest.raises(TimeoutError, match="toy: no answer in 0.2 s"):
        worker.request({"cmd": "sleep", "seconds": 5}, timeout=0.2)
    worker.kill()
    assert worker.proc.returncode is not None


def test_a_dead_worker_says_why(tmp_path: Path) -> None:
    worker = _start(tmp_path)
    worker.read(timeout=60)
    with pytest.raises(WorkerDied, match=r"the toy process ended .*giving up on purpose"):
        worker.request({"cmd": "die"}, timeout=60)
    with pytest.raises(WorkerDied):  # and the next request too, not a hang or a bare BrokenPipeError
        worker.request({"cmd": "echo", "value": 1}, timeout=5)
    assert worker.stop({"cmd": "stop"}, answered=True) == {}
    assert worker.proc.returncode == 3


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="this system cannot pin a process to a core")
def test_pin_to_core_takes_an_allowed_core() -> None:
    allowed = os.sched_getaffinity(0)
    try:
        assert pin_to_core(10_000) == min(allowed)  # a core it may not use: the first it may
        assert os.sched_getaffinity(0) == {min(allowed)}
    finally:
        os.sched_setaffinity(0, allowed)
