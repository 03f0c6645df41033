"""Write the documentation's reference pages from the code, so that they cannot drift from it.

    docs/reference/cli.md            every command, subcommand, argument and option (walked from click)
    docs/reference/configuration.md  every setting at every depth, with its environment variable
    docs/reference/python-api.md     every name ``paperpyramid`` exports, with signatures and docstrings

Run ``.venv/bin/python scripts/docs_reference.py`` after changing the CLI, the settings or the
public API; ``--check`` writes nothing and exits 1 naming each page that differs from what it
would write (tests/test_docs.py runs the same check).

Everything is read from the live objects (click's command tree, the pydantic models' fields,
``paperpyramid.__all__``), never from a list kept here; the pages hold no machine's values (a
default computed at run time, such as the CPU count, is shown as computed), no addresses and no
dates, so two machines write the same bytes. One module a page, in ``scripts/docsref/``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # docsref/, beside this file

from docsref import cli as cli_reference  # noqa: E402
from docsref import configuration, python_api  # noqa: E402
from docsref.cli import (  # noqa: E402
    exit_codes,
    is_argument,
    iter_commands,
    iter_commands_of,
    param_choices,
    param_display,
    param_metavar,
    visible_params,
)
from docsref.common import REGENERATE, ROOT  # noqa: E402
from docsref.configuration import deprecated_env, iter_groups, iter_settings, settings_class  # noqa: E402

PAGES: dict[str, Callable[[], str]] = {
    "docs/reference/cli.md": cli_reference.cli_page,
    "docs/reference/configuration.md": configuration.configuration_page,
    "docs/reference/python-api.md": python_api.python_api_page,
}


def render() -> dict[str, str]:
    """Each page's path (relative to the repository) and the text it should hold."""
    return {path: make() for path, make in PAGES.items()}


def stale_pages(root: Path = ROOT) -> list[str]:
    """The pages whose committed text differs from what ``render`` writes."""
    return [path for path, text in render().items() if not (root / path).is_file() or (root / path).read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each page that is not what the code would write")
    args = parser.parse_args(argv)
    pages = render()
    if args.check:
        stale = [path for path, text in pages.items() if not (ROOT / path).is_file() or (ROOT / path).read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"stale: {path} (run {REGENERATE})", file=sys.stderr)
        return 1 if stale else 0
    for path, text in pages.items():
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


__all__ = [
    "configuration",
    "deprecated_env",
    "exit_codes",
    "is_argument",
    "iter_commands",
    "iter_commands_of",
    "iter_groups",
    "iter_settings",
    "param_choices",
    "param_display",
    "param_metavar",
    "python_api",
    "render",
    "settings_class",
    "stale_pages",
    "visible_params",
]

if __name__ == "__main__":
    sys.exit(main())
