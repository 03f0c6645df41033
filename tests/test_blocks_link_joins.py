"""A URL or DOI broken at a line end is joined whole: url.sty and the publishers break a link after
"/", ".", "-" or "//" without a hyphen, and the space the joiner put there cost a reader the link and a
DOI matcher the DOI ("https:// doi.org", "j.1467- 9868", "osdi16/ technical-sessions", "http: //eprint").
The lines are real ones: dev's PLOS and BMC references, batch 8's R Journal and Elsevier references,
batch 12's hotos17."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.blocks import join_lines

BROKEN_LINKS = [
    # after "://": a BMC reference
    (
        ["Rice (N Y). 2015;8:30. https://", "doi.org/10.1186/s12284-015-0063-5."],
        "Rice (N Y). 2015;8:30. https://doi.org/10.1186/s12284-015-0063-5.",
    ),
    # the scheme alone, its "//" on the next line: batch 8's JSS references
    (
        ["Software, 33(2), 1–22. URL http:", "//www.jstatsoft.org/v33/i02/."],
        "Software, 33(2), 1–22. URL http://www.jstatsoft.org/v33/i02/.",
    ),
    # a DOI's own hyphen before a number: the R Journal
    (
        ["2005. URL https://doi.org/10.1111/j.1467-", "9868.2005.00508.x. [p127]"],
        "2005. URL https://doi.org/10.1111/j.1467-9868.2005.00508.x. [p127]",
    ),
    # a link's hyphen before a word: kept, not taken for a hyphenated word's
    (
        ["http://www.usenix.org/conference/osdi16/technical-", "sessions/presentation/x."],
        "http://www.usenix.org/conference/osdi16/technical-sessions/presentation/x.",
    ),
    # after "/": hotos17
    (
        ["URL https://www.usenix.org/conference/osdi16/", "technical-sessions/presentation/x."],
        "URL https://www.usenix.org/conference/osdi16/technical-sessions/presentation/x.",
    ),
    (
        ["Available: https://doi.org/10.1107/", "S0907444904011679, PMID: 15299901"],
        "Available: https://doi.org/10.1107/S0907444904011679, PMID: 15299901",
    ),
    # a DOI after its resolver's "/": dev's PLOS ONE
    (
        ["J Chem Theory Comput. 2008;4(3):435–47. https://doi.org/", "10.1021/ct700301q PMID: 26620784"],
        "J Chem Theory Comput. 2008;4(3):435–47. https://doi.org/10.1021/ct700301q PMID: 26620784",
    ),
    # after ".": a file's ending alone (dev's PLOS ONE), a domain, a DOI's suffix, a DOI after "doi:" with its conventional space
    (
        ["Available from: https://bibliotecadigital.exactas.uba.ar/tesis_n4546_Prepelitchi.", "pdf"],
        "Available from: https://bibliotecadigital.exactas.uba.ar/tesis_n4546_Prepelitchi.pdf",
    ),
    (
        ["URL http://linkinghub.elsevier.", "com/retrieve/pii/0165168494900299."],
        "URL http://linkinghub.elsevier.com/retrieve/pii/0165168494900299.",
    ),
    (["Exp. Bot. 57, 278–284. doi: 10.1016/j.envexpbot.2005.", "06.006"], "Exp. Bot. 57, 278–284. doi: 10.1016/j.envexpbot.2005.06.006"),
    (
        ["BMJ. 2011; 343. https://doi.org/10.1136/bmj.", "d5928 PMID: 22008217"],
        "BMJ. 2011; 343. https://doi.org/10.1136/bmj.d5928 PMID: 22008217",
    ),
    (["2013. doi:10.18637/jss.", "v075.i07."], "2013. doi:10.18637/jss.v075.i07."),
    # elsarticle's "doi:" before a resolver's link: the corpus
    (
        ["Optimization, . doi:http://dx.doi.org/10.1080/", "01630560008816993."],
        "Optimization, . doi:http://dx.doi.org/10.1080/01630560008816993.",
    ),
    (["ISSN 0300-5771. doi:10.", "1093/ije/26.6.1323."], "ISSN 0300-5771. doi:10.1093/ije/26.6.1323."),
    # a last plain segment closed with the sentence or the line: batch 1's ASME, batch 7's msm
    (
        ["Accessed August 17, 2019, URL https://www.ctan.org/pkg/", "lineno."],
        "Accessed August 17, 2019, URL https://www.ctan.org/pkg/lineno.",
    ),
    (
        ["are to be found on GitHub https://github.com/chjackson/", "msm. These are"],
        "are to be found on GitHub https://github.com/chjackson/msm. These are",
    ),
    # a colon inside the rest: batch 6
    (
        ["Variates, 2009. http://comisef.wikidot.com/", "tutorial:correlateduniformvariates [Accessed"],
        "Variates, 2009. http://comisef.wikidot.com/tutorial:correlateduniformvariates [Accessed",
    ),
    # after a query's "=": any value
    (
        ["R package version 0.1-6, URL http://CRAN.R-project.org/package=", "Synth."],
        "R package version 0.1-6, URL http://CRAN.R-project.org/package=Synth.",
    ),
]


@pytest.mark.parametrize(("lines", "joined"), BROKEN_LINKS)
def test_a_link_broken_at_a_line_end_is_joined_whole(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


LEFT_APART = [
    # a link that closed with its sentence, then the reference's fields or prose
    ["URL http://x.org/paper.pdf.", "Accessed 12 May 2019."],
    ["doi: 10.1109/BigData.2013.6691726.", "URL http://ieeexplore.ieee.org/x."],
    ["URL http://www.r-project.org.", "2019."],  # a year, not a DOI's suffix
    ["doi: 10.1234/abc.", "PMID: 12345678."],
    ["available at http://x.org/", "(2019)."],
    ["URL http://x.org/a.pdf.", "In Proceedings of the Workshop."],
    ["titles - https://capitalizemytitle.com/", "has useful rules"],  # prose after a link
    ["on the web site of the SMF: http://smf.emath.fr/", "under the heading"],
    ["URL http://www.x.org/.", "http://y.org/."],  # a second link
    ["Code: https://github.com/a/b/", "https://zenodo.org/record/1."],
    # no link: numbers, ordinary prose
    ["ISSN 0033-3123, 1860-", "0980."],
    ["The rate rose by 2.", "5 percent of the cases"],
    ["as follows:", "//comment"],
]


@pytest.mark.parametrize("lines", LEFT_APART)
def test_prose_and_the_fields_after_a_link_keep_their_space(lines: list[str]) -> None:
    assert join_lines(lines) == " ".join(lines)


def test_words_are_dehyphenated_as_before() -> None:
    assert join_lines(["the fertili-", "zation of eggs"]) == "the fertilization of eggs"
    assert join_lines(["co-", "Occurring species"]) == "co-Occurring species"
    # a hyphen at a line end outside any link: the word rule, not the link's
    assert join_lines(["see www.x.org and the state-", "of-the-art"]) == "see www.x.org and the stateof-the-art"
