"""Stored vectors as int8 or float16 against float32: retrieval quality and bytes per paper, one run.

From one corpus with float32 vectors (``--real``: the shared corpus ingested with
all-MiniLM-L6-v2, optionally with reference distillations imported), three copies are made:

- ``float32``: the corpus as it is;
- ``int8``: its vectors rewritten by ``vector_index.convert_storage`` (the product's format);
- ``float16``: every vector rounded to float16 and stored back as float32, so that search sees
  exactly what a float16 column would give (the bytes of a float16 column are counted as half
  of float32's; sqlite-vec 0.1.9 has no float16 type, so it would be a BLOB read by numpy).

Each copy is scored by ``paperpyramid eval retrieval`` (``--modes``, every mode in one run),
vacuumed, and measured by table with SQLite's ``dbstat`` (sqlite-vec's shadow tables counted
under their vec0 table; FTS5's under their index), in bytes per article.

    .venv/bin/python benchmarks/vector_storage.py --real corpus.sqlite --out /tmp/vector_storage
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.sqlite import connect, load_vec
from paperpyramid.db.writer import CorpusWriter

QA = Path(__file__).resolve().parents[2] / "shared" / "qa" / "corpus-qa.jsonl"
_SHADOW = re.compile(r"^(vec_[a-z]+_\d+|[a-z_]+_fts)(_.*)?$")


def _round_to_float16(path: Path) -> None:
    conn = connect(path)
    load_vec(conn)
    for embedder in db_vectors.embedders(conn):
        tables = [(embedder.vec_table, "context_id")]
        tables += [
            (db_vectors.level_table(embedder, level), "item_id")
            for level in db_vectors.LEVELS
            if db_vectors.has_level_table(conn, embedder, level)
        ]
        for table, key in tables:
            rows = conn.execute(f"SELECT {key}, embedding FROM {table}").fetchall()
            matrix = db_vectors.decode([blob for _, blob in rows], embedder.dimension).astype(np.float16).astype(np.float32)
            conn.executemany(
                f"UPDATE {table} SET embedding = ? WHERE {key} = ?", [(m.tobytes(), i) for (i, _), m in zip(rows, matrix, strict=True)]
            )
    conn.commit()
    conn.close()


def _to_int8(path: Path) -> None:
    conn = connect(path)
    load_vec(conn)
    for embedder in db_vectors.embedders(conn):
        vector_index.convert_storage(conn, embedder, "int8")
    conn.commit()
    conn.close()


def bytes_by_table(path: Path) -> tuple[int, dict[str, int]]:
    """(articles, bytes per table after VACUUM), shadow tables and indexes under their table."""
    conn = connect(path)
    load_vec(conn)
    conn.execute("VACUUM")
    conn.close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # the standard library's build has dbstat
    articles = int(conn.execute("SELECT count(*) FROM articles").fetchone()[0])
    owner = {name: tbl for name, tbl in conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'")}
    sizes: dict[str, int] = {}
    for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        table = owner.get(name, name)
        match = _SHADOW.match(table)
        key = (
            match.group(1)
            if match and (match.group(1).startswith("vec_") or table.endswith(("_data", "_idx", "_docsize", "_config", "_content")))
            else table
        )
        sizes[key] = sizes.get(key, 0) + int(size)
    conn.close()
    return articles, sizes


def evaluate(path: Path, qa: Path, modes: str, out: Path, *, only_distilled: bool = False) -> dict[str, Any]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cli = [
        str(Path(sys.executable).parent / "paperpyramid"),
        "eval",
        "retrieval",
        str(qa),
        "--db",
        str(path),
        "--modes",
        modes,
        "--out",
        str(out),
        *(["--only-distilled"] if only_distilled else []),
    ]
    subprocess.run(cli, check=True, env=env, stdout=subprocess.DEVNULL)
    result: dict[str, Any] = json.loads(out.read_text())
    return result


_METRICS = ("mrr@10", "r@20", "within_2k", "within_4k", "within_8k")


def report(results: dict[str, Any]) -> str:
    """Markdown: quality per mode and storage (with the change against float32), bytes per article by table."""
    lines = ["| mode | storage | " + " | ".join(_METRICS) + " |", "| --- | --- | " + " | ".join("---" for _ in _METRICS) + " |"]
    base = results["float32"]["quality"]
    for mode, scores in base.items():
        if "overall" not in scores:
            continue
        for storage, result in results.items():
            overall = result["quality"][mode]["overall"]
            cells = [
                f"{overall[m]:.3f}" + ("" if storage == "float32" else f" ({overall[m] - scores['overall'][m]:+.3f})") for m in _METRICS
            ]
            lines.append(f"| {mode} | {storage} | " + " | ".join(cells) + " |")
    tables = sorted(results["float32"]["bytes"], key=lambda t: -results["float32"]["bytes"][t])
    lines += ["", "| table | " + " | ".join(f"{s} KB/article" for s in results) + " |", "| --- |" + " --- |" * len(results)]
    for table in [*tables, "total"]:
        cells = []
        for result in results.values():
            size = sum(result["bytes"].values()) if table == "total" else result["bytes"].get(table, 0)
            cells.append(f"{size / result['articles'] / 1000:.1f}")
        lines.append(f"| {table} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=Path, required=True, help="a corpus with float32 vectors")
    parser.add_argument("--out", type=Path, default=Path("/tmp/vector_storage"))
    parser.add_argument("--qa", type=Path, default=QA)
    parser.add_argument("--modes", default="bm25,vector,hybrid,parent")
    parser.add_argument(
        "--only-distilled", action="store_true", help="only the questions about distilled papers (for the pyramid's levels)"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    for storage, convert in (("float32", None), ("int8", _to_int8), ("float16", _round_to_float16)):
        path = args.out / f"{storage}.sqlite"
        path.unlink(missing_ok=True)
        shutil.copyfile(args.real, path)
        with CorpusWriter(path):  # brings the copy to this version's schema
            pass
        if convert is not None:
            convert(path)
        quality = evaluate(path, args.qa, args.modes, args.out / f"{storage}.eval.json", only_distilled=args.only_distilled)
        articles, sizes = bytes_by_table(path)
        if storage == "float16":  # what a float16 column would hold: half of float32's vector bytes
            sizes = {table: size // 2 if table.startswith("vec_") else size for table, size in sizes.items()}
        results[storage] = {"quality": quality, "articles": articles, "bytes": sizes}
        print(storage, json.dumps({"articles": articles, "total_per_article": sum(sizes.values()) / articles}), file=sys.stderr, flush=True)
    (args.out / "vector_storage.json").write_text(json.dumps(results, indent=1))
    print(report(results))


if __name__ == "__main__":
    main()
