"""Two readings made whole: a link that pdfium wrote with narrow spaces between three pieces or
more is joined at each of them, its last piece not judged alone ("…/j.1467-9868. 2005" stayed
apart, its "2005" read as a year after a sentence's full stop); and a LaTeX heading that cites
keeps the citation as the page prints it ("Comparison to Cirpka et al. (2007)", the gold had
"Comparison to"). Also: reading a footnote's opening mark sets nothing aside by itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.eval.gold import load_latex
from paperpyramid.parsers.embedded.footnotes import _opening
from paperpyramid.parsers.embedded.link_spaces import link_spaces
from tests.block_builders import Stack
from tests.conftest import CORPUS
from tests.test_links_s54_spaces import _line

# --------------------------------------------------------------------------- links

#: a word space and a link's break glue, in points (each character 5 points wide at 10 points: ``_line``'s)
_SIZE, _WORD, _GLUE = 10.0, 3.0, 1.0


def _read(pieces: list[tuple[str, float]]) -> str:
    """The line of ``pieces`` (each with the white space after it) as read, the spaces inside links out."""
    chars, boxes = _line(pieces)
    drop = link_spaces(chars, boxes, _SIZE)
    return "".join(ch for index, ch in enumerate(chars) if index not in drop)


def test_a_doi_broken_by_glue_in_three_places_is_joined_whole() -> None:
    pieces = [("see", _WORD), ("https://doi.org/10.1111/j.", _GLUE), ("1467-", _GLUE), ("9868.", _GLUE), ("2005", _WORD), ("and", 0)]
    assert _read(pieces) == "see https://doi.org/10.1111/j.1467-9868.2005 and"


def test_a_year_a_word_space_after_a_links_full_stop_stays_apart() -> None:
    pieces = [("at", _WORD), ("https://doi.", _GLUE), ("org/10.1111/x.", _WORD), ("2005.", _WORD), ("Then", 0)]
    assert _read(pieces) == "at https://doi.org/10.1111/x. 2005. Then"


# --------------------------------------------------------------------------- cites in headings

_NATBIB_BBL = r"""\begin{thebibliography}{2}
\bibitem[{Bertsekas(1982)}]{bertsekas}
Bertsekas, D. (1982). Projected Newton methods.
\bibitem[{Cirpka et~al.(2007)Cirpka, Fienen \& Hofer}]{cirpka}
Cirpka, O., Fienen, M., Hofer, M. (2007). Analyzing bank filtration.
\end{thebibliography}
"""


def _headings(tmp_path: Path, preamble: str, heading: str, bbl: str | None = _NATBIB_BBL) -> list[str]:
    source = tmp_path / "paper.tex"
    body = f"\\section{{Methods}}\nText.\n\\subsection{{{heading}}}\nMore text.\n"
    source.write_text(f"{preamble}\n\\begin{{document}}\n{body}\\bibliography{{refs}}\n\\end{{document}}\n")
    if bbl is not None:
        source.with_suffix(".bbl").write_text(bbl)
    return load_latex(source).section_titles


@pytest.mark.parametrize(
    ("heading", "printed"),
    [
        (r"Comparison to \citet{cirpka}", "Comparison to Cirpka et al. (2007)"),
        (r"Comparison to~\cite{cirpka}", "Comparison to Cirpka et al. (2007)"),
        (r"Earlier methods \citep{bertsekas,cirpka}", "Earlier methods (Bertsekas, 1982; Cirpka et al., 2007)"),
    ],
)
def test_an_author_year_cite_in_a_heading_prints_its_names_and_year(tmp_path: Path, heading: str, printed: str) -> None:
    preamble = "\\documentclass{article}\n\\usepackage{natbib}"
    assert _headings(tmp_path, preamble, heading)[-1] == printed


def test_a_numbered_cite_in_a_heading_prints_its_number(tmp_path: Path) -> None:
    preamble = "\\documentclass{elsarticle}"  # natbib's numbers, unless told authoryear
    assert _headings(tmp_path, preamble, r"Comparison to~\cite{cirpka}")[-1] == "Comparison to [2]"


def test_a_cite_of_an_unknown_entry_leaves_the_headings_other_words(tmp_path: Path) -> None:
    preamble = "\\documentclass{article}\n\\usepackage{natbib}"
    assert _headings(tmp_path, preamble, r"Incomplete Zeta Function~\cite{lienhard}", bbl=None)[-1] == "Incomplete Zeta Function"


WATER = CORPUS / "arxiv-1803.07574-elsarticle-water-residence-time-compiled.tex"


@pytest.mark.skipif(not WATER.is_file(), reason="../shared/corpus is not here (real arXiv source with its .bbl, not distributed)")
def test_the_elsarticle_heading_that_cites_reads_as_printed() -> None:
    """elsarticle with ``\\biboptions{authoryear}``: the PDF prints "5.3. Comparison to Cirpka et al. (2007)"."""
    assert "Comparison to Cirpka et al. (2007)" in load_latex(WATER).section_titles


# --------------------------------------------------------------------------- footnotes


def test_reading_a_notes_cut_off_mark_sets_nothing_aside() -> None:
    stack = Stack(top=700.0, size=7.0)
    note = stack.block("For each dataset we report the best run of three.", x0=80.0, x1=300.0)
    mark = stack.block("1", top=700.0, x0=74.0, x1=78.0, size=5.0)
    found, cut = _opening(note, [note, mark])
    assert found is not None and found["number"] == "1"
    assert cut is mark and mark.kind == "paragraph"
