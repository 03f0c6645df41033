"""Where a text is printed in a PDF: page numbers for parsers that read structure from elsewhere.

A JATS file (or a LaTeX source) knows an article's paragraphs, tables and captions but not the
page each is printed on. This module finds them in the PDF's text layer: every page's text
is read once with pdfium and normalised (:func:`normalise`: letters and digits only, lower
case, accents and ligatures folded), and a :class:`PageLocator` answers "which page, at or
after page N, prints this text" for texts normalised the same way.

    locator = PageLocator.from_pdf(pdf_path)
    probe = normalise(paragraph)
    if len(probe) >= MIN_PROBE_LENGTH:
        page = locator.forward(probe, cursor)  # None: not found in the text layer

Texts are looked for in windows of :data:`PROBE_LENGTH` characters, so hyphenation, running
heads or a misread glyph inside a long paragraph do not stop it being found.

A PDF read for its pages is held to the same limits as one parsed (``--max-pages``,
``--time-limit``): :class:`PageLimits` applies them, with the messages a user already knows.
"""

from __future__ import annotations

import time
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.errors import BadInput, ParseTimeout, TooManyPages

__all__ = ["MIN_PROBE_LENGTH", "PROBE_LENGTH", "PageLimits", "PageLocator", "normalise", "read_page_texts"]

#: Characters of normalised text in one window looked for in the PDF.
PROBE_LENGTH = 40
#: Normalised texts shorter than this are too generic to place ("Results", "Table 1").
MIN_PROBE_LENGTH = 12
# a match this many pages ahead of the cursor or fewer is taken without a second opinion
_FAR = 2


def normalise(text: str) -> str:
    """Letters and digits only, lower case, accents and ligatures folded: what survives PDF text extraction."""
    folded = unicodedata.normalize("NFKD", text).lower()
    return "".join(char for char in folded if char.isalnum())


@dataclass(frozen=True, slots=True)
class PageLimits:
    """The per-document limits on reading a PDF: at most ``max_pages`` pages, and ``time_limit``
    seconds from ``started`` (when the limits were made, by default), checked between steps.

    A PDF read only for its page numbers (a JATS article's) could otherwise be a 50,000-page
    file or a slow one that no ``--max-pages`` or ``--time-limit`` stops.
    """

    max_pages: int | None = None
    time_limit: float | None = None
    started: float = field(default_factory=time.monotonic)

    def check_page_count(self, path: Path, count: int) -> None:
        """Raise :class:`~paperpyramid.errors.TooManyPages` for a PDF of more than ``max_pages`` pages."""
        if self.max_pages is not None and count > self.max_pages:
            raise TooManyPages(f"{path.name}: {count} pages is over the limit of {self.max_pages} (raise --max-pages to parse it)")

    def check_time(self, path: Path, progress: str) -> None:
        """Raise :class:`~paperpyramid.errors.ParseTimeout` once the time is up; ``progress``
        says where the parse stopped ("stopped at page 3 of 14")."""
        if self.time_limit is not None and time.monotonic() - self.started > self.time_limit:
            raise ParseTimeout(f"{path.name}: parsing took longer than {self.time_limit:g} s ({progress})")


def read_page_texts(path: Path, *, password: str | None = None, limits: PageLimits | None = None) -> list[str]:
    """Every page's text from the PDF at ``path``, in page order, each put through :func:`normalise`.

    Raises :class:`~paperpyramid.errors.BadInput` (its subclasses ``NotAPdf``,
    ``PdfEncrypted``, ``PdfCorrupt`` from :func:`~paperpyramid.parsers.embedded.open_pdf`)
    for a file that cannot be opened, ``BadInput`` for a page that cannot be read, and,
    with ``limits``, ``TooManyPages`` or ``ParseTimeout`` (checked before each page).
    """
    from paperpyramid.parsers.embedded import open_pdf  # the embedded parser's checks and messages

    limits = limits or PageLimits()
    pdf = open_pdf(path, password=password)
    texts: list[str] = []
    try:
        count = len(pdf)
        limits.check_page_count(path, count)
        for index in range(count):
            limits.check_time(path, f"stopped at page {index + 1} of {count}")
            page = pdf[index]
            try:
                textpage = page.get_textpage()
                try:
                    texts.append(normalise(textpage.get_text_range()))
                finally:
                    textpage.close()
            finally:
                page.close()
    except pdfium.PdfiumError as exc:
        raise BadInput(f"{path.name}: corrupt PDF: page {len(texts) + 1} cannot be read ({exc})") from exc
    finally:
        pdf.close()
    return texts


class PageLocator:
    """Finds normalised text in a PDF's pages, all pages joined so that a probe may straddle a page break.

    Pages are numbered from 1. Every text passed in must already have been through :func:`normalise`;
    a page number passed in as ``cursor`` must be one of the PDF's pages.
    """

    def __init__(self, page_texts: Sequence[str]) -> None:
        """``page_texts``: each page's normalised text, in page order (see :func:`read_page_texts`)."""
        self._starts: list[int] = []
        offset = 0
        for text in page_texts:
            self._starts.append(offset)
            offset += len(text)
        self._text = "".join(page_texts)
        self._count = len(page_texts)

    @classmethod
    def from_pdf(cls, path: Path, *, password: str | None = None, limits: PageLimits | None = None) -> PageLocator:
        """A locator over the PDF at ``path``, its pages read once; raises as :func:`read_page_texts`."""
        return cls(read_page_texts(path, password=password, limits=limits))

    @property
    def page_count(self) -> int:
        return self._count

    def _page_at(self, offset: int) -> int:
        return bisect_right(self._starts, offset)

    def _find(self, probe: str, page: int) -> int | None:
        at = self._text.find(probe, self._starts[page - 1])
        return None if at < 0 else self._page_at(at)

    def forward(self, text: str, cursor: int) -> int | None:
        """The first page at or after ``cursor`` that prints ``text`` (reading order never goes back).

        Tried with a probe from the start, then the middle, then the end of the text. A
        match more than a couple of pages ahead is taken only if another probe agrees,
        since a short generic opening can also occur much later.
        """
        if self._count == 0:
            return None
        probes = list(_probes(text))
        for position, probe in enumerate(probes):
            page = self._find(probe, cursor)
            if page is None:
                continue
            if page - cursor <= _FAR:
                return page
            others = [self._find(other, page) for i, other in enumerate(probes) if i != position]
            if any(other is not None and other - page <= 1 for other in others):
                return page
        return None

    def nearest(self, text: str, cursor: int) -> int | None:
        """The page nearest ``cursor`` that prints ``text``: tables and figures float, before or after."""
        if self._count == 0:
            return None
        for probe in _probes(text):
            pages: list[int] = []
            at = self._text.find(probe)
            while at >= 0 and len(pages) < 50:
                pages.append(self._page_at(at))
                at = self._text.find(probe, at + 1)
            if pages:
                return min(pages, key=lambda page: (abs(page - cursor), page < cursor))
        return None


def _probes(text: str) -> Iterator[str]:
    """Windows of ``text`` to look for: several from the start (one misread glyph, "n530" for
    "n=30", spoils a window but not the next), then one from the middle and one from the end."""
    if len(text) <= PROBE_LENGTH:
        yield text
        return
    for offset in range(0, min(len(text) - PROBE_LENGTH, PROBE_LENGTH * 2) + 1, PROBE_LENGTH // 2):
        yield text[offset : offset + PROBE_LENGTH]
    middle = len(text) // 2
    yield text[middle - PROBE_LENGTH // 2 : middle + PROBE_LENGTH // 2]
    yield text[-PROBE_LENGTH:]
