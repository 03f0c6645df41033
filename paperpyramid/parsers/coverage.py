"""How much of a PDF's text layer reached the parsed document: the check that no text vanished.

``coverage`` is the share of the text layer's words (a multiset) that the document holds
anywhere a reader can find them: title, authors, abstract, section titles and text, tables,
figure captions, formulas and references. Words are compared after the same folding on both
sides: case, accents and ligatures folded, each Chinese or Japanese character a word, a hyphen
at a line end or inside a word dropped (``exam-\\nple`` and ``free-living`` read as one word
each), digits kept. Running heads and feet and page numbers, which parsers remove on purpose,
are left out of the count (lines that recur on many pages, lines that are only a number);
figure-internal text (axis labels) is not, so a paper whose figures carry text scores under 1
however well it is parsed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.char_runs import letterspaced_joined
from paperpyramid.parsers.embedded.scripts import one_word_each

if TYPE_CHECKING:
    from paperpyramid.parsers.embedded.glyphs import GlyphMap
from paperpyramid.text_clean import clean_text

_LINE_END_HYPHEN = re.compile(r"(\w)[-\u00ad\u2010]\s*\n\s*(\w)")
_INNER_HYPHEN = re.compile(r"(\w)[-\u2010\u2011](?=\w)")
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> Counter[str]:
    """The words of ``text``, folded as described above, with their counts."""
    # pdfium reports a hyphen that breaks a word at a line end as \x02 (or U+FFFE)
    text = clean_text(text.replace("\x02", "-").replace("\ufffe", "-")).replace("\r\n", "\n").replace("\r", "\n")
    text = _INNER_HYPHEN.sub(r"\1", _LINE_END_HYPHEN.sub(r"\1\2", text))
    folded = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char)).lower()
    return Counter(_WORD.findall(one_word_each(folded)))  # Chinese and Japanese: a character a word, lines joined or not


def document_texts(doc: Document) -> Iterator[str]:
    """Every text a parsed document holds, each once: the abstract is read from its section when
    it has one, the references from their entries (the references section repeats them), a
    table from its caption and cells (its block in the section repeats them), so that a word
    held twice cannot stand in for one that was lost."""
    abstract_section = any(section.title.lower() in ("abstract", "summary") and section.blocks for section in doc.sections)
    yield from (doc.title or "", "" if abstract_section else doc.abstract or "", doc.journal or "", doc.doi or "", doc.date_published or "")
    for author in doc.authors:
        yield from (author.name, author.affiliation or "", author.email or "")
    for section in doc.sections:
        yield section.number or ""
        yield section.title
        if section.number != "ref":  # a table's block repeats its caption and cells, read below; not its notes
            yield from (_table_notes(block.text) if block.kind == "table" else block.text for block in section.blocks)
    for table in doc.tables:
        yield table.caption
        yield from (cell for row in table.cells for cell in row)
    yield from (figure.caption for figure in doc.figures)
    for formula in doc.formulas:
        yield formula.text
        yield formula.label or ""
    yield from (reference.raw for reference in doc.references)


def _table_notes(text: str) -> str:
    """A table block's notes: its text under the markdown table's last row (a JATS table's foot, a
    PDF table's note in small type), which neither its caption nor its cells hold."""
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.startswith("|")), default=len(lines) - 1)
    return "\n".join(lines[last + 1 :])


def coverage_of(layer_words: Counter[str], texts: Iterable[str]) -> float | None:
    """The share of ``layer_words`` found among the words of ``texts`` (None: no words at all)."""
    total = sum(layer_words.values())
    if total == 0:
        return None
    found: Counter[str] = Counter()
    for text in texts:
        found.update(words(text))
    return sum(min(count, found[word]) for word, count in layer_words.items()) / total


def text_layer_words(
    path: Path, *, password: str | None = None, glyphs: GlyphMap | None = None, ocr_text: dict[int, str] | None = None
) -> Counter[str]:
    """The words of every page of the PDF at ``path`` (see :func:`words`); ``glyphs`` reads
    fonts without a Unicode map as the parser learnt them (``Document.glyph_map``), so that a
    document is measured against the text it could read, not against the mojibake; the pages
    of ``ocr_text`` (``Document.ocr_text``) are measured against what OCR read on them."""
    import pypdfium2 as pdfium

    from paperpyramid.parsers.embedded import open_pdf  # the embedded parser's checks and messages
    from paperpyramid.parsers.embedded.accents import composed_text
    from paperpyramid.parsers.embedded.clipped import clipped_chars
    from paperpyramid.parsers.embedded.glyphs import page_text

    pdf = open_pdf(path, password=password)
    pages: list[str] = []
    try:
        for index in range(len(pdf)):
            if ocr_text and index + 1 in ocr_text:
                pages.append(ocr_text[index + 1])
                continue
            page = pdf[index]
            try:
                textpage = page.get_textpage()
                try:
                    # TeX's accents on their letters, as the parser reads them ("Fred´ eric" is Frédéric)
                    text: Sequence[str] = page_text(textpage, glyphs) if glyphs else textpage.get_text_range()
                    # as the parser reads it: without the copies a clipping path hides
                    if len(text) == textpage.count_chars() and (hidden := clipped_chars(page, textpage, len(text))):
                        text = ["" if index in hidden else ch for index, ch in enumerate(text)]
                    text = letterspaced_joined(textpage.raw, text)
                    pages.append(composed_text(textpage.raw, text))
                finally:
                    textpage.close()
            except pdfium.PdfiumError:
                continue  # an unreadable page is the parser's to report
            finally:
                page.close()
    finally:
        pdf.close()
    return layer_words(pages)


_NUMBERS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?[\divxlc]+(?:\s*(?:of|/)\s*\d+)?$", re.I)


def layer_words(pages: list[str]) -> Counter[str]:
    """The words of a text layer given page by page, without its page furniture: lines that
    recur (numbers aside) on at least three pages and half of them (running heads and feet) and
    lines that are only a page number, which parsers drop on purpose."""
    lines = [[line.strip() for line in page.replace("\r\n", "\n").split("\n") if line.strip()] for page in pages]
    recurring: Counter[str] = Counter()
    for page_lines in lines:
        recurring.update({_NUMBERS.sub("#", line.lower()) for line in page_lines})
    furniture = {line for line, count in recurring.items() if count >= 3 and count * 2 >= len(pages)}
    counted: Counter[str] = Counter()
    for page_lines in lines:
        kept = [line for line in page_lines if _NUMBERS.sub("#", line.lower()) not in furniture and not _PAGE_NUMBER.match(line)]
        counted.update(words("\n".join(kept)))
    return counted


def coverage(path: Path, doc: Document, *, password: str | None = None) -> float | None:
    """The share of the PDF's text-layer words that ``doc`` holds (None: no text layer)."""
    return coverage_of(text_layer_words(path, password=password, glyphs=doc.glyph_map, ocr_text=doc.ocr_text), document_texts(doc))


__all__ = ["coverage", "coverage_of", "document_texts", "layer_words", "letterspaced_joined", "text_layer_words", "words"]
