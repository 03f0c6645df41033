"""The parse evaluation harness: gold readers, scoring, reading parses from the corpus DB.

Tests on the real gold files need the shared corpus beside the repository
(``../shared/corpus``) and skip without it; everything else builds its own files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from paperpyramid.db.sqlite import sqlite3
from paperpyramid.eval.gold import GoldPaper, back_matter, latex_to_text, load_gold
from paperpyramid.eval.parse import (
    evaluate,
    predicted_from_db,
    render_report,
    report_to_json,
    score_paper,
    soft_norm,
)
from paperpyramid.source_names import file_name

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"../shared/corpus not present: {path} is missing")
    return path


def word_count(text: str) -> int:
    return len(re.findall(r"\w+", text))


# --------------------------------------------------------------------------- soft_norm


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("2.1. Related Work", "relatedwork"),
        ("2.1 Related Work", "relatedwork"),
        ("III. METHODS", "methods"),
        ("A. Proofs of the Lemmas", "proofsofthelemmas"),
        ("A.1 Hyper-parameters", "hyperparameters"),
        ("3) Results", "results"),
        ("4 Conclusions & Future Work", "conclusionsfuturework"),
        # a first word that merely looks like numbering stays
        ("A Novel Model", "anovelmodel"),
        ("Mixed Methods", "mixedmethods"),
        ("3D Reconstruction", "3dreconstruction"),
        # PDF text often carries ligatures
        ("Deﬁnitions", "definitions"),
    ],
)
def test_soft_norm(heading: str, expected: str) -> None:
    assert soft_norm(heading) == expected


def test_soft_norm_matches_numbered_and_plain_headings() -> None:
    assert soft_norm("2.1. Related Work") == soft_norm("Related work")
    assert soft_norm("V. DISCUSSION") == soft_norm("Discussion")


# --------------------------------------------------------------------------- score_paper


def paper(
    titles: list[str],
    body: str = "",
    title: str | None = None,
    refs: int | None = None,
) -> GoldPaper:
    return GoldPaper(title=title, section_titles=titles, body_text=body, n_references=refs)


def test_score_paper_precision_recall_f1() -> None:
    gold = paper(["1 Introduction", "2 Methods", "2.1 Data", "3 Results", "4 Discussion"])
    predicted = paper(["Introduction", "METHODS", "Results", "Data sets"])
    score = score_paper(gold, predicted)
    assert (score.matched_sections, score.predicted_sections, score.gold_sections) == (3, 4, 5)
    assert score.precision == pytest.approx(0.75)
    assert score.recall == pytest.approx(0.6)
    assert score.f1 == pytest.approx(2 * 0.75 * 0.6 / 1.35)


def test_back_matter_headings_count_on_neither_side() -> None:
    # the gold's back matter sits in <back> and is never a body section; a parse's is told by
    # its title, and a gold <sec> of the body named so is left out the same way
    gold = paper(["1 Introduction", "2 Methods", "Conflict of interest statement"])
    predicted = paper(["Introduction", "Methods", "Acknowledgements", "Authors’ contributions", "Publisher’s Note"])
    score = score_paper(gold, predicted)
    assert (score.matched_sections, score.predicted_sections, score.gold_sections) == (2, 2, 2)
    assert score.f1 == 1.0


def test_longer_back_matter_headings_are_back_matter_too() -> None:
    # publishers spell back matter many ways; a heading that begins like one is one, on both sides
    for title in (
        "Financial support and sponsorship",
        "Funding statement",
        "Acknowledgements and funding",
        "Conflict of interest disclosures",
        "Data availability statement and materials",
    ):
        assert back_matter(title), title
    for title in ("Methods", "Ethical considerations in sampling", "Supplementary analyses of the cohort", "Discussion"):
        assert not back_matter(title), title
    gold = paper(["Introduction", "Results", "Financial support and sponsorship"])
    score = score_paper(gold, paper(["Introduction", "Results"]))
    assert (score.matched_sections, score.gold_sections) == (2, 2)


def test_score_paper_matches_titles_as_a_multiset() -> None:
    # two gold "Results" headings need two predicted ones, and one predicted heading
    # can't match two gold ones
    gold = paper(["Results", "Results", "Discussion"])
    score = score_paper(gold, paper(["3 Results", "4 Results", "Methods"]))
    assert score.matched_sections == 2
    once = score_paper(paper(["Results"]), paper(["Results", "Results"]))
    assert once.matched_sections == 1
    assert once.precision == pytest.approx(0.5)
    assert once.recall == 1.0


def test_score_paper_empty_sides() -> None:
    assert score_paper(paper([]), paper([])).f1 == 1.0
    nothing_found = score_paper(paper(["Intro"]), paper([]))
    assert (nothing_found.precision, nothing_found.recall, nothing_found.f1) == (0.0, 0.0, 0.0)
    # headings that normalise to nothing never match each other
    assert score_paper(paper(["1."]), paper(["—"])).matched_sections == 0


def test_score_paper_title_body_and_references() -> None:
    gold = paper([], body="The cat saw the hat.", title="A Study of Cats", refs=25)
    predicted = paper([], body="the CAT, and a dog", title="A study of cats.", refs=20)
    score = score_paper(gold, predicted)
    assert score.title_match is True
    # gold words: the x2, cat, saw, hat; the prediction has one "the" and "cat"
    assert score.body_recall == pytest.approx(2 / 5)
    assert score.reference_ratio == pytest.approx(0.8)

    wrong = score_paper(gold, paper([], title="Dogs", refs=0))
    assert wrong.title_match is False
    assert wrong.body_recall == 0.0
    assert wrong.reference_ratio == 0.0
    assert score_paper(gold, paper([], title=None)).title_match is False


def test_score_paper_unknown_gold_values_give_none() -> None:
    score = score_paper(paper([], body="", title=None, refs=None), paper(["x"], "words", "T", 3))
    assert score.title_match is None
    assert score.body_recall is None
    assert score.reference_ratio is None


# --------------------------------------------------------------------------- gold readers


def test_load_gold_rejects_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "paper.bbl"
    path.write_text(r"\bibitem{x}")
    with pytest.raises(ValueError, match=r"\.nxml, \.tei\.xml, \.tex"):
        load_gold(path)


def test_plos_jats() -> None:
    gold = load_gold(corpus_file("plos-one-2014-fanged-frog-internal-fertilization.nxml"))
    assert gold.title == (
        "A Novel Reproductive Mode in Frogs: A New Species of Fanged Frog with Internal Fertilization and Birth of Tadpoles"
    )
    assert len(gold.section_titles) == 17  # MANIFEST: "17 sec"
    assert gold.section_titles[:2] == ["Introduction", "Materials and Methods"]
    assert gold.n_references == 25  # MANIFEST: "25 refs"
    assert "Limnonectes" in gold.body_text


def test_bmc_jats_counts_body_sections_only() -> None:
    gold = load_gold(corpus_file("bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.nxml"))
    # MANIFEST says "27 sec": that counts every <sec> in the file, 4 of which structure
    # the abstract (Background/Methods/Results/Conclusions). The body has 23.
    assert len(gold.section_titles) == 23
    assert gold.section_titles[0] == "Background"
    assert gold.section_titles[-1] == "Conclusions"
    assert "The Székely people" in gold.section_titles
    assert gold.n_references == 68  # MANIFEST: "68 refs"
    # tables (10 table-wrap inside paragraphs) are left out of the running text
    assert word_count(gold.body_text) < 10_000


def test_f1000_jats_leaves_out_referee_reports() -> None:
    gold = load_gold(corpus_file("f1000research-2015-mosquito-odorant-binding-garbled-fonts.nxml"))
    # MANIFEST says "11 sec": the 11th is "Amendments from Version 1" in <front><notes>
    assert len(gold.section_titles) == 10
    assert "Amendments from Version 1" not in gold.section_titles
    assert gold.n_references == 43  # MANIFEST: "43 refs"
    assert "micelle" in gold.body_text
    # text of a referee report (a <sub-article> with its own <body>)
    assert "acceptable scientific standard" not in gold.body_text


def test_specter_tei() -> None:
    gold = load_gold(corpus_file("acl-2020-specter.tei.xml"))
    assert gold.title is not None and gold.title.startswith("SPECTER: Document-level")
    # MANIFEST says "24 heads": that counts every <head>, including 5 figure/table
    # heads in <body> and the Acknowledgements head in <back>; 18 are body <div> heads.
    assert len(gold.section_titles) == 18
    assert gold.section_titles[0] == "Introduction"
    # MANIFEST says "58 biblStruct": one of them describes the paper itself in the
    # header's <sourceDesc>; the bibliography (<listBibl>) holds 57.
    assert gold.n_references == 57


def test_elsarticle_latex_counts_bbl_entries() -> None:
    gold = load_gold(corpus_file("arxiv-1803.07574-elsarticle-water-residence-time-compiled.tex"))
    assert gold.n_references == 31  # MANIFEST: the .bbl has "31 entries"
    # 20 sectioning commands, less the author's \section*{References}
    assert len(gold.section_titles) == 19
    # \texorpdfstring: the typeset form (λ, k_est) is what the PDF prints
    assert "General Discussion and λ Choice Strategies" in gold.section_titles
    assert "Estimation of kest with the Projected Newton Method" in gold.section_titles
    assert gold.section_titles[-1] == "Mean Residence Time"  # the appendix counts
    assert gold.title is not None and "l2-Regularized Inverse Problem" in gold.title


def test_scifact_latex_with_inlined_inputs() -> None:
    gold = load_gold(corpus_file("emnlp-2020-scifact-arxiv-2004.14974-compiled.tex"))
    assert gold.title == "Fact or Fiction: Verifying Scientific Claims"
    assert len(gold.section_titles) == 34  # 27 sectioning commands and 7 run-in \\paragraph headings
    # user macros in headings are expanded (\sysname -> VeriSci)
    assert "VeriSci: Baseline model" in gold.section_titles
    assert gold.n_references == 36
    # commented-out text (%-lines around the %%% >>> markers) is not body text
    assert "Uncomment URL" not in gold.body_text
    assert "\\" not in gold.body_text


def test_amsart_latin1_crlf_latex() -> None:
    gold = load_gold(corpus_file("arxiv-1707.08043-amsart-commutative-algebra-compiled.tex"))
    assert gold.section_titles == [
        "Introduction",
        "Preliminary facts",
        "Main Result",
        "acknowledgements",
    ]
    assert gold.n_references == 10  # inline thebibliography, no .bbl
    assert "\r" not in gold.body_text
    assert "Gómez-Ramírez" in gold.body_text  # accents from \'{i}, \'o
    assert gold.title is not None and gold.title.startswith("ON POSITIVE-CHARACTERISTIC")


def test_latex_reader_on_a_small_source(tmp_path: Path) -> None:
    source = (
        "\\documentclass{article}\r\n"
        "\\newcommand{\\ours}{\\textsc{Frogs}\\xspace}\r\n"
        "\\title[Short]{A Study of \\ours}\r\n"
        "\\begin{document}\r\n"
        "\\maketitle\r\n"
        "\\begin{abstract}Abstract words.\\end{abstract}\r\n"
        "\\section{Introduction} \\label{sec:intro}\r\n"
        "Caf\xe9 text about \\ours\\ with 50\\% more $x^2$ and a cite \\citep[see][]{key}.\r\n"
        "% \\section{Commented Out}\r\n"
        "\\subsection*{R\\'esum\\'e of \\emph{Prior} Work}\r\n"
        "\\begin{figure}\\caption{A caption}\\end{figure}\r\n"
        "\\appendix\r\n"
        "\\section{Proofs}\r\n"
        "\\begin{thebibliography}{9}\\bibitem{a} A.\\bibitem{b} B.\\end{thebibliography}\r\n"
        "\\end{document}\r\n"
    ).encode("latin-1")
    path = tmp_path / "small.tex"
    path.write_bytes(source)

    gold = load_gold(path)
    assert gold.title == "A Study of Frogs"
    assert gold.section_titles == ["Introduction", "Résumé of Prior Work", "Proofs"]
    assert gold.n_references == 2
    assert "Café text about Frogs with 50% more and a cite." in gold.body_text
    for absent in ("Abstract words", "caption", "Commented", "key", "Introduction"):
        assert absent not in gold.body_text

    # a .bbl beside the .tex is the reference count, not the inline list
    (tmp_path / "small.bbl").write_text("\\bibitem{a}\n\\bibitem{b}\n% \\bibitem{c}\n\\bibitem{d}")
    assert load_gold(path).n_references == 3


def test_latex_to_text_keeps_heading_math() -> None:
    assert latex_to_text(r"Choosing $\lambda$ for G\"{o}del", keep_math=True) == "Choosing λ for Gödel"
    assert latex_to_text(r"Choosing $\lambda$ well", keep_math=False) == "Choosing well"


# --------------------------------------------------------------------------- the database

SCHEMA = """
CREATE TABLE articles (id TEXT PRIMARY KEY, title TEXT, authors JSON, abstract TEXT,
    source_uri TEXT, sha256 TEXT, parser TEXT, pages INTEGER);
CREATE TABLE sections (id TEXT PRIMARY KEY, section_number TEXT, section_title TEXT,
    level INTEGER, num_tokens INTEGER, page_start INTEGER, page_end INTEGER);
CREATE TABLE article_sections (article_id TEXT, section_id TEXT, position INTEGER);
CREATE TABLE contexts (id TEXT PRIMARY KEY, text TEXT, section_title TEXT,
    section_number TEXT, num_tokens INTEGER, page_number INTEGER, stop_reason TEXT, kind TEXT);
CREATE TABLE sections_contexts (section_id TEXT, context_id TEXT, position INTEGER);
CREATE TABLE bib_entries (id TEXT, article_id TEXT, position INTEGER, raw TEXT, title TEXT,
    authors TEXT, year INTEGER, doi TEXT);
"""


def add_article(
    db: sqlite3.Connection,
    article_id: str,
    source_uri: str,
    title: str,
    sections: list[tuple[str | None, str, list[str]]],
    n_refs: int,
    parser: str = "embedded",
) -> None:
    """Store an article; sections as (number, title, context texts), listed out of order."""
    db.execute(
        "INSERT INTO articles (id, title, source_uri, parser) VALUES (?, ?, ?, ?)",
        (article_id, title, source_uri, parser),
    )
    # rows go in last section first, and ids sort backwards too, so only ORDER BY
    # position yields reading order
    for position, (number, heading, texts) in reversed(list(enumerate(sections))):
        section_id = f"{article_id}-s{len(sections) - position}"
        db.execute(
            "INSERT INTO sections (id, section_number, section_title, level) VALUES (?, ?, ?, 1)",
            (section_id, number, heading),
        )
        db.execute("INSERT INTO article_sections VALUES (?, ?, ?)", (article_id, section_id, position))
        for index, text in reversed(list(enumerate(texts))):
            context_id = f"{section_id}-c{len(texts) - index}"
            db.execute(
                "INSERT INTO contexts (id, text, section_title) VALUES (?, ?, ?)",
                (context_id, text, heading),
            )
            db.execute("INSERT INTO sections_contexts VALUES (?, ?, ?)", (section_id, context_id, index))
    for index in range(n_refs):
        db.execute(
            "INSERT INTO bib_entries (id, article_id, position, raw) VALUES (?, ?, ?, ?)",
            (f"{article_id}-b{index}", article_id, index, f"Reference {index}"),
        )


def make_db(path: Path, articles: list[dict[str, object]]) -> Path:
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for article in articles:
        add_article(db, **article)  # type: ignore[arg-type]
    db.commit()
    db.close()
    return path


FROG_ARTICLE: dict[str, object] = {
    "article_id": "a1",
    "source_uri": "s3://corpus-bucket/pdfs/frog.pdf",
    "title": "Frogs That Give Birth",
    "sections": [
        (None, "Abstract", ["Abstract text that the gold body does not hold."]),
        ("1", "Introduction", ["Fanged frogs live on Sulawesi."]),
        ("2", "Methods", ["We measured tadpoles", "Then we rested."]),
        ("3", "", ["An untitled block of text."]),
        ("4", "Acknowledgements", ["We thank the museum."]),
        ("ref", "References", ["Smith J. Frogs. 2001."]),
    ],
    "n_refs": 3,
}

FROG_JATS = """<?xml version="1.0" encoding="UTF-8"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink">
  <front><article-meta><title-group>
    <article-title>Frogs that give
      birth</article-title>
  </title-group>
  <abstract><sec><title>Background</title><p>Not body text.</p></sec></abstract>
  </article-meta></front>
  <body>
    <sec><title>1. Introduction</title><p>Fanged frogs live on <italic>Sulawesi</italic>.</p></sec>
    <sec><title>2. Methods</title><p>We measured tadpoles and eggs.</p>
      <sec><title>2.1. Field work</title><p>In the field.</p>
        <fig><caption><p>A frog.</p></caption></fig></sec>
    </sec>
    <sec><title>3. Results</title><p>Tadpoles were born.</p></sec>
  </body>
  <back><ack><sec><title>Acknowledgements</title><p>Thanks.</p></sec></ack>
    <ref-list><ref id="r1"/><ref id="r2"/><ref id="r3"/><ref id="r4"/></ref-list></back>
  <sub-article><body><sec><title>Referee report</title><p>Looks fine.</p></sec></body></sub-article>
</article>
"""

MANIFEST = (
    "file\tkind\tpairs_with\tsource\tlicence\tpages\tnote\n"
    "frog.pdf\tpdf\t\tx\tCC BY\t3\tthe PDF\n"
    'frog.nxml\tgold-jats\tfrog.pdf\tx\tCC BY\t-\t"quoted" note; 4 sec, 4 refs\n'
    "toad.tex\tgold-latex\ttoad.pdf\tx\tCC BY\t-\tnot parsed yet\n"
    "toad.bbl\tgold-latex\ttoad.pdf\tx\tCC BY\t-\tbibliography of toad.tex\n"
)


def test_predicted_from_db_reads_sections_in_order(tmp_path: Path) -> None:
    db_path = make_db(tmp_path / "corpus.db", [FROG_ARTICLE])
    predicted = predicted_from_db(db_path)
    assert list(predicted) == ["frog.pdf"]
    frog = predicted["frog.pdf"]
    assert frog.title == "Frogs That Give Birth"
    # no Abstract, no untitled section, no references section
    assert frog.section_titles == ["Introduction", "Methods", "Acknowledgements"]
    assert frog.n_references == 3
    assert "Fanged frogs live on Sulawesi." in frog.body_text
    assert "An untitled block of text." in frog.body_text  # its text still counts
    assert "Smith J." not in frog.body_text
    assert frog.body_text.index("Fanged") < frog.body_text.index("tadpoles")
    assert frog.body_text.index("tadpoles") < frog.body_text.index("rested")


def test_predicted_from_db_refuses_ambiguous_file_names(tmp_path: Path) -> None:
    second = {**FROG_ARTICLE, "article_id": "a2", "parser": "grobid"}
    second["source_uri"] = "/data/other/frog.pdf"
    db_path = make_db(tmp_path / "corpus.db", [FROG_ARTICLE, second])
    with pytest.raises(ValueError, match="frog.pdf"):
        predicted_from_db(db_path)
    assert list(predicted_from_db(db_path, parser="grobid")) == ["frog.pdf"]


def test_predicted_from_db_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        predicted_from_db(tmp_path / "absent.db")


@pytest.mark.parametrize(
    "uri",
    [
        "/data/corpus/frog.pdf",
        "frog.pdf",
        "file:///data/corpus/frog.pdf",
        "s3://bucket/a/b/frog.pdf",
        "https://example.org/papers/frog.pdf?download=1",
        "file:///data/corpus/fr%6Fg.pdf",
    ],
)
def test_file_name(uri: str) -> None:
    assert file_name(uri) == "frog.pdf"


# --------------------------------------------------------------------------- evaluate


def test_evaluate_scores_manifest_papers(tmp_path: Path) -> None:
    gold_dir = tmp_path / "corpus"
    gold_dir.mkdir()
    (gold_dir / "MANIFEST.tsv").write_text(MANIFEST, encoding="utf-8")
    (gold_dir / "frog.nxml").write_text(FROG_JATS, encoding="utf-8")
    db_path = make_db(tmp_path / "corpus.db", [FROG_ARTICLE])

    report = evaluate(gold_dir, db_path)

    assert [r.pdf for r in report.papers] == ["frog.pdf"]
    assert report.missing == ["toad.pdf"]  # once, though toad has a .tex and a .bbl row
    result = report.papers[0]
    assert (result.gold_file, result.gold_kind) == ("frog.nxml", "gold-jats")
    score = result.score
    # gold: Introduction, Methods, Field work, Results (not the abstract's, back's or
    # referee report's); predicted: Introduction, Methods (Acknowledgements is back matter)
    assert (score.gold_sections, score.predicted_sections, score.matched_sections) == (4, 2, 2)
    assert score.precision == pytest.approx(1.0)
    assert score.recall == pytest.approx(0.5)
    assert score.title_match is True
    assert score.reference_ratio == pytest.approx(3 / 4)
    # gold words: fanged frogs live on sulawesi / we measured tadpoles and eggs /
    # in the field / tadpoles were born (16); found: the first 5, "we measured
    # tadpoles" (one of the two "tadpoles"), and "the" from the predicted abstract
    assert score.body_recall == pytest.approx(9 / 16)

    overall = report.overall
    assert overall.papers == 1
    assert overall.micro_precision == pytest.approx(1.0)
    assert overall.micro_recall == pytest.approx(0.5)
    assert overall.macro_f1 == pytest.approx(score.f1)
    assert overall.title_accuracy == 1.0
    assert overall.median_reference_ratio == pytest.approx(0.75)

    text = render_report(report)
    assert "frog.pdf" in text and "gold-jats" in text
    assert "micro P=1.00 R=0.50" in text
    assert "toad.pdf" in text

    data = report_to_json(report)
    assert json.loads(json.dumps(data)) == data  # plain JSON types only
    assert data["papers"][0]["recall"] == pytest.approx(0.5)
    assert data["overall"]["micro_recall"] == pytest.approx(0.5)
    assert data["missing"] == ["toad.pdf"]


def test_evaluate_micro_and_macro_differ(tmp_path: Path) -> None:
    """Micro sums counts (long papers weigh more); macro averages per-paper F1."""
    gold_dir = tmp_path / "corpus"
    gold_dir.mkdir()
    secs = "".join(f"<sec><title>Part {i}</title><p>x</p></sec>" for i in range(8))
    (gold_dir / "long.nxml").write_text(f"<article><body>{secs}</body></article>")
    (gold_dir / "short.nxml").write_text("<article><body><sec><title>Only</title><p>y</p></sec></body></article>")
    (gold_dir / "MANIFEST.tsv").write_text(
        "file\tkind\tpairs_with\tsource\tlicence\tpages\tnote\n"
        "long.nxml\tgold-jats\tlong.pdf\t\t\t\t\n"
        "short.nxml\tgold-jats\tshort.pdf\t\t\t\t\n"
    )
    long_sections = [(str(i), f"Part {i}", ["x"]) for i in range(8)]
    db_path = make_db(
        tmp_path / "corpus.db",
        [
            {
                "article_id": "l",
                "source_uri": "long.pdf",
                "title": "L",
                "sections": long_sections,
                "n_refs": 0,
            },
            {
                "article_id": "s",
                "source_uri": "short.pdf",
                "title": "S",
                "sections": [("1", "Wrong", ["y"])],
                "n_refs": 0,
            },
        ],
    )
    report = evaluate(gold_dir, db_path)
    assert report.overall.micro_f1 == pytest.approx(8 / 9)
    assert report.overall.macro_f1 == pytest.approx(0.5)
    assert report.overall.title_accuracy is None  # no gold titles at all
    assert report.overall.median_reference_ratio is None  # gold reference counts unknown
