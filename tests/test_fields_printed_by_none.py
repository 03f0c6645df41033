"""Fields the parser gave where the page prints none, as ``metadata_real.py``'s count against the
hand-read truths found them (issue 32): a template's placeholder DOI ("10.1007/DOI-NUMBER") is no
DOI; a copyright line whose years are a span or a list, no publisher's, is a manual's revisions and
gives no year of publication, a single year does; a draft's masthead with volume 0 names the
journal and gives no year but its meeting's; a draft's line ("Entwurf 2011/09/04") and a vignette's
or a LaTeX class's own name ("RcppGSL Vignette | November 29, 2020 | 1–8") name no journal. A
review drew published papers' lines against a first version of these rules (a copyright held by an
institute or a person after "by", names ending in "Class" or "Guide", DOIs of letters): each is
kept below and reads as it did before the rules."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.front_matter import find_doi
from paperpyramid.parsers.embedded.journal import find_journal


@pytest.mark.parametrize(
    "line",
    [
        "Copyright 2003-2004 by",
        "Copyright © 2011 - 2022",
        "*Copyright © 2009, 2011 Sébastien Villemot. Permission is granted to copy, distribute and/or modify this document"
        " under the terms of the GNU Free Documentation License published by the Free Software Foundation",
    ],
)
def test_a_manuals_copyright_over_years_it_was_revised_gives_no_year(line: str) -> None:
    assert find_journal([(1, "A Guide to the Program"), (1, line)], {}) == (None, None, None)


@pytest.mark.parametrize(
    ("line", "year"),
    [
        ("© 2018 Elsevier B.V. All rights reserved.", 2018),
        ("Copyright 2016 by the American Physical Society", 2016),
        ("© The Author(s) 2019. Published by Oxford University Press.", 2019),
        ("© 2014 Oxford University Press", 2014),
        ("c 2020 Association for Computational Linguistics", 2020),
        ("Copyright: © 2015 Berg et al. This is an open access article distributed under the terms of the licence", 2015),
        ("© 2012 Anna Berg", 2012),  # a holder without "by" and a single year: as before
        ("© 2015, 2016 The Franklin Institute. Published by Elsevier Ltd.", 2015),  # years listed, a publisher's notice
        # a single year, whoever holds it: a manual's "by" a person or a centre reads as a law review's or a university
        # press's notice, so it still gives the year (Glimmer's, AMD's and l2tabu's manuals, the truth says, print none)
        ("Copyright © 2007 by Mark Trettin and Jürgen Fenn.", 2007),
        ("c 2006 University of Maryland Center for Bioinformatics & Computational Biology", 2006),
    ],
)
def test_a_publishers_or_the_authors_copyright_gives_the_year(line: str, year: int) -> None:
    assert find_journal([(1, "A Study of Something"), (1, line)], {})[1] == year


@pytest.mark.parametrize("year", ["2060", "2001", "9999"])
def test_a_drafts_masthead_with_volume_zero_names_the_journal_and_no_year(year: str) -> None:
    masthead = f"TUGboat, Volume 0 ({year}), No. 0"
    assert find_journal([(1, masthead), (2, masthead), (3, masthead)], {}) == ("TUGboat", None, None)


def test_the_published_masthead_gives_its_year() -> None:
    masthead = "TUGboat, Volume 30 (2009), No. 1"
    assert find_journal([(1, masthead), (2, masthead)], {})[:2] == ("TUGboat", 2009)


@pytest.mark.parametrize(
    "line",
    ["Entwurf 2011/09/04", "RcppGSL Vignette | November 29, 2020 | 1–8", "ISCRAM LaTeX Class, Version 1.2, 2019"],
)
def test_a_drafts_line_or_a_documents_own_name_is_no_journal(line: str) -> None:
    assert find_journal([(1, line), (2, line), (3, line)], {})[0] is None


def test_a_drafts_masthead_naming_its_meetings_proceedings_gives_the_meetings_year() -> None:
    masthead = "TUGboat, Volume 0 (2001), No. 0 — Proceedings of the 2001 Annual Meeting"
    assert find_journal([(1, masthead), (2, masthead)], {})[:2] == ("TUGboat", 2001)


@pytest.mark.parametrize(
    "placeholder",
    ["10.1007/DOI-NUMBER", "10.1214/YY-TN", "10.5300/xxxx-x/zzz", "10.18637/jss.v000.i00", "10.22331/idonotexist", "10.1007/xxxx"],
)
def test_a_templates_placeholder_doi_is_no_doi(placeholder: str) -> None:
    # the truth reads none of them as printed; a real DOI beside one is found
    assert find_doi(f"Journal of Examples (2023) DOI: {placeholder}", {}) is None
    assert find_doi(f"DOI: {placeholder} and doi:10.1214/12-AOS1000", {}) == "10.1214/12-AOS1000"


TITLE = "A Study of Something"


# a publisher's copyright line, read as a manual's own by the first version
# First pages whose masthead prints no year: the copyright line is the only year on the page.
@pytest.mark.parametrize(
    ("lines", "year"),
    [
        # MIT Press, Journal of Cognitive Neuroscience: the foot as pdftotext reads it (no year but the ©'s)
        (["© 2018 Massachusetts Institute of Technology Journal of Cognitive Neuroscience 30:9, pp. 1345–1365"], 2018),
        # University of Wisconsin Press, Journal of Human Resources: "• 54 • 1" masthead, no year
        (
            [
                "THE JOURNAL OF HUMAN RESOURCES • 54 • 1",
                "doi:10.3368/jhr.54.1.0117-8478R1",
                "ISSN 0022-166X E-ISSN 1548-8004 © 2019 by the Board of Regents of the University of Wisconsin System",
            ],
            2019,
        ),
        # Lippincott (Wolters Kluwer), Spine: "Volume 44, Number 3, pp" masthead, no year
        (["SPINE Volume 44, Number 3, pp 163–170", "© 2019 Wolters Kluwer Health, Inc. All rights reserved."], 2019),
        # Medicine & Science in Sports & Exercise (ACSM, LWW)
        (
            [
                "0195-9131/19/5101-0001/0",
                "MEDICINE & SCIENCE IN SPORTS & EXERCISE®",
                "Copyright © 2019 by the American College of Sports Medicine",
            ],
            2019,
        ),
        # University of California Press journals (Music Perception, Representations, 19th-Century Music)
        (
            [
                "Music Perception VOLUME 36, ISSUE 3, PP. 263–276",
                "© 2019 by The Regents of the University of California. All rights reserved.",
            ],
            2019,
        ),
        # Duke's Law and Contemporary Problems (and other US law reviews): the author holds the copyright
        (["Copyright © 2014 by Anna Berg.", "This article is also available online at http://lcp.law.duke.edu/."], 2014),
        # SAGE, Race & Class: masthead in two lines (the name alone over "2019, Vol. …")
        (["Race & Class", "2019, Vol. 61(1) 3–22", "© Institute of Race Relations 2019"], 2019),
    ],
)
def test_a_mastheads_copyright_year_is_the_papers_year(lines: list[str], year: int) -> None:
    assert find_journal([(1, TITLE)] + [(1, line) for line in lines], {})[1] == year


# the copyright line alone under a title: real first pages of these mostly print a year in a masthead too
@pytest.mark.parametrize(
    ("line", "year"),
    [
        # Elsevier hosting a university's or institute's journal
        ("© 2016 King Saud University. Production and hosting by Elsevier B.V. This is an open access article", 2016),
        ("© 2017 Chang Gung University. Publishing services by Elsevier B.V. This is an open access article", 2017),
        ("© 2015 The Franklin Institute. Published by Elsevier Ltd. All rights reserved.", 2015),
        ("© 2019 Institut Pasteur. Published by Elsevier Masson SAS. All rights reserved.", 2019),
        ("Copyright © 2019 American College of Chest Physicians. Published by Elsevier Inc. All rights reserved.", 2019),
        ("© 2019 BY THE AMERICAN COLLEGE OF CARDIOLOGY FOUNDATION. PUBLISHED BY ELSEVIER. ALL RIGHTS RESERVED.", 2019),
        # Taylor & Francis ("Group"), Wolters Kluwer / Liebert ("Inc."), De Gruyter ("GmbH")
        ("© 2019 Informa UK Limited, trading as Taylor & Francis Group", 2019),
        ("Copyright © 2019 Wolters Kluwer Health, Inc. All rights reserved.", 2019),
        ("© 2019 Mary Ann Liebert, Inc.", 2019),
        ("© 2019 Walter de Gruyter GmbH, Berlin/Boston", 2019),
        # "by" and a publisher's name: ASME's journals, Annual Reviews
        ("Copyright © 2019 by ASME", 2019),
        ("Copyright © 2019 by Annual Reviews. All rights reserved", 2019),
        # institutes, colleges and foundations that publish
        ("© Institute of Mathematical Statistics, 2019", 2019),
        ("© The Institution of Engineering and Technology 2019", 2019),
        ("© The Royal College of Psychiatrists 2019", 2019),
        ("©2019 AI Access Foundation. All rights reserved.", 2019),
        ("© 2009 American Institute of Physics", 2009),
        ("© 2016 by The University of Chicago. All rights reserved. 0022-2186/2016/5902-0012$10.00", 2016),
        ("Copyright © 2020 by the President and Fellows of Harvard College", 2020),
    ],
)
def test_a_publishers_copyright_line_gives_the_year(line: str, year: int) -> None:
    assert find_journal([(1, TITLE), (1, line)], {})[1] == year


# real journals whose names end in "Class", "Documentation", "Guide"
@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Race & Class 2019, Vol. 61(1) 3–22", "© Institute of Race Relations 2019"], ("Race & Class", 2019)),  # SAGE / IRR
        (["Capital & Class 2019, Vol. 43(1) 1–20", "© The Author(s) 2019"], ("Capital & Class", 2019)),  # SAGE / CSE
        (
            ["Journal of Documentation Vol. 75 No. 1, 2019 pp. 1-20", "© Emerald Publishing Limited 0022-0418"],
            ("Journal of Documentation", 2019),
        ),
        (
            ["The Geological Society of America Field Guide 40 2015", "© 2015 The Geological Society of America. All rights reserved."],
            ("The Geological Society of America Field Guide", 2015),
        ),
    ],
)
def test_a_journal_named_for_a_documents_kind_is_a_journal(lines: list[str], expected: tuple[str, int]) -> None:
    assert find_journal([(1, TITLE)] + [(1, line) for line in lines], {})[:2] == expected


# real DOIs whose suffix holds no digit 1–9
# OSF's preprint servers (PsyArXiv 10.31234, SocArXiv 10.31235, …) name a preprint by a five-character
# GUID, often letters only: Wagenmakers (2022), "Approximate objective Bayes factors …", PsyArXiv.
@pytest.mark.parametrize(
    ("page", "metadata"),
    [
        ("PsyArXiv preprint, doi:10.31234/osf.io/egydq", {}),
        ("", {"xmp:doi": "10.31234/osf.io/egydq"}),
    ],
)
def test_an_osf_preprints_doi_of_letters_is_a_doi(page: str, metadata: dict[str, str]) -> None:
    assert find_doi(page, metadata) == "10.31234/osf.io/egydq"


def test_a_doi_cut_at_the_lines_end_is_not_traded_for_a_data_sets_doi() -> None:
    # a DOI wrapped after "j." leaves "10.1016/j", no placeholder (the first version dropped it and took the data
    # set's DOI for the paper's); the cut DOI is wrong too, as it was before
    page = "Please cite this article as: https://doi.org/10.1016/j.\njtbi.2019.01.001\nData: https://doi.org/10.5281/zenodo.1234567"
    assert find_doi(page, {}) != "10.5281/zenodo.1234567"
