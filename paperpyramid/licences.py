"""Article licences as short keys: ``cc-by``, ``cc-by-sa``, ``cc-by-nc``, ``cc-by-nc-sa``,
``cc-by-nd``, ``cc-by-nc-nd``, ``cc0`` and ``pd`` (public domain).

A licence arrives as a Creative Commons URL (JATS ``<license xlink:href>`` or ``<ali:license_ref>``),
as words ("This is an open access article distributed under the terms of the Creative Commons
Attribution License"), or as the short names PMC's ``oa_file_list.csv`` uses ("CC BY-NC",
"CC0", "NO-CC CODE"). :func:`licence_key` reads each the same way.
"""

from __future__ import annotations

import re

#: the keys :func:`licence_key` gives, the most open first
KEYS = ("cc0", "pd", "cc-by", "cc-by-sa", "cc-by-nd", "cc-by-nc", "cc-by-nc-sa", "cc-by-nc-nd")
#: keys whose articles may not be used commercially
NON_COMMERCIAL = frozenset({"cc-by-nc", "cc-by-nc-sa", "cc-by-nc-nd"})

_URL = re.compile(r"creativecommons\.org/(?:licenses|licences)/([a-z-]+)/", re.IGNORECASE)
_ZERO = re.compile(r"creativecommons\.org/publicdomain/zero|\bcc[ -]?0\b|\bcc[ -]?zero\b", re.IGNORECASE)
_PUBLIC_DOMAIN = re.compile(r"creativecommons\.org/publicdomain/mark|\bpublic domain\b", re.IGNORECASE)
_SHORT = re.compile(r"\bcc[ -]?(by(?:[ -](?:nc|sa|nd))*)\b", re.IGNORECASE)
_WORDS = re.compile(r"creative\s+commons\s+(attribution(?:[\s-]+(?:non-?\s?commercial|share\s?-?alike|no\s?-?deriv\w*))*)", re.IGNORECASE)


def licence_key(text: str | None) -> str | None:
    """The short key of the licence ``text`` names (a URL, words, or PMC's short name); None
    for empty text and for text that names no Creative Commons licence nor the public domain
    (the caller keeps such text as it is, or drops it)."""
    if not text or not text.strip():
        return None
    if _ZERO.search(text):
        return "cc0"
    if url := _URL.search(text):
        return _key(url.group(1).split("-"))
    if short := _SHORT.search(text):
        return _key(re.split(r"[ -]", short.group(1)))
    if words := _WORDS.search(text):
        found = words.group(1).lower()
        parts = ["by"]
        parts += ["nc"] if re.search(r"non-?\s?commercial", found) else []
        parts += ["nd"] if "deriv" in found else ["sa"] if re.search(r"share\s?-?alike", found) else []
        return _key(parts)
    if _PUBLIC_DOMAIN.search(text):
        return "pd"
    return None


def _key(parts: list[str]) -> str | None:
    """``cc-`` and the parts in the canonical order (by, nc, then sa or nd); None when ``by`` is missing."""
    given = {part.lower() for part in parts if part}
    if "by" not in given:
        return None
    order = [part for part in ("by", "nc", "sa", "nd") if part in given]
    return "cc-" + "-".join(order)


__all__ = ["KEYS", "NON_COMMERCIAL", "licence_key"]
