"""The LaTeX gold as the page prints it: headings, title, authors and in-text citations.

Each test builds a small source in the form of one publisher class (ACM, AIAA, SPIE, JaCoW,
JSS, REVTeX) and checks one rule of the readers; none needs the shared corpus.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.document import Block, Cite, Document, Reference, Section
from paperpyramid.eval.citations import evaluate_citations, render_citations, score_citations
from paperpyramid.eval.gold import abstract_heading, load_gold
from paperpyramid.eval.latex_cites import load_latex_citations
from paperpyramid.eval.metadata import family_name, load_gold_metadata


def write(tmp_path: Path, body: str, preamble: str = "", name: str = "paper.tex") -> Path:
    path = tmp_path / name
    path.write_text(f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- headings


def test_a_heading_shown_in_verbatim_is_no_heading(tmp_path: Path) -> None:
    gold = load_gold(
        write(
            tmp_path,
            "\\section{Syntax}\nThe title is \\verb+\\section{#1}+ and\n"
            "\\begin{verbatim}\n\\appendix\n\\section{Background}\n\\end{verbatim}\nprints a letter.\n",
        )
    )
    assert gold.section_titles == ["Syntax"]
    assert "section 1" in gold.body_text  # what \verb shows is text


def test_a_bibitem_shown_in_verbatim_is_no_reference(tmp_path: Path) -> None:
    body = (
        "\\section{A}\nWrite\n\\begin{verbatim}\n\\bibitem{key} An entry.\n\\end{verbatim}\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A.\\bibitem{b} B.\\end{thebibliography}\n"
    )
    assert load_gold(write(tmp_path, body)).n_references == 2
    assert load_gold(write(tmp_path, "\\section{A}\nWrite \\verb|\\bibitem{key}| here.\n", name="b.tex")).n_references is None


def test_run_in_paragraph_headings_count(tmp_path: Path) -> None:
    gold = load_gold(
        write(tmp_path, "\\section{Methods}\n\\paragraph{Statistical analysis.} We used R.\n\\subparagraph{Face validity} Strong.\n")
    )
    assert gold.section_titles == ["Methods", "Statistical analysis.", "Face validity"]
    assert "We used R." in gold.body_text


def test_a_note_in_a_heading_or_the_title_prints_at_the_foot(tmp_path: Path) -> None:
    gold = load_gold(
        write(
            tmp_path,
            "\\section{Version Number\\protect\\footnote{Footnotes can appear in headings.}}\nText.\n",
            "\\title{A Title\\footnote{Error!}}",
        )
    )
    assert gold.title == "A Title"
    assert gold.section_titles == ["Version Number"]
    assert load_gold_metadata(tmp_path / "paper.tex").title == "A Title"


def test_a_references_section_with_running_text_is_a_body_section(tmp_path: Path) -> None:
    body = (
        "\\section{Introduction}\nText.\n\\subsection{References}\nReferences are cited with cite.\n"
        "\\section*{References}\n\\begin{thebibliography}{9}\\bibitem{a} A.\\end{thebibliography}\n"
    )
    assert load_gold(write(tmp_path, body)).section_titles == ["Introduction", "References"]
    listed = "\\section{Introduction}\nText.\n\\section*{References}\n\\bibliographystyle{plain}\\bibliography{refs}\n"
    assert load_gold(write(tmp_path, listed, name="b.tex")).section_titles == ["Introduction"]


def test_an_abstract_heading_is_not_a_body_section(tmp_path: Path) -> None:
    # the parse's side leaves an "Abstract" section out too
    assert load_gold(write(tmp_path, "\\section{Abstract}\nWords.\n\\section{Introduction}\nMore.\n")).section_titles == ["Introduction"]


def test_an_abstract_in_another_language_is_no_body_section_either(tmp_path: Path) -> None:
    # an engineering class sets Spanish, Russian and Vietnamese abstracts in its appendix; babel
    # prints "Resumen", "Аннотация", "Tóm tắt nội dung" over them, on the page and in the parse
    body = "\\section{Introduction}\nText.\n\\section*{Resumen}\nTexto.\n\\section*{Summary}\nWords.\n"
    assert load_gold(write(tmp_path, body)).section_titles == ["Introduction", "Summary"]
    assert all(map(abstract_heading, ["Abstract.", "Resumen", "Аннотация", "Tóm tắt nội dung", "Résumé"]))
    assert not any(map(abstract_heading, ["Summary", "Introduction", "Abstract algebra"]))


def test_upright_greek_prints_its_letter(tmp_path: Path) -> None:
    gold = load_gold(write(tmp_path, "\\subsection[Math: \\omega U=0]{Math: $\\tilde{\\upomega}\\cdot U=0$}\nText.\n"))
    assert gold.section_titles == ["Math: ω U=0"]


def test_an_end_of_document_shown_in_verb_does_not_end_the_document(tmp_path: Path) -> None:
    # ACM's samples tell authors to put appendices before ``\verb|\end{document}|``: that is
    # text on the page, and the sections after it are printed headings
    body = (
        "\\section{Appendices}\nAdd it before the ``\\verb|\\end{document}|'' command.\n"
        "\\section{Multi-language papers}\nText.\n\\appendix\n\\section{Research Methods}\nMore.\n"
    )
    gold = load_gold(write(tmp_path, body))
    assert gold.section_titles == ["Appendices", "Multi-language papers", "Research Methods"]
    assert "end document" in gold.body_text


def test_a_percent_sign_shown_in_verb_is_no_comment(tmp_path: Path) -> None:
    # fancyhdr's manual shows code lines ending in a comment's sign, "\verb|…[1]{%|": the sign is text
    # on the page; read as a comment it cut the \verb open, and every section after it was lost
    body = (
        "\\section{Chapter marks}\nCode:\\\\\n\\verb|\\renewcommand{\\chaptermark}[1]{%|\\\\\n"
        "\\verb| \\markboth{#1}{}}|\nand 50\\% of it % a real comment {\n\\section{Dictionary heads}\nText.\n"
    )
    gold = load_gold(write(tmp_path, body))
    assert gold.section_titles == ["Chapter marks", "Dictionary heads"]
    assert "a real comment" not in gold.body_text


def test_a_file_input_beside_the_source_is_read_in_its_place(tmp_path: Path) -> None:
    # JSS's zoo paper prints its reference card from \input{zoo-refcard-raw}
    folder = tmp_path / "paper"
    (folder / "tables").mkdir(parents=True)
    (folder / "refcard-raw.tex").write_text("\\subsection{Creation}\nzoo(x)\n% \\section{Commented}\n\\input{tables/t}\n", encoding="utf-8")
    (folder / "tables" / "t.tex").write_text("\\subsection{Coercion}\nas.zoo\n", encoding="utf-8")
    (folder / "loop.tex").write_text("\\subsection{Loop}\n\\input{loop}\n", encoding="utf-8")
    (tmp_path / "outside.tex").write_text("\\section{Outside}\n", encoding="utf-8")
    body = (
        "\\section{Summary}\nText.\n\\section{Reference card}\n\\input{refcard-raw}\n"
        "\\include{loop}\n\\input{absent}\n\\input{../outside}\n\\input ../outside.tex\n"
    )
    gold = load_gold(write(folder, body))
    assert gold.section_titles == ["Summary", "Reference card", "Creation", "Coercion", "Loop"]
    assert "as.zoo" in gold.body_text


def test_a_logo_macro_prints_its_name(tmp_path: Path) -> None:
    # class logos (\PTPTeX, \TUB) are defined in a .cls the gold does not read; a macro the
    # source defines with plain text is expanded from its definition
    body = (
        "\\section{Introduction}\nText.\n"
        "\\subsection{How to obtain the \\protect\\PTPTeX\\ style file}\nText.\n"
        "\\section{Equivalences between the `plain' and \\LaTeX{} \\TUB\\ packages}\nText.\n"
        "\\section{The \\LaTeXe\\ class and \\BibTeX}\nText.\n\\section{Using \\Tool{} and \\Other}\nText.\n"
    )
    gold = load_gold(write(tmp_path, body, "\\newcommand{\\Tool}{SciTool}\n\\def\\Other{OtherTool}\n\\title{Using \\PTPTeX}"))
    assert gold.title == "Using PTPTeX"
    assert gold.section_titles == [
        "Introduction",
        "How to obtain the PTPTeX style file",
        "Equivalences between the `plain' and LaTeX TUGboat packages",
        "The LaTeX2ε class and BibTeX",
        "Using SciTool and OtherTool",
    ]


def write_class(tmp_path: Path, documentclass: str, body: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(f"\\documentclass{documentclass}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8")
    return path


def test_headings_a_class_or_an_environment_prints_count(tmp_path: Path) -> None:
    # one rule for "APPENDIX" and "Nomenclature": the page prints both as headings, so the gold
    # counts both, whether the source typed \section*{Nomenclature} or the class printed it
    nomenclature = "\\begin{nomenclature}\n\\entry{$k$}{conductivity}\n\\end{nomenclature}\n"
    body = "\\section{Introduction}\nText.\n" + nomenclature + "\\appendix\n\\section{Proofs}\nText.\n"
    aastex = load_gold(write_class(tmp_path, "[twocolumn]{aastex631}", body, "aas.tex"))
    assert aastex.section_titles == ["Introduction", "Nomenclature", "Appendix", "Proofs"]
    article = load_gold(write_class(tmp_path, "{article}", body + "\\printnomenclature\n", "article.tex"))
    assert article.section_titles == ["Introduction", "Nomenclature", "Proofs", "Nomenclature"]
    typed = load_gold(write_class(tmp_path, "{aiaa-tc}", "\\section*{Nomenclature}\nk\n\\section{Introduction}\nText.\n", "aiaa.tex"))
    assert typed.section_titles == ["Nomenclature", "Introduction"]
    # asmejour prints its lists of figures and tables after the references unless told not to
    lists = ["Introduction", "List of Figures", "List of Tables"]
    assert load_gold(write_class(tmp_path, "[balance]{asmejour}", "\\section{Introduction}\nText.\n", "j.tex")).section_titles == lists
    assert load_gold(write_class(tmp_path, "[nolists]{asmejour}", "\\section{Introduction}\nText.\n", "n.tex")).section_titles == lists[:1]
    listed = load_gold(write_class(tmp_path, "{article}", "\\section{Introduction}\nText.\n\\listoftables\n", "l.tex"))
    assert listed.section_titles == ["Introduction", "List of Tables"]
    # an untitled appendix prints its label ("APPENDIX A", PTPTeX's "Appendix"); before \appendix
    # an untitled section prints a number only, which is no title
    untitled = "\\section{ }\nText.\n\\section{Introduction}\nText.\n\\appendix*\n\\section{ }\nMore.\n"
    assert load_gold(write_class(tmp_path, "{ptptex}", untitled, "u.tex")).section_titles == ["Introduction", "Appendix"]


# --------------------------------------------------------------------------- authors

ACM = """\\author{Ben Trovato}
\\authornote{Both authors contributed equally.}
\\email{trovato@corporation.com}
\\orcid{1234-5678-9012}
\\author{G.K.M. Tobin}
\\affiliation{\\institution{Institute for Clarity in Documentation}\\city{Dublin}\\country{USA}}
\\author{Lars Th{\\o}rv{\\"a}ld}
\\affiliation{\\institution{The Th{\\o}rv{\\"a}ld Group}}"""


def test_acm_authors_each_with_an_affiliation_and_a_verbatim_example(tmp_path: Path) -> None:
    body = "\\maketitle\n\\section{Authors}\nNot acceptable:\n\\begin{verbatim}\n\\author{Brooke Aster, David Mehldau}\n\\end{verbatim}\n"
    path = write(tmp_path, body, "\\title{Hope}\n" + ACM)
    assert load_gold_metadata(path).authors == ["Ben Trovato", "G.K.M. Tobin", "Lars Thørväld"]


def test_aiaa_block_with_notes_and_affiliation_lines(tmp_path: Path) -> None:
    preamble = (
        "\\author{\n  First A. Author%\n    \\thanks{Job Title, Department.}\n  \\ and Second B. Author\\thanksibid{1}\\\\\n"
        "  {\\normalsize\\itshape\n   Business or Academic Affiliation, City, Province, Zipcode, Country}\\\\\n"
        "  \\and\n  Third C. Author\\footnote{Insert Job Title.}\\\\\n  {\\normalsize\\itshape Business or Academic Affiliation, City}\n}"
    )
    assert load_gold_metadata(write(tmp_path, "", preamble)).authors == ["First A. Author", "Second B. Author", "Third C. Author"]


def test_spie_and_jacow_blocks(tmp_path: Path) -> None:
    spie = (
        "\\author{Anna A. Author1\\supit{a} and Barry B. Author2\\supit{b}\n\\skiplinehalf\n"
        "\\supit{a}Affiliation1, Address, City, Country; \\\\\n\\supit{b}Affiliation2, Address, City, Country\n}"
    )
    assert load_gold_metadata(write(tmp_path, "", spie)).authors == ["Anna A. Author1", "Barry B. Author2"]
    jacow = (
        "\\author{A. N. Author\\thanks{email address}, H. Coauthor, Name of Institute or Affiliation, City, Country \\\\\n"
        "P. Contributor\\textsuperscript{1}, Name of Institute or Affiliation, City, Country \\\\\n"
        "\\textsuperscript{1}also at Name of Secondary Institute or Affiliation, City, Country}"
    )
    assert load_gold_metadata(write(tmp_path, "", jacow, "j.tex")).authors == ["A. N. Author", "H. Coauthor", "P. Contributor"]


def test_jss_plain_authors_and_spaced_names(tmp_path: Path) -> None:
    jss = '\\author{Achim Zeileis\\\\Universit\\"at Innsbruck \\And\n  Gabor Grothendieck\\\\GKX Associates Inc.}\n\\Plainauthor{Achim Zeileis, Gabor Grothendieck}'
    assert load_gold_metadata(write(tmp_path, "", jss)).authors == ["Achim Zeileis", "Gabor Grothendieck"]
    spaced = "\\author{Achim Zeileis \\hspace{0.4cm} Friedrich Leisch \\hfill Kurt Hornik$^\\dag$\\footnotemark[1]}"
    assert load_gold_metadata(write(tmp_path, "", spaced, "s.tex")).authors == ["Achim Zeileis", "Friedrich Leisch", "Kurt Hornik"]


def test_one_author_per_command_keeps_its_first_piece_and_an_organisation(tmp_path: Path) -> None:
    sageep = (
        "\\author{Sam U. Llaun, Academy of Lagado, Lagado, Balnibarbi}\n\\author{James Incandenza, Interdependence University, Boston, MA}"
    )
    assert load_gold_metadata(write(tmp_path, "", sageep)).authors == ["Sam U. Llaun", "James Incandenza"]
    signed = "\\author{Online-Journal Subcommittee of JPSJ}"
    assert load_gold_metadata(write(tmp_path, "", signed, "o.tex")).authors == ["Online-Journal Subcommittee of JPSJ"]


def test_family_name_of_a_close_set_initial() -> None:
    assert family_name("B.Benciolini") == family_name("B. Benciolini") == "benciolini"


# --------------------------------------------------------------------------- citations

CITING = """\\section{Introduction}
Frogs breed in shallow water in spring~\\cite{smith}. Toads do not breed in deep water \\citep[see][p.~3]{jones,smith,unknown}.
The method of \\citet{jones} works.
\\begin{figure}\\caption{Frogs \\cite{lee}.}\\end{figure}
Shown as \\verb|\\cite{lee}| here.
\\begin{thebibliography}{9}
\\bibitem{smith} J. Smith, Frogs in water, J. Herp. 12 (2001) 1--10. doi:10.1000/frog.1
\\bibitem{jones} A. Jones, Toads on land, 2003.
\\bibitem{lee} K. Lee, Figures, 2005.
\\end{thebibliography}
"""


def test_latex_citations_pair_sentences_with_bibitems(tmp_path: Path) -> None:
    gold = load_latex_citations(write(tmp_path, CITING, "\\begin{verbatim}\\bibitem{fake} no\\end{verbatim}"))
    assert gold is not None
    assert list(gold.entries) == ["smith", "jones", "lee"]  # a \\bibitem in verbatim is no entry
    assert [entry.label for entry in gold.entries.values()] == ["1", "2", "3"]
    assert gold.entries["smith"].doi == "10.1000/frog.1" and gold.entries["smith"].year == 2001
    cited = [(" ".join(text.split()), keys) for text, keys in gold.sentences if keys]
    assert cited == [
        ("Frogs breed in shallow water in spring .", ["smith"]),
        ("Toads do not breed in deep water .", ["jones", "smith"]),
        ("The method of works.", ["jones"]),
    ]
    # a caption's citation is scored with the figures, and \\verb shows no citation
    assert not any("lee" in keys for _, keys in gold.sentences)


def test_latex_citations_need_a_reference_list(tmp_path: Path) -> None:
    assert load_latex_citations(write(tmp_path, "\\section{A}\nText \\cite{x}.\n\\bibliography{refs}\n")) is None
    # the compiled .bbl beside the source gives the entries; natbib's author-year label is not printed as a number
    (tmp_path / "paper.bbl").write_text(
        "\\begin{thebibliography}{1}\n\\bibitem[Smith(2001)]{x} J. Smith. Frogs. 2001.\n\\end{thebibliography}\n"
    )
    gold = load_latex_citations(tmp_path / "paper.tex")
    assert gold is not None and gold.entries["x"].label is None
    assert [keys for _, keys in gold.sentences if keys] == [["x"]]


def test_latex_citations_are_scored_like_jats(tmp_path: Path) -> None:
    path = write(tmp_path, CITING)
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "MANIFEST.tsv").write_text("file\tkind\tpairs_with\npaper.pdf\tpdf\t\npaper.tex\tgold-latex\tpaper.pdf\n")
    text = "Frogs breed in shallow water in spring [1]. Toads do not breed in deep water [2]."
    document = Document(
        title="Frogs",
        sections=[
            Section(
                "Introduction",
                blocks=[
                    Block(
                        text,
                        1,
                        cites=[
                            Cite(text.index("[1]"), text.index("[1]") + 3, ["1"]),
                            Cite(text.index("[2]"), text.index("[2]") + 3, ["2"]),
                        ],
                    )
                ],
            ),
            Section("References", number="ref"),
        ],
        references=[
            Reference("[1] J. Smith, Frogs in water, J. Herp. 12 (2001) 1-10.", key="1"),
            Reference("[2] A. Jones, Toads on land, 2003.", key="2"),
        ],
    )
    gold = load_latex_citations(path)
    assert gold is not None
    score = score_citations(document, gold)
    # gold: (sentence 1, smith), (sentence 2, jones), (sentence 2, smith), (sentence 3, jones)
    assert (score.gold, score.predicted, score.correct) == (4, 2, 2)
    scores = evaluate_citations(tmp_path, parse=lambda _: document)
    assert [(s.pdf, s.split, s.correct) for s in scores] == [("paper.pdf", "latex", 2)]
    assert any("latex (1 papers)" in line for line in render_citations(scores))


def test_the_latex_source_parser_opens_a_section_at_a_run_in_heading(tmp_path: Path) -> None:
    # the gold counts \paragraph headings, so the parser reading the same source gives them too
    from paperpyramid.parsers.latex import parse_source

    document = parse_source(write(tmp_path, "\\section{Methods}\nFirst.\n\n\\paragraph{Statistical analysis.} We used R.\n"))
    titles = [(section.title, section.number) for section in document.sections if section.number != "ref"]
    assert titles[-2:] == [("Methods", "1"), ("Statistical analysis.", None)]
    assert document.sections[-1].blocks[0].text == "We used R."
