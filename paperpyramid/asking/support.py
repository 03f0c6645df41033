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
  matches best: "does not bind MOP" backs neither "binds MOP" nor the reverse.

Measured by ``benchmarks/claim_support.py`` on 58 true and 58 fabricated claims against passages
of five CC BY papers (``tests/data/claim_support.json``): precision 0.89, recall 0.95, where the
old rule (30% of the content words anywhere in the passages) had 0.51 and 1.00, passing 56 of
the 58 fabrications. What a word check cannot see: a claim that swaps two things the passage
names ("female" for "male", one shark's growth given to another), an antonym the passage never
uses ("red" for "blue" shifted), a negation without a negative word ("unknown" for "we do not
know", refused as a disagreement).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+")
_CLAUSE = re.compile(r"(?<!\d),|,(?!\d)|[;:()]|\s(?:but|whereas|while|although|though|because|after|and\s+then|which|as)\s")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_FUNCTION = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "than",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "how",
        "has",
        "have",
        "had",
        "having",
        "do",
        "does",
        "did",
        "can",
        "could",
        "may",
        "might",
        "must",
        "shall",
        "should",
        "will",
        "would",
        "also",
        "such",
        "into",
        "onto",
        "over",
        "under",
        "between",
        "their",
        "there",
        "they",
        "them",
        "we",
        "our",
        "us",
        "i",
        "you",
        "your",
        "he",
        "she",
        "his",
        "her",
        "him",
        "so",
        "if",
        "then",
        "thus",
        "therefore",
        "however",
        "both",
        "either",
        "each",
        "other",
        "another",
        "any",
        "some",
        "same",
        "very",
        "just",
        "about",
        "per",
        "via",
        "within",
        "upon",
        "e",
        "g",
        "et",
        "al",
        "ie",
        "eg",
        "th",
        "st",
        "nd",
        "rd",
        "respectively",
        "approx",
    ]
)
_NEGATION = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "neither",
        "nor",
        "nothing",
        "nobody",
        "nowhere",
        "without",
        "cannot",
        "lack",
        "lacks",
        "lacked",
        "lacking",
        "absence",
        "unable",
    ]
)
#: words that reverse or grade what a sentence says: a claim may use them only where its passages do
_CRITICAL = re.compile(
    r"(?:more|fewer|less|higher|lower|greater|larger|smaller|bigger|increas\w*|decreas\w*|reduc\w*|rais\w*|rose|fell|"
    r"most|least|largest|smallest|highest|lowest|maximum|minimum|majority|minority|all|every|always|"
    r"retract\w*|fabricat\w*|falsif\w*|fraud\w*|misconduct|plagiar\w*|withdr[ae]w\w*|erratum|corrigendum|hoax\w*|fake\w*|"
    r"forg(?:ed|ery)|admit\w*|confess\w*|debunk\w*|discredit\w*|stag(?:ed|ing)|mislabel\w*|manipulat\w*|invalidat\w*)"
)
_NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
# ordinals are numbers too ("first" and "second" also mean "initial" and "next": words)
_NUMBER_WORDS |= {
    word: f"{number}th"
    for number, word in enumerate(
        [
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
            "thirteenth",
            "fourteenth",
            "fifteenth",
            "sixteenth",
            "seventeenth",
            "eighteenth",
            "nineteenth",
            "twentieth",
        ],
        3,
    )
}
_ORDINAL = re.compile(r"\b(\d+)\s?(?:st|nd|rd|th)\b")


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
    words = _words(claim)
    wanted = _content(words)
    if not wanted or not passages:
        return Verdict(False, "no passage" if not passages else "no content words")
    clauses = [_tokens(text) for text in _clauses(passages)]
    sentences = [_tokens(sentence) for text in passages for sentence in _SENTENCE.split(" ".join(text.split()))]
    present = {word for clause in clauses for word in clause}
    missing = wanted - present
    if missing and len(wanted - missing) < share * len(wanted):
        return Verdict(False, f"{len(wanted) - len(missing)} of its {len(wanted)} content words are in the passages")
    names = {_normal(name) for name in _names(claim)}
    reversing = sorted(
        written
        for written, word in words.items()
        if word in missing and (_is_number(word) or _CRITICAL.fullmatch(written) or word in names)
    )
    if reversing:
        return Verdict(False, f"the passages never say {', '.join(repr(word) for word in reversing)}")
    for part in _clauses([claim]):
        tokens = _tokens(part)
        content = _content(_words(part))
        if len(content) >= 3 and len(content & present) < CLAUSE_SUPPORT * len(content):
            return Verdict(False, f"the passages do not hold {part.strip()!r}")
        if len(content) < 2:
            continue
        # the numbers and reversing words of a clause belong to the sentence its other words
        # match best (or two adjacent ones that together match as well): "more" of "many
        # more" is not "more than a dozen", 1847 of the last law is not the first law's year
        reversing_here = {word for written, word in _words(part).items() if _is_number(word) or _CRITICAL.fullmatch(written)}
        if reversing_here and not any(reversing_here <= unit for unit in _aligned(content - reversing_here, sentences)):
            return Verdict(False, f"{', '.join(sorted(reversing_here))} of {part.strip()!r} are not in the sentence it matches")
        best = max(clauses, key=lambda clause: (len(content & clause), -len(clause)))
        if bool(set(tokens) & _NEGATION) != bool(best & _NEGATION):
            return Verdict(False, f"{part.strip()!r} and its passage disagree in negation")
    return Verdict(True)


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


def _content(words: dict[str, str]) -> set[str]:
    # single letters are initials (the "L." of "L. larvaepartus"), not content
    return {
        word
        for written, word in words.items()
        if written not in _FUNCTION and written not in _NEGATION and (len(written) > 1 or written.isdigit())
    }


def _tokens(text: str) -> set[str]:
    return set(_words(text).values())


def _words(text: str) -> dict[str, str]:
    """The words of ``text`` as written (lower case, accents dropped) with their normal forms."""
    text = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    text = _ORDINAL.sub(lambda match: f"{match.group(1)}th", text.replace("n't", " not").replace("cannot", "can not"))
    words: dict[str, str] = {}
    for token in _TOKEN.findall(text):
        parts = [token.replace(",", "")] if _THOUSANDS.fullmatch(token) else token.split(",")
        for part in parts:
            words[part] = _normal(part)
    return words


def _normal(token: str) -> str:
    if _is_number(token):
        return token.rstrip("0").rstrip(".") if "." in token else token
    if token in _NUMBER_WORDS:
        return _NUMBER_WORDS[token]
    if any(char.isdigit() for char in token) or token in _NEGATION:
        return token  # names (L5242, AaegOBP1) as written
    return _stem(token)


def _stem(word: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def _is_number(token: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d+|th)?", token) is not None
