"""A numbered section set after the reference list (a vignette's "4.8 Changes" after its
bibliography) opens a section of its own: inside the list a numbered line in a plain face is
usually an entry, but an entry's number has no levels and is set at the list's size."""

from __future__ import annotations

import textwrap
from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf

_TEXT = (
    "The consensus matrices are drawn as heat maps, one for each number of clusters, and the items are ordered by "
    "the clusters they fall in so that the blocks along the diagonal show how stable each cluster is across the runs."
)
_ENTRIES = [
    "[1] Monti, S., Tamayo, P., Mesirov, J., Golub, T. (2003) Consensus Clustering: A resampling-based method",
    "     for class discovery and visualization of gene expression microarray data. Machine Learning, 52, 91-118.",
    "[2] Wilkerson, M.D., Hayes, D.N. (2010). ConsensusClusterPlus: a class discovery tool with confidence",
    "     assessments and item tracking. Bioinformatics, 26 (12), 1572-1573.",
    "[3] http://www.broadinstitute.org/cancer/software/genepattern/",
]


def _pages() -> bytes:
    canvas = Canvas(612, 792)
    canvas.text(72, 60, "A Tutorial on Clustering Samples", "Helvetica", 17)
    y = 100.0
    for heading in ("4.6 Tracking Plot", "4.7 Item-Consensus Plot"):
        canvas.text(72, y, heading, "Helvetica", 10.2)
        y += 18
        for line in textwrap.wrap(_TEXT, 95):
            canvas.text(72, y, line, "Times-Roman", 8.8)
            y += 12
        y += 10
    canvas.text(72, y, "References", "Helvetica", 10.2)
    y += 18
    for entry in _ENTRIES:
        canvas.text(72, y, entry, "Times-Roman", 8.6)
        y += 12
    y += 14
    canvas.text(72, y, "4.8 Changes", "Helvetica", 10.2)
    y += 18
    for line in (
        "Version 1.0.1. Item-consensus calculation was corrected and the heat maps match the scale.",
        "Version 1.5.1. The changes of version 1.0.1 were put back into the release of the package.",
    ):
        canvas.text(72, y, line, "Times-Roman", 8.8)
        y += 12
    return write_pdf([canvas], "Clustering")


def test_a_numbered_section_after_the_reference_list_is_a_section(tmp_path: Path) -> None:
    path = tmp_path / "vignette.pdf"
    path.write_bytes(_pages())
    document = parse_pdf(path)
    titles = [section.title for section in document.sections]
    assert titles[-1] == "Changes"  # was joined to the last entry's link, "…/genepattern/4.8 Changes …"
    assert "Item-consensus calculation" in document.sections[-1].text
    references = next(section for section in document.sections if section.title == "References")
    assert "Changes" not in references.text
    assert len(document.references) == 3
