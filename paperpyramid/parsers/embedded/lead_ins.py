"""A line's run-in title: the lead-in set in bold or italics before the paragraph's text.

How a line opens tells a run-in heading ("**Data sources.** The …", "*a. Syntax* The …",
"**Selecting PDFs**  We remove …") from a paragraph that opens with a bold or italic word: its
full stop, its letter, or the em of white space LaTeX's ``\\paragraph`` sets after it. These tests
read one line alone (its text, its styled prefix and its gaps), apart from how lines make blocks
(:mod:`.blocks` cuts a block before such a line; :mod:`.run_in` splits the title from the text).
"""

from __future__ import annotations

import re

from paperpyramid.parsers.embedded.layout import Line

#: words a title does not end with: the lead-in is cut short
OPEN_ENDINGS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"})


def styled_lead(line: Line) -> str | None:
    """The lead-in of a line set in bold or italics and closed by a full stop after a word (set
    in the same style or not), before more text in the body's style: "**Data sources.** The …",
    "*Shake-flask cultivation system.* The …". Not a colon ("Decision:", "Supports:" label a
    figure's parts) nor an ellipsis. Without the full stop, see :func:`_unclosed_lead` and
    :func:`_spaced_lead`."""
    measured = line.bold_prefix or line.italic_prefix  # the prefix whose gap ``lead_gap`` holds
    for prefix in (line.bold_prefix, line.italic_prefix):
        # a word of three letters after it will do: "**… to another?**  Use" ends a line
        if not 3 <= prefix <= len(line.text) - 3:
            continue
        lead = line.text[:prefix].rstrip()
        if not lead.endswith(".") and line.text[prefix : prefix + 1] == ".":
            lead += "."
        if lead.endswith(".") and (lead[-2:-1].isalnum() or lead[-2:-1] in ")]"):
            return lead
        if _unclosed_lead(lead, line.text[prefix:]):
            return lead
        spaced = em_lead(line) or (prefix == line.bold_prefix and _half_em_lead(line, lead))
        if prefix == measured and spaced and _spaced_lead(lead, line.text[prefix:], em=em_lead(line)):
            return lead
    return None


#: the opening of a sentence: a capitalised word, then a word in lower case ("These should", "The argument") or the line's end
_SENTENCE_OPENING = re.compile(r"^[A-Z][a-z]{0,12}(?:\s+[a-z]|$)")
#: a lowest heading's letter before its title ("a. Syntax"): REVTeX's fourth level
_LETTER_LABEL = re.compile(r"^[a-z]\.\s+[A-Z]")
_UNCLOSED_WORDS = 10


def _unclosed_lead(lead: str, rest: str) -> bool:
    """A lettered run-in heading without its full stop, the paragraph's first sentence right after
    it: "*a. Syntax* The argument of …" (REVTeX's fourth level, in italics or bold). Unlettered, a
    bold or italic opening is as often emphasis or a name as a heading ("**Claim negation** Unless
    …" set with ``{\\bf}``, which a LaTeX gold does not count, "*Escherichia coli* Strains"), so it
    needs its full stop. A few words, ending in a word or a closed parenthesis: not a phrase cut
    short (a comma, an open parenthesis, "of") nor code."""
    words = lead.split()
    if not 2 <= len(words) <= _UNCLOSED_WORDS or not _LETTER_LABEL.match(lead) or not _SENTENCE_OPENING.match(rest.lstrip()):
        return False
    return (lead[-1].isalnum() or lead[-1] == ")") and lead.count("(") == lead.count(")") and words[-1].lower() not in OPEN_ENDINGS


#: the least gap after a lead-in, in the line's size, that is LaTeX's em after a run-in title: the
#: widest word spaces of loose justified lines measure some 0.8 of it
_EM_SPACE = 0.95
_SPACED_WORDS = 12
#: TUGboat's (ltugboat's) run-in ``\\subsection`` sets half an em or more after its bold title,
#: which a loose line's word spaces can pass; it is read where it also passes the median space
#: between the words after it by this much (in the line's size): a justified line stretches
#: those alike, and the gap after a bold name typed at a paragraph's start is one of them
_HALF_EM = 0.5
_OVER_WORDS = 0.15


def em_lead(line: Line) -> bool:
    """Whether an em of white space follows the line's styled lead-in: LaTeX's ``\\paragraph``."""
    return line.lead_gap >= _EM_SPACE * line.size


def _half_em_lead(line: Line, lead: str) -> bool:
    """Whether the bold ``lead`` is a run-in title by the half em after it (:data:`_HALF_EM`):
    a gap short of an em, wider than the line's median word space by :data:`_OVER_WORDS`. Not a
    statement's head, a word and its number ("**Fact ii**", "**Theorem 2**"): LaTeX's
    ``\\newtheorem`` sets its bold head before the same half em (the list's ``\\labelsep``)."""
    if em_lead(line) or line.word_gap <= 0 or _NUMBERED_HEAD.match(lead):
        return False
    return line.lead_gap >= line.size * max(_HALF_EM, line.word_gap / line.size + _OVER_WORDS)


#: a statement's word and its number, arabic, roman or a letter: "Theorem 2", "Fact ii", "Case A"
_HEAD_AND_NUMBER = r"^[A-Z][a-z]+\s+(?:\d+(?:\.\d+)*|[ivxIVX]{1,5}|[A-Z])"
#: a statement's head: the word and its number alone
_NUMBERED_HEAD = re.compile(_HEAD_AND_NUMBER + "$")


def _spaced_lead(lead: str, rest: str, *, em: bool) -> bool:
    """A lead-in without its full stop, an em of white space after it: the run-in title of
    LaTeX's ``\\paragraph`` ("**Selecting PDFs**  We remove …", ACL's and article's fourth level,
    set with ``\\hskip 1em``; in italics in some classes, "*Paragraphs*  Named paragraphs …").
    Bold typed by hand at a paragraph's start ("{\\bf Claim negation} Unless …") is followed by a
    word space, a third of that, and is not read: as often a sentence's bold subject
    ("**Abstract-level evaluation** is inspired by …") as a title. A few words ending in a word,
    a closed parenthesis, a question mark or a closing quote, not a phrase cut short; and a new
    sentence after it, not a word in small letters: a loose justified line stretches its spaces
    too ("*Rcpp*   is a CRAN package", a package's name in italics). A colon ends a title only
    before a full ``em`` ("**Details:**  For some …"): a label typed by hand ("**Remark:** Equation
    …", "**Version 0.3:** Allow …") stands before a stretched word space, which may pass half an
    em; a description list's label ("**VCFs:**", in a box as wide as the longest label) may
    stand before an em too, and :func:`~.run_in` tells those by their hanging lines."""
    words = lead.split()
    if not 1 <= len(words) <= _SPACED_WORDS or words[-1].lower() in OPEN_ENDINGS or _STATEMENT_HEAD.match(lead):
        return False
    if rest.lstrip()[:1].islower():
        return False
    # a question ends the titles of a manual's questions ("**Use qtree with pdflatex?**  Earlier …"),
    # a closing quote a title that quotes ('**LaTeX says that pict2e.sty “will not be written soon”**')
    ending = lead[-1].isalnum() or lead[-1] in _SPACED_ENDINGS or (em and lead[-1] == ":")
    return ending and lead.count("(") == lead.count(")")


_SPACED_ENDINGS = ')?"”’'


#: a statement's head, a word, its number and its name in parentheses: "Axiom 7 (A Sample Axiom)",
#: "Theorem 1 (Eigenvalue Powers)"; amsthm and jmlr set about an em after it too, of any kind. Without
#: the name it may be a title ("Model 1", msm's ``\\paragraph``), and :data:`~.labels.THEOREM_LIKE` has the
#: usual kinds
_STATEMENT_HEAD = re.compile(_HEAD_AND_NUMBER + r"\s+\(.*\)$")
