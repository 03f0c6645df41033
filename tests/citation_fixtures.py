"""The reference lists and the one-paragraph paper the citation tests build on, in one place.

:data:`CITATION_ORDER` is a list numbered in order of first citation, as biomedical journals
print it; :data:`NUMBERED` is its first nine, the markers' tests' list. :func:`one_paragraph`
builds a paper as the embedded parser leaves it: one body paragraph (with the raised numbers the
parser saw, or None where it did not look) and the list, its entries read by the parser's own
``parse_reference`` and keyed by their printed numbers.
"""

from __future__ import annotations

from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.references import parse_reference

CITATION_ORDER = [
    "Smith J, Jones K. Growth of seedlings under shade. J Ecol. 2019;12:1-9.",
    "Lee A. Soil cores and what they hold. Soil Res. 2020;4:22-30.",
    "Okafor C, Chen L, Rossi M. Pollinator visits in meadows. Oecologia. 2015;7:100-110.",
    "Novak P. Alder carr hydrology. Wetlands. 2011;3:5-15.",
    "Tanaka K, Silva E. Counting beetles at night. Insect Sci. 2008;9:40-48.",
    "Byrne D. A field guide to moss. Bryologist. 2001;2:1-200.",
    "Iyer R, Moreau A. Leaf litter decay rates. Ecosystems. 2017;5:60-70.",
    "Haddad H. Mapping hedgerows from the air. Remote Sens. 2012;8:11-19.",
    "Lindqvist S. Winter survival of voles. Mammal Rev. 2005;1:3-9.",
    "Moreau A. Hedgerow birds in winter. Ibis. 2003;6:1-12.",
    "Costa F. Moth counts under street lights. J Insect Conserv. 2016;3:2-9.",
    "Walsh P. Bog moss growth rates. Mires Peat. 2010;5:1-7.",
]
NUMBERED = CITATION_ORDER[:9]


def one_paragraph(text: str, entries: list[str], raised: tuple[tuple[str, str], ...] | None = None) -> Document:
    """An introduction of one paragraph, ``text`` with its ``raised`` numbers, and ``entries``
    as a list numbered from 1."""
    references = [parse_reference(f"{number}. {raw}") for number, raw in enumerate(entries, 1)]
    for number, entry in enumerate(references, 1):
        entry.key = str(number)
    body = Section("Introduction", number="1", blocks=[Block(text, 1, raised=raised)])
    listed = Section("References", number="ref", blocks=[Block(entry.raw, 2, "list_item") for entry in references])
    return Document(sections=[body, listed], references=references)
