"""A line of authors' names read as the names it holds: :func:`split_names`.

The line is split at the marks after each name (``Cohan†∗ Sergey``, superscript characters too:
``Berg¹²``; in brackets, ``Wimmer(1,2)``, ``Smith[a]``; a number and a letter, ``Author1a``;
REVTeX's letter and parenthesis, ``Authorb)``; Greek letters, ``Loα``), at commas, Springer's middle
dots, Wiley's bars and ``and``. Degrees after a name (``Anna Berg PhD``, ``Carl Dahl, MD, MPH``,
``Carl Dahl MD MS``; two capitals that are surnames too, ``MA``, ``DO``, only after a name in lower
case) are no part of it, nor are a title (``Prof.``), an author's role in brackets (``(parser and
extensions)``) or said before it (``based on earlier versions written by``), PLOS's ``☯`` and lettered ``¤a`` or ORCID's badge set as text (``iD``). Names in
capitals are title-cased, their particles lower-cased (``DE``). What is left must read as a
person's name (:func:`_plausible_name`): two to six capitalised words, no report's kind
(``TECHNICAL REPORT``), no institution's word.

A group joined to the names as the last of them ("… on behalf of the ABC Study Group") is no
person's name: :func:`group_tail` parts it off, and :func:`group_name` tells a group's name, for
the byline's reader (:mod:`.authors`) to keep it as an author after the people.

Here, below :mod:`.authors` (where the names are looked for on the page) and
:mod:`.affiliations`, which both read names with it; it knows only the institutions' words
(:mod:`.institutions`).
"""

from __future__ import annotations

import re
import unicodedata

from paperpyramid.parsers.embedded.institutions import AFFILIATION

# (PLOS marks equal contributions with ☯ and a current address with ¤, lettered where there are
# several: "Anna Berg1☯¤a, Carl Dahl2☯¤b"; LaTeX's footnote symbols go on with ‖, and ACS's achemso
# keys affiliations with ∥ and ⊥ too: "Anna Berg,‡,∥ Carl Dahl,‡,⊥")
MARKS = "*†‡§¶#∗✉⁎$♦♠♣♥◇♢♡•☯¤‖∥⊥"


SPACING_ACCENTS = "´`¨˜ˆ¸˘ˇ˝˛"


# the small words inside a name: "van der Berg", "da Silva", "Maria e Silva", "bin Ahmad"
PARTICLES = {"van", "von", "de", "del", "della", "der", "den", "da", "do", "das", "dos", "du", "di", "e", "la", "le", "y"}
PARTICLES |= {"bin", "al", "el", "ten", "ter", "las", "los", "zu", "ibn"}


# (a report's or thesis's kind, set under the names where an article's byline ends: "Hans Example" /
# "TECHNICAL REPORT" / "IMM-REP-2000-19", "Working Paper", "Master's Thesis", "Author Manuscript"), or an
# article's type in a medical journal's banner, which may sit under the title ("Brief Communication",
# "Clinical Study", "Original Investigation", "Study Protocol", "Consensus Statement", "Policy Forum"), or a
# manual's kind, set over or under the names on a guide's cover ("User’s Guide", "User Manual", "Reference Manual")
_NOT_NAMES = re.compile(
    r"\b(universi\w*|institut\w*|departament\w*|department|abstract|introduction|keywords?|research|article|journal|open|access|review|email"
    r"|correspondence|address|website|homepage|phone|telephone|fax|P\.\s?O\.\s?Box"
    r"|report|technical|thesis|dissertation|preprint|manuscript|memorandum|(?:working|discussion|white)\s+paper"
    r"|communication|clinical|investigation|protocol|statement|guidelines?|forum|guide|manual|handbook|tutorial|documentation|librar(?:y|ies))\b",
    re.I,
)


def capitals(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(text.split()) >= 2 and bool(letters) and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)


# four capitals or more one by one: a letter-spaced line, as ACS sets its bylines in capitals
_SPACED_LETTERS = re.compile(r"(?<!\S)(?:[A-Z] ){3,}[A-Z](?!\S)")


def letters_closed_up(line: str) -> str:
    """A letter-spaced line of names in capitals as it is written: the text layer reads its words
    letter by letter, or in pieces of two, in places ("MAGGY F . L E N G K E , * , † BRUCE RA VE L , ‡"
    reads "MAGGY F. LENGKE, *, † BRUCE RAVEL, ‡"); an initial keeps its full stop and stands alone.
    A line with no run of four capitals set one by one is left as it is ("J R R TOLKIEN")."""
    if not _SPACED_LETTERS.search(line):
        return line
    tokens = line.split()
    words: list[str] = []
    pieces: list[str] = []
    for index, token in enumerate(tokens + [""]):  # "": the line's end closes the last run
        if re.fullmatch(r"[A-Z]{1,2}", token) and tokens[index + 1 : index + 2] != ["."]:
            pieces.append(token)
            continue
        closed = "".join(pieces)
        words += [closed] if len(pieces) >= 2 and len(closed) >= 3 else pieces
        pieces = []
        words.append(token)
    return re.sub(r"\s+(?=[.,])", "", " ".join(words).strip())


GROUP = re.compile(
    r"\b(?:committee|subcommittee|consortium|collaboration|collaborators|group|investigators|trialists|team|network|initiative"
    r"|editors|editorial board|task force)\b",
    re.I,
)


def group_name(part: str, kind: re.Pattern[str] = GROUP) -> str:
    """``part`` as a group's name, or empty where it names none: two to eight words, capitalised,
    naming a committee, consortium, collaboration, study group, investigators, team or editors
    (:data:`GROUP`), and no institution besides (an affiliation's "Department of …"), no
    person's marked name before it ("Carl Dahl2 the ABC Group"); what joins it to the names and
    a leading "the" ("on behalf of the"), and the marks after it (``Study Group*``,
    ``Investigators2,3``) are not part of the name, its own digits are ("COVID-19 Study Group")."""
    if re.search(rf"[a-zß-ÿ][\d{MARKS}]+\s", part):
        return ""
    name = re.sub(rf"^\s*(?:(?:and|&|for|on behalf of)\s+)?(?:the\s+)?|[{MARKS}]+|[\d,\s]+$", " ", part, flags=re.I)
    name = " ".join(name.split()).strip(" .")
    if re.search(r"[,;&]|\band\b", name, re.I) or not 2 <= len(name.split()) <= 8:
        return ""
    if not name[:1].isalpha() or name.islower() or not kind.search(name) or AFFILIATION.search(kind.sub("", name)):
        return ""
    return name


#: what joins a group to the names before it: "& TUGboat editors", "…, and the ABC Study Group",
#: "; for the XYZ Investigators", "on behalf of the …", or a comma alone ("…, the ABC Study Group¶": PLOS)
_JOINER = re.compile(r"(?:[,;]\s*)?(?:\band\b|&|\bfor\b|\bon behalf of\b)\s*|[,;]\s*", re.I)


def group_tail(text: str) -> tuple[str, str]:
    """``text`` parted before a group joined to it as its last part: the names before it and the
    group's name (:func:`group_name`); ``(text, "")`` where it ends in none. Medical journals print
    a byline's group so ("Anna Berg1 and Carl Dahl2 on behalf of the ABC Study Group"), which
    JATS gives as a ``<collab>`` after the people. The joiner follows a person's name or opens
    the text, not an institution's words ("Research and Development Group", "Department of
    Medicine, ABC Study Group"). The last joiner whose tail is one group wins, so that a group's
    own "for" stays in its name ("ABC Study Group for Heart Failure")."""
    if not GROUP.search(re.sub(rf"[\d{MARKS}]", " ", text)):  # "Group3"
        return text, ""
    for match in reversed(list(_JOINER.finditer(text))):
        group = group_name(text[match.end() :])
        before = text[: match.start()].rstrip(f" ,;0123456789{MARKS}")
        if group and (not before or len(split_names(re.split(r"[,;&]|\band\b", before)[-1])) == 1):
            return before, group
    return text, ""


# what joins the names on a line and the letter marks after them (REVTeX's "A. Authorb) and B. Authorc)"):
# no letters of a text that would tell it from names
_JOINERS = re.compile(r"\b(?:and|AND)\b|(?<=[^\W\d_])[a-z]\)")


def mostly_names(content: str) -> bool:
    """Whether ``content`` is names, the words that join them, their marks and degrees aside: four
    fifths of its letters are the names' (:func:`split_names`)."""
    names = split_names(content)
    letters = sum(ch.isalpha() for ch in _JOINERS.sub(" ", DEGREE_WORD.sub(" ", content)))
    return bool(names) and sum(ch.isalpha() for name in names for ch in name) >= 0.8 * letters


# an author's part in the work, in brackets of lower-case words after the name (a manual's
# "Jeffrey Mark Siskind (tree drawing and core package)"): no name, and its "and" parts none
_ROLE = re.compile(r"(?<=[^\W\d_])\s*\((?=[a-z])[^()@\d]{3,60}\)")


# the label a manuscript (a preprint server's Word file, a medical journal's title page) sets before the names, and
# a manual's roles before groups of them ("Current Programmers: Anna Berg1, Carl Dahl2 Former Programmers: Eva Lund"),
# within a line only after a name's mark (a word before it may be the label's: "Carl Dahl Package developers: …");
# not a maintainer's, who is one of the names above ("Anna Berg, Carl Dahl" / "Maintainer: Anna Berg")
_LABEL = re.compile(
    rf"(?:^|(?<=[,;])|(?<=[\d{MARKS}]\s))\s*(?:authors?|author\s?\(s\)|authors?['’]?\s+names?|author\s+list"
    r"|(?:(?:current|former|original|lead|main|other)\s+)?(?:programmers|developers|contributors))\s*:\s*",
    re.I,
)


#: an author's part in the work, said in words before the name and closed by "by" ("based on earlier versions
#: written by Yu-Sung Su", "translated by Carl Dahl", "the German version by Eva Lund"): a phrase, for a word
#: of it is in lower case, as no name's is; the name after it is the author's
_ROLE_BY = re.compile(r"^(?P<role>(?:\S+\s+){1,8}?)by\s+(?=[A-Z])")


def _without_role(part: str) -> str:
    """``part`` without the role said before its name (:data:`_ROLE_BY`), where a word of it is in lower
    case and the capitalised words it opens with are no name: "Anna Berg supervised by Carl Dahl" names
    two people, and which is the author the line does not say, so it is left as it is."""
    role = _ROLE_BY.match(part)
    if role is None or not re.search(r"(?<!\S)[a-z]", role.group("role")):
        return part
    opening = re.match(r"(?:[A-Z][\w.'’-]*\s+)+", role.group("role"))
    return part if opening and _plausible_name(opening.group(0)) else part[role.end() :]


def split_names(text: str, *, as_printed: bool = False) -> list[str]:
    text = text.replace("\u2011", "-").replace("\u2010", "-")  # non-breaking hyphens: Li‑Zhi
    text = text.translate(_SUPERSCRIPTS)  # a word processor's marks as superscript characters: "Anna Berg¹²"
    text = re.split(r",?\s*\bwith (?:an? )?(?:appendix|appendices|afterword|foreword)\b", text, flags=re.I)[0]  # Annals' byline
    text = re.sub(r"^[\s,;]*by\s+", "", text, flags=re.I)  # a byline (R Journal, R News), after the zone's joining comma too
    text = _LABEL.sub(", ", text)  # a manuscript's label before the names: "Authors: Anna Berg1, Carl Dahl2"
    text = _ROLE.sub(",", text)  # what each author did, in brackets after the name, closes it: "(parser and extensions)"
    text = group_tail(text)[0]  # a group after the names is no person: "Carl Dahl on behalf of the ABC Group"
    text = re.sub(r"(?<=[^\W\d_])\[[^\]\s]{1,3}\]", "†", text)  # a mark in brackets: "Author Name[s]", "Smith[a]"
    text = re.sub(r"(?<=[^\W\d_])\((\d{1,2}(?:,\d{1,2})*)\)", r"\1", text)  # numbers in brackets: "Wimmer(1,2)", "Berg(1)"
    text = re.sub(r"¤[a-h](?![^\W\d_])", "¤", text)  # PLOS's lettered current addresses: "Dahl2☯¤a"
    text = re.sub(r"\b([A-Z])\.(?=[A-Z][a-zß-ÿ])", r"\1. ", text)  # an initial set close: B.Benciolini
    text = re.sub(r"(?<=[^\W\d_])(\d[\d,]*)[a-z]{1,2}(?=[\s,;]|$)", r"\1", text)  # a number and a letter as marks: Author1a
    # a letter's mark after a surname in capitals ("Anna BERGa", "Kai WUb"), not a degree's ("DSc", "MSc")
    text = _CAPITALS_LETTER.sub(lambda match: f"{match.group(1)}†" if match.group(1).isupper() else match.group(), text)
    # letters after the comma (ACS, AIP): "Berg,a Carl", a space before them too: "Berg, PhD, d Carl"
    text = re.sub(r"(?<=[^\W\d_]),\s?((?:[a-h],)*[a-h])(?=\s+[A-Z])", ",† ", text)
    # a letter's mark after a degree ("Anna Berg, PhDa", "Carl Dahl MDb,c")
    text = re.sub(rf"\b(Ph\.?D|M\.?D|MPH|M\.?Sc|MSN|RN|MBBS|DrPH|PharmD)[a-h](?:,[a-h])*(?=[\s,;{MARKS}]|$)", r"\1†", text)
    if "(" not in text:  # a letter and a parenthesis as marks (REVTeX): "A. Authorb)", "Author,1, b)"
        text = re.sub(r"(?:(?<=[^\W\d_])|(?<=[\s,\d]))[a-z]\)(?=[\s,;]|$)", "†", text)
    text = re.sub(rf"(?<=[a-z])[α-ω]+(?=[\s,{MARKS}]|$)", "†", text)  # Greek letters as affiliation marks: Loα
    text = re.sub(rf"[{SPACING_ACCENTS}]\s?(?=[a-zß-ÿ])|[{SPACING_ACCENTS}]", "", text)
    text = re.sub(rf"(?<=[a-zß-ÿ])ID(?=[\s,;\d{MARKS}]|$)", "", text)  # an ORCID badge set as text after the name: ShiID1,2*
    text = re.sub(rf"(?<![^\W\d_])iD(?=[\s,;\d{MARKS}]|$)", " ", text)  # the badge as its logo spells it, apart: "Anna Berg iD 1"
    text = re.sub(rf"(?:(?<=[^\W\d_])|\s+)[\d,{MARKS}]*[{MARKS}\d][\d,{MARKS}]*(?=\s|$|,)", " ; ", text)
    names = []
    # Springer sets a middle dot between the names: "Anna Berg1 · Carl Dahl2", Wiley a bar: "Anna Berg1 | Carl Dahl2"
    for part in re.split(r"\s*(?:;|,|&|·|⋅|\||●|\band\b|\bAND\b|\{et al\.\})\s*", text):
        part = _without_role(part.strip())  # "based on earlier versions written by Yu-Sung Su": the name after the role
        name = re.sub(rf"[\d{MARKS}]+(?!(?:nd|rd|th)[a-h]?$)", " ", part)  # a suffix's digit stays: "Roach 3rd"
        name = re.sub(r"(?<=[^\W\d_]{2})\s+[a-h]\s*$", "", name)  # a letter mark read apart, after a degree too: "Berg MD d"
        bare = _without_degrees(name)
        if not bare.strip():
            continue  # degrees alone after a comma: "Carl Dahl, MD PhD"
        name = bare if len(bare.split()) >= 2 else name  # "Anna Berg PhD" (The Lancet), not a surname's initials "Berg MD"
        if " " not in name.strip():  # given and family name set without a space: BinwuXu, AnnaMcDonald; not a program's "PyCorrFit"
            name = re.sub(r"^([A-Z][a-zß-ÿ]+)(?=(?:Ma?c)?[A-Z][a-zß-ÿ'’]+(?:-[A-Z][a-zß-ÿ]+)?$)", r"\1 ", name.strip())
        name = re.sub(r"^(?:dr|prof|professor)\.?\s+", "", " ".join(name.split()), flags=re.I).strip(" .")
        name = re.sub(
            r"(?<=[^\W\d_])\s?[^\w\s.]+$", "", name
        )  # superscript marks as OCR reads them: Neuhann?, Duah", Laddomada |, Krishna®
        if _plausible_name(name):
            names.append(name)
    return names if as_printed else as_written(names)


def as_written(names: list[str]) -> list[str]:
    """Names as :func:`split_names` reads them (given names first, capitals undone) from ``split_names(..., as_printed=True)``."""
    return [" ".join(_uncapitalise(word) for word in name.split()) for name in given_names_first(names)]


#: a generation's suffix closing a name: after the given names of a name set surname first ("HARKEY H. L.
#: III"), or left after a name's letter mark is read off ("Driggers IIIb", "Roach 3rd")
GENERATION = re.compile(r"[IV]{2,3}|Jr\.?|[2-4](?:nd|rd|th)")


def given_names_first(names: list[str]) -> list[str]:
    """A byline set surname first, the surname in capitals ("ZHANG Wei, LI Na", "DUPONT Jean-Marc",
    "VAN DER BERG Anna", "LOGRIECO A. F.": Chinese, French, Hungarian and Russian journals print
    bylines so), with the given names first, as every other byline reads ("Wei Zhang"). Only where
    every name is set so, with a vowel in each of its surname's words, and one surname reads as no
    initials (:func:`_not_initials`): capitals before a name are its initials where none does
    ("JA Smith", "KL Jones", "AJE Smith", as British and Indian journals print bylines)."""
    split = [_surname_first(name) for name in names]
    if not names or any(parts is None for parts in split):
        return names
    surnames = [parts[0] for parts in split if parts is not None]
    if not any(_not_initials(word) for surname in surnames for word in surname.split()):
        return names
    # an initial that closed the name lost its full stop with the name's end: "JOSHI Mandar S." reads "Mandar S. Joshi"
    return [
        " ".join(part for part in (re.sub(r"(?<!\S)([A-Z])$", r"\1.", given), surname, suffix) if part)
        for surname, given, suffix in filter(None, split)
    ]


def _not_initials(word: str) -> bool:
    """Whether a word in capitals before a name is a surname rather than the name's initials: four
    letters or more ("ZHANG", "SOUZA"), or three with a vowel after the first, as short surnames
    are spoken ("LIU", "KIM", "LEE"), or Pinyin's "ZH", "CH", "SH" before it ("SHI", "ZHU"); initials
    run to three and seldom so ("AJE", "MRB")."""
    letters = _folded(word)
    return len(letters) >= 4 or (len(letters) == 3 and (letters[1] in "AEIOUY" or letters[:2] in ("ZH", "CH", "SH")))


def _surname_first(name: str) -> tuple[str, str, str] | None:
    """(surname, given names, suffix) of a name set surname first in capitals, else None: the leading
    words in capitals (no initials), each with a vowel, then given names written in lower case or as
    initials, and particles, no word in capitals save a generation's suffix at the end."""
    words = name.split()
    count = next((i for i, word in enumerate(words) if not (word.isupper() and "." not in word and len(word) > 1)), len(words))
    suffix = words[-1] if len(words) > count + 1 and GENERATION.fullmatch(words[-1]) else ""
    given = words[count : len(words) - 1 if suffix else None]
    if not count or not given or not all(_VOWEL.search(_folded(word)) for word in words[:count]):
        return None
    if not all(_INITIALS.fullmatch(word) or word in PARTICLES or _written_in_lower_case(word) for word in given):
        return None
    return " ".join(words[:count]), " ".join(given), suffix


_VOWEL = re.compile(r"[AEIOUY]")
_INITIALS = re.compile(r"[A-Z]\.(?:-?[A-Z]\.)*|[A-Z]")


def _folded(word: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))


def _written_in_lower_case(word: str) -> bool:
    """A given name as written, each of its parts capitalised or not after the first ("Jean-Marc",
    "Ai-wu"), never a capital after its first letter ("McDONALD")."""
    parts = re.split(r"[-'’]", word)
    return parts[0][:1].isupper() and all(part and not any(ch.isupper() for ch in part[1:]) for part in parts)


# the degrees of two capitals and a small letter, which a surname in capitals with its letter mark would read as
_LETTERED_DEGREES = "[BDM]Sc"
# a word and a small letter after it, a surname in capitals and its letter mark where the word is in capitals
# (accented ones too: "Zsolt MOLNÁRc", "Erik V. STÅLBERGb")
_CAPITALS_LETTER = re.compile(rf"\b(?!{_LETTERED_DEGREES}\b)([^\W\d_][^\W\d_'’-]*[^\W\d_'’-])[a-h](?=[\s,;{MARKS}]|$)")
# superscript digits as digits (marks, then, as a name's digits are), superscript letters as a mark
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789") | str.maketrans(dict.fromkeys("ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ", "†"))
# academic degrees after a name, as medical journals print them ("Anna Berg PhD, Carl Dahl MD", "Eva Lund M.D.")
_DEGREE = (
    r"(?:(?i:Ph\.?\s?D)|M\.\s?D|MD|MPH|M\.?Sc|B\.?Sc|MPhil|DPhil|DrPH|Dr\.?\s?med|MBBS|MBChB|FRCPC?|FRCS|FACP|FRACP|MRCP|RN|DVM|Sc\.?D"
    r"|PharmD|DDS|DMD|MSPH|MHS|MBA|MSN|BSN|PhD\(c\)|D\.?Sc|FRCP[A-Z]*|FAAP|FACC|FACS|FAHA|FESC|EdD|PsyD|MSW|LCSW|APRN|DNP|FNP|MMed"
    r"|MSCE|MSCR|MClinEpi|BPharm|MPharm|BDS|MDS|PA-C|MHSc|MRes)\.?"
)
_DEGREES = re.compile(rf"(?:(?:^|\s+){_DEGREE}(?=\s|$))+\s*$")
#: a degree anywhere on a line of names, its marks after it ("Ryan Kiros, RN, MSN 1, Eva Lund, PhD 2")
DEGREE_WORD = re.compile(rf"(?<![\w.]){_DEGREE}(?![^\W\d_])")
# degrees of two capitals that are surnames too ("Lan MA", "Anh DO"): only after a name written in
# lower case ("Carl Dahl DO", "Eva Lund MA, MS"), never in a byline set in capitals
_SHORT_DEGREES = re.compile(r"(?:\s+(?:MS|MA|BS|BA|DO|NP|RD)\.?)+\s*$")


def _without_degrees(name: str) -> str:
    """``name`` without the degrees after it, in any order ("Carl Dahl MD MS", "Eva Lund MS MD")."""
    while True:
        bare = _DEGREES.sub("", name)
        bare = _SHORT_DEGREES.sub("", bare) if re.search(r"[a-z]", bare) else bare
        if bare == name:
            return bare
        name = bare


def _uncapitalise(word: str) -> str:
    """A name set in capitals as it is written: DOUGLAS -> Douglas, DE -> de; III and initials stay."""
    if not word.isupper() or "." in word or re.fullmatch(r"[IVX]+", word):
        return word
    if len(word) == 1:
        return word  # an initial without its full stop: "JOHN E SMITH"
    return word.lower() if word.lower() in PARTICLES else word.title()


# a generation's suffix closing the name, as an ordinal: "Roach 3rd", a letter mark glued to it ("3rdb")
_SUFFIX = r"[2-4](?:nd|rd|th)[a-h]?"


def _plausible_name(name: str) -> bool:
    words = name.split()
    if not 2 <= len(words) <= 6 or _NOT_NAMES.search(name) or re.search(r"[:/()@]", name) or words[0] == "The":
        return False
    if not all(word[:1].isupper() or word.lower() in PARTICLES for word in words[: -1 if re.fullmatch(_SUFFIX, words[-1]) else None]):
        return False
    return any(len(word.strip(".")) > 1 for word in words)
