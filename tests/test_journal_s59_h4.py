"""The journal where biomedical publishers print it: each case is a failure class of the journal
probe (``benchmarks/journal_probe.py``), with real journal names and made-up articles."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.journal import find_journal


@pytest.mark.parametrize(
    ("line", "journal", "year"),
    [
        # an Indian pharmacy journal's head: the ISSN before the abbreviated name and its volume
        ("ISSN: 0975-1491 Int J Pharm Pharm Sci, Vol 6, Issue 2, 2014, 12-15", "Int J Pharm Pharm Sci", 2014),
        # a journal whose abbreviation opens with "Mar." (Marine), no month
        ("Mar. Drugs 2019, 17, 123", "Mar. Drugs", 2019),
        # the small words of a Portuguese or German name
        ("Revista de Saúde Pública 2016;50:12", "Revista de Saúde Pública", 2016),
        ("Zeitschrift für Naturforschung 2004;59:120–125", "Zeitschrift für Naturforschung", 2004),
    ],
)
def test_a_head_line_names_its_journal(line: str, journal: str, year: int) -> None:
    assert find_journal([(1, line)], {})[:2] == (journal, year)


@pytest.mark.parametrize(
    ("box", "journal"),
    [
        (  # PLOS's box: the authors and their year first ("Novak C (2016)" is no journal), then the title and the journal
            "Citation: Berg A, Novak C (2016) Resurgence of Pseudoperonospora cubensis: the causal agent of cucurbit downy mildew. "
            "The Journal of Bone and Joint Surgery 287(12): e79184. https://doi.org/10.1287/j.79184",
            "The Journal of Bone and Joint Surgery",
        ),
        (  # BMC's box: a title in capitalised words ends with a full stop before the journal
            "Cite this article as: Lund et al.: Secondary Metabolites in the Green Synthesis of Metallic Nanoparticles. "
            "Archives of Physical Medicine and Rehabilitation 2001, 82:4",
            "Archives of Physical Medicine and Rehabilitation",
        ),
        (  # a journal's series after a colon
            "Cite this article as: Lund et al.: Plasmapheresis for pancreatitis. Journal of the Royal Statistical Society: Series B 2003, 65:7",
            "Journal of the Royal Statistical Society: Series B",
        ),
    ],
)
def test_a_citation_box_names_its_journal(box: str, journal: str) -> None:
    assert find_journal([(1, box)], {})[0] == journal


def test_a_masthead_over_its_publishers_copyright_line_names_the_journal() -> None:
    # Oxford's masthead: the name, then "© The Author(s) 2019. Published by Oxford University Press …"
    line = "Rheumatology © The Author(s) 2019. Published by Oxford University Press on behalf of the British Society."
    assert find_journal([(1, line)], {})[:2] == ("Rheumatology", 2019)


def test_a_name_over_a_copyright_line_that_names_no_publisher_is_no_journal() -> None:
    # a byline over a copyright line: no "Published by", no journal's word
    assert find_journal([(1, "Anna Example © 2019 Anna Example")], {})[0] is None


def test_a_boxed_abbreviation_wrapped_after_its_first_word_keeps_it() -> None:
    # the box wraps after "Int."; its next line read alone ("J. Phytopharm 2011, 302:1") is no shorter name for it
    box = "Cite this article as: Berg et al.: Synthesis of gold nanoparticles by an actinomycete, Rhodococcus species. Int."
    lines = [(1, box), (1, "J. Phytopharm 2011, 302:1"), (1, f"{box} J. Phytopharm 2011, 302:1")]
    assert find_journal(lines, {})[0] == "Int. J. Phytopharm"
