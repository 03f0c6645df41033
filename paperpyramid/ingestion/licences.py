"""Article licences from PubMed Central's file list, ``oa_file_list.csv``.

The file has a row per article of the Open Access Subset, with the header
``File,Article Citation,Accession ID,Last Updated (YYYY-MM-DD HH:MM:SS),PMID,License`` and
licences in PMC's short names (``CC BY``, ``CC BY-NC``, ``CC0``, ``NO-CC CODE``). Given to
``ingest`` (``--licences FILE``, ``PAPERPYRAMID_INGEST__LICENCES``), it sets the licence of every
article whose PMCID it lists and whose own source named none, before the article is stored: as
its short key (:func:`paperpyramid.licences.licence_key`: ``cc-by``, ``cc0``, ...), or PMC's
words where no key fits (``NO-CC CODE``).

The real list holds millions of rows; they are kept as two sorted arrays (PMCID digits, and an index
into the handful of licence values), about 10 bytes a row, not as a dict of strings; reading it takes
about 2 s of CPU a million rows.
"""

from __future__ import annotations

import csv
import re
from array import array
from pathlib import Path

import numpy as np

from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError
from paperpyramid.licences import licence_key

_PMCID = re.compile(r"^\s*(?:PMC)?(\d{1,15})\s*$", re.I)
_CODE_BITS = 16


class LicenceList:
    """PMCID -> licence, read from an ``oa_file_list.csv`` (:func:`read_licences`)."""

    def __init__(self, keys: np.ndarray, values: tuple[str, ...]) -> None:
        # each key is the PMCID's number shifted over the index of its licence in ``values``, sorted
        self._ids = keys >> np.uint64(_CODE_BITS)
        self._codes = (keys & np.uint64((1 << _CODE_BITS) - 1)).astype(np.uint16)
        self._values = values

    def __len__(self) -> int:
        return len(self._ids)

    def licence_of(self, pmcid: str | None) -> str | None:
        """The licence the list gives the article ``pmcid`` ("PMC4709619" or "4709619"), or None."""
        found = _PMCID.match(pmcid or "")
        if found is None or not len(self._ids):
            return None
        number = np.uint64(int(found.group(1)))
        at = int(np.searchsorted(self._ids, number))
        return self._values[int(self._codes[at])] if at < len(self._ids) and self._ids[at] == number else None

    def apply(self, document: Document) -> bool:
        """Set the document's licence from the list when it has none and its PMCID is listed;
        whether it was set."""
        if document.licence is not None:
            return False
        licence = self.licence_of(document.pmcid)
        if licence is not None:
            document.licence = licence
        return licence is not None


def read_licences(path: Path) -> LicenceList:
    """Read PMC's ``oa_file_list.csv`` (as a stream: memory is the arrays, never the rows).
    Raises :class:`ConfigurationError` when the file is missing or has no ``Accession ID`` and
    ``License`` columns."""
    values: dict[str, int] = {}
    codes: dict[str, int] = {}  # PMC's words as written -> the index of their value: a handful, read once each
    keys = array("Q")
    try:
        with path.open(newline="", encoding="utf-8", errors="replace") as handle:
            rows = csv.reader(handle)
            pmcid_column, licence_column = _columns(next(rows, []), path)
            wanted = max(pmcid_column, licence_column)
            for row in rows:
                if len(row) <= wanted:
                    continue
                digits = row[pmcid_column].strip().upper().removeprefix("PMC")
                written = row[licence_column]
                code = codes.get(written)
                if code is None:
                    licence = written.strip()
                    code = codes[written] = values.setdefault(licence_key(licence) or licence, len(values)) if licence else -1
                if code < 0 or not digits.isdigit() or len(digits) > 15:
                    continue
                if code >= 1 << _CODE_BITS:
                    raise ConfigurationError(f"{path}: over {1 << _CODE_BITS} different licences: not PMC's oa_file_list.csv")
                keys.append(int(digits) << _CODE_BITS | code)
    except OSError as exc:
        raise ConfigurationError(f"the licence list {path} cannot be read: {exc}") from exc
    ordered = np.frombuffer(keys, dtype=np.uint64).copy() if keys else np.zeros(0, dtype=np.uint64)
    ordered.sort()
    return LicenceList(ordered, tuple(values))


def _columns(header: list[str], path: Path) -> tuple[int, int]:
    """The columns of the PMCID (``Accession ID``) and the licence (``License``)."""
    names = [name.strip().lower() for name in header]
    pmcid = next((index for index, name in enumerate(names) if name.startswith("accession id")), None)
    licence = next((index for index, name in enumerate(names) if name.startswith(("license", "licence"))), None)
    if pmcid is None or licence is None:
        raise ConfigurationError(
            f"{path} is not PMC's oa_file_list.csv: its header has no 'Accession ID' and 'License' columns ({', '.join(header[:6]) or 'empty'})"
        )
    return pmcid, licence


__all__ = ["LicenceList", "read_licences"]
