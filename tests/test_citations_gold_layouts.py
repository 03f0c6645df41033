"""In-text citations on the unseen layouts (issue 32): where the precision was lost.

Each case is one lost point, on a small constructed input shaped as the real paper that showed
it: the scorer cutting sentences at a superscript after the full stop ("distribution.¹ Please",
REVTeX's AIP guide), a float's caption scored on one side only (S2ORC's figure), ptptex's
``\\cite{a}\\tocite{c}`` range in the LaTeX gold (the PTP manual), and a reference list written
out in the body as an example (JACoW's annex, "[2] A. Alpha et al., “A novel injector”").
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.citations.marker_patterns import numeric_brackets
from paperpyramid.document import Block, Cite, Document, Reference, Section
from paperpyramid.eval.citations import _cited_sentences, load_jats_citations, score_citations, sentences
from paperpyramid.eval.latex_cites import load_latex_citations


def _at(text: str, marker: str, keys: list[str]) -> tuple[int, int, list[str]]:
    start = text.index(marker)
    return (start, start + len(marker), keys)


# --------------------------------------------------------------------------- scorer: sentences


def test_a_superscript_after_the_full_stop_closes_its_sentence() -> None:
    text = "Please see the guide included with the distribution.1 Please note the substyles."
    assert _cited_sentences(text, [_at(text, "1", ["a"])]) == [
        ("Please see the guide included with the distribution.", ["a"]),
        ("Please note the substyles.", []),
    ]
    # a run of markers, brackets and all, and a JATS xref that holds the number only
    text = "Ends here.[1, 2] The next one."
    assert [keys for _, keys in _cited_sentences(text, [_at(text, "[1, 2]", ["a", "b"])])] == [["a", "b"], []]
    text = "Ends here. [1] The next one."
    start = text.index("1]")
    assert [keys for _, keys in _cited_sentences(text, [(start, start + 1, ["a"])])] == [["a"], []]


def test_a_marker_that_opens_a_sentence_or_carries_it_on_stays_in_it() -> None:
    text = "Earlier work. [12] showed it."
    assert _cited_sentences(text, [_at(text, "[12]", ["a"])])[1][1] == ["a"]
    text = "Earlier work. Smith (2019) showed it."
    assert [keys for _, keys in _cited_sentences(text, [_at(text, "Smith (2019)", ["s"])])] == [[], ["s"]]
    # a theorem's source in parentheses opens the statement, not the label before it
    text = "Theorem 1.6. ([10] Theorem 4.4.6) For any pair of integers there is a bound."
    assert [keys for _, keys in _cited_sentences(text, [_at(text, "[10]", ["t"])])] == [[], ["t"]]


def test_the_cut_after_a_superscript_scores_the_link_it_found(tmp_path: Path) -> None:
    # the source ends a paragraph at the \cite, the parse ran the two together: cut alike, the pair is found
    text = "Please see the guide included with the distribution.1 Please note that the substyles work only with this release, and not with any release before it."
    tex = (
        "\\documentclass{article}\\begin{document}\n"
        "Please see the guide included with the distribution.\\cite{note}\n\nPlease note that the substyles work only with this release, and not with any release before it.\n"
        "\\begin{thebibliography}{1}\\bibitem{note} Installation notes, 2009.\\end{thebibliography}\n\\end{document}\n"
    )
    document = Document(
        sections=[
            Section("Introduction", blocks=[Block(text, 1, cites=[Cite(*_at(text, "1", ["1"]))])]),
            Section("References", number="ref"),
        ],
        references=[Reference("Installation notes, 2009.", key="1")],
    )
    (tmp_path / "paper.tex").write_text(tex, encoding="utf-8")
    gold = load_latex_citations(tmp_path / "paper.tex")
    assert gold is not None
    score = score_citations(document, gold)
    assert (score.gold, score.predicted, score.correct) == (1, 1, 1)


# --------------------------------------------------------------------------- scorer: floats


def test_captions_are_left_out_on_both_sides(tmp_path: Path) -> None:
    path = tmp_path / "paper.nxml"
    path.write_text(
        """<article><body><sec><p>Word embeddings were trained on the full text of every paper [<xref ref-type="bibr" rid="R1">1</xref>].</p>
<fig id="F1"><label>Figure 1</label><caption><p>Embeddings shown by t-SNE [<xref ref-type="bibr" rid="R2">2</xref>].</p></caption></fig>
</sec></body><back><ref-list><ref id="R1"><mixed-citation>A. Mikolov. Words. 2013.</mixed-citation></ref>
<ref id="R2"><mixed-citation>L. van der Maaten. t-SNE. 2008.</mixed-citation></ref></ref-list></back></article>""",
        encoding="utf-8",
    )
    gold = load_jats_citations(path)
    assert [keys for _, keys in gold.sentences if keys] == [["R1"]]
    body, caption = "Word embeddings were trained on the full text of every paper [1].", "Figure 1: Embeddings shown by t-SNE [2]."
    document = Document(
        sections=[
            Section(
                "Introduction",
                blocks=[
                    Block(body, 1, cites=[Cite(*_at(body, "[1]", ["1"]))]),
                    Block(caption, 1, kind="caption", cites=[Cite(*_at(caption, "[2]", ["2"]))]),
                ],
            ),
            Section("References", number="ref"),
        ],
        references=[Reference("A. Mikolov. Words. 2013.", key="1"), Reference("L. van der Maaten. t-SNE. 2008.", key="2")],
    )
    score = score_citations(document, gold)
    assert (score.gold, score.predicted, score.correct) == (1, 1, 1)


# --------------------------------------------------------------------------- gold: LaTeX commands


def test_a_ptptex_range_and_citen_cite_what_they_print(tmp_path: Path) -> None:
    items = "".join(f"\\bibitem{{rf:{n}}} A. Author{n}, Prog. Theor. Phys. {n} (1990), {n}.\n" for n in range(1, 6))
    source = tmp_path / "paper.tex"
    source.write_text(
        "\\documentclass{article}\\begin{document}\n"
        "The output is that at the end of this sentence.\\cite{rf:2}\\tocite{rf:4}\n"
        "The number alone is Ref.~\\citen{rf:5} here.\n"
        f"\\begin{{thebibliography}}{{9}}\n{items}\\end{{thebibliography}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    gold = load_latex_citations(source)
    assert gold is not None
    assert [keys for _, keys in gold.sentences if keys] == [["rf:2", "rf:3", "rf:4"], ["rf:5"]]
    assert not any("rf:4" in text for text, _ in gold.sentences)  # the range's end prints no key


# --------------------------------------------------------------------------- parser: example lists


def test_a_reference_entry_written_in_the_body_is_no_citation() -> None:
    for text in (
        "[1] A. Alpha and B. T. Beta, “Novel techniques for future TeV electron accelerators”, in Proc. IPAC’18.",
        "[Conference Proceedings, two authors; DOI encouraged] [2] A. Alpha et al., “A novel injector”, in Proc.",
        "Complete form. [3] Smith, J., and Lee, K. Frogs. 2001.",
        "[4] J.-P. Dupont, “Title”, J. Phys. 3 (2001).",
    ):
        assert numeric_brackets(text) == [], text
    # a citation that opens a sentence, or an initial after a citation, still cites
    for text in ("Done. [3] Smith et al. showed it.", "[12] showed that.", "as shown [1]. A. Smith disagrees.", "Known [3] A. Alpha."):
        assert len(numeric_brackets(text)) == 1, text


def test_a_footnote_is_a_paragraph_of_its_own_in_the_latex_gold(tmp_path: Path) -> None:
    # S2ORC: the note prints at the foot of the page, so its sentence is not the one carrying its mark
    source = tmp_path / "paper.tex"
    source.write_text(
        "\\documentclass{article}\\begin{document}\n"
        "We introduce a corpus, pronounced stork\\footnote{See \\citet{wang} for details.} built from papers \\citep{lo}.\n"
        "\\begin{thebibliography}{9}\\bibitem{wang} L. Wang, Cord, 2020.\n\\bibitem{lo} K. Lo, Papers, 2020.\n"
        "\\end{thebibliography}\n\\end{document}\n",
        encoding="utf-8",
    )
    gold = load_latex_citations(source)
    assert gold is not None
    cited = [(" ".join(text.split()), keys) for text, keys in gold.sentences if keys]
    assert cited == [("We introduce a corpus, pronounced stork built from papers .", ["lo"]), ("See for details.", ["wang"])]


def test_a_footnote_mark_glued_to_the_stop_ends_the_sentence() -> None:
    text = "Citations are linked to PubMed identifiers.17 CiteSeerX consists of crawled papers."
    assert [text[a:b] for a, b in sentences(text)] == [
        "Citations are linked to PubMed identifiers.",
        "CiteSeerX consists of crawled papers.",
    ]
    # a section's number, "et al." and a version are no stop with a mark
    for text in ("See Section 2.1 The results hold.", "Shown by Smith et al.3 The next.", "In version 3.5 Then it ran."):
        assert len(sentences(text)) == 1, text
