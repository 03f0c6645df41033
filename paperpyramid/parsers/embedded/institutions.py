"""What an institution or an address looks like on a title page: the words that tell an
affiliation from a name.

One vocabulary for the readers of the front matter: the byline's (:mod:`.authors`), which stops
at an affiliation; the names' (:mod:`.author_names`), where a group's name holds no institution
besides; and the headings', where a numbered affiliation is no section (:func:`affiliation_like`).
"""

from __future__ import annotations

import re

# (an institution's word ends there: "Groupleader", "Laborator" are names)
AFFILIATION = re.compile(
    r"\b(universit|institut|departament|department|dept\b|school|college|laborator(?:y|ies|io|ium|ie|i\b)|hospital|centre|center|faculty"
    r"|division|academy|corporation|clinic|ministry|groupe?s?\b"
    r"|ltd\b|pvt\b|inc\b|gmbh\b|llc\b|r&d\b|company|foundation|industrial area|road\b|street\b|avenue\b"
    # a German company's legal form closing its name ("Epigenomics AG", "Bayer AG, Leverkusen"), never initials ("AG Smith")
    r"|(?-i:KGaA(?=\s*(?:[,;)]|$))|AG(?=,\s*[A-Z][a-z]+(?:\s*[,;)]|\s*$))|^[^,\d]+\sAG$))",
    re.I,
)


# more institutions, in the names' zone only (a numbered heading may begin "Association of …, …"; "Unit
# root tests, …" may head a section): a research unit ("MRC Biostatistics Unit"), a lab ("Sandia National Labs",
# "MIT Media Lab": a byline's "Mike Brown, Sandia National Labs, April 2007" names one person) and the German
# university's department, chair and section ("Fachbereich Statistik", "Lehrstuhl für …", "Abteilung …")
INSTITUTION = re.compile(
    r"\b(consortium|council|society|agency|organi[sz]ation|association|observatory|museum|units?\b|labs?\b|fachbereich|lehrstuhl|abteilung)",
    re.I,
)


# a street's number and name with the kind of street after it ("5465 Mark Dabling Blvd.", "77 Massachusetts Avenue"); not
# the kinds that are family names too (Lane, Way)
_STREET = r"(?<![\w.-])\d{1,5}\s+(?:[A-Z][\w'-]*\.?\s+){1,4}(?:Street|Avenue|Ave|Road|Rd|Boulevard|Blvd|Drive|Parkway|Pkwy|Highway|Hwy|Square|Terrace|Plaza)\b"
# a postal address: a postcode or street number of four to six digits (not an ORCID's groups), or
# a country closing the line after a comma ("…, 1043 NX Amsterdam, The Netherlands"), or a post
# office box with its number, or France's "cedex" (an address set without commas: "LORIA BP 239
# 54509 Vandœuvre-lès-Nancy cedex"), or a street (:data:`_STREET`)
ADDRESS = re.compile(
    _STREET
    + r"|\b(?:B\.?\s?P\.?|P\.?\s?O\.?\s?Box|Postfach)\s*\d+\b|\bcedex\b|(?<![\d-])\d{4,6}(?![\d-]).*,|,.*(?<![\d-])\d{4,6}(?![\d-])|,\s*(?:the\s+)?(?:USA|U\.S\.A\.|UK|U\.K\.|United States|United Kingdom|China|Japan|Germany"
    r"|France|India|Italy|Spain|Canada|Australia|Brazil|Netherlands|Switzerland|Sweden|Norway|Denmark|Finland|Austria|Belgium|Iceland"
    r"|Ireland|Israel|(?:South |Republic of )?Korea|Russia|Poland|Portugal|Greece|Turkey|Iran|Mexico|Argentina|Chile|Singapore|Taiwan"
    r"|Hong Kong|New Zealand|South Africa|Egypt|Nigeria|Kenya|Pakistan|Bangladesh|Thailand|Malaysia|Indonesia|Vietnam|Czech Republic"
    r"|Hungary|Romania|Ukraine|Saudi Arabia)\.?;?\s*$"
)


def names_institution(text: str) -> bool:
    """Whether ``text`` names an institution (:data:`AFFILIATION`, :data:`INSTITUTION`)."""
    return bool(AFFILIATION.search(text) or INSTITUTION.search(text))


def affiliation_like(text: str) -> bool:
    """Whether ``text`` reads as an affiliation: an institution word and an address's commas."""
    return bool(AFFILIATION.search(text)) and text.count(",") >= 1
