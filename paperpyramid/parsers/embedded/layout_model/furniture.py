"""Running heads and feet the model sees that the text-layer heuristics miss.

:func:`~paperpyramid.parsers.embedded.reading_order.remove_page_furniture` drops a line of the
page's top or bottom band when its text recurs there on several pages. It keeps what does
not recur (a first page's masthead: publisher, volume, DOI line, journal logo) and what
stands outside the band (the heads of landscape pages). The model's ``header`` and ``footer``
regions find both; a line inside one is furniture when it also stands near the page's top
or bottom edge and is not a caption (the model reads "Table 1: ..." at a page's top as a
header), measured by ``benchmarks/layout_model.py``: on 24 PMC papers it drops 69 lines the
parser keeps on first pages and odd-sized pages, all of them furniture, and on the other pages
8 lines, 5 of them body text (headings, a competing-interests note); hence
:func:`uncertain_pages`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.layout_model.boxes import LayoutRegion

__all__ = ["FURNITURE_KINDS", "model_furniture", "uncertain_pages"]

FURNITURE_KINDS = frozenset({"header", "footer"})
#: share of the page's height, from the top or bottom edge, a model-flagged line must stand in
EDGE_BAND = 0.12
_CAPTION_START = re.compile(r"^\s*(?:table|tab\.|fig\.?|figure|scheme|chart)\s*[A-Z]?\d+[a-z]?\b", re.IGNORECASE)


def model_furniture(lines: Sequence[Line], regions: Sequence[LayoutRegion], height: float) -> list[Line]:
    """The lines of one page that are its head or foot by the model: centred in a ``header``
    or ``footer`` region, within :data:`EDGE_BAND` of the page's top or bottom, not a caption."""
    furniture = [region for region in regions if region.kind in FURNITURE_KINDS]
    return [
        line
        for line in lines
        if (line.top < height * EDGE_BAND or line.bottom > height * (1 - EDGE_BAND))
        and not _CAPTION_START.match(line.text)
        and any(region.holds((line.x0 + line.x1) / 2, (line.top + line.bottom) / 2) for region in furniture)
    ]


def uncertain_pages(pages: Sequence[Page]) -> list[int]:
    """The numbers of the pages whose furniture the heuristics are unsure of: the first (its
    masthead does not recur) and those whose size differs from the paper's usual page (a
    landscape page's head stands outside the band)."""
    sizes = Counter((round(page.width), round(page.height)) for page in pages)
    usual = sizes.most_common(1)[0][0] if sizes else None
    return [page.number for page in pages if page.number == 1 or (round(page.width), round(page.height)) != usual]
