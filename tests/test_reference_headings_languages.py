"""A reference list printed under its heading in the paper's own language ("Literaturverzeichnis",
"Références", "Список литературы", "参考文献") is the reference list for the embedded PDF parser,
the LaTeX parser and the scorer alike: the three read one list
(:mod:`paperpyramid.parsers.reference_headings`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.eval.gold import _body_heading
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.latex import parse_source
from tests.pdf_maker import script_pdf

HEADINGS = ["Literaturverzeichnis", "Literatur", "Références", "Referencias", "Bibliografía", "Referências", "Riferimenti bibliografici",
            "Literatuur", "Bibliografia", "Список литературы", "Литература", "参考文献"]  # fmt: skip

BODY = (
    "The colony was surveyed every spring from the station on the northern shore of the island, and the nests were "
    "counted from a boat at dawn on four days of each week from March to October of one year."
)
ENTRIES = [
    "[1] K. Müller and A. Berger, Brutkolonien an der Nordsee, Journal of Ornithology 12 (2019) 1–10.",
    "[2] J. Dupont, Les oiseaux marins des côtes atlantiques, Revue d'Écologie 44 (2018) 233–250.",
    "[3] P. Rossi, Uccelli marini del Mediterraneo, Rivista Italiana di Ornitologia 7 (2020) 45–61.",
]


@pytest.mark.parametrize("heading", HEADINGS)
def test_a_pdf_list_under_a_heading_in_its_language_is_the_reference_list(tmp_path: Path, heading: str) -> None:
    blocks = [("Nesting of Sea Birds on a Northern Island", 18), ("1 Introduction", 13), (BODY, 10), ("2 Methods", 13), (BODY, 10)]
    path = tmp_path / "paper.pdf"
    path.write_bytes(script_pdf([*blocks, (heading, 13), *((entry, 10) for entry in ENTRIES)]))
    document = parse_pdf(path)
    listed = [section for section in document.sections if section.number == "ref"]
    assert [section.title for section in listed] == [heading], [(s.number, s.title) for s in document.sections]
    assert [reference.raw[:12] for reference in document.references] == [entry[4:16] for entry in ENTRIES]


LATEX = r"""\documentclass{article}
\begin{document}
\section{Einleitung}
Die Kolonie wurde jedes Frühjahr gezählt \cite{mueller}.
\section*{%s}
\begin{thebibliography}{9}
\bibitem{mueller} K. M\"uller, Brutkolonien an der Nordsee, J. Ornithol. 12 (2019) 1--10.
\end{thebibliography}
\end{document}
"""


@pytest.mark.parametrize("heading", ["Literaturverzeichnis", "Références", "Bibliografía"])
def test_a_latex_list_under_a_heading_in_its_language_is_the_reference_list(heading: str) -> None:
    """The author's heading holds the list; no second "References" section is made for it."""
    document = parse_source((LATEX % heading).encode(), name="paper.tex")
    assert [(section.number, section.title) for section in document.sections] == [("1", "Einleitung"), ("ref", heading)]
    assert len(document.references) == 1


def test_the_scorer_leaves_a_list_under_a_heading_in_its_language_out_of_the_body() -> None:
    listed = "\n\\begin{thebibliography}{9}\n\\bibitem{a} A. Author, A title, 2001.\n\\end{thebibliography}\n"
    assert not _body_heading("Références", listed)
    assert not _body_heading("Список литературы", listed)
    assert _body_heading("Références", "Cite every source you use, in the order you cite it.")  # a section on citing
