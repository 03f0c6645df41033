"""The ``pyramid`` strategy: a search agent over the knowledge pyramid's levels.

Rounds. Each round searches its queries over the distilled levels top-down — recollections
(statements that connect papers), abstracts, concepts, insights — skipping the levels that
hold nothing for the articles the filters allow, and shows the model the items it has not
been shown before (numbered, at most :data:`MAX_CANDIDATES`, the queries' finds taken in
turn), beside what it has kept so far and its own notes. The model answers which candidates
help (``keep``), what is still missing (``notes``), up to three new search terms
(``queries``) and whether it has ``enough``. Round 1 searches the question itself; the
model's own terms start in round 2 (a call of its own for first terms would cost a round's
tokens for what round 1's reply gives anyway).

It stops when the model says it has enough (``done``), when a round's queries find no item
it has not been shown (``nothing new``), when the model's queries were all searched before
(``cycle``), after ``max_steps`` rounds, when the tracker's token budget is spent, or when a
reply is unreadable even after repair; whatever stops it, it keeps what it has.

Reranking asks the model nothing more: the kept items are ordered by their reciprocal-rank
score summed over every search of the run (a query on a level) that returned them — an item
that several queries find, high up, comes first — ties by the round and place they were
kept in.

Following citations: a candidate whose source passages cite papers of the corpus lists them
(its ``cites`` attribute); the model may name it in ``follow``, and the cited paper's passage most
like the citing sentence is kept (after the kept items' passages).

Drill-down: answers are cited to pages, so the result is the kept items' verbatim source
contexts (an insight's linked contexts, a concept's through its insights, a recollection's
through the insights it rests on, an abstract's: its article's best passages for the query
that found it), in the kept items' order, each once, cut to ``budget_tokens``. When that
gives nothing — no distilled paper under the filters, nothing matched, nothing kept — the
verbatim passages ``retrieve`` finds for the question stand in, and the last step says so.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from paperpyramid.asking.trace import Found, Step, Tracker, error_tokens, reply_tokens
from paperpyramid.citation_graph import Followable, followable
from paperpyramid.db.queries import pyramid_levels
from paperpyramid.db.sqlite import Connection
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM, Message
from paperpyramid.llm.documents import DATA_RULE, document_block
from paperpyramid.retrieval import SearchHit, bm25, hybrid, parent
from paperpyramid.retrieval.api import retrieve
from paperpyramid.retrieval.filters import Filters, allowed_articles
from paperpyramid.retrieval.levels import search_level

#: the distilled levels, broadest first: the order a round searches and shows them in
LEVELS_TOP_DOWN: tuple[str, ...] = ("recollections", "abstracts", "concepts", "insights")
#: items each query takes from each level
PER_LEVEL = 4
#: new items shown to the model in one round
MAX_CANDIDATES = 12
#: new search terms the model may ask for in one round
MAX_QUERIES = 3
#: characters of a candidate shown (an abstract can be long), and of a kept item shown back
CANDIDATE_CHARS = 1200
KEPT_CHARS = 200
#: kept items shown back each round, the latest
KEPT_SHOWN = 20
#: tokens a round's reply may take, and a margin for the schema instructions the client adds
REPLY_TOKENS = 400
SCHEMA_MARGIN = 400
#: verbatim passages of the fallback
FALLBACK_K = 10
#: cited papers one round may open
MAX_FOLLOWS = 3

SYSTEM = f"""You search a corpus of scientific papers for what answers a researcher's question.
The papers are distilled into levels: recollections (statements that connect papers), abstracts (one per paper),
concepts (short paragraphs that tie related findings together) and insights (single facts, each from a page).
Each round you see numbered candidates that your searches found. In "keep", give the numbers of the candidates that help
to answer the question. In "notes", say in a few words what is still missing. In "queries", give up to {MAX_QUERIES} short new
search terms for what is missing (specific words: names, measures, methods, species); never repeat an earlier search.
Set "enough" to true when the kept items answer the question.
A candidate whose sources cite papers of the corpus lists them (its cites attribute); in "follow", give the numbers of the candidates
whose first cited paper should be opened: its passage most like the citing sentence is kept. Follow only when the answer rests on the cited work.
{DATA_RULE}"""


class RoundReply(BaseModel):
    keep: list[int] = Field(
        description="numbers of the candidates that help to answer the question", json_schema_extra={"maxItems": MAX_CANDIDATES}
    )
    notes: str = Field(description="what is still missing", json_schema_extra={"maxLength": 300})
    queries: list[str] = Field(
        description="new search terms for what is missing",
        json_schema_extra={"maxItems": MAX_QUERIES, "items": {"type": "string", "maxLength": 120}},
    )
    enough: bool = Field(description="true when the kept items answer the question")
    follow: list[int] = Field(
        default_factory=list,
        description="numbers of candidates whose cited paper to open (only those with a cites attribute)",
        json_schema_extra={"maxItems": MAX_FOLLOWS},
    )


@dataclass(slots=True)
class _Item:
    """A distilled item the run has found: as first found, its summed reciprocal-rank score
    over every search that returned it, whether it was shown, and when it was kept."""

    hit: SearchHit
    score: float = 0.0
    shown: bool = False
    kept_in: tuple[int, int] | None = None  # (round, candidate number)


def pyramid_agent(
    conn: Connection,
    question: str,
    llm: LLM,
    *,
    tracker: Tracker,
    budget_tokens: int | None = None,
    embedder: Embedder | None = None,
    filters: Filters | None = None,
) -> Found:
    """The verbatim passages the agent's kept pyramid items drill down to (see the module's
    docstring); every model call is a step on ``tracker``."""
    filters = filters or Filters()
    mode = hybrid.mode_for(embedder)
    levels = _stocked_levels(conn, filters)
    items: dict[tuple[str, str], _Item] = {}
    kept: list[_Item] = []
    followed: dict[str, SearchHit] = {}  # passages of cited papers opened by "follow", in order
    searched: list[str] = []
    notes = ""
    queries = [" ".join(question.split())]
    rounds = 0
    reason = "the pyramid holds nothing under the filters"
    while levels:
        stop = tracker.stop_reason(rounds)
        if stop is not None:
            reason = stop
            break
        started = time.perf_counter()
        searched.extend(queries)
        found = _search(conn, queries, levels, mode, filters, embedder, items)
        if not found:
            reason = "nothing new: the searches found no item not shown before"
            break
        rounds += 1
        messages, shown, links = _messages(conn, question, found, kept, notes, searched, rounds, llm, filters)
        for item in shown:
            item.shown = True
        heading = f"round {rounds}: {_count(len(queries), 'query', 'queries')} ({' | '.join(queries)}), {len(shown)} new candidates ({_by_level(shown)})"
        tracker.before_call()  # nobody may wait any more: the round's searches took time
        try:
            reply = llm.complete(messages, RoundReply, max_tokens=REPLY_TOKENS)
        except LLMOutputError as exc:
            tracker.record(Step("pyramid", f"{heading}; the reply was unreadable", *error_tokens(exc), time.perf_counter() - started))
            reason = f"unreadable reply: {str(exc)[:200]}"
            break
        chosen, ignored = _keep(reply.value, shown, kept, rounds)
        opened = _follow(conn, _links_to_follow(reply.value, shown, links), mode, filters, embedder, followed)
        tracker.record(Step("pyramid", f"{heading}, kept {chosen}" + (f" ({ignored} numbers not shown ignored)" if ignored else "")
                            + (f", followed {_count(opened, 'citation', 'citations')}" if opened else ""), *reply_tokens(reply),
                            time.perf_counter() - started))  # fmt: skip
        notes = " ".join(reply.value.notes.split())[:300]
        if reply.value.enough:
            reason = "done"
            break
        queries, cycle = _next_queries(reply.value, searched)
        if cycle is not None:
            reason = cycle
            break
    return _drill_down(conn, question, kept, list(followed.values()), reason, tracker, budget_tokens, mode, filters, embedder)


def _keep(reply: RoundReply, shown: list[_Item], kept: list[_Item], round_number: int) -> tuple[int, int]:
    """Add the candidates the reply keeps to ``kept``, each once, noting when; return how many
    were kept and how many numbers it gave that name no candidate shown."""
    chosen = list(dict.fromkeys(number for number in reply.keep if 1 <= number <= len(shown)))
    for number in chosen:
        shown[number - 1].kept_in = (round_number, number)
        kept.append(shown[number - 1])
    return len(chosen), len(set(reply.keep)) - len(chosen)


def _links_to_follow(reply: RoundReply, shown: list[_Item], links: list[list[Followable]]) -> list[Followable]:
    """The first cited paper of each candidate the reply asks to follow (at most
    :data:`MAX_FOLLOWS`, each once; a candidate that cites nothing is passed over)."""
    return [links[number - 1][0] for number in dict.fromkeys(reply.follow[:MAX_FOLLOWS]) if 1 <= number <= len(shown) and links[number - 1]]


def _next_queries(reply: RoundReply, searched: list[str]) -> tuple[list[str], str | None]:
    """The reply's search terms not searched before (at most :data:`MAX_QUERIES`), or none and
    why the run stops: every term was searched before, or it gave none."""
    asked = [" ".join(query.split()) for query in reply.queries if bm25.fts_query(query) is not None]
    before = {query.casefold() for query in searched}
    queries = list({query.casefold(): query for query in asked if query.casefold() not in before}.values())[:MAX_QUERIES]
    if queries:
        return queries, None
    if asked:
        return [], f"cycle: every query was searched before ({' | '.join(asked)})"
    return [], "nothing new: the model gave no new search terms"


def _stocked_levels(conn: Connection, filters: Filters) -> list[str]:
    """The levels, top-down, that hold an item of an article the filters allow."""
    allowed = allowed_articles(conn, filters)
    return pyramid_levels.levels_holding(conn, LEVELS_TOP_DOWN, allowed)


def _search(
    conn: Connection,
    queries: Sequence[str],
    levels: Sequence[str],
    mode: str,
    filters: Filters,
    embedder: Embedder | None,
    items: dict[tuple[str, str], _Item],
) -> list[_Item]:
    """Search each query over the levels, top-down, adding each hit's reciprocal rank to its
    item's score; return the items not shown before, the queries' finds taken in turn."""
    finds: list[list[_Item]] = []
    for query in queries:
        found: list[_Item] = []
        for level in levels:
            for rank, hit in enumerate(search_level(conn, query, level, mode=mode, k=PER_LEVEL, filters=filters, embedder=embedder), 1):
                item = items.setdefault((level, hit.key), _Item(hit))
                item.score += 1.0 / (hybrid.RRF_K + rank)
                found.append(item)
        finds.append(found)
    new: dict[tuple[str, str], _Item] = {}
    for turn in range(max((len(found) for found in finds), default=0)):
        for found in finds:
            if turn < len(found) and not found[turn].shown:
                new.setdefault((found[turn].hit.level, found[turn].hit.key), found[turn])
    return list(new.values())


def _follow(
    conn: Connection, links: list[Followable], mode: str, filters: Filters, embedder: Embedder | None, followed: dict[str, SearchHit]
) -> int:
    """Opens each cited paper at its passage most like the citing sentence, adding it to
    ``followed``; how many were opened."""
    opened = 0
    for link in links:
        within = replace(filters, article_ids=(link.cited_article_id,))
        for hit in retrieve(conn, link.sentence, mode=mode, k=1, filters=within, embedder=embedder):
            followed.setdefault(hit.context_id, hit)
            opened += 1
    return opened


def _cited_papers(conn: Connection, items: Sequence[_Item], filters: Filters) -> list[list[Followable]]:
    """For each item, the corpus papers its source passages cite (within the filters)."""
    found = followable(conn, [source.context_id for item in items for source in item.hit.sources])
    allowed = filters.article_ids
    papers: list[list[Followable]] = []
    for item in items:
        links: dict[str, Followable] = {}
        for source in item.hit.sources:
            for link in found.get(source.context_id, []):
                if allowed is None or link.cited_article_id in allowed:
                    links.setdefault(link.cited_article_id, link)
        papers.append(list(links.values()))
    return papers


def _messages(
    conn: Connection,
    question: str,
    found: list[_Item],
    kept: list[_Item],
    notes: str,
    searched: list[str],
    round_number: int,
    llm: LLM,
    filters: Filters,
) -> tuple[list[Message], list[_Item], list[list[Followable]]]:
    """The round's prompt, the candidates it shows (as many of ``found`` as fit in the model's
    context window beside the rest, at most :data:`MAX_CANDIDATES`, one at least) and the
    corpus papers each candidate's sources cite."""
    if kept:
        latest = kept[-KEPT_SHOWN:]
        earlier = f" (the latest {len(latest)} shown)" if len(kept) > len(latest) else ""
        have = f"Kept so far, {_count(len(kept), 'item', 'items')}{earlier}:\n" + document_block(
            "\n".join(f"- [{item.hit.level}] {_short(item.hit.text, KEPT_CHARS)}" for item in latest), kept=len(kept)
        )
    else:
        have = "Kept so far: nothing yet."
    head = (
        f"Question: {question}\n\nSearched so far: {' | '.join(searched)}\nYour notes so far: {notes or '(none yet)'}\n{have}\n\n"
        f"Round {round_number}, new candidates:\n"
    )
    tail = "\n\nWhich candidates help to answer the question, what is still missing, which new searches, and is it enough?"
    room = llm.context_window - REPLY_TOKENS - SCHEMA_MARGIN - llm.count_tokens(SYSTEM + head + tail)
    blocks: list[str] = []
    shown: list[_Item] = []
    candidates = found[:MAX_CANDIDATES]
    papers = _cited_papers(conn, candidates, filters)
    for item, links in zip(candidates, papers, strict=True):
        cites = {"cites": "; ".join(f"{n}. {link.cited_title or 'Untitled'}" for n, link in enumerate(links, 1))} if links else {}
        block = document_block(_short(item.hit.text, CANDIDATE_CHARS), candidate=len(shown) + 1, level=item.hit.level, **cites)
        room -= llm.count_tokens(block) + 1
        if room < 0 and shown:
            break
        blocks.append(block)
        shown.append(item)
    return (
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": head + "\n".join(blocks) + tail}],
        shown,
        papers[: len(shown)],
    )


def _drill_down(
    conn: Connection,
    question: str,
    kept: list[_Item],
    followed: list[SearchHit],
    reason: str,
    tracker: Tracker,
    budget_tokens: int | None,
    mode: str,
    filters: Filters,
    embedder: Embedder | None,
) -> Found:
    """The kept items' source contexts, reranked (see the module's docstring), then the cited
    papers' passages that "follow" opened, cut to the budget; or the fallback's verbatim
    passages; the last step says why it stopped."""
    started = time.perf_counter()
    ranked = sorted(kept, key=lambda item: (-item.score, item.kept_in or (0, 0)))
    passages: dict[str, SearchHit] = {}
    for item in ranked:
        for source in item.hit.sources:
            passages.setdefault(source.context_id, replace(source, score=item.score))
    for hit in followed:
        passages.setdefault(hit.context_id, hit)
    if passages:
        every = list(passages.values())
        cut = parent.cut_to_budget(every, budget_tokens)
        within = f", {len(cut)} within {budget_tokens:,} tokens" if len(cut) < len(every) else ""
        detail = (
            f"{reason}; {_count(len(kept), 'kept item drills', 'kept items drill')} down to {_count(len(every), 'passage', 'passages')} "
            f"({sum(hit.num_tokens for hit in every):,} tokens){within}"
        )
        tracker.record(Step("drill-down", detail, seconds=time.perf_counter() - started))
        return Found(cut, steps=tracker.steps)
    why = "nothing kept" if not kept else f"the {_count(len(kept), 'kept item has', 'kept items have')} no source passages"
    if reason.startswith("the pyramid holds nothing"):
        why = ""
    fallback = retrieve(conn, question, mode=mode, k=FALLBACK_K, budget_tokens=budget_tokens, filters=filters, embedder=embedder)
    detail = (
        f"{reason}{'; ' + why if why else ''}: {_count(len(fallback), 'verbatim passage', 'verbatim passages')} by {mode} instead "
        f"({sum(hit.num_tokens for hit in fallback):,} tokens)"
    )
    tracker.record(Step("fallback", detail, seconds=time.perf_counter() - started))
    return Found(fallback, steps=tracker.steps)


def _by_level(items: Sequence[_Item]) -> str:
    counts = {level: sum(1 for item in items if item.hit.level == level) for level in LEVELS_TOP_DOWN}
    return ", ".join(f"{level} {count}" for level, count in counts.items() if count)


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
