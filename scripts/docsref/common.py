"""What every page shares: the checkout's root, the command that regenerates the pages, and the
notice at the top of each."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the package is the checkout's
    sys.path.insert(0, str(ROOT))

REGENERATE = ".venv/bin/python scripts/docs_reference.py"
NOTICE = f"<!-- Generated from the code by scripts/docs_reference.py: do not edit; run {REGENERATE} -->"
