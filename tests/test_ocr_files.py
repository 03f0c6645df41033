"""OCR writes no file: the page image goes to Tesseract on its standard input and the result
comes back on its standard output. Before, each page went through a ``paperpyramid-ocr-*``
folder in the temporary folder, and a process killed mid-page (an in-process parse stopped by
``timeout``, say) left the folder and its 300 dpi page image behind for ever."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLE

_READ_ONE_PAGE = """
import sys
import pypdfium2 as pdfium
from paperpyramid.parsers.embedded.ocr import read_words
words, _ = read_words(pdfium.PdfDocument(sys.argv[1])[0], sys.argv[2])
print(len(words))
"""


def test_a_process_killed_mid_page_leaves_no_file(tmp_path: Path) -> None:
    """The "Tesseract" here kills the parsing process while it reads the page, as ``kill -9`` would."""
    program = tmp_path / "tesseract"
    program.write_text("#!/bin/sh\ncat > /dev/null\nkill -9 $PPID\n")
    program.chmod(0o755)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    pdf = next(SAMPLE.glob("*.pdf"))
    done = subprocess.run(
        [sys.executable, "-c", _READ_ONE_PAGE, str(pdf), str(program)],
        env={**os.environ, "TMPDIR": str(scratch)},
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    assert list(scratch.iterdir()) == []


def test_words_read_through_the_pipes(tmp_path: Path) -> None:
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract program is missing (apt-get install tesseract-ocr)")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    pdf = SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"
    done = subprocess.run(
        [sys.executable, "-c", _READ_ONE_PAGE, str(pdf), "tesseract"],
        env={**os.environ, "TMPDIR": str(scratch)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) > 300  # a page of body text
    assert list(scratch.iterdir()) == []
