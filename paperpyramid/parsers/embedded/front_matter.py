"""A paper's bibliographic fields from every source the PDF has: title, authors, DOI, journal, date.

- **title**: the largest type on the first page, with the lines in the same type just below it
  (titles wrap over several blocks; a block beside them, as authors in a margin column, does not
  end them); without one, bold capitals at the top of page 1 (amsart), else a bold block centred
  near the top (JPSJ, AASTeX); a footnote's letter mark after it (REVTeX's ``a)``) is dropped;
  the Info or XMP title where the page gives none, or where the page's is a cut-off start of it.
- **authors**: the blocks between the title and the affiliations, abstract or first heading,
  fragments on one line joined (publishers set each name and its marks apart), split at the
  marks after each name (``Cohan†∗ Sergey``), commas, ``and`` and a line break between two
  whole names; names in capitals are title-cased. Authors set over their affiliations in
  boxes side by side are read box by box (:func:`_author_zone`); names and affiliations set in
  turn are all read; names that open an affiliation's line are read (JACoW, ACM journals); a
  line the running heads repeat is read where it holds names only (amsart). An address is
  known by its institution, postcode or country; the front matter's labelled fields
  (nomenclature, CCS concepts, key words) end the names. The Info or XMP author list wins
  where it names more people.
- **DOI**: the first on the first two pages (running heads included), the XMP's, the Info
  subject's; of two versions of one DOI printed together (F1000: ``….4767.1`` first
  published, ``….4767.2`` latest), the latest.
- **journal and year**: the citation line publishers print in running heads, footers,
  mastheads and "Cite this article" boxes, read from :func:`citation_lines` by
  :func:`.journal.find_journal` (see there); XMP's ``prism:publicationName``; an Info or XMP
  description (or a word processor's title field) written as a citation.
- **date**: "Published" (the latest, for a paper with versions) before "published online",
  before "Accepted", which is not a publication date; else the journal line's date or year
  (without one, the first page's arXiv stamp, copyright line or date line: :mod:`.journal`),
  else the XMP's date.
"""

from __future__ import annotations

import re
import unicodedata

from paperpyramid.document import Author
from paperpyramid.parsers.embedded import blocks as blk
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.journal import CUE, DATE
from paperpyramid.parsers.embedded.journal import find_journal as find_journal  # the parser reads it here
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.scripts import unspaced

# a DOI may wrap after a full stop: "doi:10.1371/journal.pone.\n0115884"
DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>,;]+?(?:\.\s(?=\d)[^\s\"<>,;]+)?)(?=[\s\"<>,;]|[.)\]](?:\s|$)|$)")
_DATED = re.compile(
    rf"\b(?P<kind>latest published|first published|published online|published|accepted|date of publication)\s*:?\s*(?P<date>{DATE})", re.I
)
_DATE_RANK = {"latest published": 0, "date of publication": 1, "published": 1, "published online": 2, "first published": 3, "accepted": 4}
_MARKS = "*†‡§¶#∗✉⁎$♦♠♣♥◇♢♡•"
_SPACING_ACCENTS = "´`¨˜ˆ¸˘ˇ˝˛"
_AFFILIATION = re.compile(
    r"\b(universit|institut|departament|department|dept\b|school|college|laborator|hospital|centre|center|faculty|division|academy|corporation|clinic|ministry|group"
    r"|ltd\b|pvt\b|inc\b|gmbh\b|llc\b|r&d\b|company|foundation|industrial area|road\b|street\b|avenue\b)",
    re.I,
)
# more institutions, in the names' zone only (a numbered heading may begin "Association of …, …")
_INSTITUTION = re.compile(r"\b(consortium|council|society|agency|organi[sz]ation|association|observatory|museum)", re.I)
# a postal address: a postcode or street number of four to six digits (not an ORCID's groups), or
# a country closing the line after a comma ("…, 1043 NX Amsterdam, The Netherlands")
_ADDRESS = re.compile(
    r"(?<![\d-])\d{4,6}(?![\d-]).*,|,.*(?<![\d-])\d{4,6}(?![\d-])|,\s*(?:the\s+)?(?:USA|U\.S\.A\.|UK|U\.K\.|United States|United Kingdom|China|Japan|Germany"
    r"|France|India|Italy|Spain|Canada|Australia|Brazil|Netherlands|Switzerland|Sweden|Norway|Denmark|Finland|Austria|Belgium|Iceland"
    r"|Ireland|Israel|(?:South |Republic of )?Korea|Russia|Poland|Portugal|Greece|Turkey|Iran|Mexico|Argentina|Chile|Singapore|Taiwan"
    r"|Hong Kong|New Zealand|South Africa|Egypt|Nigeria|Kenya|Pakistan|Bangladesh|Thailand|Malaysia|Indonesia|Vietnam|Czech Republic"
    r"|Hungary|Romania|Ukraine|Saudi Arabia)\.?;?\s*$"
)
# the front matter's labelled fields after the names, where no "Abstract" heading comes first
_FRONT_LABEL = re.compile(
    r"^(?:nomenclature|ccs concepts|additional key words|acm reference format|index terms|(?:table of )?contents|key ?words"
    r"|mathematics subject classification|msc\s?\d*|pacs|jel)\b",
    re.I,
)
_PARTICLES = {"van", "von", "de", "del", "della", "der", "den", "da", "dos", "du", "di", "la", "le", "y", "bin", "al", "el", "ten", "ter"}
_NOT_NAMES = re.compile(
    r"\b(universi\w*|institut\w*|departament\w*|department|abstract|introduction|keywords?|research|article|journal|open|access|review|email"
    r"|correspondence|address|website|homepage|phone|telephone|fax|P\.\s?O\.\s?Box)\b",
    re.I,
)


def affiliation_like(text: str) -> bool:
    """Whether ``text`` reads as an affiliation: an institution word and an address's commas."""
    return bool(_AFFILIATION.search(text)) and text.count(",") >= 1


def find_title(blocks: list[Block], pages: list[Page], body_size: float) -> list[int]:
    """The blocks of the printed title, in order; empty when the first page shows none."""
    best: int | None = None
    for index, block in enumerate(blocks):
        if block.page != 1:
            break
        if not _title_like(block, pages[0]):
            continue
        if best is None or block.size > blocks[best].size + 0.2:
            best = index
    if best is not None and blocks[best].size < body_size + 1:
        best = None
    if best is None:  # amsart: the title in bold capitals at body size
        best = next((i for i, b in enumerate(blocks) if b.page == 1 and b.bold and _title_like(b, pages[0]) and _capitals(b.text)), None)
    if best is None:  # a title in bold at about body size, centred over the page (JPSJ, AASTeX, ASME)
        best = next(
            (i for i, b in enumerate(blocks) if b.page == 1 and b.bold and _title_like(b, pages[0]) and _centred(b, pages[0])), None
        )
    if best is None:
        return []
    by_weight = blocks[best].size < body_size + 1  # found by its bold type, which then ends it too
    members = [best]
    for index in range(best + 1, min(best + 6, len(blocks))):
        block, previous = blocks[index], blocks[members[-1]]
        if block.page == 1 and (block.x1 <= previous.x0 or block.x0 >= previous.x1):
            continue  # a block beside the title (the authors in a margin column) does not end it
        if block.page != 1 or abs(block.size - previous.size) > 0.6 or block.kind in ("caption", "formula", "furniture", "aside"):
            break
        if by_weight and not block.bold:
            break
        if block.top - previous.bottom > 1.2 * previous.size or len(" ".join(blocks[i].text for i in members)) + len(block.text) > 400:
            break
        members.append(index)
    return members


def _title_like(block: Block, first_page: Page) -> bool:
    text = block.text.strip()
    if block.kind in ("caption", "formula", "furniture", "aside") or not 8 <= len(text) <= 300:
        return False
    if block.top > first_page.height * 0.6 or not re.search(r"[^\W\d_]{3}", text):  # letters of any script
        return False
    return text.lower().strip(" .:") not in blk.KNOWN_HEADINGS and plausible_title(text)


def _centred(block: Block, page: Page) -> bool:
    """Set in the top two fifths of the page, centred on it, and narrower than the text width."""
    middle = (block.x0 + block.x1) / 2
    return block.top < 0.4 * page.height and abs(middle - page.width / 2) < 0.04 * page.width and block.x1 - block.x0 < 0.8 * page.width


def _capitals(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(text.split()) >= 2 and bool(letters) and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)


_GENERIC_TITLES = {
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
}


def plausible_title(text: str) -> bool:
    """Not a file name, a word processor's placeholder or a generic article type."""
    text = text.strip()
    lowered = text.lower()
    # a Chinese or Japanese title has no spaces: its characters count as its words
    if (len(text.split()) < 3 and sum(1 for ch in text if unspaced(ch)) < 6) or lowered in _GENERIC_TITLES:
        return False
    return not re.search(r"microsoft word|\.(pdf|docx?|dvi|tex)$|^untitled|^\S+ \d+\.\.\d+$|^file:", lowered)


def title_text(blocks: list[Block], members: list[int], metadata: dict[str, str]) -> str | None:
    """The title printed in ``members``, or the metadata's where the page's is missing or cut off."""
    printed = blk.join_lines([line.text for index in members for line in blocks[index].lines]) if members else ""
    printed = re.sub(r"\s*\[v\d+;\s*ref status:[^\]]*\]\s*$", "", printed).strip()  # F1000's version stamp
    if "(" not in printed:  # a footnote's letter mark set after the last word (REVTeX: "Linebreak" + "a)")
        printed = re.sub(r"(?<=[^\W\d_]{3})[a-z]\)$", "", printed)
    stored = next((metadata[key].strip() for key in ("Title", "xmp:title") if plausible_title(metadata.get(key, ""))), "")
    if not printed:
        return stored or None
    if stored and len(_fold(stored)) > len(_fold(printed)) and _fold(stored).startswith(_fold(printed)):
        return stored
    return printed


def _fold(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def find_authors(blocks: list[Block], title_end: int, metadata: dict[str, str]) -> list[Author]:
    """The names printed under the title; the metadata's list where it names more people."""
    printed = _split_names(_author_zone(blocks, title_end)) if title_end >= 0 else []
    for key in ("Author", "xmp:creators"):
        value = metadata.get(key, "")
        if "et al" in value.lower():
            continue
        listed = _split_names(value)
        if len(listed) > len(printed) and (len(listed) >= 2 or not printed):
            printed = listed
    return [Author(name=name) for name in printed]


def _author_zone(blocks: list[Block], title_end: int) -> str:
    """The names under the title as one text, read block by block up to the abstract, the first
    heading or the affiliations after the names.

    Running heads and the publisher's boxes beside the title (page furniture) are not read. An author set over an affiliation in
    one block (conference styles: ``Diptodip Deb`` / ``Georgia Institute of Technology``) gives
    the lines above it, and such boxes set side by side across the page are all read, though
    the reading order reaches the right-hand one after the abstract. A block on the row of an
    affiliation (``Facebook AI`` beside ``†University of Washington``) is one too. A block that
    opens with a mark (``1 Department …``) is an affiliation, unless it is the first under the
    title and holds names only (``1Taofik Mohammed IBRAHIM``).
    """
    title = blocks[title_end]
    window = [
        index
        for index in range(title_end + 1, min(title_end + 24, len(blocks)))
        if blocks[index].page == title.page and (blocks[index].kind != "furniture" or _names_only(blocks[index], title))
    ]
    # an affiliation's row; not one that goes on from a name on its line (ACM: "BEN TROVATO" + ", Institute …")
    rows = [
        blocks[i].top for i in window if _affiliation_line(blocks[i].lines[0].text.strip()) and not blocks[i].text.lstrip().startswith(",")
    ]
    text = ""
    previous: Block | None = None
    stop: Block | None = None
    read: set[int] = set()
    names_size: float | None = None  # the type of the first names: later ones share it
    after_affiliation = False
    affiliations: list[Block] = []  # names after an affiliation come below it, not on its row in its column (JSS)
    for index in window:
        block = blocks[index]
        read.add(index)
        if block.top - title.bottom > 250:
            break
        plain = block.text.strip().lower().strip(" .:")
        if plain in blk.KNOWN_HEADINGS or plain.startswith(("abstract", "summary", "keywords", "background")) or _FRONT_LABEL.match(plain):
            stop = block
            break
        if any(other.x0 < block.x1 and block.x0 < other.x1 and block.top < other.bottom - 1 for other in affiliations):
            continue
        content = _names_over_affiliation(block)
        if not content:
            content = _names_text(block)
            beside = any(abs(block.top - row) < 3 for row in rows) and not _affiliation_line(block.lines[0].text.strip())
            if len(content) > 400:
                if text:
                    break
                continue
            if beside or _affiliation_block(content, first=previous is None):
                lead = "" if beside else _names_before_affiliation(block, names_size)
                if not lead:
                    after_affiliation = after_affiliation or bool(text)
                    affiliations += [block] if text else []
                    continue
                content = lead
            elif after_affiliation and content.startswith("(") and content.endswith(")"):
                continue  # a collaboration's name under its members: "(MUSO Collaboration)"
            elif after_affiliation and not _more_names(block, content, names_size):
                # names, affiliation, names (REVTeX, Elsevier, AIAA): a block in smaller type goes on with the affiliation
                if names_size is not None and block.size < names_size - 0.3 and len(content) < 200:
                    continue
                break
        if not content.strip(_MARKS + _SPACING_ACCENTS + "0123456789, "):
            continue  # a block of marks or accents alone
        same_line = previous is not None and abs(block.top - previous.top) < 3 and -2 < block.x0 - previous.x1 < 0.3 * block.size
        split_word = same_line and text[-1:].isalpha() and (content[:1].isalpha() or content[:1] in _SPACING_ACCENTS)
        text += "" if split_word else (" " if same_line else ", ")
        text += content
        previous = block
        names_size = block.size if names_size is None else names_size
    if stop is not None:  # the boxes beside, reached after the abstract in reading order
        for index in range(title_end + 1, len(blocks)):
            block = blocks[index]
            if index in read or block.page != title.page or block.kind == "furniture":
                continue
            names = _names_over_affiliation(block) if title.bottom < block.top < stop.top else ""
            text += f", {names}" if names else ""
    return text


def _affiliation_line(text: str) -> bool:
    return (
        "@" in text
        or bool(_AFFILIATION.search(text) or _INSTITUTION.search(text) or _ADDRESS.search(text))
        or bool(re.match(rf"^[\d{_MARKS}]\s*[A-Z][a-z]", text))
    )


def _affiliation_block(content: str, *, first: bool) -> bool:
    if "@" in content or _AFFILIATION.search(content) or _INSTITUTION.search(content) or _ADDRESS.search(content):
        return True
    if not re.match(rf"^[\d{_MARKS}]\s*[A-Z][a-z]", content):
        return False
    names = _split_names(content)  # a mark before the only name, directly under the title
    return not (first and names and len("".join(names).replace(" ", "")) >= 0.8 * sum(ch.isalpha() for ch in content))


def _names_only(block: Block, title: Block) -> bool:
    """Whether ``block``, under ``title``, holds names and their marks only (an amsart author
    line that the running heads repeat, so that it is taken for page furniture); not a box in
    the margin beside the title."""
    if not title.x0 <= (block.x0 + block.x1) / 2 <= title.x1:
        return False
    content = _names_text(block)
    if len(content) > 200 or _affiliation_block(content, first=False):
        return False
    return _mostly_names(content)


def _mostly_names(content: str) -> bool:
    names = _split_names(content)
    return bool(names) and sum(ch.isalpha() for name in names for ch in name) >= 0.8 * sum(ch.isalpha() for ch in content)


def _more_names(block: Block, content: str, names_size: float | None) -> bool:
    """Whether a block after an affiliation names more authors: short, names only, in the first names' type."""
    return names_size is not None and abs(block.size - names_size) <= 0.3 and len(content) < 200 and _mostly_names(content)


def _names_before_affiliation(block: Block, names_size: float | None) -> str:
    """The names that open an affiliation's lines ("A. N. Author, H. Coauthor, Name of Institute,
    City, Country"; ACM's "LARS THØRVÄLD, The Thørväld Group, Iceland"): the leading parts that
    are names, where a later part is an institution or an address. Once names were read, only
    names in the first names' type or set in capitals before the rest count."""
    found: list[str] = []
    alone: list[str] = []
    for line in block.lines:
        parts = [part.strip() for part in line.text.strip().lstrip(",").split(",")]
        capitals = _capitals(parts[0]) if parts else False
        lead: list[str] = []
        for part in parts:
            if _AFFILIATION.search(part) or _INSTITUTION.search(part) or (capitals and not _capitals(part)) or len(_split_names(part)) != 1:
                break
            lead.append(part)
        rest = ", ".join(parts[len(lead) :])
        if lead and not rest:
            alone += lead  # a line of names alone, among the lines that open with names: "P. Contributor"
            continue
        if not lead or not (_AFFILIATION.search(rest) or _INSTITUTION.search(rest) or _ADDRESS.search(", " + rest)):
            continue
        if names_size is not None and abs(line.size - names_size) > 0.3 and not (capitals and not _capitals(rest)):
            continue
        found += lead
    return ", ".join(found + alone) if found else ""


def _names_over_affiliation(block: Block) -> str:
    """The names of a block that sets them over their affiliation (and e-mail): the lines above
    the first affiliation line; empty unless the block is names, then affiliation."""
    texts = [line.text.strip() for line in block.lines]
    cut = next((i for i, text in enumerate(texts) if _affiliation_line(text)), 0)
    if cut == 0 or not all(_split_names(text) for text in texts[:cut]):
        return ""
    return ", ".join(texts[:cut])


_NAME_BREAK = re.compile(rf"[\d,;{_MARKS}]|\band\b|&")


def _names_text(block: Block) -> str:
    """A block of names as one line; a line break is a comma where it falls between two whole
    names, each of two words or more and set without a mark (``Nathan Dahlberg`` /
    ``Margo Schlanger♦``), not inside one name (``Hannah`` / ``M. McGee``)."""
    groups = [[block.lines[0].text.strip()]]
    for line in block.lines[1:]:
        text = line.text.strip()
        ending = _NAME_BREAK.split(groups[-1][-1])[-1].split()
        opening = _NAME_BREAK.split(text)[0].split()
        whole = groups[-1][-1][-1:].isalpha() and len(ending) >= 2 and len(opening) >= 2
        if whole and all(word[:1].isupper() or word in _PARTICLES for word in ending + opening):
            groups.append([text])
        else:
            groups[-1].append(text)
    return ", ".join(blk.join_lines(group) for group in groups)


def _split_names(text: str) -> list[str]:
    text = text.replace("\u2011", "-").replace("\u2010", "-")  # non-breaking hyphens: Li‑Zhi
    text = re.split(r",?\s*\bwith (?:an? )?(?:appendix|appendices|afterword|foreword)\b", text, flags=re.I)[0]  # Annals' byline
    text = re.sub(r"^\s*by\s+", "", text, flags=re.I)
    text = re.sub(r"\b([A-Z])\.(?=[A-Z][a-zß-ÿ])", r"\1. ", text)  # an initial set close: B.Benciolini
    text = re.sub(r"(?<=[^\W\d_])(\d[\d,]*)[a-z]{1,2}(?=[\s,;]|$)", r"\1", text)  # a number and a letter as marks: Author1a
    if "(" not in text:  # a letter and a parenthesis as marks (REVTeX): "A. Authorb)", "Author,1, b)"
        text = re.sub(r"(?:(?<=[^\W\d_])|(?<=[\s,\d]))[a-z]\)(?=[\s,;]|$)", "†", text)
    text = re.sub(rf"(?<=[a-z])[α-ω]+(?=[\s,{_MARKS}]|$)", "†", text)  # Greek letters as affiliation marks: Loα
    text = re.sub(rf"[{_SPACING_ACCENTS}]\s?(?=[a-zß-ÿ])|[{_SPACING_ACCENTS}]", "", text)
    text = re.sub(rf"(?<=[a-zß-ÿ])ID(?=[\s,;\d{_MARKS}]|$)", "", text)  # an ORCID badge set as text after the name: ShiID1,2*
    text = re.sub(rf"(?:(?<=[^\W\d_])|\s+)[\d,{_MARKS}]*[{_MARKS}\d][\d,{_MARKS}]*(?=\s|$|,)", " ; ", text)
    names = []
    for part in re.split(r"\s*(?:;|,|&|\band\b|\bAND\b|\{et al\.\})\s*", text):
        name = re.sub(rf"[\d{_MARKS}]+", " ", part)
        if " " not in name.strip():  # given and family name set without a space: BinwuXu
            name = re.sub(r"^([A-Z][a-zß-ÿ]+)(?=[A-Z][a-zß-ÿ])", r"\1 ", name.strip())
        name = re.sub(r"^(?:dr|prof|professor)\.?\s+", "", " ".join(name.split()), flags=re.I).strip(" .")
        name = re.sub(
            r"(?<=[^\W\d_])\s?[^\w\s.]+$", "", name
        )  # superscript marks as OCR reads them: Neuhann?, Duah", Laddomada |, Krishna®
        if _plausible_name(name):
            names.append(" ".join(_uncapitalise(word) for word in name.split()))
    return names


def _uncapitalise(word: str) -> str:
    """A name set in capitals as it is written: DOUGLAS -> Douglas, DE -> de; III and initials stay."""
    if not word.isupper() or "." in word or re.fullmatch(r"[IVX]+", word):
        return word
    return word.lower() if word.lower() in _PARTICLES else word.title() if len(word) > 1 else word


def _plausible_name(name: str) -> bool:
    words = name.split()
    if not 2 <= len(words) <= 6 or _NOT_NAMES.search(name) or re.search(r"[:/()@]", name) or words[0] == "The":
        return False
    if not all(word[:1].isupper() or word.lower() in _PARTICLES for word in words):
        return False
    return any(len(word.strip(".")) > 1 for word in words)


_CITE_BOX = re.compile(
    r"doi:\s*(10\.\d{4,9}/\S+?)\.?\s*Cite this article as|Cite this article as:.{0,400}?doi:\s*(10\.\d{4,9}/\S+?)\.?(?:\s|$)", re.S | re.I
)


def find_doi(first_pages: str, metadata: dict[str, str], last_page: str = "") -> str | None:
    """The article's DOI; of two versions printed together, the latest.

    Sources: the first pages, then the XMP and Info fields, then the "Cite this article as"
    box BMC prints on the last page.
    """
    printed = [re.sub(r"\s", "", m.group(1)) for m in DOI.finditer(first_pages)]
    if not printed:
        box = _CITE_BOX.search(last_page)
        printed = [box.group(1) or box.group(2)] if box else []
    stored = [
        m.group(1) for key in ("xmp:doi", "xmp:identifier", "Subject", "xmp:description") for m in DOI.finditer(metadata.get(key, ""))
    ]
    candidates = printed or stored
    if not candidates:
        return None
    chosen = candidates[0]
    stem = re.match(r"^(.*\.)(\d{1,2})$", chosen)  # a version number, not a DOI's serial
    if stem:
        versions = [c for c in candidates if re.fullmatch(re.escape(stem.group(1)) + r"\d{1,2}", c)]
        chosen = max(versions, key=lambda c: int(c[len(stem.group(1)) :]))
    return chosen.rstrip(".") if "{" in chosen else chosen.rstrip(".}")  # "\\doi{10.1115/1.4042912}}" printed in a template


def citation_lines(pages: list[Page]) -> list[tuple[int, str]]:
    """(page, text) of the lines in every page's head and foot, all of page 1's, and each with the next (wrapped)."""
    texts: list[tuple[int, str]] = []
    for page in pages:
        lines: list[Line] = sorted(
            (line for line in page.lines if page.number == 1 or line.top < 0.12 * page.height or line.bottom > 0.88 * page.height),
            key=lambda line: (line.top, line.x0),
        )
        single = [line.text.strip() for line in lines]
        wrapped = [f"{a.text.strip()} {b.text.strip()}" for a, b in _wrapped_pairs(lines)]
        texts += [(page.number, text) for text in single + wrapped]
        if page.number == 1:
            texts += [(1, box) for box in _citation_boxes(lines)]
            texts += [(1, head) for head in _meeting_heads(lines, page.height)]
    return texts


_MEETING = re.compile(r"^(?:Proceedings|(?:Extended\s+)?Abstracts)\s+of\b", re.I)


def _meeting_heads(lines: list[Line], height: float) -> list[str]:
    """A conference paper's head over the first page: the proceedings' title over two or three
    lines, then the meeting's days and place ("Proceedings of the ASME 2023" / "International
    … Congress and Exposition" / "IMECE2023" / "October 29–November 2, 2023, New Orleans, LA"),
    as one text."""
    heads = []
    for index, line in enumerate(lines):
        if line.top < 0.2 * height and _MEETING.match(line.text.strip()):
            heads.append(" ".join(other.text.strip() for other in lines[index : index + 5]))
    return heads


def _wrapped_pairs(lines: list[Line]) -> list[tuple[Line, Line]]:
    """Each line with the one that goes on under it in its column: the next of the few lines after
    it that starts at its left edge, a line or so lower (a masthead's second line may come after a
    line of the column beside it: "Archives of …" / "2014, Vol. 2, No. 1")."""
    pairs = []
    for index, line in enumerate(lines):
        below = next((other for other in lines[index + 1 : index + 4] if abs(line.x0 - other.x0) < 5), None)
        if below is not None and below.top - line.top < 2.5 * max(line.height, 1.0):
            pairs.append((line, below))
    return pairs


def _citation_boxes(lines: list[Line]) -> list[str]:
    """A line that says how to cite the paper, with the next two lines set close under it in
    its column (a footnote's first line is indented, so they need not share its left edge)."""
    boxes = []
    for index, line in enumerate(lines):
        if not CUE.search(line.text):
            continue
        run = [line]
        for following in lines[index + 1 :]:
            if following.x0 >= line.x1 or following.x1 <= line.x0:
                continue  # the other column
            if following.top - run[-1].bottom > run[-1].height or len(run) == 3:
                break
            run.append(following)
        if len(run) == 3:
            boxes.append(" ".join(member.text.strip() for member in run))
    return boxes


def find_date(first_pages: str) -> str | None:
    """The publication date printed on the first pages; never the date a paper was accepted."""
    found = sorted(_DATED.finditer(first_pages), key=lambda m: _DATE_RANK.get(m.group("kind").lower(), 5))
    published = [m for m in found if m.group("kind").lower() != "accepted"]
    return published[0].group("date") if published else None
