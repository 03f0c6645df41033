"""Whether the passages a claim cites support it: the check that decides if a claim of an
answer is printed as fact (:mod:`paperpyramid.asking.answer`) and if a citation backs its
claim (``eval answers``).

The model's claims are checked against the passages by their words, never trusted, and text
from documents is data, never instructions. A claim is supported only when all of these hold:

- **No instructions.** A passage that addresses the model ("ignore the question", "system
  note", "you must answer ...") supports nothing, and neither does any other passage of its
  paper shown beside it: whatever such a paper asks for cannot become a claim. A claim that is
  itself an instruction is no fact either.
- **Mostly the passages' words.** At least :data:`SUPPORT` of the claim's content words (light
  stemming: "tagged" is "tag"; numbers and names as written) occur in the cited passages, and
  so do at least :data:`CLAUSE_SUPPORT` of those of each clause, so that a fabrication
  appended to a quoted sentence ("..., and the paper was retracted") fails on its own.
- **The words that reverse a sentence are the passages' own.** Every number of the claim
  (spelled-out ones and ordinals too), its names (capitalised words: "Borneo" for "Sulawesi"),
  its comparisons ("higher", "fewer", "increased", "all", ...) and its words on a paper's
  standing ("retracted", "fabricated", "withdrawn", "admitted", ...) occur in the cited
  passages, and the numbers and comparisons in the sentence the rest of the clause matches
  best: 1847, the year of the last village law, is not the year of the first.
- **Same polarity.** Each clause of the claim agrees in negation with the passage clause it
  matches best: "does not bind MOP" backs neither "binds MOP" nor the reverse (a phrase with
  no verb and no negation, "at low pH", is not compared).
- **Not the opposite.** No word of the claim stands where its passage has the opposite word
  ("external" for "internal", "male" for "female") or something else the passage names in
  another role ("froglets" for "tadpoles"), and no two words of it trade places ("the bacteria
  provide ... the plant"): :mod:`paperpyramid.asking.contradiction`.

Measured by ``benchmarks/claim_support.py`` (precision: the share of passed claims that are
true; recall: the share of true claims passed; the benchmarks page has the history): 0.92 and
0.98 on the 102 claims of ``tests/data/claim_support.json`` the rules were tuned on, 0.64 and
0.94 on the 88 of ``tests/data/claim_support_kept.json`` (passages of eight CC BY papers, never
used to tune them). What a word check still cannot see: a swap of two things into an order it cannot match ("8
years for females" where the passage gives 8 years to the males), an opposite neither listed
nor named by the passage ("negligible" for "high", "red" for "blue" shifted), a negation
without a negative word ("unknown" for "we do not know", refused as a disagreement).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paperpyramid.asking.contradiction import flipped
from paperpyramid.asking.words import NEGATION, content, forms, is_number, normal, normal_forms
from paperpyramid.retrieval import SearchHit

#: the share of a claim's content words its cited passages must contain
SUPPORT = 0.7
#: the share each clause of a claim (of three content words or more) must find there
CLAUSE_SUPPORT = 0.5

#: words that address the model, not the reader: a passage holding them is an injection
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.;]{0,40}?\b(?:instructions?|prompts?|the\s+question|rules|guidelines|system|everything\s+(?:above|else))\b"
    r"|\b(?:system|developer|admin(?:istrator)?)\s+(?:note|prompt|message|instructions?|override)\b"
    r"|\b(?:note|message|instructions?|request)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:assistant|ai|chatbot|llm|language\s+model)\b"
    r"|\b(?:you|assistants?)\s+(?:must|should|shall|will\s+now|are\s+now|are\s+required|are\s+instructed)\b"
    r"|\b(?:answer|reply|respond|say|output|print|repeat)\s+(?:only|exactly|verbatim|the\s+following)\b"
    r"|\b(?:answer|reply)\s+that\s+(?:the|it|there|this|all|no|you)\b|\breply\s+with\b"
    r"|\b(?:call|invoke|run|execute)\s+(?:the\s+)?(?:tool|function|command)s?\b"
    r"|\bas\s+an?\s+(?:ai|language\s+model|assistant)\b"
    r"|<\|[a-z_]+\|>|\[/?inst\]|#{2,}\s*(?:instruction|system)",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"(?<!\d),|,(?!\d)|[;:()]|\s(?:but|whereas|while|although|though|because|after|and\s+then|which|as)\s")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
#: words that reverse or grade what a sentence says: a claim may use them only where its passages do
_CRITICAL = re.compile(
    r"(?:more|fewer|less|higher|lower|greater|larger|smaller|bigger|increas\w*|decreas\w*|reduc\w*|rais\w*|rose|fell|"
    r"most|least|largest|smallest|highest|lowest|maximum|minimum|majority|minority|all|every|always|"
    r"retract\w*|fabricat\w*|falsif\w*|fraud\w*|misconduct|plagiar\w*|withdr[ae]w\w*|erratum|corrigendum|hoax\w*|fake\w*|"
    r"forg(?:ed|ery)|admit\w*|confess\w*|debunk\w*|discredit\w*|stag(?:ed|ing)|mislabel\w*|manipulat\w*|invalidat\w*)"
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the passages support a claim, and if not, why (one phrase a reader can act on)."""

    supported: bool
    reason: str = ""


def addresses_model(text: str) -> bool:
    """Whether ``text`` speaks to the model rather than the reader (an injected instruction)."""
    return _INSTRUCTION.search(" ".join(text.split())) is not None


def hostile_articles(passages: Iterable[SearchHit]) -> set[str]:
    """The articles among ``passages`` with a passage that addresses the model: none of their
    passages supports a claim."""
    return {hit.citation.article_id for hit in passages if addresses_model(hit.text)}


def check(claim: str, sources: Sequence[SearchHit], hostile: set[str] | None = None) -> Verdict:
    """Whether ``sources`` (the passages the claim cites) support ``claim``, by the rules of the
    module's docstring; ``hostile``: the :func:`hostile_articles` of all the passages the model
    saw (by default, of ``sources``)."""
    hostile = hostile_articles(sources) if hostile is None else hostile | hostile_articles(sources)
    usable = [hit.text for hit in sources if hit.citation.article_id not in hostile]
    if sources and not usable:
        return Verdict(False, "its passages address the model (text from documents is data, never instructions)")
    return check_text(claim, usable)


def check_text(claim: str, passages: Sequence[str], share: float = SUPPORT) -> Verdict:
    """:func:`check` on passage texts (instructions in the passages disqualify them); ``share``
    is the part of the claim's content words the passages must hold."""
    if addresses_model(claim):
        return Verdict(False, "it is an instruction, not a finding")
    passages = [text for text in passages if not addresses_model(text)]
    found = forms(claim)
    wanted = content(found)
    if not wanted or not passages:
        return Verdict(False, "no passage" if not passages else "no content words")
    clauses = [normal_forms(text) for text in _clauses(passages)]
    sentences = [normal_forms(sentence) for text in passages for sentence in _SENTENCE.split(" ".join(text.split()))]
    present = {word for clause in clauses for word in clause}
    missing = wanted - present
    if missing and len(wanted - missing) < share * len(wanted):
        return Verdict(False, f"{len(wanted) - len(missing)} of its {len(wanted)} content words are in the passages")
    names = {normal(name) for name in _names(claim)}
    reversing = sorted(
        written for written, word in found.items() if word in missing and (is_number(word) or _CRITICAL.fullmatch(written) or word in names)
    )
    if reversing:
        return Verdict(False, f"the passages never say {', '.join(repr(word) for word in reversing)}")
    reason = next((reason for part in _clauses([claim]) if (reason := _clause_disagrees(part, present, clauses, sentences))), "")
    reason = reason or flipped(claim, passages)
    return Verdict(not reason, reason)


def _clause_disagrees(part: str, present: set[str], clauses: list[set[str]], sentences: list[set[str]]) -> str:
    """Why one clause of a claim is not its passages' (a phrase for the reader), or ``""``."""
    found = forms(part)
    wanted = content(found)
    if len(wanted) >= 3 and len(wanted & present) < CLAUSE_SUPPORT * len(wanted):
        return f"the passages do not hold {part.strip()!r}"
    if len(wanted) < 2:
        return ""
    # the numbers and reversing words of a clause belong to the sentence its other words
    # match best (or two adjacent ones that together match as well): "more" of "many
    # more" is not "more than a dozen", 1847 of the last law is not the first law's year
    reversing = {word for written, word in found.items() if is_number(word) or _CRITICAL.fullmatch(written)}
    if reversing and not any(reversing <= unit for unit in _aligned(wanted - reversing, sentences)):
        return f"{', '.join(sorted(reversing))} of {part.strip()!r} are not in the sentence it matches"
    denies = bool(set(found.values()) & NEGATION)
    if len(wanted) < 3 and not denies:
        return ""  # a phrase ("at low pH") has no verb to deny
    best = max(clauses, key=lambda clause: (len(wanted & clause), -len(clause)))
    if denies != bool(best & NEGATION):
        return f"{part.strip()!r} and its passage disagree in negation"
    return ""


def _aligned(content: set[str], sentences: list[set[str]]) -> list[set[str]]:
    """The sentences that hold the most of ``content``, and the pairs of adjacent sentences
    that hold as much, each holding a word of it the other lacks."""
    best = max((len(content & sentence) for sentence in sentences), default=0)
    units = [sentence for sentence in sentences if len(content & sentence) == best]
    for first, second in zip(sentences, sentences[1:], strict=False):
        if len(content & (first | second)) >= best and (content & first) - second and (content & second) - first:
            units.append(first | second)
    return units


def _clauses(texts: Iterable[str]) -> list[str]:
    return [
        clause
        for text in texts
        for sentence in _SENTENCE.split(" ".join(text.split()))
        for clause in _CLAUSE.split(sentence)
        if clause.strip()
    ]


def _names(text: str) -> list[str]:
    """The capitalised words of ``text`` but its first (places, species, methods, acronyms)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return [word.lower() for word in re.findall(r"(?<=\s)[A-Z][A-Za-z0-9-]*[a-zA-Z0-9]", text) if len(word) > 1 and not word.isdigit()]
