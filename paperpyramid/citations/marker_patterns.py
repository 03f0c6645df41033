"""Where in a block's text in-text citation markers are, and what each names, before resolving.

Four families, each a finder of :class:`Marker` spans in one text:

- :func:`numeric_brackets`: "[12]", "[3–5]", "[1, 4, 7–9]", "[12, p. 4]", "[9, §1]", "[e.g., 5–7]";
- :func:`superscripts`: numbers the embedded parser glues to the word they follow
  ("melanogaster1–3", "odorants9,11", "shown.12"), told from gene names and units by the word's
  shape, and only used in a paper cited that way, where the parser did not see them printed
  raised (a block that says what it printed raised is read by :mod:`paperpyramid.citations.raised`);
- :func:`letter_labels`: "[Knu84]", "[DHK+ 99]", "[And08a, Kei96]", as BibTeX's alpha styles print;
- :func:`author_year`: "(Smith et al., 2019)", "(Smith and Jones 2019; Lee 2020a)",
  "Smith et al. (2019)", "Smith (2019, 2020)", "(Handcock, et al. 2003)" and "[Smith & Lee, 2003]".

The traps (a year, "Fig. 3", "Eq. (2)", an interval "[0, 1]", a table's numbers, R's printed
output with its "[1]" indices, run into the prose or not) are refused
here by shape and context; :mod:`paperpyramid.citations.markers` then keeps only markers that
resolve to entries of the reference list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "CitedName",
    "Marker",
    "author_year",
    "LETTER_LABEL",
    "NOT_SUPER_WORDS",
    "glued_to_names",
    "label_key",
    "letter_labels",
    "named_references",
    "numbered_names",
    "numbers_in",
    "numeric_brackets",
    "paren_superscripts",
    "superscripts",
]


@dataclass(frozen=True)
class CitedName:
    """One author-year item: the family names as cited (first author first), whether "et al."
    follows, and the year with its letter ("2019a" -> 2019, "a")."""

    names: tuple[str, ...]
    et_al: bool
    year: int
    letter: str


@dataclass
class Marker:
    """A marker's span in the text and what it cites: printed numbers, or author-year items."""

    start: int
    end: int
    numbers: list[int] = field(default_factory=list)
    items: list[CitedName] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- numbers

_DASH = "-–—‑‐"
_RANGE = rf"\d{{1,4}}(?:\s*[{_DASH}]\s*\d{{1,4}})?"
_LIST = rf"{_RANGE}(?:\s*[,;]\s*{_RANGE})*"
#: what a citation may say after its numbers inside the bracket: where in the work ("[12, p. 4]",
#: "[3, Theorem 1.3.5]", "[7, questions 5.3.2, 5.3.3]", "[4, version 3.16]"), or the title of the
#: part cited in typographic quotes ("[4, ‘Hyphenation’, section Q.7]"), never a plain letter or
#: number ("[2, n]" is an interval); a locator's word names a place, so a number, a capital, a roman
#: numeral or a quote follows it ("[1, column]" indexes a table in code)
_LOCATOR = (
    r"(?:\s*,\s*(?:§|[‘“]|(?i:(?:pp?|pg|pag|pages?|ch|chap|chapter|sec|section|thm|theorem|lemma|lem|prop|proposition|cor|"
    r"corollary|def|definition|eq|example|ex|rem|remark|app|appendix|vol|part|p\.\s*p|question|version|note|footnote|line|"
    r"paragraph|para|col|column|fig|figure|table|item)s?)\b\.?\s*(?=[\dA-Z‘“(§]|[ivxlc]+\b))[^\[\]]{0,60})?"
)
#: what a citation may say before its numbers inside the bracket, as natbib's
#: ``\cite[e.g.,][]{…}`` prints it: "[e.g., 5–7, 11]", "[see 3]", "[cf. 12, 14]"
_PRENOTE = r"(?:(?:e\.\s?g\.|i\.\s?e\.|cf\.|see(?:\s+also)?|for\s+example)[,:]?\s+)?"
_BRACKET = re.compile(rf"\[\s*{_PRENOTE}(?P<list>{_LIST})(?P<locator>{_LOCATOR})\s*\]")
# words after which "[3]" or "3" is not a citation: a float, an equation, a range, a step
_NOT_BEFORE_NUMBER = {
    "fig", "figs", "figure", "figures", "table", "tables", "tab", "eq", "eqs", "equation", "equations", "section", "sections",
    "sec", "secs", "step", "steps", "line", "lines", "algorithm", "appendix", "chapter", "range", "ranges", "interval",
    "intervals", "between", "within", "size", "sizes", "values", "value", "set", "grid", "dimension", "dimensions", "array",
    "vector", "matrix", "list", "index", "indices", "window", "shape", "scale", "level", "levels", "from", "to", "row",
    "rows", "column", "columns", "item", "items", "panel", "panels", "box", "lemma", "theorem", "proposition", "corollary",
    "definition", "remark", "example", "part", "phase", "stage", "version", "page", "pages", "no", "nos", "vol", "volume",
}  # fmt: skip
_MATH_BEFORE = set("=∈∉⊂⊆⊃×+−*/^_<>≤≥|→↦∀∃±") | {"∪", "∩", "⊕"}
_MATH_AFTER = set("^_=×∪∩⊂∈→") | {"'", "′"}
#: what follows the label of a reference entry written out in the text (an example list, a list
#: the parser took for body text): the first author with initials, "A. Alpha", "J.-P. Dupont",
#: "Smith, J. A.", where a citation opening a sentence is followed by words ("[3] Smith et al.")
_ENTRY_AFTER = re.compile(r"\s+(?:(?:[A-Z]\.\s?-?\s?){1,3}[A-Z][^\W\d_]+\b|[A-Z][^\W\d_]+,\s+(?:[A-Z]\.\s?-?){1,3}(?:,|\s+and\b|\s*&))")
#: what ends the text before such a label, where it opens no line: a sentence, a note ("[Proceedings] [2]")
_ENDS_BEFORE_ENTRY = frozenset(".!?:]")
#: what follows an index that opens a line of a program's output: a number, a quoted string, a
#: constant in capitals ("[1] 0.83", '[1] "zoo"', "[1] TRUE"), where a citation opening a
#: sentence is followed by words ("[12] showed", "[3] Smith et al.")
#: "see for example [1]" cites, where "Example [1]" names an example
_FOR_EXAMPLE = re.compile(r"\bfor\s+example,?\s*$", re.I)
_OUTPUT_AFTER = re.compile(r"\s*(?:[-+]?\.?\d|[\"'“]|[A-Z]{2,}\b|$)")
#: what follows an index of R's output anywhere in a block, where the parser ran the output's lines
#: on into one text with the prose over them ("computed for: [1] "R1L1Kidney" "R1L2Liver" … [8] …"):
#: a string in typewriter quotes (typeset prose has curly ones), two numbers or more (a numeric
#: vector: "[1] -1.799 0.423", "[1] 1 2"), or a setting or a package with its version ("[4] LC_COLLATE=C",
#: "[1] NOISeq_2.42.0"); a citation is followed by words or punctuation, or a name ("[27] en_core_web_sm")
_NUMBER_VALUE = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_VALUES_AFTER = re.compile(rf'\s*(?:"|{_NUMBER_VALUE}(?:\s+{_NUMBER_VALUE})+(?![\w%])|[^\W\d][\w.]*(?:=|_\d))')
#: what comes before such an index: knitr's prefix of an output line ("## [1] 44.3"), or the name of the
#: list element R prints over its value ("$genotypeParams$rn [1] 0.5", "$binLo [1] 9555093")
_OUTPUT_BEFORE = re.compile(r"(?:^|\s)(?:##|\$[^\W\d][\w.$]*)\s*$")


def numbers_in(listed: str) -> list[int] | None:
    """The numbers of "1, 4, 7–9" in order, ranges spelt out; None for a list that is no
    citation (a zero, a range running backwards or over 60 entries, a part that is no number)."""
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", listed.strip()):
        values = re.split(rf"\s*[{_DASH}]\s*", part)
        if not all(value.isdecimal() for value in values):
            return None  # an empty place ("1,", "3-", a lone dash raised in a formula) or no number
        ends = [int(value) for value in values]
        if len(ends) == 2:
            low, high = ends
            if not low < high <= low + 60:
                return None
            numbers.extend(range(low, high + 1))
        else:
            numbers.append(ends[0])
    if not numbers or min(numbers) == 0:
        return None
    return list(dict.fromkeys(numbers))


def _word_before(text: str, position: int) -> str:
    match = re.search(r"([^\W\d_]+)\.?\s*$", text[max(0, position - 40) : position])
    return match.group(1).lower() if match else ""


def numeric_brackets(text: str) -> list[Marker]:
    """Bracketed numbers that read as citations: "[12]", "[3–5]", "[1, 4, 7–9]", "[12, p. 4]",
    "[e.g., 5–7, 11]"."""
    found: list[Marker] = []
    for match in _BRACKET.finditer(text):
        numbers = numbers_in(match.group("list"))
        if numbers is None or max(numbers) >= 1000:
            continue
        before = text[: match.start()].rstrip()
        glued = match.start() > 0 and not text[match.start() - 1].isspace()
        if before and before[-1] in _MATH_BEFORE:
            continue
        opens_line = not before or text[: match.start()].rstrip(" \t").endswith("\n")
        if (
            (opens_line and _OUTPUT_AFTER.match(text, match.end()))
            or _VALUES_AFTER.match(text, match.end())
            or _OUTPUT_BEFORE.search(text, max(0, match.start() - 80), match.start())
        ):
            continue  # "[1] 0.83", "[1] TRUE", '[1] "zoo"' opening a line, "## [1] 4", "$a [1] 2": R's output, not a citation
        if (opens_line or before[-1] in _ENDS_BEFORE_ENTRY) and _ENTRY_AFTER.match(text, match.end()):
            continue  # "[2] A. Alpha et al., “A novel injector”": an example list's label, not a citation
        token = re.split(r"\s", text[: match.start()])[-1] if glued else ""
        word = token.rstrip(".,;:(")
        # a parenthesis closed before the marker, "(CRP)[12]" or "(… placebo group)[12]", is prose
        parenthetical = token.endswith(")") and (token.startswith("(") or "(" not in token)
        if (
            token[-1:] not in {".", ",", ";", ":", "("}
            and word
            and not parenthetical
            and (len(word) <= 2 or re.search(r"[\d._()=:\[\]{}\\@]", word))
        ):
            continue  # x[3], D[j], f(x)[2], a[1][2], doc.sentences[2], \newcommand{\x}[1]: indexing or code, not a citation
        if _word_before(text, match.start()) in _NOT_BEFORE_NUMBER and not _FOR_EXAMPLE.search(text, 0, match.start()):
            continue
        after = text[match.end() : match.end() + 2]
        if after[:1] in _MATH_AFTER or after.startswith(("(", "[")):
            continue
        found.append(Marker(match.start(), match.end(), numbers=numbers))
    return found


#: the works a sentence names by their numbers, as Nature's journals and many biomedical ones print
#: them on the line beside their superscripts: "ref. 12", "refs 3,4", "refs. 5–7", "Refs 3 and 8";
#: "ref"/"refs" only (in lower case or capitalised, with a point or a space before the number), so a
#: gene's "REF1" or "Ref-1", a "ref." column or "Ref. Seq." and a "ref. genome" (no number) are none.
#: Japanese physics journals close each number as they close their superscripts: "Ref. 3)",
#: "Refs. 1), 3)–5)"
#: atomic, so that a number or range followed by what no marker is followed by ("refs 3–5% of") is
#: not cut short to a marker ("3"); the list can still end before a later item ("ref. 12, 2019 …")
_NAMED_NUMBER = rf"(?>\d{{1,3}}\)?(?:\s?[{_DASH}]\s?\d{{1,3}}\)?)?)"
_NAMED_REFS = re.compile(
    rf"(?<![\w\-/])[Rr]efs?(?:\.\s?|\s)(?P<list>{_NAMED_NUMBER}(?:(?:\s?,\s?|,?\s(?:and|&)\s){_NAMED_NUMBER})*)"
    rf"(?![\w%°′'’])(?![.,:]\d)"
)


def named_references(text: str) -> list[Marker]:
    """The numbers a sentence names its works by, "ref. 12", "(refs 3,4)", "see refs 3 and 8",
    "Refs. 3-5", "Ref. 3)" (:data:`_NAMED_REFS`): the one reader of them, for every paper whose list
    is numbered, beside its superscripts or brackets, where they name entries as plainly as a
    marker does. A parenthesis that closes the sentence's own ("(Refs. 2–4)") is no part of it."""
    found: list[Marker] = []
    if "ef" not in text:
        return found
    for match in _NAMED_REFS.finditer(text):
        listed = match.group("list")
        numbers = numbers_in(re.sub(r",?\s(?:and|&)\s", ",", listed.replace(")", "")))
        end = match.end()
        if listed.endswith(")") and _inside_parentheses(text, match.start("list")):
            end -= 1
        if numbers is not None:
            found.append(Marker(match.start("list"), end, numbers=numbers))
    return found


# ----------------------------------------------------------------------------- superscripts

_SUPER = re.compile(
    rf"(?<![\w\-/])(?P<word>[A-Za-z][A-Za-z\-]*[a-z]|al)(?P<punct>[.,;:)’”\"]?)(?P<list>\d{{1,3}}(?:[{_DASH}]\d{{1,3}})?(?:,\d{{1,3}}(?:[{_DASH}]\d{{1,3}})?)*)(?![\w\d])(?![.,]\d)(?!\.[a-z])"
    rf"(?![{_DASH}]\d)"  # "revtex4-1.cls": a version's digits, not a marker cut short of "4-1"
)
#: words a glued number belongs to: units, functions, numbered things
NOT_SUPER_WORDS = {
    "fig", "figure", "figs", "table", "tab", "eq", "equation", "section", "sec", "step", "phase", "group", "day", "days", "week",
    "weeks", "month", "months", "year", "years", "sample", "site", "patient", "lane", "line", "type", "stage", "grade",
    "class", "level", "model", "version", "chapter", "exp", "experiment", "log", "ln", "sin", "cos", "tan", "max", "min",
    "sqrt", "dim", "lim", "det", "arg", "mod", "mm", "cm", "km", "ml", "mol", "mmol", "kg", "mg", "ms", "nm", "kda", "kcal",
    "top", "layer", "conv", "block", "round", "trial", "session", "run", "test", "set", "subject", "participant", "case",
    "item", "question", "task", "area", "zone", "region", "panel", "box", "part", "appendix", "supplement", "page", "pages",
    "vol", "no", "pp", "ref", "refs", "mean", "std", "sd", "se", "iii", "cov", "pos", "neg", "rev", "ver", "gen", "iso",
}  # fmt: skip


#: what opens an identifier in code rather than a word of prose: an R formula's "~str4", a variable
#: in straight quotes ('fit1', typeset prose curls its quotes), an argument of a call ("test(fit1"),
#: "$x1", "@p2"
_CODE_BEFORE = re.compile(r"(?:[~$@'\"`=]|[\w.]\()$")
#: what follows an identifier in code: an assignment ("fit1 <- mppm(", "str4 = Strauss(4)"), a call or
#: an index glued to it ("fit1(", "x2[", "fit1$coef"), a closing straight quote
_CODE_AFTER = re.compile(r"\s*(?:<<?-|->|:=|=(?!=))|[(\[$'`]")


def _code_like(text: str, word_start: int, end: int) -> bool:
    """Whether a word with digits glued to it reads as an identifier of code ("fit1", "str4") by
    what is printed around it: a superscript citation ends a word of prose, so it is never
    assigned to, called, indexed or quoted as a string."""
    return _CODE_BEFORE.search(text, max(0, word_start - 2), word_start) is not None or _CODE_AFTER.match(text, end) is not None


def superscripts(text: str) -> list[Marker]:
    """Numbers glued to the end of a word, as the embedded parser renders superscript citations:
    "melanogaster1–3", "odorants9,11", "shown.12", "et al.4". A word with a capital inside or at its
    end ("CquiOBP1", "BL21", "pH7"), a unit or numbered thing ("cm3", "log2", "Table1") or an
    identifier in code ("fit1 <- mppm(", "~str4", :func:`_code_like`) is refused."""
    found: list[Marker] = []
    for match in _SUPER.finditer(text):
        word = match.group("word")
        if not match.group("punct") and _code_like(text, match.start(), match.end()):
            continue
        stem = word.rsplit("-", 1)[-1]  # "C-terminus5": the word the number follows
        plural = re.fullmatch(r"[A-Z]{2,}s", stem) is not None  # "OBPs17–21": an acronym's plural
        numbers = numbers_in(match.group("list"))
        # a list of two or more numbers is no name's part: "MgO20,21", "Sn11–17", "so on23–25"
        # cite; an acronym in capitals keeps its numbers ("TLR2,4", "CD4,8": TLR2 and TLR4)
        listed = numbers is not None and len(numbers) >= 2 and len(stem) >= 2 and not stem.isupper()
        if word != "al" and not plural and not listed and (len(stem) < 3 or any(char.isupper() for char in stem[1:])):
            continue
        if numbers is None or (stem.lower() in NOT_SUPER_WORDS and re.fullmatch(r"\d+", match.group("list"))):
            continue  # "Group2" names a group; "group4,6" cites two entries
        if match.group("punct") == "." and match.end() < len(text) and not re.match(r"\s+[A-Z(\[]|\s*$", text[match.end() :]):
            continue  # "shown.12 Next" ends a sentence; "ver.2 of" does not
        start = match.start("list") if not match.group("punct") else match.start("punct") + 1
        found.append(Marker(start, match.end(), numbers=numbers))
    return found


_PAREN_SUPER = re.compile(
    rf"(?=\d)(?:(?<=[^\W\d_])|(?<=[^\W\d_][.,;:]))(?P<list>\d{{1,3}}\)?(?:\s?[{_DASH},]\s?\d{{1,3}}\)?)*)(?<=\))(?![\w(])"
)


#: how far back an open parenthesis is looked for before a number closed by one
_OPEN_WINDOW = 300


def _inside_parentheses(text: str, position: int) -> bool:
    """Whether ``position`` lies inside a parenthesis opened (and not closed) within
    :data:`_OPEN_WINDOW` characters before it."""
    depth = 0
    for char in reversed(text[max(0, position - _OPEN_WINDOW) : position]):
        if char == ")":
            depth += 1
        elif char == "(":
            if depth == 0:
                return True
            depth -= 1
    return False


def paren_superscripts(text: str) -> list[Marker]:
    """Superscript numbers closed by a parenthesis, as Japanese physics journals print them:
    "for details.2, 3)", "JPSJ.4)", "this sentence.1), 3)–5)". Glued to the word or the point
    before; a number inside parentheses of its own ("(H2)", "f(x1)", "(2)") is no marker. The
    numbers such a paper names in its sentences ("Ref. 3)") are :func:`named_references`'."""
    found: list[Marker] = []
    if ")" not in text:
        return found
    for match in _PAREN_SUPER.finditer(text):
        start = match.start("list")
        if _inside_parentheses(text, start):
            continue  # the parenthesis closes one opened before: "(ISSR A12)", "(Arg97, Tyr355)", "f(x1)"
        numbers = numbers_in(match.group("list").replace(")", ""))
        if numbers is not None:
            found.append(Marker(start, match.end(), numbers=numbers))
    return found


#: a name that ends in a digit, as genes, proteins and strains are named ("AaegOBP1", "BL21")
_NUMBERED_NAME = re.compile(r"(?<![\w\-])[A-Za-z][A-Za-z0-9\-]*+(?<=\d)(?![\w\-])")
_GLUED_TO_NAME = re.compile(
    rf"(?<![\w\-])(?P<token>[A-Za-z][A-Za-z0-9\-]*+(?<=\d))(?P<more>(?:,\d{{1,3}}(?:[{_DASH}]\d{{1,3}})?)*)(?![\w\-])(?![.,]\d)"
)


def numbered_names(texts: list[str]) -> dict[str, int]:
    """How often a paper prints each name that ends in a digit ("AaegOBP1": 40), for
    :func:`glued_to_names`."""
    counts: dict[str, int] = {}
    for text in texts:
        for match in _NUMBERED_NAME.finditer(text):
            counts[match.group()] = counts.get(match.group(), 0) + 1
    return counts


#: a name is known when printed on its own this often
_KNOWN_NAME = 2


def glued_to_names(text: str, names: dict[str, int]) -> list[Marker]:
    """Superscript numbers set right after a name that itself ends in a digit: "AaegOBP131" is
    "AaegOBP1" (printed so elsewhere in the paper, :data:`_KNOWN_NAME` times) cited with 31.
    A token printed more than once is a name of its own ("AaegOBP12", another gene), as is one
    with a hyphen after ("CquiOBP1-MOP"); the longest known name wins, and the marker does not
    start with a zero."""
    found: list[Marker] = []
    for match in _GLUED_TO_NAME.finditer(text):
        token = match.group("token")
        if names.get(token, 0) > 1:
            continue
        for cut in range(len(token) - 1, 0, -1):
            if names.get(token[:cut], 0) >= _KNOWN_NAME and token[cut:].isdigit() and token[cut] != "0":
                numbers = numbers_in(token[cut:] + match.group("more"))
                if numbers is not None:
                    found.append(Marker(match.start("token") + cut, match.end(), numbers=numbers))
                break
    return found


# ----------------------------------------------------------------------------- letter labels

#: a label of BibTeX's alpha styles, as the list prints it before an entry and the text cites it:
#: "Knu84", "DHK+ 99", "And08a", "vdA16", "Wig" (a work without a year)
LETTER_LABEL = r"[A-Za-z][A-Za-z\-.]{0,9}(?:\s?\+?\s?\d{2,4}[a-z]?|\+)?"
_LETTER_GROUP = re.compile(rf"\[(?P<list>{LETTER_LABEL}(?:\s*[,;]\s*{LETTER_LABEL})*)(?P<locator>\s*,\s*[^\[\]]{{1,30}})?\]")


def label_key(label: str) -> str:
    """A letter label without its spaces ("DHK+ 99" and "DHK+99" are one label)."""
    return re.sub(r"\s+", "", label)


def letter_labels(text: str) -> list[Marker]:
    """Letter labels in brackets, as alpha styles cite: "[SDKW98]", "[DHK+ 99]", "[And08a, Kei96]",
    "[Knu84, p. 3]". Only labels the list prints resolve, so a bracket of words ("[sic]") names
    nothing."""
    found: list[Marker] = []
    for match in _LETTER_GROUP.finditer(text):
        labels = [label_key(label) for label in re.split(r"\s*[,;]\s*", match.group("list"))]
        found.append(Marker(match.start(), match.end(), labels=labels))
    return found


# ----------------------------------------------------------------------------- author-year

_PARTICLE = r"(?:(?:[vV]an|[vV]on|[dD]e|[dD]er|[dD]en|[dD]el|[dD]ella|[dD]i|[dD]a|[dD]u|[dD]os|[lL]e|[lL]a|[tT]er|[tT]en)\s+)"
_NAME = rf"{_PARTICLE}*[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:[-'’][A-ZÀ-ÖØ-Þ]?[^\W\d_]+)*"
_NAMES = rf"{_NAME}(?:,?\s+et\s+al\.?|(?:\s*,\s*{_NAME})*,?\s+(?:and|&)\s+{_NAME})?"
_YEAR = r"(?:1[6-9]\d\d|20\d\d)[a-z]?"
_YEARS = rf"{_YEAR}(?:\s*,\s*(?:{_YEAR}|[a-z](?![\w.])))*"
_PAGE = r"(?:\s*,?\s*(?:p|pp|pg|chap|ch)\.\s*\d+(?:\s*[-–]\s*\d+)?|\s*:\s*\d+(?:\s*[-–]\s*\d+)?)?"
_NARRATIVE = re.compile(rf"(?<![\w.])(?P<names>{_NAMES})(?:['’]s)?\s*(?P<open>[(\[])(?P<years>{_YEARS}){_PAGE}\s*[)\]]")
_ITEM = re.compile(rf"(?:^|(?<=[\s,;(]))(?P<names>{_NAMES})(?:\s?,)?\s+(?P<years>{_YEARS}){_PAGE}\s*$")
_ONLY_YEARS = re.compile(rf"^\s*(?P<years>{_YEARS}){_PAGE}\s*$")
_GROUP = re.compile(r"\((?P<inner>[^()]{4,600})\)|\[(?P<binner>[^\[\]]{4,600})\]")
#: a parenthetical citation printed without its parentheses, or inside words of the sentence's
#: own: "parameters from Loefer & Sedberry, 2003 (R. terraenovae)", "(see Ulrich et al., 2007 for …)";
#: without its comma only inside parentheses, where natbib's \citealt and \citealp set it so
#: ("(for example, the test of Sham and Curtis 1995 is …)", "(Firth 2010, version 0.8-5 or later)")
_BARE = re.compile(rf"(?<![\w.])(?=[^\W\d_]{{2}})(?P<names>{_NAMES})(?P<comma>,)?\s+(?P<years>{_YEARS}){_PAGE}(?![\w.]\w)")
_NOT_NAMES = {"figure", "fig", "figs", "table", "tables", "eq", "equation", "section", "appendix", "see", "in", "since", "until",
              "from", "between", "january", "february", "march", "april", "may", "june", "july", "august", "september",
              "october", "november", "december", "spring", "summer", "autumn", "winter", "fall", "the", "and", "or"}  # fmt: skip


def _names(printed: str) -> tuple[tuple[str, ...], bool] | None:
    """The family names of a printed author list and whether "et al." ends it; a serial comma
    ("Jones, Baker, and Mark") and a possessive ("Beran’s (2003)") are no part of a name."""
    et_al = re.search(r",?\s+et\s+al\.?$", printed) is not None
    printed = re.sub(r",?\s+et\s+al\.?$", "", printed)
    parts = re.split(r"\s*,\s*(?:and\s+|&\s*)?|\s+and\s+|\s*&\s*", printed)
    names = tuple(re.sub(r"['’]s$", "", name.strip()) for name in parts if name.strip())
    if not names or names[0].lower() in _NOT_NAMES:
        return None
    return names, et_al


def _years(printed: str) -> list[tuple[int, str]]:
    """(year, letter) of "2019, 2020a" or "2019a, b" (the bare letter takes the year before it)."""
    years: list[tuple[int, str]] = []
    for part in re.split(r"\s*,\s*", printed.strip()):
        if re.fullmatch(r"[a-z]", part) and years:
            years.append((years[-1][0], part))
        elif part:
            years.append((int(part[:4]), part[4:]))
    return years


def _items(names: tuple[str, ...], et_al: bool, years: str) -> list[CitedName]:
    return [CitedName(names, et_al, year, letter) for year, letter in _years(years)]


def author_year(text: str) -> list[Marker]:
    """Author-year citations: narrative ("Smith et al. (2019)") first, then groups in
    parentheses or brackets whose ";"-separated items end in a name and a year."""
    found: list[Marker] = []
    taken: list[tuple[int, int]] = []
    for match in _NARRATIVE.finditer(text):
        parsed = _names(match.group("names"))
        if parsed is None:
            continue
        found.append(Marker(match.start(), match.end(), items=_items(*parsed, match.group("years"))))
        taken.append((match.start(), match.end()))
    for group in _GROUP.finditer(text):
        if any(start < group.end() and group.start() < end for start, end in taken):
            continue
        inner = group.group("inner") if group.group("inner") is not None else group.group("binner")
        items = _group_items(inner)
        if items:
            found.append(Marker(group.start(), group.end(), items=items))
            taken.append((group.start(), group.end()))
            continue
        # a group inside the group: "(previously 9+ years [Loefer & Sedberry, 2003])"
        offset = group.start() + 1
        for nested in _GROUP.finditer(inner):
            items = _group_items(nested.group("inner") if nested.group("inner") is not None else nested.group("binner"))
            if items:
                found.append(Marker(offset + nested.start(), offset + nested.end(), items=items))
                taken.append((offset + nested.start(), offset + nested.end()))
    for match in _BARE.finditer(text):
        parsed = _names(match.group("names"))
        if match.group("comma") is None and not _inside_parentheses(text, match.start()):
            continue  # "Windows 2000", "Vienna 2019" in running prose: a name and a year, no citation
        if parsed is not None and not any(start < match.end() and match.start() < end for start, end in taken):
            found.append(Marker(match.start(), match.end(), items=_items(*parsed, match.group("years"))))
    return sorted(found, key=lambda marker: marker.start)


def _group_items(inner: str) -> list[CitedName]:
    """The works a group in parentheses or brackets cites: its ";"-separated items that end in a
    name and a year, or in a year after such an item ("(Smith 2019; 2020)")."""
    items: list[CitedName] = []
    previous: tuple[tuple[str, ...], bool] | None = None
    for part in inner.split(";"):
        item = _ITEM.search(part)
        if item is not None:
            parsed = _names(item.group("names"))
            if parsed is not None:
                items += _items(*parsed, item.group("years"))
                previous = parsed
            continue
        only = _ONLY_YEARS.match(part)
        if only is not None and previous is not None:
            items += _items(*previous, only.group("years"))
    return items
