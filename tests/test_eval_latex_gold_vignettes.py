"""The LaTeX gold of package vignettes (batch 5 of the unseen set, issue 32): what their sources
do that papers' sources seldom do, read as the page prints it.

Each test builds a small source in a vignette's form (Sweave, BiocStyle, a package of the
author's own beside the source, a ``report`` with chapters) and checks one rule of the readers;
none needs the shared sets.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.eval.gold import load_gold
from paperpyramid.eval.metadata import load_gold_metadata
from paperpyramid.parsers.latex.limits import LatexLimits
from paperpyramid.parsers.latex.macros import expand_macros


def write(tmp_path: Path, body: str, preamble: str = "", name: str = "paper.tex", cls: str = "article") -> Path:
    path = tmp_path / name
    path.write_text(f"\\documentclass{{{cls}}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- macros


def test_a_macro_with_arguments_expands_where_it_is_used(tmp_path: Path) -> None:
    """The gold expands macros as the LaTeX parser does (one expander): a heading made by a macro
    counts, and a \\iffalse block prints nothing."""
    preamble = "\\newcommand{\\example}[1]{\\subsubsection*{Example: #1}}\n"
    body = "\\section{Models}\nText.\n\\example{Measles, Germany}\nCases.\n\\iffalse\nA hidden paragraph.\n\\fi\n"
    gold = load_gold(write(tmp_path, body, preamble))
    assert gold.section_titles == ["Models", "Example: Measles, Germany"]
    assert "hidden" not in gold.body_text


def test_a_font_switch_from_a_macro_stays_apart_from_its_argument(tmp_path: Path) -> None:
    """``\\pkg{amsmath}`` with ``\\pkg`` as ``{\\protect\\ntt#1}`` and ``\\ntt`` a font switch
    prints "amsmath": expanded, the switch must not swallow the word after it."""
    preamble = "\\newcommand{\\ntt}{\\normalfont\\ttfamily}\n\\newcommand{\\pkg}[1]{{\\protect\\ntt#1}}\n"
    gold = load_gold(write(tmp_path, "\\section{Fonts of the \\pkg{amsmath} package}\nText.\n", preamble))
    assert gold.section_titles == ["Fonts of the amsmath package"]
    expanded = expand_macros(preamble + "\\pkg{amsmath}", LatexLimits()).text
    assert "\\ttfamily amsmath" in expanded


def test_a_package_shipped_beside_the_source_defines_its_macros(tmp_path: Path) -> None:
    """ape's vignette writes ``\\section{Implementation in \\ape}`` with ``\\ape`` defined in the
    ``ape.sty`` it ships; a package that is not there (a distribution's) is not read."""
    (tmp_path / "ape.sty").write_text(
        "\\usepackage{color}\n\\newcommand{\\pkg}{\\textsf}\n\\newcommand{\\ape}{\\pkg{ape}}\n", encoding="utf-8"
    )
    body = "\\section{Implementation in \\ape}\nThe \\ape\\ package.\n"
    gold = load_gold(write(tmp_path, body, "\\usepackage{amsmath,ape}\n\\usepackage[margin=1cm]{geometry}"))
    assert gold.section_titles == ["Implementation in ape"]
    assert "The ape package." in gold.body_text
    (tmp_path / "ape.sty").unlink()
    assert load_gold(tmp_path / "paper.tex").section_titles == ["Implementation in"]


# --------------------------------------------------------------------------- headings


def test_chapters_are_headings(tmp_path: Path) -> None:
    body = "\\chapter{Theory and technicalities}\nText.\n\\section{Years of life lost}\nMore.\n\\chapter*{Analyses}\nAnd more.\n"
    gold = load_gold(write(tmp_path, body, cls="report"))
    assert gold.section_titles == ["Theory and technicalities", "Years of life lost", "Analyses"]


def test_a_reference_list_typed_by_hand_is_no_body_section(tmp_path: Path) -> None:
    """ROTS's vignette ends with ``\\section{References}`` and its entries as paragraphs, with no
    list command anywhere: the page prints a reference list, which the parse leaves out too."""
    body = (
        "\\section{Introduction}\nText.\n\\section{References}\n"
        "Elo, L.L. et al., \\emph{Reproducibility-optimized test statistic}. IEEE/ACM TCBB, 5, 423-431, 2008.\n"
    )
    gold = load_gold(write(tmp_path, body))
    assert gold.section_titles == ["Introduction"]
    assert "Reproducibility" not in gold.body_text
    # a "References" section before the real list is about citing, and is a body section
    template = "\\section{References}\nCite with \\texttt{cite}.\n\\section{Other}\nText.\n\\bibliography{refs}\n"
    assert load_gold(write(tmp_path, template, name="t.tex")).section_titles == ["References", "Other"]


# --------------------------------------------------------------------------- title


def test_biocstyle_title(tmp_path: Path) -> None:
    preamble = "\\bioctitle[DTU with DRIMSeq]{DRIMSeq: Dirichlet-multinomial framework}\n\\author{A. Author}"
    path = write(tmp_path, "\\maketitle\n\\section{Overview}\nText.\n", preamble)
    assert load_gold(path).title == "DRIMSeq: Dirichlet-multinomial framework"
    assert load_gold_metadata(path).title == "DRIMSeq: Dirichlet-multinomial framework"


def test_a_subtitle_set_in_a_font_of_its_own_is_not_the_title(tmp_path: Path) -> None:
    hilbert = (
        "\\title{\\textsf{\\textbf{Visualising very long data vectors\\\\ with the Hilbert curve}\\\\\n"
        "Description of the Bioconductor packages\\\\ \\texttt{HilbertVis} and \\texttt{HilbertVisGUI}.}}"
    )
    assert load_gold(write(tmp_path, "\\maketitle\n", hilbert)).title == "Visualising very long data vectors with the Hilbert curve"
    smaller = "\\title{Main title of a paper\\\\[1ex] \\large A subtitle under it}"
    assert load_gold(write(tmp_path, "\\maketitle\n", smaller)).title == "Main title of a paper"
    # a colon joins the two lines into one title, as references cite it
    joined = "\\title{A Sample Paper:\\\\ \\emph{A Template}}"
    assert load_gold(write(tmp_path, "\\maketitle\n", joined)).title == "A Sample Paper: A Template"
    # a title broken over lines in one font is one title
    broken = "\\title{\\textbf{Monitoring count time series}\\\\ \\textbf{in R}}"
    assert load_gold(write(tmp_path, "\\maketitle\n", broken)).title == "Monitoring count time series in R"


# --------------------------------------------------------------------------- authors


def test_an_author_marked_as_corresponding_keeps_the_name(tmp_path: Path) -> None:
    preamble = (
        "\\title{The SVA package}\n\\author{Jeffrey Leek$^1$*, W. Evan Johnson$^2$, Andrew Jaffe$^1$ \\\\\n"
        "$^1$Johns Hopkins Bloomberg School of Public Health \\\\\n$^2$Boston University\\\\\n*email: \\texttt{jleek@jhsph.edu}}"
    )
    path = write(tmp_path, "\\maketitle\n\\section{Overview}\nText.\n", preamble)
    assert load_gold_metadata(path).authors == ["Jeffrey Leek", "W. Evan Johnson", "Andrew Jaffe"]


def test_an_address_line_under_the_names_names_no_author(tmp_path: Path) -> None:
    preamble = (
        "\\title{The pcaMethods Package}\n\\author{Wolfram Stacklies and Henning Redestig\\\\\n"
        "CAS-MPG Partner Institute for Computational Biology (PICB)\\\\\nShanghai, P.R. China \\\\\nand\\\\\n"
        "Max Planck Institute for Molecular Plant Physiology\\\\\nPotsdam, Germany}"
    )
    path = write(tmp_path, "\\maketitle\n\\section{Overview}\nText.\n", preamble)
    assert load_gold_metadata(path).authors == ["Wolfram Stacklies", "Henning Redestig"]
    # a line that opens with a name keeps it, its address after it (JACoW)
    jacow = (
        "\\title{T}\n\\author{A. N. Author, H. Coauthor, Name of Institute, City, Country \\\\\n"
        "P. Contributor\\textsuperscript{1}, Name of Institute, City, Country}"
    )
    path = write(tmp_path, "\\maketitle\n\\section{Overview}\nText.\n", jacow, name="j.tex")
    assert load_gold_metadata(path).authors == ["A. N. Author", "H. Coauthor", "P. Contributor"]
