"""Lines that open like a section's title but label something else: a statement ("Theorem 2",
"Proof of Lemma 3", "Definition 1 (Compactness)"), set in bold on a line of its own as a low
heading may be, and a field of the front matter ("Received:", "Correspondence to"), and an article's type over its
title ("Research Article"). The heading
rules (:mod:`.blocks`, :mod:`.run_in`, :mod:`.outline`) read them here, in one place.
"""

from __future__ import annotations

import re

# a statement's label: the word alone or with its number or letter ("Lemma 2.1", "Case A", "Proof of
# Theorem 3", "Proof."); not a heading that opens with the word ("Case Report", "Definition of outcomes")
THEOREM_LIKE = re.compile(
    r"^(theorem|lemma|definition|remark|example|proposition|corollary|proof|claim|conjecture|notation|case|step|exercise|assumption|hypothesis|algorithm|satz|beispiel|bemerkung|beweis|korollar|folgerung|aufgabe|teilaufgabe)\b"
    r"(?=\s*$|\s*[\d(.:,;]|\s+(?:[A-Z]|[IVXivx]{1,4})\b|\s+[a-z]\)|\s+(?:of|von)\s+(?:the\s+)?(?:theorem|lemma|proposition|corollary|claim|satz)\b)",
    re.I,
)


#: a statement's number, and its name in parentheses after it: the rest of "Definition 1", "Satz 2.3",
#: "Bemerkung 1 (Mengen, die offen & abgeschlossen sind)"; or its name alone ("Satz (Zwischenwertsatz)",
#: amsthm's unnumbered ``\\newtheorem*`` with an optional name); or a part's letter ("Teilaufgabe a)")
_STATEMENT_NUMBER = re.compile(r"\s*(?:[A-Z]?\d+(?:\.\d+)*(?:\s+\(.*\))?|\(.*\)|[a-z]\))$")
#: the head of a proof: whatever follows it on its line is the proof's opening or what it proves
#: ("Beweis: (Fundamentalgruppe ist eine Gruppe)", "Proof: ∆n is …"), never a section's title
_PROOF_HEAD = re.compile(r"^(?:proof|beweis)\s*[:.]", re.I)


def statement_label(text: str) -> bool:
    """Whether a line is a statement's label alone: its word (:data:`THEOREM_LIKE`), its number,
    perhaps its name in parentheses ("Definition 1", "Beispiel 3 (Basis und Subbasis)"), or its
    name alone ("Satz (Zwischenwertsatz)"), which amsthm's styles set on a line of their own in
    bold, as a low heading might be set; or a proof's head and what follows it on the line
    (:data:`_PROOF_HEAD`). A heading that opens with such a word and goes on with a title
    ("Example: Measles, Germany, 2005–2007") is not one."""
    if _PROOF_HEAD.match(text):
        return True
    word = THEOREM_LIKE.match(text)
    return word is not None and _STATEMENT_NUMBER.match(text, word.end()) is not None


#: a field's label in the front matter or a page's foot: "Received", "Correspondence to", "Academic Editor"
METADATA_LABEL = re.compile(
    r"^(received|revised|accepted|published|first published|first indexed|address for correspondence|correspondence( to)?|corresponding authors?|for reprints contact|e-?mail|edited by|reviewed by|academic editor|citation|copyright|how to cite|see referee reports|article history|available online|open access|doi)\b",
    re.I,
)


#: an article's type or a manual's kind, which a page sets over or in place of a title and which is
#: never one ("Research Article", "User manual")
GENERIC_TITLES = {
    "research article",
    "original article",
    "research note",
    "article",
    "review",
    "review article",
    "letter",
    "short communication",
    "open access",
    "original research",
    "research",
    "methodology",
    "brief report",
    "case report",
    "editorial",
    # more article types, set over the title as two words (which a title of two words may be)
    "clinical study",
    "research paper",
    "original paper",
    "systematic review",
    "mini review",
    "brief communication",
    "rapid communication",
    "technical note",
    "technical report",
    "case series",
    "short report",
    "study protocol",
    "data descriptor",
    "original contribution",
    # labels of three words and more, which Hindawi sets in type larger than the title's, and Frontiers' kinds
    "letter to the editor",
    "expression of concern",
    "original research article",
    "hypothesis and theory",
    "brief research report",
    "general commentary",
    "technology report",
    "clinical trial",
    "research letter",
    "invited review",
    "full length article",
    "full-length article",
    "regular article",
    # a manual's kind, which its cover's banner prints over the title as a journal prints an article's type
    "software manual",
    "user manual",
    "user's guide",
    "user’s guide",
    "reference manual",
}


#: a journal section's kicker of a word or two, set large over a piece whose byline follows it
#: ("Correspondence" over its writers' names): never a cover's title of a word or two. Not an article
#: type in general, for a title may open with one ("Perspective: Protein supplementation …")
KICKERS = {
    "correspondence",
    "viewpoint",
    "perspective",
    "commentary",
    "comment",
    "opinion",
    "essay",
    "obituary",
    "erratum",
    "corrigendum",
    "correction",
    "retraction",
    "addendum",
    "news",
    "book review",
    "in memoriam",
}
