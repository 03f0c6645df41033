"""The journal a paper appeared in and its year, from the lines publishers print around it.

:func:`find_journal` reads the (page, text) lines of :func:`.citation_lines.citation_lines`: every
line of the first page, the heads and feet of the others, each line joined to the next, and a
citation box's first three lines; then the Info and XMP fields (subject, description, title).

- **journal**: a line in one of the shapes publishers print the paper's citation in:
  running heads and feet (``J Neurosci Methods 2019;312:45–52``, ``PLOS ONE | DOI:…``,
  ``Nature Communications | (2021) 12:3456 |``, ``Scientific Reports | 7: 12345 | DOI:…``),
  mastheads (``Journal of Hydrology 560 (2018) 1–12``, a foot of the name and volume alone, ``The R
  Journal Vol. 6/1, June``, whose year may stay unknown, ``JOURNAL OF APPLIED STATISTICS 2019,
  VOL. 46``, APA's name with its section after a colon: ``Journal of Experimental Psychology:
  General 2019, Vol. 148``), any name followed by nothing but a citation's numbers (a year
  among them) up to its DOI or the line's end, and the citation in a box that says so (``Cite
  this article:``, ``To cite:``, ``Citation:``, ``Published in:``, ``This paper should be
  cited as``, a self-archived copy's "This is a preprint of an article published in", or
  "This is a preprint of:" over the citation, a vignette's "This document was published in a
  similar form in" or "Parts of this vignette have been published previously by …:" over it,
  a title's note "An earlier version of this paper appeared in Journal …, Vol. 14, No. 3 (May
  2005)" or "A smaller version of this article appeared in R-News, Vol.1/3, 9.2001", read with up to three lines under the cue), where the journal follows the authors and title
  (after a quoted title too; with its section after a comma: ``Journal of Statistical Software,
  Code Snippets, 63(1), 1–32``; after the title's comma on Taylor & Francis's cover page: ``…
  (2019) Title, Journal of …, 28:1, 1-12, DOI: …``; before its volume in Elsevier's accepted
  manuscript: ``…, Title, Journal of Hydrology (2018), doi: …``; after a repository's
  "Recommended Citation": ``… "Title," Journal of …: Vol. 5 : Iss. 2``), or the cue itself; a chapter's venue is its book, after the
  editors (``In D. H. Spieler & E. Schumacher (Eds.), New Methods in … (pp. 4–31)``). On the first page only, a
  masthead's name over the ISSN (``Journal of … ISSN: 1061-8600 (Print)``) or over its copyright
  line, with a journal's word (``American Journal of Epidemiology © The Author(s) 2019``), an
  accepted manuscript's ``To appear in: Journal of Hydrology``, a draft's line naming the journal
  it is for (``Brouillon d'article pour les Cahiers GUTenberg n°??``, its date no year), a
  proceedings' own line (``Proceedings of the 58th Annual Meeting of …, pages 4969–4983``), an
  ACM permission block's conference (``PLDI'09, June 15–20, 2009, …``), a conference's head
  over the page (the proceedings' title, then the meeting's days: ``Proceedings of the ASME
  2023 … Exposition IMECE2023 October 29–November 2, 2023``), a proceedings' head that closes on the
  meeting's short name and year (``Proceedings of the 8th Python in Science Conference (SciPy 2009)``;
  running heads that print it short, ``Proceedings of DSC 2003``, are written out by it), an overlay journal's stamp
  (``Accepted in Quantum 2017-05-09``), a reprint's note (``First published in TUGboat 43:1
  (…, 2022)``), a conference paper's note of the proceedings it appears in,
  after the editors (``… (eds). Proceedings of …, LNCS 42``: read as a citation box), a footnote's ``To appear in the
  Proceedings of the 1992 Winter Usenix, San Francisco, CA, January 1992.`` and a publisher's cover page's ``This paper is
  included in the Proceedings of …`` over three lines (both read as a citation box too), a meeting's foot with its year
  in its acronym (``SMC 2009, July 23-25, Porto, Portugal``), a foot that cites the paper itself (``Published as …: Title.
  4th … Workshop, Sydney, November 2013``), a footnote that names the journal alone after its mark
  (``∗Paper accepted in the Journal of Statistical Software``, ``1This vignette corresponds to a
  paper published in …``; a name cut at the line's end only with a journal's word in it) and a name alone over the DOI (Springer's online first:
  ``Climatic Change`` / ``https://doi.org/10.1007/…``). Where no line has a citation's shape,
  a name alone in the heads or feet of two pages or more, with a journal's word in it (ASME's
  feet: ``Journal of Heat Transfer``), else a name with the word "journal" alone as the first
  page's first line of words, over the rest (a masthead without its volume), or a masthead in
  capitals with the article's type after the name, beside an issue line that names none (``BIOINFORMATICS
  APPLICATIONS NOTE`` beside ``Vol. 29 no. 9 2013, pages 1215–1217``). A template's masthead reads the same with placeholders for
  its numbers (``Condensed Matter Physics, ????, Vol. ?, No. ?``, ``… MATHEMATICS VOL (YEAR),
  1–49``), without a year. Not a journal: a line that opens with a version, draft
  or preprint word, an article type (``Original Article``), a name followed by years alone (an
  author-year citation) or by a calendar date alone (a byline over the date under the title:
  "Anna Berg" / "February 13, 2023"), an author's own name. A line's shape anchors it at its start (or
  after ``et al.``, or after the authors' `` / `` in an Elsevier head): a reference list's
  entries begin with their authors, so their journals are not read. Names run to 16 words
  (``Proceedings of the National Academy of Sciences of the United States of America``), a section
  after an em dash among them (``Communications in Statistics—Theory and Methods``), never the
  volume's word a name runs on into (``Electronic Journal of Statistics Vol. 13 (2019)``); in
  capitals they are title-cased; a name that runs into a version's word is a manual's version
  line (``… Manual Version 5.2 (July 2004)``). An abbreviated name is written out where the paper
  spells it (:func:`_spelled_out`: the masthead, a logo's text, the feet, the XMP); Frontiers'
  feet before 2016 print the journal's section and the month after the name (``Frontiers in
  Psychology | Cognition December 2014 | Volume 5 | …``). Of several, a boxed citation's first (less a title in
  capitalised words that ran into it, where another line names the journal alone: MDPI's
  "… Title in Capitals. Nutrients 2021, 13, 1234"), then the one on the most pages; one named once, on a later page only, is a reference's.
- **year**: the journal line's, a page's over the Info or XMP's; else the first page's stamps,
  copyright line or history, or a meeting's name (:func:`.journal_year.year_elsewhere`).
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import islice

from paperpyramid.parsers.embedded.journal_year import MONTH, YEAR, year_elsewhere

# a date as publishers print it: "12 May 2016", "12th May, 2016", "May 12th, 2016", "2016-05-12"
DATE = r"\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+\.?,?\s+\d{4}|[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|(?:19|20)\d\d-[01]\d-[0-3]\d"
# the words that label a title page's dates ("Modified: April 10, 2017. Compiled: April 24, 2017",
# "10 October 2012 Revised 8 October 2014", "Created on 18th September 2015, this update of 30th January 2020")
_DATE_LABELS = frozenset(
    {"modified", "compiled", "revised", "created", "updated", "update", "last", "on", "of", "this", "date", "dated", "and", "version"}
)


def date_line(text: str) -> bool:
    """Whether a line holds only dates and the words that label them: the date under a title
    page's byline, never a title or a section's heading."""
    words = re.sub(DATE, " ", text)
    if words == text:
        return False
    return all(word in _DATE_LABELS for word in re.findall(r"[^\W\d_]+", words.lower()))


# a journal's name: capitalised words, small words between them, abbreviations with full stops
# (a brand may start in lower case: eLife, iScience, mBio)
# (a section after an em dash: "COMMUNICATIONS IN STATISTICS—THEORY AND METHODS"; the small words of German,
# French and Spanish names: "Zeitschrift für Naturforschung", "Revista de Saúde Pública", "Archives des Maladies du Coeur";
# Latin's and French's "et": "Biochimica et Biophysica Acta", "Revue de Chirurgie Orthopédique et Traumatologique")
_NAME = r"(?:[A-Z]|[a-z]{1,2}[A-Z])[\w’'´&.—-]*(?:\s+(?:[A-Z][\w’'´&.—-]*|of|and|in|for|the|on|&|für|zur|und|de|des|du|la|et))*?"
_J = rf"(?P<journal>{_NAME})"
# the start of a line, or after the authors a head prints first: "Smith et al. Journal …",
# Elsevier's "O. Sanni, A.P.I. Popoola / Data in Brief 22 (2019) 451–457"
_AFTER_AUTHORS = r"(?:^|et al\.?[,:]?\s+(?:/\s+)?|\s/\s+)"
_JOURNAL_LINES = [
    # BMC, F1000, MDPI, Clinical Science, JNER: "… et al. Journal 2015, 11:3" / "Journal (2016) 13:22"
    re.compile(rf"{_AFTER_AUTHORS}{_J}\s+\(?{YEAR}\)?[,;]?\s+\d+\s*(?:[:,(]|\d*$)"),
    # PLOS: "PLOS ONE | DOI:…"; Chinese Medical Journal: "Chinese Medical Journal ¦ July 20, 2017 ¦"
    re.compile(rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*(?:DOI|doi\b|(?P<date>{DATE}))"),
    # PLOS since 2017: "PLOS ONE | https://doi.org/10.1371/journal.pone.0193451 March 20, 2018"
    re.compile(rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*https?://(?:dx\.)?doi\.org/\S+(?:\s+(?P<date>{DATE}))?"),
    # Nature's older feet: "Scientific Reports | 7: 12345 | DOI:10.1038/s41598-017-12345-6" (the year is the date published)
    re.compile(rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*\d+\s*:\s*[A-Za-z]?\d+\s*[|¦]\s*(?:DOI|doi\b|https?://)"),
    # Frontiers' foot: "Frontiers in Microbiology | www.frontiersin.org", before 2018 with the date and volume
    # after it, as PLOS's feet before 2015: "PLOS ONE | www.plosone.org 1 December 2014 | Volume 9 | Issue 12 | e115553"
    # (PLoS before 2010 sets the page's number before the date: "PLoS Medicine | www.plosmedicine.org 0001 January 2008 | …")
    re.compile(
        rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*www\.\S+(?:\s+\d{{4}})?(?:\s+(?:(?P<date>{DATE})|{MONTH}\s+{YEAR}))?"
        rf"(?:\s*[|¦]\s*(?i:volume|vol\.?|issue|article)\b.*)?\s*$"
    ),
    # Frontiers' feet before 2016, the journal's section and the month after the name: "Frontiers in Psychology |
    # Cognition December 2014 | Volume 5 | Article 1425 | 2", "Frontiers in Plant Science | Plant Physiology May 2013 | …"
    re.compile(
        rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*(?:[A-Z][\w,&’'-]*(?:\s+[\w,&’'-]+){{0,6}}\s+)?{MONTH}\s+{YEAR}\s*[|¦]\s*(?i:volume)\s+\d+\s*[|¦]\s*(?i:article)\b"
    ),
    # BMC's head without its numbers (set apart on the line): "Hua et al. BMC Public Health"
    re.compile(rf"et al\.\s+{_J}\s*$"),
    # Nature: "Nature Communications | (2021) 12:3456 | https://doi.org/…"
    re.compile(rf"^(?:\d+\s+)?{_J}\s*[|¦]\s*\({YEAR}\)\s*\d+"),
    # APS, AIP: "PHYSICAL REVIEW LETTERS 124, 081301 (2020)"; Cell Press: "Cell Reports 34, 108765, March 2, 2021"
    re.compile(rf"^{_J}\s+\d+,\s*\d+\s*\({YEAR}\)"),
    re.compile(rf"^{_J}\s+\d+,\s*\d+,\s*(?P<date>{DATE})"),
    # Hindawi: "Rehabilitation Research and Practice Volume 2010, Article ID 157939"
    re.compile(rf"^{_J}\s+Volume\s+{YEAR},\s+Article"),
    # PeerJ: "Webb et al. (2017), PeerJ Comput. Sci., DOI 10.7717/…"
    re.compile(rf"et al\.\s*\({YEAR}\),\s*{_J},\s*DOI\b"),
    # Vancouver (NLM) heads, Wiley feet: "J Neurosci Methods 2019;312:45–52", "Ecology and Evolution. 2020;10:1234–1245."
    re.compile(rf"{_AFTER_AUTHORS}{_J}\.?\s+{YEAR}\s*;\s*\d+"),
    # Elsevier mastheads and heads: "Journal of Hydrology 560 (2018) 1–12"
    re.compile(rf"{_AFTER_AUTHORS}{_J}\s+\d+\s+\({YEAR}\)\s+\d+"),
    # Taylor & Francis, the name above the issue line: "JOURNAL OF APPLIED STATISTICS 2019, VOL. 46, NO. 3"
    re.compile(rf"^{_J},?\s+{YEAR},\s+(?i:vol)\.?\s*\d+"),
    # APA, a section's name after a colon, over the issue line: "Journal of Experimental Psychology: General 2019, Vol. 148"
    re.compile(rf"^(?P<journal>{_NAME}:\s+[A-Z][\w-]*(?:,?\s+(?:[A-Z][\w-]*|and)){{0,4}}),?\s+{YEAR},\s+(?i:vol)\.?\s*\d+"),
    # Oxford Academic: "Bioinformatics, 36(5), 2020, 1234–1240"
    re.compile(rf"^{_J},\s+\d+(?:\s*\(\d+\))?,\s+{YEAR},\s+\d+"),
    # IEEE style: "Journal Name, vol. 117, no. 4, pp. 1–9, January 2020"
    re.compile(rf"^{_J},\s+(?i:vol(?:ume)?)\.?\s*\d+(?P<tail>.{{0,60}})"),
    # a foot of the name and its volume and issue alone, without a comma (The R Journal: "The R Journal
    # Vol. 6/1, June", then "ISSN 2073-4859", whose digits are no year): the year may stay unknown
    re.compile(rf"^{_J}\s+(?i:vol(?:ume)?)\.?\s*\d+(?:/\d+)?\b(?P<tail>(?:(?!ISSN).){{0,40}})"),
]
# the Info and XMP fields only (on a page, "Zaragoza, 2009), which …" is a citation in the text):
# "Data in Brief, 22 (2018) 451-457", "Journal of …, 2016, doi:…"
_METADATA_LINES = [re.compile(rf"^{_J},\s+(?:\d+\s+)?\(?{YEAR}\)?[,\s]")]
# any other: a name, then only a citation's numbers and words up to the line's end or its DOI or
# URL (Annual Reviews "Annu. Rev. Psychol. 2020. 71:1–25", Copernicus "Hydrol. Earth Syst. Sci.,
# 24, 1234–1250, 2020"); read where the numbers hold a year and one more; German citations write their words short
# with a full stop ("S." pages, "Bd." volume, "Jg." year of issue, "Nr." number: "Die TeXnische Komödie 3/2014, S. 19-46")
_TOKEN = rf"(?:[eE]?\d+|(?i:vol|volume|no|issue|iss|pp|p|article|id|pages|suppl)\.?(?![^\W\d_])|(?:S|Bd|Jg|Nr)\.|{MONTH})"  # "p." is a token, "Positive" none
_SEP = r"[\s.,;:()|¦/–-]"
_BIB = rf"(?P<bib>(?:{_SEP}+{_TOKEN})+){_SEP}*"
# a calendar date alone after a name is no citation (a byline over the date under the title: "Emmanuel
# Paradis" / "February 13, 2023"; a foot's "Kuhn, Feb. 14, 2013"; a report's file note, the date in European
# numbers: "J. No. MINF" / "21.12.2000"): a citation has a volume or pages
_DATE_ALONE = re.compile(
    rf"{_SEP}*(?:(?:{MONTH}{_SEP}+\d{{1,2}}|\d{{1,2}}{_SEP}+{MONTH}){_SEP}+|\d{{1,2}}[./]\d{{1,2}}[./])(?:19|20)\d\d{_SEP}*"
)
# (a copyright line may follow, its © lost or unmapped: "Am. Nat. 2003. Vol. 162, pp. 624–637. \x01 2003 by The …")
_JOURNAL_LINES.append(
    re.compile(rf"(?:^(?:\d+\s+)?|et al\.?[,:]?\s+(?:/\s+)?){_J}{_BIB}(?=$|https?://|doi\b|DOI\b|©|www\.|[^\w\s]?\s*(?:19|20)\d\d\s+by\s)")
)
# read on the first page only: the proceedings' own line (ACL, COLING, many workshops:
# "Proceedings of the 58th Annual Meeting of the …, pages 4969–4983 July 5 - 10, 2020.") and an
# ACM permission block's conference ("PLDI'09, June 15–20, 2009, Dublin, Ireland.", "KDD '20,
# August 23–27, 2020, Virtual Event"); later pages' heads and feet hold references' proceedings
_DAYS = rf"{MONTH}\s+\d{{1,2}}(?:\s*[–-]\s*(?:{MONTH}\s+)?\d{{1,2}})?,?\s+{YEAR}"
_JOURNAL_WORDS = (
    r"(?i:journal|transactions|letters|annals|bulletin|proceedings|reports|archives|acta|advances|communications|quarterly|magazine)"
)
_FIRST_PAGE_LINES = [
    # a masthead's name over the journal's ISSN (Taylor & Francis's cover page: "Journal of Computational and
    # Graphical Statistics" / "ISSN: 1061-8600 (Print) 1537-2715 (Online) Journal homepage: …"), or over its
    # copyright line with a journal's word in it (Oxford: "American Journal of Epidemiology" / "© The Author(s)
    # 2019. Published by …"; a byline's "Anna Berg © 2019" is none)
    re.compile(rf"^{_J}\s+(?:[ep]-?)?ISSN\b"),
    # the venue a paper is to appear in, on a line of its own: Elsevier's accepted manuscript's cover ("To appear
    # in: Journal of Hydrology"), a workshop paper's foot ("To appear in 16th Workshop on Hot Topics in Operating
    # Systems.": the meeting's ordinal is part of its name)
    re.compile(rf"^To appear in:?\s*(?:the\s+)?(?P<journal>(?:\d{{1,3}}(?:st|nd|rd|th)\s+)?{_NAME})\.?$"),
    re.compile(rf"^(?=[^©]*\b{_JOURNAL_WORDS}\b){_J}\s+(?:©|\(c\)|Copyright\b(?:\s*©)?)\s*(?:The\s+Authors?(?:\(s\))?\s+)?{YEAR}\b"),
    # a publisher's copyright line under the name names the journal's publisher, a journal's word or none: "Brain" /
    # "© The Author(s) 2019. Published by Oxford University Press …", "© 2016 The Authors. Published by Elsevier B.V."
    re.compile(
        rf"^{_J}\s+(?:©|\(c\))\s*(?:(?:The\s+Authors?(?:\(s\))?\s+)?{YEAR}|(?:19|20)\d\d\s+The\s+Authors?(?:\(s\))?)\.?\s+Published\s+by\b"
    ),
    re.compile(
        r"^(?:In\s+)?(?P<journal>Proceedings\s+of\s+[^,]{5,300}?)(?:,\s*Volume\b[^,]*)?[,.]?\s+(?:pages|pp\.)\s*\d+\s*[–-]\s*\d+(?P<tail>.{0,80})"
    ),
    re.compile(rf"^(?P<journal>[A-Z][A-Za-z-]{{1,15}}\s?['’]\d\d),\s+{_DAYS}"),  # the meeting's days: no publication date
    # a conference paper's foot, the meeting's acronym with its year, its days and place, and no more (a page number):
    # "SMC 2009, July 23-25, Porto, Portugal"
    re.compile(
        rf"^(?P<journal>[A-Z]{{2,}}[A-Za-z-]{{0,13}}\s{YEAR}),\s+{MONTH}\s+\d{{1,2}}(?:\s*[–-]\s*(?:{MONTH}\s+)?\d{{1,2}})?,\s+"
        r"[A-Z][\w.'-]*(?:\s[A-Z][\w.'-]*){0,2}(?:,\s*[A-Z][\w.'-]*(?:\s[A-Z][\w.'-]*){0,2})?(?:\s+\d{1,4})?$"
    ),
    # a conference paper's head: the proceedings' title, perhaps the paper's number, the meeting's days
    # ("Proceedings of the ASME 2023 International … Exposition IMECE2023 October 29–November 2, 2023, …")
    re.compile(rf"^(?P<journal>(?:Proceedings|(?:Extended\s+)?Abstracts)\s+of\s+.{{5,250}}?)\s+(?:[A-Z]{{2,}}[-\s]?\d{{4}}\s+)?{_DAYS}"),
    # a proceedings' head that closes on the meeting's short name and year in brackets ("Proceedings of the 8th Python
    # in Science Conference (SciPy 2009)"; DSC's box, over the meeting's days: "… Statistical Computing (DSC 2003)")
    re.compile(rf"^(?P<journal>Proceedings\s+of\s+[^()]{{5,250}}?\s\((?:[A-Z][\w-]*\s+){{1,2}}{YEAR}\))(?=\s|$)"),
    # Springer's first page online first: the name alone over the DOI ("Climatic Change" / "https://doi.org/10.1007/…")
    re.compile(rf"^{_J}\s+(?:https?://(?:dx\.)?doi\.org/|doi:\s*)10\.\d{{4,9}}/\S+$"),
    # a draft's line naming the journal it is written for, with the issue still a placeholder
    # ("Brouillon d'article pour les Cahiers GUTenberg n°?? — 22 mars 2001", "Draft for TUGboat"):
    # as a "preprint submitted to" names its publisher; the draft's date is no publication's
    re.compile(
        r"^(?i:draft|brouillon|entwurf)(?:\s+(?:d['’]\s?|of\s+an?\s+|eines?\s+)?(?i:article|paper|manuscript|artikels?|beitrags?))?"
        rf"\s+(?i:for|pour|für)\s+(?:(?:the|les|le|la|die|der|das)\s+)?{_J}"
        r"(?=\s*(?:$|[,—–-]|n[˚°º]|no\.|vol\b|issue\b))"
    ),
    # an overlay journal's stamp: "Accepted in Quantum 2017-05-09, click title to verify"
    re.compile(rf"^(?:Accepted|Published) in {_J},?\s+{YEAR}-\d\d-\d\d\b"),
    # a title's or author's footnote that names the journal alone, after its mark: "∗Paper accepted in the
    # Journal of Statistical Software", "1This vignette corresponds to a paper published in Computational
    # Statistics and Data Analysis. Currently …" (a name cut at the line's end, which may wrap, only
    # with a journal's word in it: see :func:`_journal_line`)
    re.compile(
        rf"^[\d*∗†‡§¶]?\s*(?:(?:This|The)\b[^.]{{0,60}}?\s)?(?:(?i:an?|the)\s+)?(?i:paper|article|manuscript)\s+(?:(?:has been|was|is)\s+)?"
        rf"(?:accepted|published|to appear)(?:\s+for publication)?\s+in\s+(?:the\s+)?{_J}(?P<end>\.(?=\s)|$)"
    ),
]
# the first page's notes of the proceedings the paper is in, read as its own citation (a reference list may name another
# journal on two pages): a footnote's "1 To appear in the Proceedings of the 1992 Winter Usenix, San Francisco, CA,
# January 1992.", a publisher's cover page's "This paper is included in the Proceedings of the 15th USENIX Conference on
# File and Storage Technologies (FAST '17)." (over three lines, joined: :func:`_cover_notes`)
_COVER_NOTE = re.compile(r"^This (?:paper|article) is included in\b")
_NOTES = [
    re.compile(
        rf"^[\d*∗†‡§¶]?\s*To appear in\s+(?:the\s+)?(?P<journal>Proceedings\s+of\s+[^,]{{5,200}}?),\s+(?:[^,]{{2,40}},\s+){{0,3}}{MONTH}\s+{YEAR}\.?$"
    ),
    re.compile(_COVER_NOTE.pattern + r" (?:the\s+)?(?P<journal>Proceedings\s+of\s+.{5,250}?)\.?$"),
]
# a conference paper's first-page note of the book it appears in, after its editors (Springer's LNCS, llncsconf:
# "Anonymous et al. (eds). Proceedings of the International Conference on …, LNCS -42. Some Publisher, 2016.",
# "In: A. Editor, B. Editor (eds.) Proceedings of …, LNCS, vol. 42"): the proceedings is the paper's own
# citation, read before a publisher's line under it ("Some Publisher, 2016., pp. 42–45"), as a box's is
_EDITED = re.compile(r"\((?:eds?|hrsg)\.?\)[.:,]?\s+(?P<journal>Proceedings\s+of\s+[^,;]{5,250}?)\s*[,;.](?P<tail>.{0,80})", re.I)
_LONG_NAME = re.compile(r"^Proceedings\b")  # a proceedings' title runs to 30 words
_VOLUME_PART = re.compile(r":\s*Volume\b.*$")  # "…: Volume 1 (Long Papers)"
# the volume's word a name's capitalised words run on into ("Electronic Journal of Statistics" / "Vol. 13 (2019) 1–30")
_VOLUME_WORD = re.compile(r"\s+(?i:vol|volume|no|issue)$")
# a box that prints the paper's own citation: the journal follows its authors and title
CUE = re.compile(
    r"\b(?:(?:how to |to |please )?cite this article(?: in press)?(?: as)?\s*:?|to cite\s*:|citation\s*:|how to cite\s*:|published in\s*:"
    # a repository's cover page (bepress): "Recommended Citation" over "Berg, Anna (2019) "Title," Journal of …: Vol. 5 : Iss. 2"
    r"|recommended citation\s*:?"
    # a foot that cites the paper itself: "Published as Berg, A., Dahl, C.: Title. 4th … Workshop, Sydney, November 2013"
    r"|^published as\b\s*:?"
    # a reprint's note of where the paper first appeared: "First published in TUGboat 43:1 (Chernoff, 2022), pp. 28–39. Reprinted, …"
    r"|\b(?:first|originally) (?:published|printed|appeared) in(?-i: the)?"
    r"|(?:this (?:paper|article|work) )?(?:should|may|can|must) be cited as(?: follows)?\s*:?"
    # a self-archived copy's footnote: "This is a preprint of an article published in The American Statistician, Volume 60, …"
    r"|\b(?:pre-?print|post-?print|(?:accepted )?manuscript|version|copy) of an? article (?:(?:to be )?published|accepted for publication|to appear) in(?-i: the)?"
    # a title's note on a version the journal printed: "∗A smaller version of this article appeared in R-News,
    # Vol.1/3, 9.2001", "∗An earlier version of this paper appeared in Journal of …, Vol. 14", "… was published in …"
    r"|\bversion of this (?:paper|article|work|manuscript|chapter|vignette) (?:has )?(?:appeared|appears|(?:was|is|has been) published) in(?-i: the)?"
    # the same note with the citation under it: "This is a preprint of:" / "Singmann, H., & Kellen, D. (2019). … In …"
    # (the colon is left to ``rest``, which the line may end with)
    r"|\bthis is an? (?:pre-?print|post-?print|(?:author'?s? )?(?:accepted )?manuscript) of\s*(?=:)"
    # a vignette that prints the paper it was published as: "This document was published in a similar form in" /
    # "Gerber F, Furrer R (2015). “…” Journal of …", "Parts of this vignette have been published previously by the Journal of …:"
    r"|\b(?:parts of )?this (?:document|vignette|paper|article|chapter|manuscript|report) (?:was|were|is|has been|have been) published"
    r"(?: in (?:a )?similar form| previously| earlier| before)? (?:in|by)\b)\s*(?P<rest>.+)",
    re.I,
)
# after a quoted title too: "… Leroux Models.” Journal of …", "… Title," Journal of …"
_START = r"(?:^|(?<=[.:?!]\s)|(?<=[.?!,][”’'\"]\s))"
# a boxed citation's journal, its series or subtitle after a colon among it ("Journal of the Royal Statistical
# Society: Series B 2003, 65:7", "Nanomedicine: Nanotechnology, Biology and Medicine 2016;12:34")
_JS = rf"(?P<journal>{_NAME}(?::\s+{_NAME})?)"
_CITED = [
    re.compile(rf"{_START}{_JS}\.?\s+{YEAR}\s*[;,]\s*\d+"),  # Vancouver, ACS, MDPI: "BMJ Open 2018;8:e012345"
    re.compile(rf"{_START}{_JS},?\s+\d+,\s*\d+\s*\({YEAR}\)"),  # Nature, BMC: "BMC Bioinformatics 21, 112 (2020)"
    re.compile(rf"{_START}{_JS},?\s+\({YEAR}\)\s*\d+"),  # Springer: "Climatic Change (2019) 155:301"
    re.compile(rf"{_START}{_J}\s*\(\s*Volume\b(?P<tail>[^)]{{0,60}})"),  # IEEE Xplore: "… Imaging ( Volume: 39, Issue: 5, May 2020)"
    # "Journal, vol. 117, …, 2020"; bepress: "Journal of …: Vol. 5 : Iss. 2"
    re.compile(rf"{_START}{_J}[,:]\s+(?i:vol)(?:\.|ume)?\s*\d+(?P<tail>.{{0,60}})"),
    re.compile(rf"{_START}{_J},?\s+\d+\s*:\s*[A-Za-z]?\d+"),  # Frontiers, eLife: "Front. Psychol. 11:1234"
    # Taylor & Francis's cover page, the journal after the title's comma: "To cite this article: Anna Berg & Carl Dahl
    # (2019) An invented title, Journal of Computational and Graphical Statistics, 28:1, 1-12, DOI: …"
    re.compile(rf"(?<=,\s){_J},\s+\d+:\d+,\s+[A-Za-z]?\d+(?:\s*[–-]\s*[A-Za-z]?\d+)?,?\s+(?:DOI|doi)\b"),
    # Elsevier's accepted manuscript, before its volume: "Please cite this article as: A. Berg, C. Dahl, An invented
    # title, Journal of Hydrology (2018), doi: https://doi.org/…"
    re.compile(rf"(?<=,\s){_J}\s+\({YEAR}\),?\s+(?:doi|DOI|https?://)"),
    re.compile(rf"{_START}{_JS}{_BIB}"),  # APA: "Geophysical Research Letters, 46, 1234–1245."; PLOS: "PLoS ONE 11(3): e0151234"
    # a meeting cited with its place and month, its ordinal part of its name: "4th Cybercrime and Trustworthy Computing
    # Workshop, Sydney, November 2013"
    re.compile(
        rf"{_START}(?P<journal>(?:\d{{1,3}}(?:st|nd|rd|th)\s+)?(?=[^,]*\b(?:Workshop|Conference|Symposium|Congress|Meeting)\b){_NAME}),\s+"
        rf"(?:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){{0,3}},\s+)?{MONTH}\s+{YEAR}"
    ),
    # a journal's section after a comma: "Journal of Statistical Software, Code Snippets, 63(1), 1–32."
    # (the name before the comma holds a journal's word: an author list "Gerber F, Furrer R (2015)" is none)
    re.compile(rf"{_START}(?P<journal>(?=[^,]{{0,120}}?\b{_JOURNAL_WORDS}\b[^,]*,){_NAME},\s+[A-Z][\w-]*(?:\s+[A-Z][\w-]*){{0,2}}){_BIB}"),
    # a book chapter, the book's title after its editors: "In D. H. Spieler & E. Schumacher (Eds.), New Methods in
    # Cognitive Psychology (pp. 4–31).", "In: A. Editor (ed) Book Title. Publisher"
    re.compile(rf"(?:^|\s)In:?\s+[^()]{{3,200}}?\((?i:eds?|hrsg)\.?\)[.:,]?\s+(?P<journal>{_NAME})(?=\s*(?:\(|[.,;]|$))"),
    # a book's title before its editors in brackets, as a title's note cites the book a paper appeared in: "…
    # appeared in Automated Practical Reasoning: Algebraic Approaches (J. Pfalzgraf and D. Wang, eds.), Springer, …"
    re.compile(rf"^{_JS}\s+\([^()]{{3,160}}?,?\s+(?i:eds?|hrsg)\.?\)"),
]
_NOT_JOURNALS = {
    "page",
    "volume",
    "vol",
    "open access",
    "research",
    "article",
    "copyright",
    "published",
    "received",
    "accepted",
    "original article",
    "research article",
    "review article",
    "original paper",
    "original research",
    "short communication",
    # article types a first page prints where a journal's name might stand ("Review © The Author(s) 2019. Published by …")
    "review",
    "mini review",
    "data descriptor",
    "perspective",
    "editorial",
    "commentary",
    "case report",
    "letter",
    "brief report",
}
_NOT_FIRST = re.compile(
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch|(?!\.?\s+(?-i:[A-Z][a-z])))|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    r"|fig(?:ure)?|table|page|vol(?:ume)?|issue|received|accepted|published|revised|submitted|available|copyright|doi"
    r"|version|draft|entwurf|bozza|borrador|preprint|typeset"
    r"|aufl(?:age)?|hrsg)\b",  # a German book's edition and editor ("2. Aufl. Wuppertal 2012, S. 38-42"): a book, no journal
    re.I,
)
# a name that runs on into a version's word is a program's or manual's version line, not a journal's
_VERSIONED = re.compile(r"\b(?i:version|release)$")
# a name that ends in a vignette's or a LaTeX class's kind is the document's own foot or its class's name, no journal
# ("RcppGSL Vignette | November 29, 2020 | 1–8", "ISCRAM LaTeX Class"); journals end in "Class" or "Guide" too ("Race &
# Class", "GSA Field Guide")
_OWN_NAME = re.compile(r"\b(?i:vignette|(?:la)?tex\s+class)$")
_YEAR_ALONE = re.compile(r"\(((?:19|20)\d\d)\)|(?<![\d–-])((?:19|20)\d\d)(?![\d–-])")
_SMALL = {"of", "and", "in", "for", "the", "on", "&"}
_ANY_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")


def find_journal(
    lines: list[tuple[int, str]], metadata: dict[str, str], surnames: frozenset[str] = frozenset()
) -> tuple[str | None, int | None, str | None]:
    """(journal, year, date) from :func:`.citation_lines.citation_lines` (read before running heads are removed) and the metadata;
    ``surnames``, the authors' family names, are taken off a head that opens with them ("Mao and Zhan Journal of …")."""
    pages: dict[str, set[int]] = {}
    years: dict[str, Counter[int]] = {}
    dates: dict[str, str] = {}
    boxed: list[str] = []
    # a journal scores once per page that prints it: running heads win over a reference's journal
    # the Info and XMP fields as page 0; a word processor's title field may hold the issue's line
    info = [(0, metadata.get(key, "")) for key in ("Subject", "xmp:description", "Title", "xmp:title")]
    for page, text in lines + _cover_notes(lines) + info:
        found = _journal_line(text, first_page=page <= 1, metadata=page == 0)
        if found is None:
            continue
        journal, year, date, cued = found
        journal = _without_authors(journal, surnames)
        if journal.lower() in surnames or journal.split()[-1].lower() in surnames:
            continue  # an author's name over a date in a foot ("Kuhn, Feb. 14, 2013")
        pages.setdefault(journal, set()).add(page)
        if cued and journal not in boxed:
            boxed.append(journal)
        if year:
            # a year the pages print outvotes the Info and XMP fields' (the online year, often)
            years.setdefault(journal, Counter())[year] += 1 if page == 0 else 100
        if date:
            dates.setdefault(journal, date)
    stored = metadata.get("xmp:journal")
    # a journal named once, on a later page, is a reference's, not the paper's
    pages = {name: found for name, found in pages.items() if len(found) >= 2 or found & {0, 1}}
    if not pages:
        beside = None if stored else _masthead_beside_issue(lines)
        if beside is not None:
            return beside[0], beside[1], None
        alone = stored or _name_alone(lines) or _named_in_info(lines, metadata) or _masthead_alone(lines)
        return alone, year_elsewhere(lines, alone), None
    journal = _after_title(boxed[0], pages) if boxed else max(pages, key=lambda name: len(pages[name]))
    year = years[journal].most_common(1)[0][0] if journal in years else year_elsewhere(lines, journal)
    return _spelled_out(journal, pages, lines, metadata), year, dates.get(journal)


def _cover_notes(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A publisher's cover page's note of the proceedings the paper is in, its lines joined (USENIX: "This paper is
    included in the Proceedings of" / "the 15th USENIX Conference on" / "File and Storage Technologies (FAST '17)."):
    from the note's first line up to the one that closes it with a full stop, four lines at most."""
    first = [text.strip() for page, text in lines if page == 1]
    notes: list[tuple[int, str]] = []
    for index, text in enumerate(first):
        if _COVER_NOTE.match(text):
            ends = [end for end in range(index, min(index + 4, len(first))) if first[end].endswith(".")]
            notes += [(1, " ".join(first[index : ends[0] + 1]))] if ends else []
    return notes


def _spelled_out(journal: str, pages: dict[str, set[int]], lines: list[tuple[int, str]], metadata: dict[str, str]) -> str:
    """``journal`` written out where it is abbreviated and the paper spells it in full elsewhere:
    publishers print the abbreviation in the citation box and feet ("Int. J. Environ. Res. Public
    Health 2016, 13, 1234", "Front. Psychol. 5:1425", NLM's "Exp Ther Med 2018, 16: 123", PLoS's
    "PLoS Genet 9(5): e1003456") and the whole name in the masthead, the logo's text or the
    running feet ("International Journal of Environmental Research and Public Health" over three
    lines, "Frontiers in Psychology | Cognition …", "PLOS Genetics | www.plosgenetics.org …").
    The whole name holds the abbreviation's words in order, each written out from its start, with
    only small words between them. Another journal line of the paper (``pages``) or the XMP's
    journal may spell it; so may any line of the first page, a head or foot, or the metadata,
    where the name is set with capitals and writes out a word the abbreviation cut with a full
    stop, or two words (one alone is no sure abbreviation: "Cell" is not "Cellular …")."""
    words = journal.split()
    if not words:
        return journal
    meeting = _meeting_written_out(journal, pages)
    if meeting is not None:
        return meeting
    small = r"(?:\s+(?:of|and|the|in|for|on|&))*\s+"
    pattern = re.compile(r"(?<!\w)" + small.join(rf"{re.escape(word.rstrip('.'))}[\w’'-]*" for word in words) + r"(?!\w)", re.I)
    named = [*pages, metadata.get("xmp:journal", "").strip()]
    longer = [name for name in named if len(name) > len(journal) and pattern.fullmatch(name)]
    if longer:
        return max(longer, key=lambda name: len(pages.get(name, ())))
    # the first page's lines read as one text: a logo's name may run over two or three lines
    texts = [" ".join(text for page, text in lines if page == 1)] + [text for page, text in lines if page > 1]
    texts += [metadata.get(key, "") for key in ("Subject", "xmp:description", "xmp:journal")]
    content = [word for word in words if word.lower() not in _SMALL]
    if len(content) >= 2 and not content[-1].endswith(".") and _cut_at_the_end(journal, lines):
        content[-1] += "."  # "Cancer Med. 2019;8:…": the name as read lost the full stop that cut its last word
    for text in texts:
        for match in pattern.finditer(text):
            full = [word for word in match.group().split() if word.lower() not in _SMALL]
            if "." in match.group() or len(full) != len(content) or not all(word[:1].isupper() for word in full):
                continue  # a sentence's or small capitals' lower case, not a masthead's name
            written_out = [len(word) > len(short.rstrip(".")) for word, short in zip(full, content, strict=True)]
            if sum(written_out) >= 2 or any(out and short.endswith(".") for out, short in zip(written_out, content, strict=True)):
                return _clean(match.group())
    return journal


def _meeting_written_out(journal: str, pages: dict[str, set[int]]) -> str | None:
    """The proceedings' whole name where the running heads print it short, by the meeting's
    acronym ("Proceedings of DSC 2003" over each page; the first page's box: "Proceedings of the
    3rd International Workshop on Distributed Statistical Computing (DSC 2003)"): a name the paper
    prints that opens as the short one does and closes on that acronym in brackets."""
    short = re.fullmatch(r"(?P<opening>[A-Z]\w+)\s+of\s+(?P<acronym>[A-Z][A-Za-z]*[A-Z][A-Za-z]*)", journal)
    if short is None:
        return None
    closing = re.compile(rf"\({re.escape(short.group('acronym'))}\b[^()]*\)$")
    whole = [name for name in pages if name.startswith(f"{short.group('opening')} of ") and closing.search(name)]
    return max(whole, key=len) if whole else None


# an issue line that names no journal ("Vol. 29 no. 9 2013, pages 1215–1217"), the masthead's name set beside it
# in display type (OUP's Bioinformatics), the article's type after the name ("APPLICATIONS NOTE", "ORIGINAL PAPER")
_BARE_ISSUE = re.compile(
    rf"^(?i:vol(?:ume)?)\.?\s*\d+(?:,?\s*(?i:no|issue)\.?\s*\d+)?,?\s*\(?{YEAR}\)?"
    r"(?:,\s*(?i:pages|pp)\.?\s*[A-Za-z]?\d+(?:\s*[–-]\s*[A-Za-z]?\d+)?)?$"
)
_ARTICLE_TYPE = re.compile(
    r"\s+(?:applications?|discovery|original|research|review|brief|short)\s+(?:note|paper|article|communication)$", re.I
)
#: words of an article type's banner, never of the journal's name left beside it ("ORIGINAL
#: RESEARCH ARTICLE", "MINI REVIEW ARTICLE", "OPEN ACCESS RESEARCH ARTICLE")
_TYPE_WORDS = frozenset({
    "original", "research", "review", "mini", "full", "length", "open", "access", "case", "report", "brief", "short", "special",
    "issue", "rapid", "letter", "communication", "article", "paper", "note", "editorial", "perspective", "commentary", "technical", "systematic",
})  # fmt: skip


def _masthead_beside_issue(lines: list[tuple[int, str]]) -> tuple[str, int] | None:
    """(journal, year) of a masthead that sets the journal's name in capitals, its article type
    after it, beside an issue line that names none (Bioinformatics: "BIOINFORMATICS APPLICATIONS
    NOTE" at the left, "Vol. 29 no. 9 2013, pages 1215–1217" at the right): among the first
    page's top lines, the name without the article's type, and the issue line's year."""
    head = [text.strip() for page, text in lines if page == 1][:4]
    issue = next((match for text in head if (match := _BARE_ISSUE.match(text))), None)
    if issue is None:
        return None
    for text in head:
        name = _ARTICLE_TYPE.sub("", text)
        typed = any(word.lower().strip("-") in _TYPE_WORDS for word in name.split())
        if name != text and text.isupper() and _NAME_ALONE.match(name) and not _NOT_FIRST.match(name) and not typed:
            return (name.title() if " " not in name else _clean(name)), int(issue.group("year"))
    return None


def _cut_at_the_end(journal: str, lines: list[tuple[int, str]]) -> bool:
    """Whether a line prints ``journal`` with a full stop after its last word and a citation's
    numbers after that ("Cancer Med. 2019;8:1234"): the last word is an abbreviation, though the
    name as read lost the stop; a sentence's end ("… cancer med. The") is not one."""
    cut = re.compile(rf"(?<!\w){re.escape(journal)}\.\s*[(\d]")
    return any(cut.search(text) for _, text in lines)


def _after_title(boxed: str, pages: dict[str, set[int]]) -> str:
    """The boxed citation's journal without the end of a title in capitalised words that ran
    into it (MDPI: "Citation: Berg, A.; Dahl, C. Invented Title in Capitals. Nutrients 2021, 13,
    1234." reads "Invented Title in Capitals. Nutrients"): the longest name read elsewhere (the
    running foot's "Nutrients 2021, 13, 1234") that ends the boxed one after a full stop, where what
    it leaves reads as a title, three words or more, the last a whole word: an abbreviated name's
    first words are none ("Int. J. Phytopharm", its box wrapped after "Int.", the next line's
    "J. Phytopharm 2011, 302:1" read alone)."""
    shorter = [name for name in pages if boxed.endswith(f". {name}") and _title_before(boxed[: -len(name) - 2])]
    return max(shorter, key=len) if shorter else boxed


def _title_before(text: str) -> bool:
    words = text.split()
    return len(words) >= 3 and len(words[-1].strip(".,:")) >= 5


# a template's masthead prints placeholders for the numbers a paper gets when published ("Condensed Matter
# Physics, ????, Vol. ?, No. ?, ?????: 1–10", "ISRAEL JOURNAL OF MATHEMATICS VOL (YEAR), 1–49"): the
# journal is printed all the same; a year's placeholder stands for no year
_YEAR_PLACEHOLDER = re.compile(r"(?<![\w?])(?:\?{4}|YEAR|YYYY)(?![\w?])")
_NUMBER_PLACEHOLDER = re.compile(r"(?<![\w?])\?+(?![\w?])")
_NO_YEAR = 1900  # what a year's placeholder is read as, then dropped
# a draft's masthead with its volume and issue as zeros, its year a placeholder too ("TUGboat, Volume 0 (2060), No. 0",
# "Volume 0 (2001), No. 0" on a 2004 draft): the journal is named, no year given
_VOLUME_ZERO = re.compile(r"\bVol(?:ume|\.)?\s*0\b(?!\.\d)")
_MEETING_YEAR = re.compile(rf"\bProceedings\s+of\s+the\s+{YEAR}\b", re.I)


def _journal_line(text: str, *, first_page: bool = True, metadata: bool = False) -> tuple[str, int | None, str | None, bool] | None:
    """(journal, year, date, from a citation box) where ``text`` prints the paper's citation, or
    a template's masthead with placeholders for its numbers (no year, then); citation boxes and the
    proceedings' lines count on the ``first_page`` only, the shapes of :data:`_METADATA_LINES` in an
    Info or XMP field only."""
    found = _citation_line(text, first_page=first_page, metadata=metadata)
    if found is not None and _VOLUME_ZERO.search(text):
        # a draft's masthead ("TUGboat, Volume 0 (2060), No. 0"); the year of the meeting whose proceedings it names
        # stands ("Volume 0 (2001), No. 0 — Proceedings of the 2001 Annual Meeting")
        meeting = _MEETING_YEAR.search(text)
        return found[0], int(meeting.group("year")) if meeting else None, None, found[3]
    if found is not None or metadata:
        return found
    filled = _NUMBER_PLACEHOLDER.sub("0", _YEAR_PLACEHOLDER.sub(str(_NO_YEAR), text))
    if filled == text or (found := _citation_line(filled, first_page=first_page, metadata=False)) is None:
        return None
    journal, year, date, cued = found
    return journal, None if year == _NO_YEAR else year, date, cued


def _citation_line(text: str, *, first_page: bool, metadata: bool) -> tuple[str, int | None, str | None, bool] | None:
    """:func:`_journal_line` on the line as printed (an ISSN before a masthead's name set aside:
    "ISSN: 0975-1491 Int J Pharm Pharm Sci, Vol 6, Issue 2, 2014"). A citation box is read on past
    a first match that is none (the authors and their year: "Berg A, Dahl C (2016) Title. Journal
    11(3): e0151234"), where no shape matches otherwise."""
    text = _LEADING_ISSN.sub("", text) if not metadata else text
    cue = CUE.search(text) if first_page else None
    candidates = [(pattern, cue.group("rest"), True) for pattern in _CITED] if cue else []
    candidates += [(_EDITED, text, True)] if first_page and not metadata else []
    candidates += [(pattern, text, True) for pattern in _NOTES] if first_page and not metadata else []
    candidates += [(pattern, text, False) for pattern in _FIRST_PAGE_LINES] if first_page else []
    shapes = _JOURNAL_LINES + _METADATA_LINES if metadata else _JOURNAL_LINES
    candidates += [(pattern, text, False) for pattern in shapes]
    for pattern, where, cued in candidates:
        match = pattern.search(where)
        found = _matched_citation(match, where, cued) if match else None
        if found is not None:
            return found
    later = [(pattern, where) for pattern, where, cued in candidates if cued] if cue else []
    for pattern, where in later:
        for match in islice(pattern.finditer(where), 1, None):
            if _inside_abbreviation(match, where):
                continue
            if (found := _matched_citation(match, where, True)) is not None:
                return found
    return None


# an abbreviated word closing what comes before a match, and one opening the match: "J. Geophys. Res."
_ABBREVIATION_BEFORE = re.compile(r"\b[A-Z][a-z]*\.\s$")
_ABBREVIATION = re.compile(r"[A-Z][a-z]*\.")


def _inside_abbreviation(match: re.Match[str], where: str) -> bool:
    """Whether a later match's journal starts inside an abbreviated name ("Res. Oceans" of "J. Geophys. Res. Oceans")."""
    return bool(_ABBREVIATION_BEFORE.search(where[: match.start("journal")]) and _ABBREVIATION.match(match.group("journal")))


# an ISSN before a masthead's abbreviated name and its volume (Indian pharmacy journals' heads)
_LEADING_ISSN = re.compile(r"^(?:[ep]-?)?ISSN\s*[:-]?\s*\d{4}-?\d{3}[\dXx]\s+(?=[A-Z])")
# the end of a title in capitalised words that ran into a boxed citation's journal ("… Synthesis of Metallic
# Nanoparticles. Archives of Physical Medicine …"): a full stop after a whole word, never an abbreviation's
# ("Spectrochim. Acta", "Philos. Trans. R. Soc.")
_TITLE_END = re.compile(r"^.*\b[A-Za-z]{5,}(?:s|y|e|ing|ed|ion)\.\s+(?=[A-Z][^\s.]*(?:\s|$))")


def _matched_citation(match: re.Match[str], where: str, cued: bool) -> tuple[str, int | None, str | None, bool] | None:
    """(journal, year, date, cued) of one match of a citation's shape, or None where the name or
    its numbers tell it is none (:func:`_citation_line`)."""
    journal = _VOLUME_WORD.sub("", _clean(_VOLUME_PART.sub("", match.group("journal"))))
    journal = (_TITLE_END.sub("", journal) or journal) if cued else journal
    words = 30 if _LONG_NAME.match(journal) else 16
    if journal.lower() in _NOT_JOURNALS or _NOT_FIRST.match(journal) or len(journal) < 3 or len(journal.split()) > words:
        return None
    if _VERSIONED.search(journal) or _OWN_NAME.search(journal):
        return None  # a manual's version line: "TREE-PUZZLE Manual Version 5.2 (July 2004)"; a vignette's foot: "RcppGSL Vignette | …"
    groups = match.groupdict()
    if groups.get("end") == "" and not match.group("journal").endswith(".") and not _JOURNAL_WORD.search(journal):
        return None  # a footnote's name at the line's end, perhaps wrapped: "… in Computational Statistics and Data"
    if groups.get("bib") is not None:
        numbers = re.findall(r"\d+", groups["bib"])
        alone = _YEAR_ALONE.search(groups["bib"])
        if len(numbers) < 2 or not (alone or cued) or all(_ANY_YEAR.fullmatch(number) for number in numbers):
            return None  # years alone are an author-year citation: "Cameron and Trivedi (1998, 2005)"
        if _DATE_ALONE.fullmatch(groups["bib"]):
            return None
        groups["year"] = (alone.group(1) or alone.group(2)) if alone else None
    date = groups.get("date")
    year = groups.get("year") or (date or "")[-4:]
    if not year.isdigit():
        found = _ANY_YEAR.search(groups.get("tail") or "") or (_ANY_YEAR.search(where) if cued else None)
        year = found.group(1) if found else ""
    return journal, int(year) if year.isdigit() else None, date, cued


def _without_authors(journal: str, surnames: frozenset[str]) -> str:
    """``journal`` without the authors' names a running head prints before it ("Mao and Zhan
    Journal of …", "Smith Journal of …"): one or two of ``surnames``, then the name."""
    match = re.match(r"^(?P<first>[\w’'-]+)(?:\s+(?:and|&)\s+(?P<second>[\w’'-]+))?\s+(?=[A-Z])", journal)
    if match is None or match.group("first").lower() not in surnames:
        return journal
    if match.group("second") and match.group("second").lower() not in surnames:
        return journal
    rest = journal[match.end() :]
    return rest if len(rest.split()) >= 1 and len(rest) >= 3 else journal


def _clean(name: str) -> str:
    """The journal's name as it is written: spaces single, no trailing marks, capitals title-cased;
    an acute accent set alone is TeX's apostrophe ("EuroTEX´99")."""
    name = " ".join(name.split()).strip(" ,.").replace("´", "'")
    if sum(ch.isupper() for ch in name) > 0.8 * sum(ch.isalpha() for ch in name) and len(name.split()) >= 2 and len(name) > 8:
        words = [
            word.lower() if word.lower() in _SMALL and index else "—".join(part.capitalize() for part in word.split("—"))
            for index, word in enumerate(name.split())
        ]
        name = " ".join(words)
    return name


# a running head or foot of the journal's name alone: "Journal of Heat Transfer", "IEEE TRANSACTIONS ON …"
_NAME_ALONE = re.compile(rf"^{_J}$")
_JOURNAL_WORD = re.compile(rf"\b{_JOURNAL_WORDS}\b")


def _name_alone(lines: list[tuple[int, str]]) -> str | None:
    """A journal's name printed alone in the heads or feet of two pages or more (ASME's feet:
    "Journal of Heat Transfer" beside the copyright line), where no line gives its citation:
    two words or more, one of them a journal's word; the one on most pages."""
    pages: dict[str, set[int]] = {}
    for page, text in lines:
        match = _NAME_ALONE.match(text.strip())
        if match and page >= 1 and len(match.group("journal").split()) >= 2 and _JOURNAL_WORD.search(text):
            pages.setdefault(_clean(match.group("journal")), set()).add(page)
    repeated = [name for name, found in pages.items() if len(found) >= 2]
    return max(repeated, key=lambda name: len(pages[name])) if repeated else None


def _named_in_info(lines: list[tuple[int, str]], metadata: dict[str, str]) -> str | None:
    """The journal the Info or XMP subject names alone where the later pages' heads print the
    same name alone (Hindawi's "Rehabilitation Research and Practice" in both, its page heads
    "2" / "Rehabilitation Research and Practice"): a name with no journal word is read so, where
    the two agree. A subject field alone may hold a field of study ("Probability Theory"), a
    running head alone a short title; neither is read without the other."""
    for key in ("Subject", "xmp:description"):
        match = _NAME_ALONE.match(" ".join(metadata.get(key, "").split()))
        if not match or len(match.group("journal").split()) < 2:
            continue
        name = match.group("journal").lower()
        if len({page for page, text in lines if page >= 2 and text.strip().lower() == name}) >= 2:
            return _clean(match.group("journal"))
    return None


def _masthead_alone(lines: list[tuple[int, str]]) -> str | None:
    """A journal's name alone as the first page's first line of words, its masthead without the
    volume (a young journal's template: "North-Western European Journal of Mathematics" over its
    logo's letters), where no line gives the paper's citation: the name with the word "journal"
    in it, which a title seldom has (a title in capitals over the page may read "Advances in …",
    "Letters on …"), set over the page's other lines (a line alone says nothing of where it
    stands). :func:`.citation_lines.citation_lines` gives the first page's lines from the top down."""
    texts = [text.strip() for page, text in lines if page == 1]
    first = next((index for index, text in enumerate(texts) if len(text.split()) >= 2), len(texts))
    match = _NAME_ALONE.match(texts[first]) if first < len(texts) - 1 else None
    return _clean(match.group("journal")) if match and re.search(r"(?i)\bjournal\b", match.group()) else None
