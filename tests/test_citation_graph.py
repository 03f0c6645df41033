"""The citation graph in the corpus (issue 21, items 3-5): in-text citations stored at their
passages, reference entries resolved to articles of the corpus in either order of arrival, and
Corpus.cites / cited_by reading both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from paperpyramid import Corpus
from paperpyramid.db import CorpusWriter
from paperpyramid.db.references import arxiv_id, surname, title_key
from paperpyramid.document import Author, Block, Cite, Document, Reference, Section
from paperpyramid.tokens import TokenCounter

FILLER = " ".join(f"Sentence {i} describes one more detail of the experimental set-up in plain words." for i in range(40))


def cited(text: str, marker: str, *keys: str) -> Block:
    """A block whose text holds ``marker`` once, cited to ``keys``."""
    start = text.index(marker)
    return Block(text, 2, cites=[Cite(start, start + len(marker), list(keys))])


def paper(
    title: str,
    *,
    doi: str | None = None,
    arxiv: str | None = None,
    year: str = "2020-05-01",
    first_author: str = "Ada Lovelace",
    blocks: list[Block] | None = None,
    references: list[Reference] | None = None,
) -> Document:
    return Document(
        title=title, authors=[Author(first_author)], date_published=year, doi=doi, arxiv_id=arxiv, pages=3,
        sections=[Section("Introduction", 1, "1", blocks=blocks or [Block("Nothing cited here.", 1)])],
        references=references or [],
    )  # fmt: skip


FROG = "A novel reproductive mode in frogs: internal fertilization and tadpole birth"
SHARK = "Longevity of the Atlantic sharpnose shark estimated from vertebral bands"


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[CorpusWriter]:
    with CorpusWriter(tmp_path / "c.sqlite", TokenCounter()) as writer:
        yield writer


def citing_paper() -> Document:
    text = "Frogs were thought never to give birth [1]. " + FILLER + " Sharks live long (Natanson et al., 2019), unlike frogs [1, 2]."
    start_one = text.index("[1]")
    start_two = text.index("(Natanson et al., 2019)")
    start_three = text.index("[1, 2]")
    block = Block(text, 2, cites=[Cite(start_one, start_one + 3, ["r1"]), Cite(start_two, start_two + 23, ["r2"]),
                                  Cite(start_three, start_three + 6, ["r1", "r2"])])  # fmt: skip
    return paper(
        "What the frogs and the sharks tell us about life histories",
        blocks=[block],
        references=[
            Reference("[1] Iskandar DT, Evans BJ, McGuire JA. A novel reproductive mode in frogs. PLoS ONE 2014.", doi="10.1371/journal.pone.0115884",
                      key="r1", year=2014),
            Reference("[2] Natanson L. Longevity of the Atlantic sharpnose shark. 2019.", title=SHARK, authors=["Natanson, L."], year=2019, key="r2"),
            Reference("[3] Somebody. An unrelated book. 1999.", title="An unrelated book about nothing in particular", year=1999, key="r3"),
            Reference("[4] Vaswani A. Attention is all you need. arXiv:1706.03762v5, 2017.", key="r4"),
        ],
    )  # fmt: skip


def test_citations_are_stored_at_their_markers_across_the_contexts_of_a_long_block(writer: CorpusWriter) -> None:
    article = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
    rows = writer.db.execute(
        "SELECT c.text, ci.char_start, ci.char_end, b.key FROM citations AS ci JOIN contexts AS c ON c.id = ci.context_id "
        "JOIN bib_entries AS b ON b.id = ci.bib_entry_id ORDER BY b.key, ci.char_start"
    ).fetchall()  # fmt: skip
    contexts = writer.db.execute("SELECT count(*) FROM sections_contexts").fetchone()[0]
    assert contexts >= 2, "the block is cut into several contexts, so offsets move"
    read = [(text[start:end], key) for text, start, end, key in rows]
    assert sorted(read) == sorted([("[1]", "r1"), ("[1, 2]", "r1"), ("(Natanson et al., 2019)", "r2"), ("[1, 2]", "r2")])
    assert writer.db.execute("SELECT count(*) FROM bib_entries WHERE article_id = ? AND key IS NOT NULL", [article]).fetchone()[0] == 4
    assert writer.db.execute("SELECT arxiv_id FROM bib_entries WHERE key = 'r4'").fetchone()[0] == "1706.03762"


def test_a_late_arriving_article_resolves_the_earlier_dangling_references_to_it(writer: CorpusWriter) -> None:
    citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
    dangling = writer.db.execute("SELECT count(*) FROM bib_entries WHERE cited_article_id IS NOT NULL").fetchone()[0]
    assert dangling == 0, "nothing it cites is in the corpus yet"
    frog = writer.add_document(paper("A Novel Reproductive Mode in Frogs", doi="https://doi.org/10.1371/JOURNAL.PONE.0115884", year="2014-12-31"),
                               source_uri="frog.pdf", sha256="b")  # fmt: skip
    shark = writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
    attention = writer.add_document(paper("Attention Is All You Need", arxiv="1706.03762", year="2017-06-12", first_author="Ashish Vaswani"),
                                    source_uri="attention.pdf", sha256="d")  # fmt: skip
    resolved = dict(writer.db.execute("SELECT key, cited_article_id FROM bib_entries WHERE article_id = ?", [citing]).fetchall())
    assert resolved == {"r1": frog, "r2": shark, "r3": None, "r4": attention}  # by DOI, by title + year + author, by arXiv id


def test_an_article_resolves_its_own_references_to_articles_already_there(writer: CorpusWriter) -> None:
    shark = writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
    twin = writer.add_document(paper(SHARK, year="2008-03-01", first_author="Lisa J. Natanson"), source_uri="old.pdf", sha256="e")
    citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
    resolved = dict(writer.db.execute("SELECT key, cited_article_id FROM bib_entries WHERE article_id = ?", [citing]).fetchall())
    assert resolved["r2"] == shark and twin != shark  # the same title eleven years off is another paper
    assert resolved["r1"] is None


def test_a_title_alone_that_contradicts_the_author_is_not_a_match(writer: CorpusWriter) -> None:
    writer.add_document(paper(SHARK, year="2019-03-01", first_author="Someone Else"), source_uri="shark.pdf", sha256="c")
    citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
    assert writer.db.execute("SELECT cited_article_id FROM bib_entries WHERE article_id = ? AND key = 'r2'", [citing]).fetchone()[0] is None


def test_corpus_cites_and_cited_by_give_the_citing_passages_with_pages(tmp_path: Path) -> None:
    with CorpusWriter(tmp_path / "c.sqlite", TokenCounter()) as writer:
        citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
        shark = writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
    with Corpus.open(tmp_path / "c.sqlite") as corpus:
        links = corpus.cites(citing)
        assert [link.entry.split("]")[0] for link in links] == ["[1", "[2", "[3", "[4"]
        assert [len(link.passages) for link in links] == [2, 2, 0, 0]
        (to_shark,) = corpus.cites(citing, in_corpus=True)
        assert to_shark.cited_article_id == shark and to_shark.cited_title == SHARK
        assert [passage.marker for passage in to_shark.passages] == ["(Natanson et al., 2019)", "[1, 2]"]
        assert to_shark.passages[0].sentence == "Sharks live long (Natanson et al., 2019), unlike frogs [1, 2]."
        assert all(passage.page_number == 2 for passage in to_shark.passages)
        (back,) = corpus.cited_by(shark)
        assert back.citing_article_id == citing and back.passages == to_shark.passages
        assert corpus.cited_by(citing) == []
        assert [reference.cited_article_id for reference in corpus.references(citing)] == [None, shark, None, None]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("arXiv:2004.14974v2", "2004.14974"), ("https://arxiv.org/abs/hep-th/9901001v3", "hep-th/9901001"), ("Phys. Rev. 2004.14974", None),
     ("arXiv preprint arXiv:1706.03762, 2017", "1706.03762")],
)  # fmt: skip
def test_arxiv_ids_are_read_only_where_the_text_says_arxiv(text: str, expected: str | None) -> None:
    assert arxiv_id(text) == expected


def test_titles_and_surnames_fold_alike() -> None:
    assert title_key("Über die Élasticité: a Study!") == title_key("uber die elasticite -- A study") == "uber die elasticite a study"
    assert surname("Natanson, L. J.") == surname("Lisa J. Natanson") == "natanson"


def test_show_and_list_print_the_links(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from paperpyramid.cli import app

    db = tmp_path / "c.sqlite"
    with CorpusWriter(db, TokenCounter()) as writer:
        citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
        shark = writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
    runner = CliRunner()
    shown = runner.invoke(app, ["show", shark, "--db", str(db)], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    assert f"cited by {citing}  What the frogs and the sharks" in shown.output
    assert "p. 2: Sharks live long (Natanson et al., 2019), unlike frogs [1, 2]." in shown.output
    shown = runner.invoke(app, ["show", citing, "--db", str(db), "--json"])
    body = json.loads(shown.stdout)
    assert [link["article"] for link in body["cites"]] == [shark] and body["cited_by"] == []
    listed = runner.invoke(app, ["list", "--db", str(db), "--cites", shark])
    assert listed.exit_code == 0 and [line.split()[0] for line in listed.output.splitlines()] == [citing]
    assert runner.invoke(app, ["list", "--db", str(db), "--cites", citing]).output == ""
    missing = runner.invoke(app, ["list", "--db", str(db), "--cites", "nope"])
    assert missing.exit_code != 0 and "nope" in missing.output


def test_a_marker_split_by_a_cut_is_stored_on_the_context_it_starts_in(tmp_path: Path) -> None:
    from paperpyramid.contexts import split_section

    text = "The lagoon colony of lemon sharks grew to three hundred animals within a decade (Okafor et al., 2021)."
    start = text.index("(Okafor")
    doc = paper(
        "A citing paper about lagoons",
        blocks=[Block(text, 1, cites=[Cite(start, len(text) - 1, ["k"])])],
        references=[Reference("Okafor N. Decadal growth. 2021.", key="k")],
    )
    with CorpusWriter(
        tmp_path / "c.sqlite", TokenCounter(), splitter=lambda section, counter: split_section(section, counter, max_tokens=24)
    ) as writer:
        writer.add_document(doc, source_uri="a.pdf", sha256="a")
        rows = writer.db.execute(
            "SELECT c.text, ci.char_start, ci.char_end FROM citations AS ci JOIN contexts AS c ON c.id = ci.context_id"
        ).fetchall()
        contexts = [row[0] for row in writer.db.execute("SELECT text FROM contexts")]
    assert contexts[0].endswith("(Okafor et al.,") and contexts[1] == "2021).", contexts
    assert [(context[start:end], end == len(context)) for context, start, end in rows] == [("(Okafor et al.,", True)]


def test_a_version_6_corpus_is_migrated_with_its_references_resolved(tmp_path: Path) -> None:
    """A corpus written before the citation graph: the migration folds its titles, reads arXiv
    ids from the entries, and resolves them once; a failed migration would leave version 6."""
    import sqlite_utils

    from paperpyramid.db.schema import MIGRATIONS, migrate

    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(path)
    migrate(old, MIGRATIONS[:6])
    now = "2024-01-01T00:00:00"
    old["articles"].insert_all([
        {"id": "shark", "title": SHARK, "authors": '[{"name": "Lisa J. Natanson"}]', "date_published": "2019-03-01", "sha256": "c", "created_at": now},
        {"id": "citing", "title": "What the frogs and the sharks tell us", "authors": "[]", "sha256": "a", "created_at": now},
        {"id": "vaswani", "title": "Attention Is All You Need", "authors": "[]", "sha256": "d", "created_at": now},
    ])  # fmt: skip
    old["bib_entries"].insert_all([
        {"id": "e1", "article_id": "citing", "position": 0, "raw": "Natanson L. Longevity of the Atlantic sharpnose shark. 2019.", "title": SHARK,
         "authors": '["Natanson, L."]', "year": 2019},
        {"id": "e2", "article_id": "citing", "position": 1, "raw": "Vaswani A. Attention. arXiv:1706.03762v5, 2017.", "authors": "[]"},
    ])  # fmt: skip
    old.conn.commit()
    old.close()
    with CorpusWriter(path, TokenCounter()) as writer:  # opening it migrates
        assert dict(writer.db.execute("SELECT id, cited_article_id FROM bib_entries").fetchall()) == {"e1": "shark", "e2": None}
        assert writer.db.execute("SELECT arxiv_id FROM bib_entries WHERE id = 'e2'").fetchone()[0] == "1706.03762"
        later = writer.add_document(paper("Attention Is All You Need (extended)", arxiv="1706.03762"), source_uri="a.pdf", sha256="z")
        assert writer.db.execute("SELECT cited_article_id FROM bib_entries WHERE id = 'e2'").fetchone()[0] == later


def test_a_title_is_matched_only_when_the_year_or_the_author_confirms_it(writer: CorpusWriter) -> None:
    writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
    bare = Reference("Longevity of the Atlantic sharpnose shark estimated from vertebral bands.", title=SHARK, key="bare")
    vancouver = Reference("Natanson LJ. Longevity of the Atlantic sharpnose shark. 2020.", title=SHARK, authors=["Natanson LJ"], key="v")
    short = Reference("Letter to the editor.", title="Letter to the editor", year=2019, key="s")
    writer.add_document(paper("Letter to the editor", year="2019-01-01"), source_uri="letter.pdf", sha256="l")
    citing = writer.add_document(
        paper("A citing paper on sharks and letters", references=[bare, vancouver, short]), source_uri="x.pdf", sha256="x"
    )
    resolved = dict(
        writer.db.execute("SELECT key, cited_article_id IS NOT NULL FROM bib_entries WHERE article_id = ?", [citing]).fetchall()
    )
    assert resolved == {"bare": False, "v": True, "s": False}  # no year nor author; Vancouver "Natanson LJ"; too short a title


def test_a_title_in_another_script_is_no_key() -> None:
    assert title_key("Модель BERT для задачи GPT-3 2020 transformer") is None
    assert title_key("Ökologie der Haie im Nordatlantik") == "okologie der haie im nordatlantik"
    assert surname("Natanson LJ") == surname("Natanson, L.") == "natanson"


def test_a_bare_number_marker_lands_on_its_own_digit_not_an_earlier_one(writer: CorpusWriter) -> None:
    first = Block("Results are in Table 3 of the appendix.", 2)
    text = "Mosquitoes3 transmit the virus."
    second = Block(text, 2, cites=[Cite(10, 11, ["r3"])])
    doc = paper(
        "A paper with superscript citations",
        blocks=[first, second],
        references=[Reference("3. Someone. A mosquito paper. 2001.", key="r3")],
    )
    writer.add_document(doc, source_uri="m.pdf", sha256="m")
    ((context, start, end),) = writer.db.execute(
        "SELECT c.text, ci.char_start, ci.char_end FROM citations AS ci JOIN contexts AS c ON c.id = ci.context_id"
    ).fetchall()
    assert context[start:end] == "3" and context[start - 10 : end] == "Mosquitoes3"


def test_the_datasette_queries_list_the_links_with_their_markers(tmp_path: Path) -> None:
    from paperpyramid.db.datasette import QUERIES

    with CorpusWriter(tmp_path / "c.sqlite", TokenCounter()) as writer:
        citing = writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
        shark = writer.add_document(paper(SHARK, year="2019-03-01", first_author="Lisa J. Natanson"), source_uri="shark.pdf", sha256="c")
        cited_by = writer.db.execute(QUERIES["cited_by"][2], {"article_id": shark}).fetchall()
        cites = writer.db.execute(QUERIES["cites_in_corpus"][2], {"article_id": citing}).fetchall()
    assert [(row[0], row[2], row[3]) for row in cited_by] == [(citing, 2, "(Natanson et al., 2019)"), (citing, 2, "[1, 2]")]
    assert [(row[1], row[3], row[4]) for row in cites] == [(shark, 2, "(Natanson et al., 2019)"), (shark, 2, "[1, 2]")]
