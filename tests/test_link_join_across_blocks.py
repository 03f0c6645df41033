"""A URL or DOI broken across two blocks (a column or page break inside it, or its rest set in a
block of its own) is joined whole where the paragraph's halves meet again, and a block that ends a
sentence with a whole link stays apart from the next. The pairs are the two blocks' ends as real
papers printed them: batch 1's JACoW template and ACM sample, batch 2's Philosophers' Imprint
sample, batch 5's JSS metafor and brms papers, batch 6's expint vignette, batch 9's metagenomeSeq
vignette, batch 11's TREE-PUZZLE manual, the corpus's SPECTER paper; the pairs kept apart are
batches 3 to 10's (JSS addresses, R Journal and JSS entries, notes, a manual's next paragraph)."""

from __future__ import annotations

import pytest

from paperpyramid.document import Block, Document, Section
from paperpyramid.parsers.embedded.assembly import merge_continuations
from paperpyramid.parsers.embedded.blocks import join_lines


def _merged(first: str, second: str) -> list[str]:
    document = Document(pages=2)
    document.sections = [Section("Software", blocks=[Block(first, 1), Block(second, 2)])]
    merge_continuations(document)
    return [block.text for block in document.sections[0].blocks]


JOINED = [
    # the scheme alone, its "//" in the next block
    (
        "first check for it at the UK TUG FAQ https:",
        "//texfaq.org/FAQ-man-latex. If that does not help,",
        "https://texfaq.org/FAQ-man-latex.",
    ),
    ("used by the QTDT software package (http:", "//www.sph.umich.edu/statgen/abecasis/QTDT/).", "(http://www.sph.umich.edu/"),
    # a host broken at its dots, its rest opening in lower case or in capitals
    (
        "To submit a paper, visit http://www.",
        "philosophersimprint.org/submissions/, fill out the form",
        "http://www.philosophersimprint.org/submissions/,",
    ),
    ("(ftp://rdp.life.uiuc.", "edu/pub/RDP/programs/TreeTool) to display the trees.", "(ftp://rdp.life.uiuc.edu/pub/RDP/"),
    (
        "available from CRAN at http://CRAN.",
        "R-project.org/package=metafor, the author's website",
        "http://CRAN.R-project.org/package=metafor,",
    ),
    ("Finance, 2012. URL https://cran.r-project.", "org/package=frmqa. R package.", "https://cran.r-project.org/package=frmqa."),
    # a file's ending alone after the link's full stop
    ("Scholarly Communication, http://www.arl.org/scomm/change.", "html; Anne M. Buck and others", "http://www.arl.org/scomm/change.html;"),
    # after a path's "/" and a DOI's prefix
    (
        "the model released by the authors: https://github.com/",
        "UKPLab/sentence-transformers",
        "https://github.com/UKPLab/sentence-transformers",
    ),
    ("can be found at: http://gordonlab.wustl.edu/", "TurnbaughSE_10_09/STM_2009.html", "http://gordonlab.wustl.edu/TurnbaughSE_10_09/"),
    ("Phys. Rev. Lett., vol. 114, p. 050511, 2014. doi:10.", "1103/PhysRevLett.114.050511", "doi:10.1103/PhysRevLett.114.050511"),
]


@pytest.mark.parametrize(("first", "second", "whole"), JOINED)
def test_a_link_broken_across_two_blocks_is_joined_whole(first: str, second: str, whole: str) -> None:
    texts = _merged(first, second)
    assert len(texts) == 1
    assert whole in texts[0]


APART = [
    # a whole link ends the sentence; a paragraph, a note or an entry follows
    ("E-mail: Achim.Zeileis@R-project.org URL: https://www.zeileis.org/", "1Due to the use of estimating functions, this"),
    ("instructions on http://compbio.bccrc.ca/software/hmmcopy/", "Then, find the log ratio at each position"),
    ("URL: https://tu-dresden.de/Members/thomas.petzoldt/", "R. Woodrow Setzer National Center for Computational"),
    ("48(6), 1–29. URL http://www.jstatsoft.org/v63/i14/.", "J.J.J.C Snepvangers, G.B.M Heuvelink, and J.A Huisman"),
    ("Systems, 16. URL http://www.kyb.mpg.de/publications/pdfs/pdf2334.pdf.", "1http://www.csie.ntu.edu.tw/~cjlin/libsvm/"),
    ("(2012). “Eigen v3.” URL https://eigen.tuxfamily.org.", "ISO/IEC (2011). “C++ 2011 Standard Document 14882:"),
    ("Epidemics 9: 1–7. https://doi.org/10.1016/j.epidem.2014.08.002.", "de Greeff, S. C., P. F. M. Teunis, H. E. de Melker"),
    ("Privacy, May 2015. doi: 10.1109/SP.2015.10.", "M.-W. Shih, S. Lee, T. Kim, and M. Peinado. T-SGX:"),
    ("see http://www.ling.upenn.edu/advice/latex/qtree/.", "Qtree.sty is a LATEX package. It should be installed"),
    ("Online, http://", "Ward (1999). The variables COWSMONTH and COWEMONTH"),
    # a paragraph opening with a decimal or an abbreviation: a dot between digits or single letters is no host's
    ("The spectra are deposited at http://www.x.org.", "2.5 mg of the compound were dissolved in water"),
    ("The code is at http://www.x.org.", "e.g. the fits of Table 2 can be rerun from it"),
    # the link closed with its bracket before the full stop; a function's name opens the next paragraph
    ("package (http://www.sph.umich.edu/statgen/abecasis/QTDT/).", "write.marker.file Creates a marker data file"),
]


@pytest.mark.parametrize(("first", "second"), APART)
def test_a_block_that_ends_on_a_whole_link_stays_apart(first: str, second: str) -> None:
    assert _merged(first, second) == [first, second]


def test_a_block_opened_by_a_links_rest_joins_its_own_lines_whole() -> None:
    """The block after "(http:" opens with the link's "//": its own line break inside the link is
    joined whole before the blocks are (batch 9's R News genetics article)."""
    second = join_lines(["//www.sph.umich.edu/statgen/abecasis/", "QTDT/)."])
    assert second == "//www.sph.umich.edu/statgen/abecasis/QTDT/)."
    assert _merged("as used by the QTDT software package (http:", second) == [
        "as used by the QTDT software package (http://www.sph.umich.edu/statgen/abecasis/QTDT/)."
    ]
