"""The LaTeX source parser: a source bundle (directory, tar, ``.tex``, gzipped ``.tex``) to a
:class:`~paperpyramid.document.Document`, with pages from the paper's PDF when it is given.

    document = parse_source(Path("2004.14974.tar.gz"), pdf=Path("2004.14974.pdf"))
    document.parser  # "latex+pdf"
"""

from paperpyramid.parsers.latex.limits import BadSource, LatexLimits
from paperpyramid.parsers.latex.page_finder import PagePlacement, assign_pages
from paperpyramid.parsers.latex.parser import NAME, parse_source

__all__ = ["NAME", "BadSource", "LatexLimits", "PagePlacement", "assign_pages", "parse_source"]
