"""Display formulas as LaTeX from Nougat, for the pages that need it.

Nougat (facebookresearch/nougat) reads a page image and writes Mathpix-style markdown
(``.mmd``): ``\\[ ... \\]`` display math, ``\\( ... \\)`` inline math, ``\\begin{tabular}``
tables. It is slow (a GPU second or more per page) and it sometimes loops, writing the same
n-gram until its token limit (nougat issue 67), so this client:

1. flags math-heavy pages cheaply from the embedded text (:func:`math_pages`);
2. sends a PDF holding only those pages to the Nougat service (:mod:`paperpyramid.services.nougat_service`),
   which answers one ``.mmd`` per page (:func:`fetch_pages`);
3. drops pages whose output is a repetition failure or a ``[MISSING_PAGE_...]`` marker
   (:func:`is_repetition_failure`); those pages keep the embedded parser's text;
4. extracts the display equations with their printed numbers (:func:`display_equations`).

A whole-document ``.mmd`` (what the ``nougat`` CLI writes) has no page markers; for it,
:func:`locate_pages` places each equation on the PDF page whose text matches the prose
around it.
"""

from __future__ import annotations

import io
import re
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from paperpyramid.document import Formula
from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.parsers.embedded import open_pdf

#: An equation number at the end of a line of embedded text: "... F(s)k(t). (1)", "(12a)".
_EQUATION_NUMBER = re.compile(r"(?:^|\s)\((\d{1,3}[a-z]?)\)\s*$", re.MULTILINE)

#: Display math in .mmd: \[...\], $$...$$ and the equation-like environments.
_DISPLAY = re.compile(
    r"\\\[(?P<bracket>.+?)\\\]"
    r"|\$\$(?P<dollars>.+?)\$\$"
    r"|\\begin\{(?P<env>equation|align|gather|multline|eqnarray)(?P<star>\*?)\}(?P<body>.+?)\\end\{(?P=env)(?P=star)\}",
    re.DOTALL,
)
_TAG = re.compile(r"\\tag\*?\{([^{}]*)\}")
_LABEL = re.compile(r"\\label\{([^{}]*)\}")
#: A number typed after the formula instead of \tag: "... \qquad (3)".
_TRAILING_NUMBER = re.compile(r"(?:\\q?quad|\\hfill|~|\s)*\(\s*(\d{1,3}[a-z]?)\s*\)\s*$")

_MISSING_PAGE = re.compile(r"\[MISSING_PAGE_(?:FAIL|EMPTY|POST)\b[^\]]*\]")
_INLINE_MATH = re.compile(r"\\\(.+?\\\)", re.DOTALL)

#: A page is math-heavy when it has a numbered equation or this many math symbols.
MIN_MATH_SYMBOLS = 10
MIN_MATH_DENSITY = 0.002

_RETRY_STATUSES = {503}


def _is_math_symbol(char: str) -> bool:
    """Greek, arrows, operators, math alphanumerics, and TeX's big-bracket pieces (private use)."""
    code = ord(char)
    return (
        0x0391 <= code <= 0x03C9
        or 0x2190 <= code <= 0x22FF
        or 0x27C0 <= code <= 0x27EF
        or 0x2980 <= code <= 0x2AFF
        or 0x1D400 <= code <= 0x1D7FF
        or 0xF8E5 <= code <= 0xF8FE
    )


def page_texts(pdf_path: Path) -> list[str]:
    """The embedded text of every page, in page order (index 0 is page 1)."""
    pdf = open_pdf(pdf_path)
    try:
        texts = []
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return texts
    finally:
        pdf.close()


def is_math_page(text: str) -> bool:
    """Whether one page's embedded text looks math-heavy.

    Two cheap signals: a line ending in an equation number "(n)" (the usual typesetting of a
    numbered display equation), or enough math symbols (Greek, operators, TeX bracket pieces),
    at least :data:`MIN_MATH_SYMBOLS` and :data:`MIN_MATH_DENSITY` of the characters.
    pdfTeX often maps math italics to plain ASCII, so the symbol count alone misses pages.
    """
    if _EQUATION_NUMBER.search(text):
        return True
    symbols = sum(1 for char in text if _is_math_symbol(char))
    return symbols >= max(MIN_MATH_SYMBOLS, MIN_MATH_DENSITY * len(text))


def math_pages(pdf_path: Path) -> list[int]:
    """The 1-based numbers of the pages worth sending to Nougat (see :func:`is_math_page`)."""
    return [number for number, text in enumerate(page_texts(pdf_path), start=1) if is_math_page(text)]


@dataclass(slots=True, frozen=True)
class DisplayEquation:
    """One display equation of an .mmd, with where it sits in the text."""

    latex: str
    label: str | None
    start: int
    end: int


def _split_label(latex: str) -> tuple[str, str | None]:
    """Take the equation's number off its LaTeX: ``\\tag{n}``, a trailing "(n)", or ``\\label``."""
    tag = _TAG.search(latex)
    if tag:
        return (latex[: tag.start()] + latex[tag.end() :]).strip(), tag.group(1).strip()
    trailing = _TRAILING_NUMBER.search(latex)
    if trailing and trailing.start() > 0:
        return latex[: trailing.start()].strip(), trailing.group(1)
    label = _LABEL.search(latex)
    if label:
        return (latex[: label.start()] + latex[label.end() :]).strip(), label.group(1).strip()
    return latex.strip(), None


def find_display_equations(mmd: str) -> list[DisplayEquation]:
    """The display equations of an .mmd in reading order, with their offsets."""
    found = []
    for match in _DISPLAY.finditer(mmd):
        raw = match.group("bracket") or match.group("dollars") or match.group("body") or ""
        latex, label = _split_label(raw)
        if latex:
            found.append(DisplayEquation(latex, label, match.start(), match.end()))
    return found


def display_equations(mmd: str) -> list[tuple[str, str | None]]:
    """The display equations of an .mmd as ``(latex, label)``; the label is the printed
    number ("3", "2a") from ``\\tag{}`` or a trailing "(n)", else a ``\\label{}``, else None."""
    return [(equation.latex, equation.label) for equation in find_display_equations(mmd)]


def is_repetition_failure(mmd_page: str, *, min_repeats: int = 5, min_tokens: int = 30) -> bool:
    """Whether one page of Nougat output is its known failure rather than the page's text.

    True for a ``[MISSING_PAGE_FAIL/EMPTY/POST]`` marker (Nougat gave up on the page), and for
    output ending in the same word, line or sentence over and over (nougat issue 67): the
    whitespace-separated tokens end in a run with period p repeated ``min_repeats`` times and
    covering at least ``min_tokens`` tokens. Such pages should keep the embedded text.
    """
    if _MISSING_PAGE.search(mmd_page):
        return True
    tokens = mmd_page.split()[-3000:]
    # the token limit may cut the last token in half: judge the text with and without it
    return any(_ends_in_loop(tail, min_repeats, min_tokens) for tail in (tokens, tokens[:-1]))


def _ends_in_loop(tokens: Sequence[str], min_repeats: int, min_tokens: int) -> bool:
    """Whether ``tokens`` end in a run of period p (1..200 tokens), possibly stopping inside a
    repeat, at least ``min_repeats`` periods and ``min_tokens`` tokens long."""
    for period in range(1, 201):
        if len(tokens) < max(2 * period, min_tokens):
            break
        index = len(tokens) - 1 - period
        while index >= 0 and tokens[index] == tokens[index + period]:
            index -= 1
        length = len(tokens) - 1 - index
        if length >= min_tokens and length >= min_repeats * period:
            return True
    return False


def _letters(text: str) -> str:
    """Lower-case letters only, after NFKC (so the "ﬁ" ligature reads "fi"): robust to
    hyphenation, line breaks and the two-column layout of the embedded text."""
    return "".join(char for char in unicodedata.normalize("NFKC", text).lower() if char.isalpha() and char.isascii())


def _prose_before(mmd: str, end: int, letters: int) -> str:
    """The last ``letters`` letters of prose before offset ``end``, inline math left out."""
    window = mmd[max(0, end - 20 * letters) : end]
    window = _DISPLAY.sub(" ", _INLINE_MATH.sub(" ", window))
    return _letters(window)[-letters:]


def _prose_after(mmd: str, start: int, letters: int) -> str:
    window = mmd[start : start + 20 * letters]
    window = _DISPLAY.sub(" ", _INLINE_MATH.sub(" ", window))
    return _letters(window)[:letters]


def locate_pages(mmd: str, pdf_path: Path, *, anchor: int = 40) -> list[int]:
    """The page of each display equation of a whole-document .mmd, in
    :func:`display_equations` order.

    Nougat's CLI writes one .mmd with no page markers, so each equation is placed by its
    surroundings: the last ``anchor`` letters of prose before it (inline math removed, letters
    only) found in a page's embedded text, else the first letters after it; a page whose text
    has a line ending in the equation's number "(n)" is preferred. Pages never go backwards;
    an equation with no match gets the previous equation's page (page 1 for the first).
    """
    texts = page_texts(pdf_path)
    page_letters = [_letters(text) for text in texts]
    numbered = [set(_EQUATION_NUMBER.findall(text)) for text in texts]
    pages = []
    previous = 1
    for equation in find_display_equations(mmd):
        candidates = range(previous, len(texts) + 1)
        if equation.label:
            with_number = [page for page in candidates if equation.label in numbered[page - 1]]
            if with_number:
                candidates = range(with_number[0], len(texts) + 1)
        page = None
        for size in (anchor, anchor // 2):
            for probe in (_prose_before(mmd, equation.start, size), _prose_after(mmd, equation.end, size)):
                if len(probe) < 12:
                    continue
                page = next((p for p in candidates if probe in page_letters[p - 1]), None)
                if page is not None:
                    break
            if page is not None:
                break
        if page is None:
            page = candidates[0] if equation.label and len(candidates) else previous
        previous = max(previous, page)
        pages.append(previous)
    return pages


def pages_pdf(pdf_path: Path, pages: Sequence[int]) -> bytes:
    """A new PDF holding only ``pages`` (1-based) of ``pdf_path``, in that order."""
    source = open_pdf(pdf_path)
    try:
        import pypdfium2 as pdfium

        subset = pdfium.PdfDocument.new()
        try:
            subset.import_pages(source, [page - 1 for page in pages])
            buffer = io.BytesIO()
            subset.save(buffer)
            return buffer.getvalue()
        finally:
            subset.close()
    finally:
        source.close()


def fetch_pages(
    pdf_path: Path,
    pages: Sequence[int],
    url: str,
    timeout: float = 600,
    *,
    retries: int = 4,
    backoff: float = 0.5,
    max_backoff: float = 10.0,
) -> dict[int, str]:
    """POST ``pages`` of ``pdf_path`` to the Nougat service at ``url``; their .mmd by page.

    Only the listed pages travel (a new PDF built with pdfium). The service numbers the pages
    of what it receives from 1; they are mapped back to the original page numbers here.
    A 503 (model loading, queue full) is retried ``retries`` times with exponential backoff
    capped at ``max_backoff`` seconds (or the server's Retry-After, capped the same);
    refused connections, timeouts and any other failure raise :class:`ServiceUnavailable`.
    """
    if not pages:
        return {}
    payload = pages_pdf(pdf_path, pages)
    endpoint = url.rstrip("/") + "/predict"
    files = {"file": (f"{pdf_path.stem}.pages.pdf", payload, "application/pdf")}
    response = None
    try:
        with httpx.Client(timeout=timeout) as client:
            for attempt in range(retries + 1):
                response = client.post(endpoint, files=files)
                if response.status_code not in _RETRY_STATUSES or attempt == retries:
                    break
                time.sleep(_retry_delay(response, backoff * 2**attempt, max_backoff))
    except httpx.TimeoutException as exc:
        raise ServiceUnavailable(f"nougat at {url}: no answer within {timeout:g} s for {pdf_path.name}") from exc
    except httpx.HTTPError as exc:
        raise ServiceUnavailable(f"nougat at {url}: {type(exc).__name__}: {exc}") from exc
    assert response is not None
    if response.status_code != 200:
        raise ServiceUnavailable(f"nougat at {url}: HTTP {response.status_code} for {pdf_path.name}: {response.text[:200]!r}")
    try:
        answered = {int(item["page"]): str(item["mmd"]) for item in response.json()["pages"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise ServiceUnavailable(f"nougat at {url}: malformed answer for {pdf_path.name}: {exc}") from exc
    return {original: answered[sent] for sent, original in enumerate(pages, start=1) if sent in answered}


def _retry_delay(response: httpx.Response, default: float, cap: float) -> float:
    try:
        delay = float(response.headers.get("retry-after", default))
    except ValueError:
        delay = default
    return max(0.0, min(delay, cap))


def usable_pages(mmd_by_page: dict[int, str]) -> tuple[dict[int, str], list[int]]:
    """Split Nougat's pages into those to use and those that fell back to the embedded text
    (repetition failures and ``[MISSING_PAGE]`` markers, see :func:`is_repetition_failure`)."""
    kept = {page: mmd for page, mmd in mmd_by_page.items() if not is_repetition_failure(mmd)}
    return kept, sorted(set(mmd_by_page) - set(kept))


def formulas_from_pages(mmd_by_page: dict[int, str]) -> list[Formula]:
    """Display equations of per-page .mmd as formulas, in page order; the page is known."""
    return [
        Formula(text=latex, page=page, latex=latex, label=label)
        for page in sorted(mmd_by_page)
        for latex, label in display_equations(mmd_by_page[page])
    ]


def parse_formulas(pdf_path: Path, *, url: str | None, timeout: float = 600) -> tuple[list[Formula], list[str]]:
    """The display formulas of ``pdf_path`` as LaTeX, from the Nougat service at ``url``.

    Returns the formulas and warnings, one per page whose Nougat output was unusable; the
    warning names the page, which keeps the embedded parser's text. Raises
    :class:`ServiceUnavailable` when the service cannot be reached and
    :class:`ConfigurationError` when no ``url`` is configured.
    """
    if not url:
        raise ConfigurationError("no Nougat service URL configured (settings: services.nougat_url)")
    flagged = math_pages(pdf_path)
    if not flagged:
        return [], []
    kept, fell_back = usable_pages(fetch_pages(pdf_path, flagged, url, timeout))
    warnings = [
        f"nougat: page {page}: repeated or missing output (nougat issue 67); the embedded text is used for it" for page in fell_back
    ]
    return formulas_from_pages(kept), warnings
