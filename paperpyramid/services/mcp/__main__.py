"""``python -m paperpyramid.services.mcp --db PATH [--http --host H --port N]``: the server
without the CLI (the CLI's ``paperpyramid mcp`` calls the same :func:`run_mcp`). Over HTTP the
token is ``PAPERPYRAMID_SERVE__API_TOKEN``, as for ``paperpyramid serve``."""

from __future__ import annotations

import argparse
import sys

from paperpyramid.env import read_env
from paperpyramid.errors import PaperPyramidError
from paperpyramid.services.mcp import run_mcp


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m paperpyramid.services.mcp", description="Serve a corpus read-only over MCP.")
    parser.add_argument("--db", required=True, help="the corpus file")
    parser.add_argument("--http", action="store_true", help="streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind with --http (127.0.0.1 keeps it on this machine)")
    parser.add_argument("--port", type=int, default=8765, help="port with --http")
    args = parser.parse_args(argv)
    try:
        run_mcp(args.db, http=args.http, host=args.host, port=args.port, token=read_env("PAPERPYRAMID_SERVE__API_TOKEN") or None)
    except (FileNotFoundError, PaperPyramidError) as exc:
        print(f"error: {exc}", file=sys.stderr)  # stdout is the MCP channel over stdio
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
