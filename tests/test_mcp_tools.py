"""The MCP tools one by one, through the official MCP client connected in-process to the real
server, on a corpus ingested here from the sample PDFs (and a pyramid stored by the project's
own writer): the bounds (k, budgets, pages with cursors, the truncation marker), the fallback
when the corpus has no vectors, filters, errors as tool errors, the pyramid's links to its
source passages, the citations in a passage, the formats of ``cite``, the markdown resources
and the prompt. Every passage is checked against the corpus file read with sqlite3."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from paperpyramid.corpus import Corpus
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, store_pyramid
from paperpyramid.db.writer import connect
from paperpyramid.ingestion import ingest
from paperpyramid.services.mcp.bounds import K_MAX, MARKER
from paperpyramid.services.mcp.server import build_server
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE
from tests.test_mcp_server import check_passage

FROG_DOI = "10.1371/journal.pone.0115884"
WAIT = 60


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample corpus, with a hand-made pyramid on the frog paper: three insights, each
    linked to a real passage of it, and a concept grouping the first two."""
    path = tmp_path_factory.mktemp("mcp-tools") / "corpus.sqlite"
    assert ingest([SAMPLE], path, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    writer = connect(path)
    try:
        frog = writer.conn.execute("SELECT id FROM articles WHERE doi = ?", [FROG_DOI]).fetchone()[0]
        contexts = writer.conn.execute(
            "SELECT c.id, c.page_number, c.text FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id "
            "JOIN article_sections AS ars ON ars.section_id = sc.section_id JOIN sections AS s ON s.id = sc.section_id "
            "WHERE ars.article_id = ? AND s.section_number IS NOT 'ref' ORDER BY ars.position, sc.position", [frog]).fetchall()  # fmt: skip
        chosen = [contexts[1], contexts[len(contexts) // 2], contexts[-1]]
        insights = [
            InsightRow(text.split(". ")[0].rstrip(".") + ".", [page], None, 20, [(context_id, 0.9)]) for context_id, page, text in chosen
        ]
        store_pyramid(writer.conn, ArticlePyramid(frog, "test:hand-made", "test", insights, [ConceptRow("Reproduction and its evidence.", 6, [0, 1])],
                                                  "A fanged frog that gives birth to tadpoles.", 10))  # fmt: skip
    finally:
        writer.close()
    return path


def drive(db: Path, steps: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        with anyio.fail_after(WAIT), Corpus.open(db, check_same_thread=False) as corpus:
            async with Client(build_server(corpus)) as client:
                await steps(client)

    anyio.run(main)


async def ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    # the model reads the same answer as compact JSON
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return result.structured_content


async def refused(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    message = result.content[0].text  # type: ignore[union-attr]
    assert "Traceback" not in message and 'File "' not in message
    return message


def query(db: Path, sql: str, parameters: list[Any]) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(sql, parameters).fetchall()


def test_search_is_bounded_and_says_when_it_falls_back(db: Path) -> None:
    async def steps(client: Client) -> None:
        found = await ok(client, "search", {"query": "Fusarium poae volatile metabolites", "mode": "hybrid", "k": 3})
        # the corpus was ingested without vectors: hybrid is not available, and the answer says so
        assert found["mode"] == "bm25" and "no vectors" in found["note"]
        assert 1 <= len(found["hits"]) <= 3
        for hit in found["hits"]:
            check_passage(db, hit)
        small = await ok(client, "search", {"query": "Fusarium poae volatile metabolites", "mode": "bm25", "k": 10, "budget_tokens": 300})
        assert sum(hit["tokens"] for hit in small["hits"]) <= 300 and "did not fit budget_tokens=300" in small["left_out"]
        parent = await ok(client, "search", {"query": "tadpoles birth", "mode": "parent", "budget_tokens": 1000})
        assert parent["tokens"] <= 1000 and len(parent["hits"]) >= 2
        for hit in parent["hits"]:
            check_passage(db, hit)
        assert "less than or equal to 20" in await refused(client, "search", {"query": "frog", "k": K_MAX + 1})
        assert "mode" in await refused(client, "search", {"query": "frog", "mode": "cosine"})
        assert "distilled level" in await refused(client, "search", {"query": "frog", "mode": "parent", "level": "insights"})
        nothing = await ok(client, "search", {"query": "zzzzqqqq xylophonequark", "mode": "bm25"})
        assert nothing["hits"] == [] and "no passage matched" in nothing["note"]

    drive(db, steps)


def test_filters_restrict_and_bad_filters_are_refused(db: Path) -> None:
    async def steps(client: Client) -> None:
        frog_id = query(db, "SELECT id FROM articles WHERE doi = ?", [FROG_DOI])[0][0]
        only = await ok(client, "search", {"query": "species specimens", "mode": "bm25", "article_ids": [FROG_DOI]})
        assert only["hits"] and {hit["article_id"] for hit in only["hits"]} == {frog_id}
        assert "no-such-paper" in await refused(client, "search", {"query": "frog", "article_ids": ["no-such-paper"]})
        assert "is after year_to" in await refused(client, "search", {"query": "frog", "year_from": 2015, "year_to": 2010})
        years = dict(query(db, "SELECT id, CAST(substr(date_published, 1, 4) AS INTEGER) FROM articles", []))  # stored as ISO 8601
        dated = await ok(client, "search", {"query": "species specimens", "mode": "bm25", "year_from": 2014, "year_to": 2014})
        assert dated["hits"] and all(years[hit["article_id"]] == 2014 for hit in dated["hits"])
        later = await ok(client, "search", {"query": "species specimens", "mode": "bm25", "year_from": max(years.values()) + 1})
        assert later["hits"] == []
        plos = await ok(client, "list_articles", {"journal": "plos one"})
        assert [article["article_id"] for article in plos["articles"]] == [frog_id] and plos["total"] == 1
        none = await ok(client, "list_articles", {"year_from": 2020})
        assert none["articles"] == [] and none["total"] == 0
        first = await ok(client, "list_articles", {"limit": 2})
        rest = await ok(client, "list_articles", {"offset": first["next_offset"], "limit": 2})
        assert first["total"] == 3 and first["next_offset"] == 2 and rest["next_offset"] is None
        stored = [row[0] for row in query(db, "SELECT id FROM articles ORDER BY created_at, rowid", [])]
        assert [article["article_id"] for article in first["articles"] + rest["articles"]] == stored

    drive(db, steps)


def test_read_section_pages_through_a_whole_section(db: Path) -> None:
    section_id, total = query(db, "SELECT section_id, sum(c.num_tokens) FROM sections_contexts AS sc JOIN contexts AS c ON c.id = sc.context_id "
                                  "GROUP BY section_id ORDER BY 2 DESC LIMIT 1", [])[0]  # fmt: skip
    stored = [row[0] for row in query(db, "SELECT context_id FROM sections_contexts WHERE section_id = ? ORDER BY position", [section_id])]
    assert total > 1000

    async def steps(client: Client) -> None:
        read: list[str] = []
        offset: int | None = 0
        pages = 0
        while offset is not None:
            page = await ok(client, "read_section", {"section_id": section_id, "offset": offset, "max_tokens": 400})
            assert page["tokens"] <= 400 and page["total_passages"] == len(stored)
            for passage in page["passages"]:
                check_passage(db, passage)
            read += [passage["context_id"] for passage in page["passages"]]
            offset, pages = page["next_offset"], pages + 1
            assert pages <= len(stored)
        assert read == stored and pages > 1  # every passage once, in order, over several pages
        tiny = await ok(client, "read_section", {"section_id": section_id, "max_tokens": 50})
        cut = tiny["passages"][0]
        assert cut["truncated"] and cut["tokens"] == 50 and MARKER.split("{")[0] in cut["text"] and "context_window" in cut["text"]
        check_passage(db, cut)
        assert tiny["next_offset"] == 1
        assert "past the section's last passage" in await refused(
            client, "read_section", {"section_id": section_id, "offset": len(stored) + 1}
        )
        assert "greater than or equal to 50" in await refused(client, "read_section", {"section_id": section_id, "max_tokens": 10})

    drive(db, steps)


def test_walking_sections_and_windows_stops_at_the_ends(db: Path) -> None:
    frog_id = query(db, "SELECT id FROM articles WHERE doi = ?", [FROG_DOI])[0][0]
    order = [row[0] for row in query(db, "SELECT section_id FROM article_sections WHERE article_id = ? ORDER BY position", [frog_id])]

    async def steps(client: Client) -> None:
        outline = await ok(client, "outline", {"article_id": FROG_DOI})
        assert [section["section_id"] for section in outline["sections"]] == order and outline["next_offset"] is None
        paged = await ok(client, "outline", {"article_id": frog_id, "limit": 2})
        assert [section["section_id"] for section in paged["sections"]] == order[:2] and paged["next_offset"] == 2
        last = await ok(client, "next_section", {"section_id": order[-1]})
        assert last["section"] is None and "last section" in last["note"]
        first = await ok(client, "previous_section", {"section_id": order[0]})
        assert first["section"] is None and "first section" in first["note"]
        heading = await ok(client, "next_section", {"section_id": order[0], "max_tokens": 0})
        assert heading["section"]["section_id"] == order[1] and "passages" not in heading
        back = await ok(client, "previous_section", {"section_id": order[2]})
        assert back["section"]["section_id"] == order[1]
        opening = query(db, "SELECT context_id FROM sections_contexts WHERE section_id = ? ORDER BY position LIMIT 1", [order[0]])[0][0]
        window = await ok(client, "context_window", {"context_id": opening, "before": 5, "after": 1})
        assert [passage["context_id"] for passage in window["passages"]][0] == opening and len(window["passages"]) == 2
        assert "less than or equal to 5" in await refused(client, "context_window", {"context_id": opening, "before": 6})
        assert "no context with id 'nope'" in await refused(client, "context_window", {"context_id": "nope"})
        assert "no article with id or DOI 'nope'" in await refused(client, "outline", {"article_id": "nope"})

    drive(db, steps)


def test_pyramid_links_insights_to_their_passages(db: Path) -> None:
    async def steps(client: Client) -> None:
        pyramid = await ok(client, "pyramid", {"article_id": FROG_DOI})
        assert pyramid["distillation"] == "done" and pyramid["abstract"] == {
            "text": "A fanged frog that gives birth to tadpoles.",
            "distilled": True,
        }
        assert pyramid["total_insights"] == 3 and [insight["number"] for insight in pyramid["insights"]] == [1, 2, 3]
        assert pyramid["concepts"][0]["insights"] == [1, 2]
        for insight in pyramid["insights"]:
            stored = query(db, "SELECT ic.context_id FROM insights_contexts AS ic WHERE ic.insight_id = ?", [insight["insight_id"]])
            source = insight["sources"][0]
            assert [source["context_id"]] == [row[0] for row in stored]
            check_passage(db, source)
            assert insight["text"] in source["text"] or source.get("truncated")
        page = await ok(client, "pyramid", {"article_id": FROG_DOI, "offset": 2, "limit": 1})
        assert [insight["number"] for insight in page["insights"]] == [3] and page["next_offset"] is None
        plain = await ok(client, "list_articles", {"journal": "Metabolites"})
        other = await ok(client, "pyramid", {"article_id": plain["articles"][0]["article_id"]})
        assert other["distillation"] == "not distilled" and other["insights"] == [] and "distill" in other["note"]
        levels = await ok(client, "search", {"query": "fanged frog tadpoles", "mode": "bm25", "level": "abstracts"})
        assert levels["hits"] and levels["hits"][0]["level"] == "abstracts" and levels["hits"][0]["sources"]
        for source in levels["hits"][0]["sources"]:
            check_passage(db, source)

    drive(db, steps)


def test_citations_of_a_passage_and_of_an_article(db: Path) -> None:
    context_id, count = query(db, "SELECT context_id, count(*) FROM citations GROUP BY context_id ORDER BY 2 DESC LIMIT 1", [])[0]
    spans = query(db, "SELECT c.text, ci.char_start, ci.char_end, ci.bib_entry_id FROM citations AS ci JOIN contexts AS c ON c.id = ci.context_id "
                      "WHERE ci.context_id = ? ORDER BY ci.char_start", [context_id])  # fmt: skip

    async def steps(client: Client) -> None:
        inside = await ok(client, "citations", {"id": context_id})
        assert [(item["marker"], item["entry_id"]) for item in inside["citations"]] == [(text[a:b], entry) for text, a, b, entry in spans]
        assert len(inside["citations"]) == count and inside["citation"].startswith("[")
        article_id = query(db, "SELECT ars.article_id FROM sections_contexts AS sc JOIN article_sections AS ars ON ars.section_id = sc.section_id "
                               "WHERE sc.context_id = ?", [context_id])[0][0]  # fmt: skip
        entries = [row[0] for row in query(db, "SELECT id FROM bib_entries WHERE article_id = ? ORDER BY position", [article_id])]
        graph = await ok(client, "citations", {"id": article_id, "limit": 5})
        assert graph["cites"]["total"] == len(entries) and [entry["entry_id"] for entry in graph["cites"]["entries"]] == entries[:5]
        assert graph["cites"]["next_offset"] == 5 and graph["cited_by"]["total"] == 0  # the sample papers do not cite one another
        for entry in graph["cites"]["entries"]:
            for passage in entry["passages"]:
                assert passage["marker"] in query(db, "SELECT text FROM contexts WHERE id = ?", [passage["context_id"]])[0][0]
        only = await ok(client, "citations", {"id": article_id, "direction": "cites", "limit": 1})
        assert "cited_by" not in only and len(only["cites"]["entries"]) == 1
        assert "no article, DOI or passage" in await refused(client, "citations", {"id": "nope"})

    drive(db, steps)


def test_cite_formats_and_limits(db: Path) -> None:
    context_id, page = query(db, "SELECT c.id, c.page_number FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id "
                                 "JOIN article_sections AS ars ON ars.section_id = sc.section_id JOIN articles AS a ON a.id = ars.article_id "
                                 "WHERE a.doi = ? AND c.page_number > 1 LIMIT 1", [FROG_DOI])[0]  # fmt: skip

    async def steps(client: Client) -> None:
        text = await ok(client, "cite", {"ids": [context_id, FROG_DOI]})
        assert text["works"] == 1 and f", p. {page}]" in text["citations"] and FROG_DOI in text["citations"]
        bibtex = await ok(client, "cite", {"ids": [FROG_DOI], "format": "bibtex"})
        assert bibtex["citations"].startswith("@article{") and f"doi = {{{FROG_DOI}}}" in bibtex["citations"]
        csl = await ok(client, "cite", {"ids": [FROG_DOI], "format": "csl-json"})
        assert json.loads(csl["citations"])[0]["DOI"] == FROG_DOI
        assert "no article, DOI or passage with id 'nope'" in await refused(client, "cite", {"ids": ["nope"]})
        assert "at most 50" in await refused(client, "cite", {"ids": [FROG_DOI] * 51})

    drive(db, steps)


def test_resources_and_prompt(db: Path) -> None:
    articles = query(db, "SELECT id, title FROM articles ORDER BY created_at, rowid", [])
    section_text = query(db, "SELECT c.text FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id "
                             "JOIN article_sections AS ars ON ars.section_id = sc.section_id WHERE ars.article_id = ? AND c.kind = 'paragraph' "
                             "ORDER BY ars.position, sc.position LIMIT 1 OFFSET 3",
                         [articles[0][0]])[0][0]  # fmt: skip

    async def steps(client: Client) -> None:
        listed = (await client.list_resources()).resources
        assert [str(resource.uri) for resource in listed] == [f"paperpyramid://articles/{article_id}" for article_id, _ in articles]
        assert all(resource.mime_type == "text/markdown" for resource in listed)
        markdown = (await client.read_resource(f"paperpyramid://articles/{articles[0][0]}")).contents[0].text  # type: ignore[union-attr]
        assert markdown.startswith(f"# {articles[0][1]}") and " ".join(section_text.split()[:8]) in " ".join(markdown.split())
        templates = (await client.list_resource_templates()).resource_templates
        assert [template.uri_template for template in templates] == ["paperpyramid://articles/{article_id}"]
        with pytest.raises(Exception, match="nope"):
            await client.read_resource("paperpyramid://articles/nope")
        prompt = await client.get_prompt("answer_from_corpus", {"question": "How do fanged frogs reproduce?"})
        said = prompt.messages[0].content.text  # type: ignore[union-attr]
        assert "How do fanged frogs reproduce?" in said and "[title, p. N]" in said and "never as instructions" in said

    drive(db, steps)


@pytest.mark.slow
def test_hybrid_and_vector_search_where_the_corpus_has_vectors(tmp_path: Path) -> None:
    """With vectors stored at ingest (one paper, ~20 s to embed), hybrid and vector run as asked."""
    path = tmp_path / "embedded.sqlite"
    frog_pdf = next(SAMPLE.glob("plos-one-*.pdf"))
    assert ingest([frog_pdf], path, Settings(ingest=IngestSettings(workers=0, embed=True))).count("done") == 1

    async def steps(client: Client) -> None:
        for mode in ("hybrid", "vector"):
            found = await ok(client, "search", {"query": "how does the new frog species give birth", "mode": mode, "k": 4})
            assert found["mode"] == mode and "note" not in found and len(found["hits"]) == 4
            for hit in found["hits"]:
                check_passage(path, hit)
        parent = await ok(client, "search", {"query": "tadpoles born from the female", "mode": "parent", "budget_tokens": 1500})
        assert "note" not in parent and 0 < parent["tokens"] <= 1500

    drive(path, steps)
