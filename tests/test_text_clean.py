"""No control character is stored, and TeX fonts' ligatures come back as letters: through the
whole ingest path with a real PDF whose text layer holds them (as pdfium reports it), and for a
document handed straight to the writer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Block, Document, Figure, Reference, Section, Table
from paperpyramid.ingest import ingest
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.text_clean import clean_text
from tests.pdf_maker import text_pdf

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize(("raw", "clean"), [
    ("de\x1cned", "defined"), ("e\x1bort", "effort"), ("re\x1dection", "reflection"), ("o\x1ece", "office"), ("ba\x1fe", "baffle"),  # T1
    ("de\x0cned", "defined"), ("e\x0bect", "effect"), ("\x0eciency", "ciency"),  # OT1; a ligature only between letters
    ("L = maxn\x10d", "L = maxnd"), ("nul\x00 byte", "nul byte"), ("line\nnext\ttab", "line\nnext\ttab"), ("ﬁrst ﬂow", "first flow"),
    ("plain text", "plain text"),
])  # fmt: skip
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


def _every_text(db: Path) -> list[str]:
    conn = db_sqlite.connect(db, read_only=True)
    texts: list[str] = []
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name NOT LIKE 'vec_%'"):
        for column, kind in conn.execute(f"SELECT name, type FROM pragma_table_info('{table}')"):
            if kind.upper() == "TEXT":
                texts += [value for (value,) in conn.execute(f'SELECT "{column}" FROM "{table}"') if isinstance(value, str)]
    conn.close()
    return texts


def test_a_pdf_whose_text_layer_holds_control_characters(tmp_path: Path) -> None:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    lines = [("A study of de\x1cned e\x0bects", 18), ("Introduction", 14),
             ("The results are de\x1cned by the e\x0bects of the \x00 method and their re\x1dection in the data.", 10),
             ("Methods", 14), ("We measured the o\x1ece e\x1bort in twelve sites with a\x1ee\x10ct.", 10)]  # fmt: skip
    (pdfs / "ligatures.pdf").write_bytes(text_pdf([lines]))
    db = tmp_path / "corpus.sqlite"
    assert ingest([pdfs], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 1
    texts = _every_text(db)
    assert not [text for text in texts if CONTROL.search(text)]
    joined = " ".join(texts)
    assert "defined by the effects" in joined and "reflection" in joined and "office effort" in joined


def test_a_document_given_to_the_writer_is_cleaned_too(tmp_path: Path) -> None:
    doc = Document(
        title="De\x1cned \x00titles", abstract="An e\x0bect\x07.", pages=1,
        sections=[Section(title="Re\x1dections", number="1", blocks=[Block("Text with a bell\x07 and de\x1cned words.", 1)], page_start=1, page_end=1)],
        tables=[Table(caption="Table 1 E\x0bects", cells=[["a\x00", "de\x1cned"]], page=1, label="1", section=0)],
        figures=[Figure(caption="Fig 1. O\x1ece", page=1, label="1", section=0)],
        references=[Reference(raw="Smith J. De\x1cnitions\x00. 2001.", title="De\x1cnitions", authors=["Smith\x00 J"], year=2001)],
    )  # fmt: skip
    db = tmp_path / "corpus.sqlite"
    with CorpusWriter(db) as writer:
        writer.add_document(doc, source_uri="file:///x.pdf", sha256="0" * 64)
    texts = _every_text(db)
    assert not [text for text in texts if CONTROL.search(text)]
    joined = " ".join(texts)
    for word in ("Defined titles", "An effect.", "Reflections", "defined words", "Effects", "Office", "Definitions"):
        assert word in joined, word
