"""A worker task for the thread tests: what BLAS and OpenMP thread pools a worker process runs
once numpy is loaded in it (as the embedder loads it), and the variables the libraries read."""

from __future__ import annotations

import os
from typing import Any


def probe(*, on_phase: Any = None) -> dict[str, Any]:
    import numpy
    from threadpoolctl import threadpool_info

    numpy.ones((64, 64)) @ numpy.ones((64, 64))  # the BLAS in use, loaded and run
    pools = [pool for pool in threadpool_info() if pool.get("user_api") in ("blas", "openmp")]
    return {
        "threads": max((pool["num_threads"] for pool in pools), default=None),
        "pools": len(pools),
        "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
    }
