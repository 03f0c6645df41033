"""A parsed document in the one form the rest of paperpyramid reads, whichever backend made it.

:func:`normalise_document` is the parsers' output boundary: the ingest pipeline applies it before
it cuts contexts and the writer again before it stores, so nothing reaches the corpus without it.
It cleans every string (:func:`~paperpyramid.text_clean.clean_document`) and writes the
publication date as ISO 8601 (:func:`~paperpyramid.dates.iso_date`); a date that cannot be read
is dropped, and the document's warnings say what it was.
"""

from __future__ import annotations

import dataclasses

from paperpyramid.dates import iso_date, unread_date_warning
from paperpyramid.document import Document
from paperpyramid.text_clean import clean_document


def normalise_document(document: Document) -> Document:
    """A copy of ``document`` with its text cleaned and ``date_published`` as ISO 8601 (or None,
    with a warning naming the text that was not a date); ``document`` itself when nothing changed.
    Applying it twice changes nothing more."""
    document = clean_document(document)
    given = document.date_published
    date = iso_date(given)
    if date == given:
        return document
    warnings = document.warnings
    if date is None and given and given.strip():
        warnings = [*warnings, unread_date_warning(given)]
    return dataclasses.replace(document, date_published=date, warnings=warnings)


__all__ = ["normalise_document"]
