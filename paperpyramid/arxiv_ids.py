"""arXiv identifiers, written one way: new style ``YYMM.NNNNN`` (month 01-12), old style
``archive/YYMMNNN`` with the archive named in full and no subject class, never a version.

Both sides of a match go through :func:`normalise`: an entry's "arXiv:math.AG/0101001v2" and a
dump's ``math0101001.gz`` are both "math/0101001".
"""

from __future__ import annotations

import re

#: the archives of old-style ids (before April 2007)
OLD_ARCHIVES = (
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn", "chem-ph", "cmp-lg", "comp-gas",
    "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph", "hep-th", "math", "math-ph", "mtrl-th", "nlin",
    "nucl-ex", "nucl-th", "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio", "quant-ph", "solv-int", "supr-con",
)  # fmt: skip
_OLD = "(?:" + "|".join(sorted((re.escape(name) for name in OLD_ARCHIVES), key=len, reverse=True)) + ")"
NEW_ID = r"\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}"
OLD_ID = rf"{_OLD}(?:\.[A-Z]{{2}})?[/_]?\d{{7}}"
_ID = re.compile(rf"(?<![\w.])({NEW_ID}|{OLD_ID})(?:v\d+)?(?![\d])", re.I)
_OLD_PARTS = re.compile(rf"({_OLD})(?:\.[A-Z]{{2}})?[/_]?(\d{{7}})", re.I)


def normalise(found: str) -> str:
    """``found`` (an id as matched) written the one way."""
    old = _OLD_PARTS.fullmatch(found)
    return f"{old.group(1).lower()}/{old.group(2)}" if old else found


def find(text: str | None) -> str | None:
    """The first arXiv id in ``text``, normalised; None when there is none."""
    found = _ID.search(text or "")
    return normalise(found.group(1)) if found else None


def at_start(name: str) -> str | None:
    """The arXiv id a file name starts with (after an optional "arxiv-"), normalised:
    "2004.14974v2.pdf" and "arxiv-1707.08043-amsart.tex" give theirs, "scan0000123.gz" none."""
    found = re.match(rf"(?:arxiv[-_.]?)?({NEW_ID}|{OLD_ID})(?:v\d+)?(?=$|[-_.])", name, re.I)
    return normalise(found.group(1)) if found else None


__all__ = ["OLD_ARCHIVES", "at_start", "find", "normalise"]
