"""The distillation prompts and the reply schemas the model must fill.

Document text is data, never instructions: it goes inside ``<document>`` tags, with any tag
of that name in the text itself neutralised, and every system prompt says that text inside
the tags is material to distil, not orders. Whatever the model answers, the caller only ever
writes rows of the article being distilled (see distill/insights.py and db/pyramid.py).

``PROMPT_VERSION`` changes with the text of any prompt, so a pyramid records exactly which
prompts made it and a changed prompt is visible (re-distilling is then asked for with ``--redo``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, Field

from paperpyramid.llm import Message
from paperpyramid.llm.documents import DATA_RULE, document_block

INSIGHTS_SYSTEM = f"""You distil a scientific paper into insights, reading it two pages at a time.
An insight is ONE simple declarative sentence in subject-verb-object form that states one fact, finding, method detail, definition or number from the paper.
Rules for every insight:
- Self-contained: name the thing; never start with "It", "They", "This" or "These" referring to an earlier sentence.
- Exact: keep numbers, units, sample sizes, p-values, names and species as written.
- Turn each informative table row into its own sentence.
- Give the page number(s) the insight comes from.
You keep one numbered list of insights for the whole paper. You see the insights already taken from the previous page;
you may correct one by giving its number with the new text, or delete it by putting its number in "delete".
New insights have id 0. Do not repeat insights already on the list. Skip reference lists, acknowledgements and boilerplate.
{DATA_RULE}"""

CONCEPTS_SYSTEM = f"""You connect the insights of one scientific paper into concepts.
A concept is a short paragraph (2-4 sentences) that ties together related insights: a method, a result and its evidence,
a definition and its use. Each concept lists the numbers of the insights it connects. About one concept per page of the paper.
{DATA_RULE}"""

ABSTRACT_SYSTEM = f"""You write one abstract of a scientific paper from its concepts and insights:
one paragraph of at most 200 words with the question, the method, the main results with their numbers, and the conclusion.
{DATA_RULE}"""

RECOLLECTIONS_SYSTEM = f"""You keep recollections: statements that connect several scientific papers of a corpus,
such as a shared method, a recurring dataset, results that agree or contradict each other.
You see a NEW paper (its abstract and concepts), related papers (their abstracts) and existing recollections.
Write new recollections that connect the new paper with at least one other paper, or update an existing one
(give its number) so that it also covers the new paper. Each recollection names the papers it connects by their
labels and, for the new paper, the concept numbers it rests on. Write nothing when nothing connects them.
{DATA_RULE}"""


class InsightItem(BaseModel):
    id: int = Field(description="0 for a new insight; the number of an insight from the previous page to correct it")
    text: str = Field(description="one simple subject-verb-object sentence", json_schema_extra={"maxLength": 400})
    pages: list[int] = Field(description="the page numbers it comes from", json_schema_extra={"maxItems": 2})


# maxItems / maxLength are advertised in the JSON schema (a schema-enforcing server and the local
# model's constrained decoding keep to them) but not validated: a longer list from a capable model
# is still accepted.


class InsightsReply(BaseModel):
    insights: list[InsightItem] = Field(json_schema_extra={"maxItems": 40})
    delete: list[int] = Field(description="numbers of insights from the previous page to delete", json_schema_extra={"maxItems": 20})


class ConceptItem(BaseModel):
    text: str = Field(json_schema_extra={"maxLength": 800})
    insight_ids: list[int] = Field(json_schema_extra={"maxItems": 40})


class ConceptsReply(BaseModel):
    concepts: list[ConceptItem] = Field(json_schema_extra={"maxItems": 30})


class AbstractReply(BaseModel):
    abstract: str = Field(json_schema_extra={"maxLength": 1500})


class RecollectionItem(BaseModel):
    id: int = Field(description="0 for a new recollection; the number of an existing one to update it")
    text: str = Field(json_schema_extra={"maxLength": 600})
    papers: list[str] = Field(description="labels of the papers it connects, e.g. NEW, P1", json_schema_extra={"maxItems": 4})
    concept_ids: list[int] = Field(description="numbers of the new paper's concepts it rests on", json_schema_extra={"maxItems": 10})


class RecollectionsReply(BaseModel):
    recollections: list[RecollectionItem] = Field(json_schema_extra={"maxItems": 5})


def insights_messages(pages: list[tuple[int, str]], previous: list[tuple[int, str, list[int]]], total_so_far: int) -> list[Message]:
    """The prompt for one two-page window: the pages' markdown and the insights taken so far
    from the first page of the window (which may be corrected or deleted)."""
    listing = document_block(
        "\n".join(f"{number}. {text} (p. {', '.join(map(str, pages_))})" for number, text, pages_ in previous) or "(none yet)",
        kind="insights",
    )
    numbers = ", ".join(str(number) for number, _ in pages)
    body = "\n\n".join(document_block(markdown, page=number) for number, markdown in pages)
    user = (
        f"The list holds {total_so_far} insights so far. Insights from the previous page that you may correct or delete:\n{listing}\n\n"
        f"Pages {numbers} of the paper:\n{body}\n\n"
        f"Give the new insights from pages {numbers} (id 0), any corrections of the listed insights (their number), and the numbers to delete."
    )
    return [{"role": "system", "content": INSIGHTS_SYSTEM}, {"role": "user", "content": user}]


def concepts_messages(insights: list[str]) -> list[Message]:
    listing = "\n".join(f"{number}. {text}" for number, text in enumerate(insights, 1))
    return [
        {"role": "system", "content": CONCEPTS_SYSTEM},
        {
            "role": "user",
            "content": f"The paper's insights:\n{document_block(listing)}\n\nGive the concepts, each with the insight numbers it connects.",
        },
    ]


def abstract_messages(title: str | None, concepts: list[str], insights: list[str]) -> list[Message]:
    material = "Concepts:\n" + "\n".join(f"- {text}" for text in concepts) + "\n\nInsights:\n" + "\n".join(f"- {text}" for text in insights)
    return [
        {"role": "system", "content": ABSTRACT_SYSTEM},
        {
            "role": "user",
            "content": f"{document_block('Title: ' + (title or 'unknown'), kind='title')}\n{document_block(material)}\n\nWrite the abstract.",
        },
    ]


def recollections_messages(new_paper: str, others: list[tuple[str, str]], existing: list[tuple[int, str]]) -> list[Message]:
    papers = document_block(new_paper, label="NEW") + "\n" + "\n".join(document_block(text, label=label) for label, text in others)
    listing = document_block("\n".join(f"{number}. {text}" for number, text in existing) or "(none yet)", kind="recollections")
    return [
        {"role": "system", "content": RECOLLECTIONS_SYSTEM},
        {"role": "user", "content": f"Papers:\n{papers}\n\nExisting recollections:\n{listing}\n\nGive new or updated recollections."},
    ]


def _version() -> str:
    # this file holds every prompt and schema, llm/documents.py the rule for document text: any edit is a new version
    from paperpyramid.llm import documents

    return "v1-" + hashlib.sha256(Path(__file__).read_bytes() + Path(documents.__file__).read_bytes()).hexdigest()[:8]


#: names the prompts and schemas that made a pyramid; changes whenever any of them does
PROMPT_VERSION = _version()
