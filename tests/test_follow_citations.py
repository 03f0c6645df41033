"""The walk and the pyramid agent follow a citation to a paper of the corpus (issue 21, item 5):
a passage (or a pyramid item whose sources are passages) that cites one shows it (its cites
attribute), and following it opens the cited paper at its passage most like the citing sentence.
Scripted model on 127.0.0.1, as in test_walk.py and test_pyramid_agent.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paperpyramid.asking.trace import Tracker
from paperpyramid.asking.walk import walk
from paperpyramid.contexts import split_section
from paperpyramid.corpus import Corpus
from paperpyramid.db import CorpusWriter
from paperpyramid.document import Author, Block, Cite, Document, Reference, Section
from paperpyramid.llm import get_llm
from tests.fake_llm import FakeLLMServer, llm_settings
from tests.test_walk import Model, user_turn

CITING = "The lagoon colony of lemon sharks grew to three hundred animals within a decade (Okafor et al., 2021)."
_CITING_PASSAGE = re.compile(r'<document passage="(\d+)" page="\d*" cites="([^"]*)">')


def cited_paper() -> Document:
    return Document(
        title="Decadal growth of a lemon shark nursery", authors=[Author("Ngozi Okafor")], date_published="2021-02-01", doi="10.1000/sharks.2021",
        pages=3,
        sections=[
            Section("Introduction", 1, "1", blocks=[Block("Nurseries shelter young sharks from predators in shallow water.", 1)]),
            Section("Methods", 1, "2", blocks=[Block("We tagged every shark in the lagoon each spring with acoustic transmitters.", 2)]),
            Section("Results", 1, "3", blocks=[Block("The lemon shark colony grew from forty to three hundred animals within a decade.", 3)]),
            Section("Discussion", 1, "4", blocks=[Block("Survival of the first year rose with mangrove cover.", 3)]),
        ],
    )  # fmt: skip


def citing_paper() -> Document:
    start = CITING.index("(Okafor")
    return Document(
        title="Shark colonies of the western lagoons", authors=[Author("Ada Lovelace")], date_published="2023-01-01", pages=2,
        sections=[
            Section("Background", 1, "1", blocks=[Block("Lagoons hold several shark colonies of different species.", 1),
                                                  Block(CITING, 1, cites=[Cite(start, len(CITING) - 1, ["okafor2021"])])]),
            Section("References", 1, "ref", blocks=[Block("Okafor N. Decadal growth of a lemon shark nursery. 2021.", 2)]),
        ],
        references=[Reference("Okafor N. Decadal growth of a lemon shark nursery. 2021.", doi="10.1000/sharks.2021", key="okafor2021")],
    )  # fmt: skip


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("walk-cites") / "corpus.sqlite"
    with CorpusWriter(path, splitter=lambda section, counter: split_section(section, counter, max_tokens=40)) as writer:
        writer.add_document(citing_paper(), source_uri="citing.pdf", sha256="a")
        writer.add_document(cited_paper(), source_uri="cited.pdf", sha256="b")  # arrives later: the reference resolves to it
    return path


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(Model([("done", {"keep": []})])) as server:
        yield server


def citing_number(body: dict[str, Any]) -> dict[str, Any]:
    (match,) = _CITING_PASSAGE.finditer(user_turn(body))
    assert match.group(2) == "1. Decadal growth of a lemon shark nursery"
    return {"passage": int(match.group(1)), "keep": []}


def test_follow_citation_opens_the_cited_paper_at_the_passage_like_the_citing_sentence(db: Path, fake: FakeLLMServer) -> None:
    fake.requests.clear()
    fake.handler = Model([("follow_citation", citing_number), ("done", {"keep": [1]})])
    with Corpus.open(db) as corpus:
        found = walk(corpus.conn, "what did Okafor et al. report of the lagoon colony", get_llm(llm_settings(fake.base_url)),
                     tracker=Tracker())  # fmt: skip
    moves = [step.detail for step in found.steps if step.name == "walk"]
    assert moves[0].startswith("follow_citation(passage ") and "→ §3 Results (p. 3)" in moves[0], moves
    second = user_turn(fake.requests[-1])
    assert "The paper's outline (→ the current section, ✓ sections read):\n<document>\nDecadal growth of a lemon shark nursery\n" in second
    assert "→ §3 Results (p. 3)" in second
    assert [hit.text for hit in found.passages] == ["The lemon shark colony grew from forty to three hundred animals within a decade."]
    assert (
        found.passages[0].citation.article_title == "Decadal growth of a lemon shark nursery"
        and found.passages[0].citation.page_number == 3
    )


def test_following_a_passage_that_cites_no_corpus_paper_is_told_to_the_model(db: Path, fake: FakeLLMServer) -> None:
    fake.requests.clear()
    fake.handler = Model(
        [("follow_citation", {"passage": 1, "keep": []}), ("follow_citation", {"passage": 9, "keep": []}), ("done", {"keep": []})]
    )
    with Corpus.open(db) as corpus:
        found = walk(corpus.conn, "does mangrove cover help first-year survival", get_llm(llm_settings(fake.base_url)), tracker=Tracker())
    moves = [step.detail for step in found.steps if step.name == "walk"]
    assert moves[0].endswith("→ passage 1 cites no paper 1 of the corpus, kept 0") and moves[1].endswith("→ no passage 9, kept 0"), moves
    assert "Note: Passage 1 cites no paper of the corpus." in user_turn(fake.requests[1])


def test_the_pyramid_agent_follows_an_insight_to_the_paper_its_passage_cites(db: Path, fake: FakeLLMServer) -> None:
    import json

    from paperpyramid.asking.pyramid_agent import pyramid_agent
    from paperpyramid.db.pyramid import ArticlePyramid, InsightRow, store_pyramid
    from paperpyramid.db.writer import connect
    from tests.fake_llm import FakeReply

    writer = connect(db)
    try:
        citing_id, context_id = writer.conn.execute(
            "SELECT a.id, c.id FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id JOIN article_sections AS ars "
            "ON ars.section_id = sc.section_id JOIN articles AS a ON a.id = ars.article_id WHERE c.text LIKE '%(Okafor et al.%'"
        ).fetchone()  # fmt: skip
        insight = "A lagoon colony of lemon sharks grew to three hundred animals."
        store_pyramid(writer.conn, ArticlePyramid(citing_id, "test:hand-made", "test", [InsightRow(insight, [1], None, 10, [(context_id, 1.0)])], [],
                                                  None, 0))  # fmt: skip
    finally:
        writer.close()
    prompts: list[str] = []

    def agent(body: dict[str, Any]) -> FakeReply:
        prompts.append(user_turn(body))
        (number,) = re.findall(
            r'<document candidate="(\d+)" level="insights" cites="1. Decadal growth of a lemon shark nursery">', prompts[-1]
        )
        return FakeReply(json.dumps({"keep": [], "notes": "", "queries": [], "enough": True, "follow": [int(number)]}))

    fake.requests.clear()
    fake.handler = agent
    with Corpus.open(db) as corpus:
        found = pyramid_agent(corpus.conn, "lagoon colony of lemon sharks", get_llm(llm_settings(fake.base_url)), tracker=Tracker())
    rounds = [step.detail for step in found.steps if step.name == "pyramid"]
    assert len(rounds) == 1 and rounds[0].endswith("kept 0, followed 1 citation"), rounds
    assert [hit.text for hit in found.passages] == ["The lemon shark colony grew from forty to three hundred animals within a decade."]
    assert found.passages[0].citation.page_number == 3
