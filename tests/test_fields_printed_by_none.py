"""Fields the parser gave where the page prints none, as ``metadata_real.py``'s count against the
hand-read truths found them (issue 32): a template's placeholder DOI ("10.1007/DOI-NUMBER") is no
DOI; a copyright line of a manual's own (its years a span, its holder a person after "by" or an
institution) gives no year of publication, a publisher's does; a draft's masthead with volume 0
names the journal and gives no year but its meeting's; a draft's line ("Entwurf 2011/09/04") and a
vignette's or class's own name ("RcppGSL Vignette | November 29, 2020 | 1–8") name no journal."""

from __future__ import annotations

import pytest

from paperpyramid.parsers.embedded.front_matter import find_doi
from paperpyramid.parsers.embedded.journal import find_journal


@pytest.mark.parametrize(
    "line",
    [
        "Copyright 2003-2004 by",
        "Copyright © 2011 - 2022",
        "*Copyright © 2009, 2011 Sébastien Villemot. Permission is granted to copy, distribute and/or modify this document",
        "Copyright © 2007 by Mark Trettin and Jürgen Fenn.",
        "AMD Copyright©2013 by Timothy A. Davis, Patrick R. Amestoy, and Iain S. Duff. All Rights Reserved.",
        "c 2006 University of Maryland Center for Bioinformatics & Computational Biology",
    ],
)
def test_a_manuals_own_copyright_gives_no_year(line: str) -> None:
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
