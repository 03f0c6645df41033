"""Claims made of a passage's words that say the opposite of it: "external fertilization" where
the passage says internal, "gives birth to froglets" where it says tadpoles, "the bacteria provide
a carbon source to the plant" where the plant provides it to the bacteria.

Each part of a claim (its clauses) is laid word by word against the passage clause that holds the
most of its other content words (:class:`difflib.SequenceMatcher` on the normal forms of
:mod:`paperpyramid.asking.words`). Where a word of the claim stands in the place of a word of that
clause, the claim is flipped when

- the two are **opposites** (:data:`OPPOSITES`, or a word with an opposite prefix or ending of
  :data:`OPPOSITE_PARTS`: "upregulated" and "downregulated", "Southwest" and "Southeast"), or
- the claim's word is **the passage's, named there in the other role**: it stands alone between
  the same words as the clause's word, the passages name it next to one of them elsewhere ("birth
  to froglets" where the clause says "birth of tadpoles"), and it is not a spelling or an
  inflection of the clause's word ("gave" for "gives").

Two words that trade places around words the clause holds in the same order flip it too ("B
inhibits A" for "A inhibits B"; "higher in A than in B" for "higher in B than in A"), when the
two are opposites, stand on either side of a comparison, stand right next to those words in
both, or stand near two words or more and are named together in the passages ("the bacteria
provide a carbon source to the plant" where "plants and bacteria" interact). Not when a "by" stands
between them in one of the two (the passive voice says the same thing the other way round), nor
in a clause that pairs its lists "respectively".

What follows "all but", "except" or "apart from" is what a clause does not say: "all but the new
species give birth to froglets" is no sentence about the new species.

The opposites are a hand list, kept small: the pairs scientific writing turns on (sex, direction,
sign, presence, position, time, size and grade), since no maintained package with antonyms
installs offline (WordNet's data comes from a download). An opposite neither listed nor named by
the passages ("dwarf" for "giant") is left to the share of the claim's words its passages must
hold (:mod:`paperpyramid.asking.support`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher
from functools import cache, lru_cache

from rapidfuzz.distance import Levenshtein

from paperpyramid.asking.words import is_content, is_number, listed, normal, written_forms

#: pairs of words whose swap reverses a finding (as written; compared in their normal forms)
OPPOSITES = tuple(
    tuple(pair.split("/"))
    for pair in listed(
        """male/female males/females man/woman men/women boy/girl father/mother paternal/maternal
        increase/decrease increased/decreased increasing/decreasing increases/decreases gain/loss
        activate/inhibit activation/inhibition activator/inhibitor stimulate/inhibit promote/inhibit
        agonist/antagonist induce/suppress enhance/impair improve/worsen
        high/low higher/lower highest/lowest more/less more/fewer most/least many/few majority/minority
        maximum/minimum large/small larger/smaller largest/smallest long/short longer/shorter
        great/small greater/smaller strong/weak stronger/weaker better/worse best/worst
        fast/slow faster/slower rapid/slow thick/thin wide/narrow deep/shallow heavy/light
        early/late earlier/later earliest/latest before/after first/last old/young older/younger
        positive/negative positively/negatively present/absent
        internal/external inner/outer inside/outside upper/lower top/bottom anterior/posterior
        dorsal/ventral proximal/distal left/right north/south east/west
        light/dark lighter/darker white/black hot/cold warm/cold wet/dry acidic/alkaline
        aerobic/anaerobic benign/malignant acute/chronic alive/dead living/dead living/extinct
        dominant/recessive sensitive/resistant susceptible/resistant rare/common similar/different
        accept/reject success/failure input/output influx/efflux urban/rural vertical/horizontal
        systolic/diastolic true/false""",
    )
)
#: prefixes and endings that turn a word into its opposite ("upregulated", "hypoglycaemia",
#: "intracellular", "postoperative", "overestimate", "include", "Southeast", "hydrophilic")
OPPOSITE_PARTS = tuple(
    tuple(pair.split("/"))
    for pair in listed("up/down hyper/hypo intra/extra endo/exo pre/post over/under in/ex homo/hetero north/south east/west phobic/philic")
)
#: prefixes that deny the rest of the word ("insignificant", "unchanged", "nonlinear")
_DENYING = ("un", "in", "im", "ir", "il", "non", "dis")
_PART = re.compile(r"(?<!\d),|,(?!\d)|[;:()]|\s(?:but|whereas|while|although|though|which)\s")
#: where a passage's sentences divide into the clauses a claim is laid against
_CLAUSE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])|(?<!\d),|,(?!\d)|[;:]|\s(?:but|whereas|while|although|though)\s")
#: the ways to say what a comparison is against, all read as the one word "versus"
_COMPARED = re.compile(
    r"\b(?:(?<!other\s)than|versus|vs|(?:as\s+)?compared\s+(?:to|with)|relative\s+to|with\s+respect\s+to|in\s+comparison\s+(?:to|with))\b",
    re.IGNORECASE,
)
_VERSUS = "versus"
#: the words that name an exception: the two content words after them are not what a clause says
_EXCEPT = re.compile(r"\b(?:all\s+but|except(?:\s+for)?|apart\s+from|other\s+than|excluding)\s+([^,;:.()]*)", re.IGNORECASE)
_EXCEPTED = "except:"
#: a label or citation in brackets ("(FT2)", "[15]", "(Figure 4A)"), no part of what a sentence says
_ASIDE = re.compile(r"\s*[(\[](?=[^()\[\]]{0,12}\d)[^()\[\]]{1,13}[)\]]")
_BY = "by"
_NON = "non"
#: words kept beside the content words: "by" of the passive voice, "respectively" of paired lists
_MARKERS = (_BY, "respectively", _NON)
#: words for whatever a paper studies, which stand for each other ("specimens" for "sharks")
_GENERAL = frozenset(
    normal(word)
    for word in listed(
        "specimen individual sample species animal organism patient subject participant case study work paper article data result"
    )
)
_MARKED = frozenset(normal(word) for word in _MARKERS)
#: how far from the words between them two swapped words may stand
_NEAR = 2

Words = list[tuple[str, str]]


def flipped(claim: str, passages: Sequence[str]) -> str:
    """Why ``claim`` says the opposite of ``passages`` (a phrase for the reader), or ``""``."""
    clauses = [_content(clause) for text in passages for clause in _CLAUSE.split(" ".join(_ASIDE.sub(" ", text).split()))]
    clauses = [clause for clause in clauses if clause]
    if not clauses:
        return ""
    pairs = {(first, second) for clause in clauses for (_, first), (_, second) in zip(clause, clause[1:], strict=False)}
    for part in _PART.split(claim):
        said = _content(part)
        if len({word for _, word in said}) >= 2 and (reason := _part_flipped(said, clauses, pairs)):
            return reason
    return ""


def _part_flipped(said: Words, clauses: list[Words], pairs: set[tuple[str, str]]) -> str:
    """Why one part of a claim says the opposite of the passage clause it matches, or ``""``."""
    wanted = {word for _, word in said}
    vocabularies = [{word for _, word in clause} for clause in clauses]
    best = max(len(wanted & vocabulary) for vocabulary in vocabularies)
    for clause, vocabulary in zip(clauses, vocabularies, strict=True):
        if len(wanted & vocabulary) < best - 1:
            continue  # the claim's other words match another clause better, whichever word stands out
        for word, reason in _replaced(said, clause, pairs):
            # the clause the claim's other words match best is the one it contradicts, unless
            # another that matches as well says the word itself
            rest = max(len((wanted - {word}) & other) for other in vocabularies)
            matches = [other for other in vocabularies if len((wanted - {word}) & other) == rest]
            if vocabulary in matches and not any(word in other for other in matches):
                return reason
    reasons = [
        _traded(said, clause, pairs) for clause, vocabulary in zip(clauses, vocabularies, strict=True) if len(wanted & vocabulary) == best
    ]
    return reasons[0] if all(reasons) else ""


@lru_cache(maxsize=1 << 16)
def opposed(first: str, second: str) -> bool:
    """Whether two normal forms are opposites: listed, or by an opposite prefix or ending."""
    if frozenset((first, second)) in _opposites():
        return True
    if first[:4] != second[:4] and first[-4:] != second[-4:]:
        return False  # an opposite prefix or ending leaves four letters or more alike
    for one, other in OPPOSITE_PARTS:
        for a, b in ((one, other), (other, one)):
            if first.startswith(a) and second.startswith(b) and len(first) - len(a) >= 4 and first[len(a) :] == second[len(b) :]:
                return True
            if first.endswith(a) and second.endswith(b) and len(first) - len(a) >= 4 and first[: -len(a)] == second[: -len(b)]:
                return True
    return any(
        one.startswith(prefix) and one[len(prefix) :] == other and len(other) >= 4
        for prefix in _DENYING
        for one, other in ((first, second), (second, first))
    )


def _replaced(said: Words, clause: Words, pairs: set[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """The words of the claim's part ``said`` that stand where ``clause`` has an opposite or
    something else the passages name (``pairs``: their adjacent content words), each with why."""
    claim = [word for _, word in said]
    text = [word for _, word in clause]
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, claim, text, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        elsewhere = _in_their_place(claim, (i1, i2), text, (j1, j2), pairs)
        for i in range(i1, i2):
            for j in range(j1, j2):
                word, other = claim[i], text[j]
                if other in claim or word in text or {word, other} & _MARKED:
                    continue
                if opposed(word, other):
                    yield word, f"it says {said[i][0]!r} where its passage says {clause[j][0]!r}"
                elif elsewhere:
                    yield (
                        word,
                        f"it says {said[i][0]!r} where its passage says {clause[j][0]!r} (and names {said[i][0]!r} for something else)",
                    )


def _in_their_place(claim: list[str], span: tuple[int, int], text: list[str], place: tuple[int, int], pairs: set[tuple[str, str]]) -> bool:
    """Whether the claim's word ``span`` stands alone where the clause's word ``place`` does,
    between the same words (or at the same end), and the passages name it next to one of those
    words elsewhere ("birth to froglets" for "birth of tadpoles"), while neither is a general word
    (:data:`_GENERAL`) and the two are not one word spelled or inflected two ways ("gave" and
    "gives"): a longer span is a paraphrase more often than a swap."""
    (i1, i2), (j1, j2) = span, place
    ours, theirs = claim[i1:i2], text[j1:j2]
    if len(ours) != 1 or len(theirs) != 1 or {*ours, *theirs} & _GENERAL:
        return False
    if Levenshtein.normalized_similarity(ours[0], theirs[0]) >= 0.5:
        return False
    before = (i1 == 0 and j1 == 0) or (i1 > 0 and j1 > 0 and claim[i1 - 1] == text[j1 - 1])
    after = (i2 == len(claim) and j2 == len(text)) or (i2 < len(claim) and j2 < len(text) and claim[i2] == text[j2])
    named = (i1 > 0 and (claim[i1 - 1], claim[i1]) in pairs) or (i2 < len(claim) and (claim[i2 - 1], claim[i2]) in pairs)
    return before and after and named


def _traded(said: Words, clause: Words, pairs: set[tuple[str, str]]) -> str:
    """Two words of the claim that trade places around words the clause holds in the same order
    (the rules of the module's docstring), or ``""``."""
    claim = [word for _, word in said]
    text = [word for _, word in clause]
    if normal("respectively") in text:
        return ""
    for word in claim:
        if word in _MARKED or claim.count(word) != 1 or text.count(word) != 1:
            continue
        i, j = claim.index(word), text.index(word)
        while i > 0 and j > 0 and claim[i - 1] == text[j - 1]:
            i, j = i - 1, j - 1
        size = 1
        while i + size < len(claim) and j + size < len(text) and claim[i + size] == text[j + size]:
            size += 1
        for first in set(claim[max(i - _NEAR, 0) : i]) & set(text[j + size : j + size + _NEAR]):
            for second in set(claim[i + size : i + size + _NEAR]) & set(text[max(j - _NEAR, 0) : j]):
                if _swapped(claim, text, (i, j, size), first, second, pairs):
                    return f"it swaps {_shown(said, first)!r} and {_shown(said, second)!r}, which its passage names the other way round"
    return ""


def _swapped(claim: list[str], text: list[str], run: tuple[int, int, int], first: str, second: str, pairs: set[tuple[str, str]]) -> bool:
    """Whether ``first`` before the ``run`` of words the claim and the clause share (its start
    in each and its size) and ``second`` after it, the other way round in the clause, are a swap."""
    i, j, size = run
    between = claim[i : i + size]
    if first == second or {first, second} & {*_MARKED, *between} or is_number(first) != is_number(second):
        return False
    if _voice(claim, first, second) != _voice(text, second, first):
        return False
    if opposed(first, second) or normal(_VERSUS) in between:
        return True
    close = (
        claim.index(first) == i - 1 and claim.index(second) == i + size and text.index(second) == j - 1 and text.index(first) == j + size
    )
    return close or (size > 1 and ((first, second) in pairs or (second, first) in pairs))


def _voice(words: list[str], first: str, second: str) -> bool:
    """Whether the passive voice's "by" stands between two words (a voice change, not a swap)."""
    return _BY in words[words.index(first) : words.index(second)]


def _shown(said: Words, word: str) -> str:
    return next(written for written, normal in said if normal == word)


def _content(text: str) -> Words:
    """The content words of ``text`` in order, with its comparisons and passive "by" as words, its
    short asides in brackets left out, and the first two words of an exception marked as such."""
    text = _COMPARED.sub(f" {_VERSUS} ", text)
    found: Words = []
    start = 0
    for match in _EXCEPT.finditer(text):
        found += _words(text[start : match.start()])
        excepted = _words(match.group(1))
        found += [(written, f"{_EXCEPTED}{word}") for written, word in excepted[:2]] + excepted[2:]
        start = match.end()
    return found + _words(text[start:])


def _words(text: str) -> Words:
    """The content words of ``text`` and its markers, "non-pigmented" as one word."""
    found: Words = []
    for written, word in written_forms(text):
        if found and found[-1][0] == _NON:
            found[-1] = (f"{_NON}-{written}", _NON + word)
        elif is_content(written) or written in _MARKERS:
            found.append((written, word))
    return found


@cache
def _opposites() -> frozenset[frozenset[str]]:
    return frozenset(frozenset(word for _, word in written_forms(f"{one} {other}")) for one, other in OPPOSITES)
