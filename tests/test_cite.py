"""Citations out (issue 22, item 2): `paperpyramid cite` and `ask --format` as BibTeX (read back
by the project's own .bib reader), CSL-JSON and text, from the stored metadata, with stable keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paperpyramid import Corpus
from paperpyramid.cli import app
from paperpyramid.db import CorpusWriter
from paperpyramid.document import Author, Block, Document, Section
from paperpyramid.export.cite import format_citations
from paperpyramid.parsers.latex.bibliography import bib_entries
from paperpyramid.tokens import TokenCounter
from tests.fake_llm import FakeLLMServer
from tests.test_ask import answering
from tests.test_distill import paper as colonies


def article(title: str, year: str, *, journal: str | None = None, doi: str | None = None, arxiv: str | None = None) -> Document:
    return Document(
        title=title, authors=[Author("Ada Smith"), Author("Grace O'Neil & Co")], date_published=year, journal=journal, doi=doi, arxiv_id=arxiv,
        pages=2, sections=[Section("Results", 1, "1", blocks=[Block(f"{title}: the graph grew on page two.", 2)])],
    )  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "c.sqlite"
    with CorpusWriter(path, TokenCounter()) as writer:
        writer.add_document(
            article("Graph growth in 50% of R&D labs", "2020-05-01", journal="J. Graphs", doi="10.5555/graph.1"), source_uri="a", sha256="a"
        )
        writer.add_document(article("Graph decay", "12 March 2020", arxiv="2003.01234"), source_uri="b", sha256="b")
        writer.add_document(article("The Graph returns", "2021"), source_uri="c", sha256="c")
    return path


def ids(db: Path) -> dict[str, str]:
    with Corpus.open(db) as corpus:
        return {article.title or "": article.id for article in corpus.articles()}


def test_bibtex_round_trips_with_stable_keys(db: Path) -> None:
    known = ids(db)
    with Corpus.open(db) as corpus:
        context = corpus.conn.execute("SELECT c.id FROM contexts AS c WHERE c.text LIKE 'Graph decay%'").fetchone()[0]
        text = format_citations(corpus, [known["Graph growth in 50% of R&D labs"], context, "10.5555/GRAPH.1"], "bibtex")
        alone = format_citations(corpus, [known["Graph decay"]], "bibtex")
    read = bib_entries(text)
    assert list(read) == ["smith2020graph", "smith2020graphb"]  # the DOI names the first again: cited once
    first, second = read["smith2020graph"].fields, read["smith2020graphb"].fields
    assert first["journal"] == r"J. Graphs" and first["doi"] == "10.5555/graph.1" and first["year"] == "2020"
    assert r"50\% of R\&D labs" in first["title"] and r"Grace O'Neil \& Co" in first["author"]
    assert second["eprint"] == "2003.01234" and second["year"] == "2020" and second["note"] == "cited pages: 2"
    assert "smith2020graphb" in alone  # the key does not depend on what else is cited
    assert text.startswith("@article{smith2020graph,") and "@misc{smith2020graphb," in text


def test_csl_json_and_text(db: Path) -> None:
    known = ids(db)
    with Corpus.open(db) as corpus:
        items = json.loads(format_citations(corpus, [known["Graph decay"], known["The Graph returns"]], "csl-json"))
        lines = format_citations(corpus, [known["Graph growth in 50% of R&D labs"]], "text")
    assert [item["id"] for item in items] == ["smith2020graphb", "smith2021graph"]
    assert items[0]["author"][0] == {"family": "Smith", "given": "Ada"} and items[0]["issued"] == {"date-parts": [[2020]]}
    assert items[0]["URL"] == "https://arxiv.org/abs/2003.01234" and items[0]["type"] == "article"
    assert (
        lines
        == "[Graph growth in 50% of R&D labs] Ada Smith and Grace O'Neil & Co (2020). Graph growth in 50% of R&D labs. J. Graphs. https://doi.org/10.5555/graph.1"
    )


def test_cli_cite_and_its_errors(db: Path) -> None:
    known = ids(db)
    runner = CliRunner()
    result = runner.invoke(app, ["cite", known["The Graph returns"], "--db", str(db), "--format", "csl-json"])
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["title"] == "The Graph returns"
    missing = runner.invoke(app, ["cite", "nope", "--db", str(db)])
    assert missing.exit_code == 2 and "no article, DOI or passage with id 'nope'" in missing.output


def test_ask_appends_the_works_its_answer_cites(tmp_path: Path, monkeypatch: Any) -> None:
    db = tmp_path / "corpus.sqlite"
    with CorpusWriter(db, TokenCounter()) as writer:
        writer.add_document(colonies("alpha", pages=3), source_uri="alpha.pdf", sha256="alpha")
    with FakeLLMServer(answering) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
        common = ["ask", "shark colony size", "--db", str(db), "--strategy", "bm25", "--llm-backend", "openai", "--llm-model", "fake-model"]
        printed = CliRunner().invoke(app, [*common, "--format", "bibtex"])
        as_json = CliRunner().invoke(app, [*common, "--format", "csl-json", "--json"])
    assert printed.exit_code == 0, printed.output
    (entry,) = bib_entries(printed.stdout).values()
    assert (
        entry.fields["title"].strip("{}") == "Colonies of alpha" and entry.fields["note"] == "cited pages: 2"
    )  # the supported claim's page only
    data = json.loads(as_json.stdout.strip().splitlines()[-1])
    assert [item["title"] for item in json.loads(data["works"])] == ["Colonies of alpha"]


def test_no_id_begins_like_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """One id in 64 began with "-", and `paperpyramid cite <id>` read it as an unknown option.
    An id now begins with the time, whose first symbol is "-" in some eras (the clock at 0 here)."""
    from paperpyramid.db import article_rows
    from paperpyramid.db.article_rows import new_id

    made = [new_id() for _ in range(5000)]
    assert not any(value.startswith("-") for value in made)
    assert all(len(value) == 21 for value in made) and len(set(made)) == len(made)
    assert any("-" in value for value in made)
    monkeypatch.setattr(article_rows.time, "time_ns", lambda: 0)
    early = [new_id() for _ in range(200)]
    assert all(value.startswith("_------") and len(value) == 21 for value in early)
    assert len(set(early)) == len(early)
