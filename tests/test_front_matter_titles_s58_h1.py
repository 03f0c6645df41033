"""Title pages of vignettes and notes. LaTeX's ``\\maketitle`` sets a title in large type over a
line of names and a line of dates; a vignette labels its dates ("Modified: April 10, 2017. Compiled:
April 24, 2017", "Created on 18th September 2015, this update of 30th January 2020"). Such a line,
a size over the body's, is never the title; a title of one word (a package's name: NanoStringQCPro's
page prints "NacoStringQCPro") over the names and the dates is the title, as one of two words is;
and a title's sentence that goes on in a smaller line opening with a conjunction in lower case
("… distributions" / "when we want to fix skewness …") goes on in the title."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.journal import date_line
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import glyph_pdf

_BODY = (
    "The package reads the files of an expression assay and performs the recommended background correction",
    "and normalization, and it writes a report with the metrics that help to find outlying samples and probes",
    "whose signals lie within the noise. The overall workflow is outlined in the figure on the next page.",
    "Each step can be run alone, and each writes its results into the set that the next step reads from.",
)


def _centred(y: float, size: float, text: str) -> tuple[float, float, float, str, str]:
    """A line of Helvetica centred on the page (its glyphs about 0.5 em wide)."""
    return (306 - len(text) * size * 0.25, y, size, text, "Helvetica")


def _maketitle_page(title: str, dates: str) -> bytes:
    items = [
        _centred(700, 16, title),
        _centred(664, 11, "Dorothee Nickles, Thomas Sandmann, Robert Ziman, Richard Bourgon"),
        _centred(634, 11, dates),
    ]
    items += [(72, 580 - 13 * n, 9.5, line, "Helvetica") for n, line in enumerate(_BODY)]
    return glyph_pdf(items)


def test_a_title_of_one_word_over_the_names_and_a_labelled_date(tmp_path: Path) -> None:
    path = tmp_path / "maketitle.pdf"
    path.write_bytes(_maketitle_page("Qualimetrics", "Modified: April 10, 2017. Compiled: April 24, 2017"))
    document = parse_pdf(path)
    assert document.title == "Qualimetrics"
    assert [author.name.split()[-1] for author in document.authors] == ["Nickles", "Sandmann", "Ziman", "Bourgon"]


def test_a_line_of_labelled_dates_is_never_the_title(tmp_path: Path) -> None:
    # a name in large type over the dates, no byline between them: not \\maketitle's title, and the dates are none either
    items = [_centred(700, 16, "Qualimetrics"), _centred(664, 11, "Created on 18th September 2015, this update of 30th January 2020")]
    items += [(72, 610 - 13 * n, 9.5, line, "Helvetica") for n, line in enumerate(_BODY)]
    path = tmp_path / "dated.pdf"
    path.write_bytes(glyph_pdf(items))
    assert parse_pdf(path).title is None


def test_date_lines_hold_only_dates_and_their_labels() -> None:
    assert date_line("Modified: April 10, 2017. Compiled: April 24, 2017")
    assert date_line("Last modified 2022-09-20")
    assert date_line("10 October 2012")
    assert not date_line("For gnm version 1.1-2 , 2022-04-29")
    assert not date_line("Results of the survey of March 11, 2011")
    assert not date_line("Modified gravity models")


def test_a_title_goes_on_in_a_smaller_line_that_goes_on_with_its_sentence(tmp_path: Path) -> None:
    items = [
        _centred(700, 16.7, "How to sample from the SN and related distributions"),
        _centred(680, 13.9, "when we want to fix skewness and other cumulants"),
        _centred(650, 11.6, "Adelchi Azzalini"),
    ]
    items += [(72, 600 - 13 * n, 10.5, line, "Helvetica") for n, line in enumerate(_BODY)]
    path = tmp_path / "sentence.pdf"
    path.write_bytes(glyph_pdf(items))
    assert parse_pdf(path).title == "How to sample from the SN and related distributions when we want to fix skewness and other cumulants"
