"""What a JATS article says about itself beyond its text: its licence (as a key of
:mod:`paperpyramid.licences`, or its own URL or words), its PubMed ids, language and keywords.

The real articles of ``../shared/pmc-pairs`` and ``../shared/corpus`` write their licence in
every form the parser reads (an ``xlink:href``, an ``<ali:license_ref>``, only words, words that
go on to waive the data's rights under CC0, a second ``<license>`` for the data); small inline
articles cover the forms they lack and what is kept when no key fits.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.licences import licence_key
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.parsers.jats_meta import LICENCE_WORDS

ALI = "http://www.niso.org/schemas/ali/1.0/"
XLINK = "http://www.w3.org/1999/xlink"
# BioMed Central's and Springer Nature's words: the article under CC BY, its data under CC0
BMC_WORDS = (
    "This article is distributed under the terms of the Creative Commons Attribution 4.0 International License "
    "(http://creativecommons.org/licenses/by/4.0/), which permits unrestricted use, distribution, and reproduction "
    "in any medium. The Creative Commons Public Domain Dedication waiver (http://creativecommons.org/publicdomain/zero/1.0/) "
    "applies to the data made available in this article, unless otherwise stated."
)


def article(meta: str = "", *, attributes: str = "") -> str:
    return (
        f'<article xmlns:xlink="{XLINK}" xmlns:ali="{ALI}" {attributes}><front><article-meta>'
        f"<title-group><article-title>T</article-title></title-group>{meta}"
        "</article-meta></front><body><sec><title>Intro</title><p>Text.</p></sec></body></article>"
    )


def parse(tmp_path: Path, xml: str) -> Document:
    path = tmp_path / "article.nxml"
    path.write_text(xml, encoding="utf-8")
    return parse_jats(path)


def licence_of(tmp_path: Path, licences: str) -> str | None:
    return parse(
        tmp_path, article(f"<permissions><copyright-statement>© 2020 The Authors</copyright-statement>{licences}</permissions>")
    ).licence


# --------------------------------------------------------------------------- the forms a licence takes


@pytest.mark.parametrize(
    ("licences", "key"),
    [
        # a Creative Commons URL in xlink:href (Frontiers, PLOS)
        ('<license xlink:href="https://creativecommons.org/licenses/by-nc-nd/4.0/"><license-p>Some rights reserved.</license-p></license>', "cc-by-nc-nd"),
        # NISO ALI's license_ref (Springer Nature, MDPI since 2019); the words are PMC's, naming nothing
        (f'<license><ali:license_ref xmlns:ali="{ALI}">https://creativecommons.org/licenses/by-nc/4.0/</ali:license_ref>'
         "<license-p>Open Access.</license-p></license>", "cc-by-nc"),
        # the licence named by its type
        ('<license license-type="CC BY-SA"><license-p>Open Access.</license-p></license>', "cc-by-sa"),
        # words only (Hindawi); PMC's "open-access" type names no licence
        ('<license license-type="open-access"><license-p>This is an open access article distributed under the '
         "Creative Commons Attribution-NonCommercial License.</license-p></license>", "cc-by-nc"),
        # the words in <p> rather than <license-p> (older BMC, MDPI)
        ("<license><p>Distributed under the terms of the Creative Commons Attribution License "
         "(http://creativecommons.org/licenses/by/2.0).</p></license>", "cc-by"),
        # the licence a sentence names first, not the CC0 the next one gives the data
        (f"<license><license-p>{BMC_WORDS}</license-p></license>", "cc-by"),
        # F1000: the article's licence, then a second one for its data
        ('<license xlink:href="http://creativecommons.org/licenses/by/4.0/"><license-p>Attribution.</license-p></license>'
         '<license xlink:href="http://creativecommons.org/publicdomain/zero/1.0/"><license-p>Data: CC0.</license-p></license>', "cc-by"),
        # a first licence that names nothing, a second that does
        ('<license license-type="open-access"><license-p>Free to read.</license-p></license>'
         '<license><license-p>Also under CC BY 4.0.</license-p></license>', "cc-by"),
        # a link inside the words
        ('<license><license-p>See the <ext-link xlink:href="https://creativecommons.org/licenses/by-sa/4.0/">licence</ext-link>.'
         "</license-p></license>", "cc-by-sa"),
        ("<license><license-p>This is a work of the US Government; it is in the public domain.</license-p></license>", "pd"),
    ],
)  # fmt: skip
def test_the_licence_is_read_as_a_key_from_each_form(tmp_path: Path, licences: str, key: str) -> None:
    assert licence_of(tmp_path, licences) == key


def test_a_licence_no_key_fits_is_kept_as_its_url(tmp_path: Path) -> None:
    licences = '<license xlink:href="https://www.elsevier.com/open-access/userlicense/1.0/"><license-p>Elsevier user license.</license-p></license>'
    assert licence_of(tmp_path, licences) == "https://www.elsevier.com/open-access/userlicense/1.0/"


def test_a_licence_no_key_fits_is_kept_as_its_words_short_ones_whole(tmp_path: Path) -> None:
    words = "This article is free to read; all other rights reserved."
    assert licence_of(tmp_path, f'<license license-type="open-access"><license-p>{words}</license-p></license>') == words


def test_long_words_are_kept_up_to_a_word_near_their_limit(tmp_path: Path) -> None:
    words = " ".join(["The publisher grants every reader a personal licence to read and print this article"] * 6)
    kept = licence_of(tmp_path, f"<license><license-p>{words}</license-p></license>")
    assert kept is not None and kept.endswith("…") and len(kept) <= LICENCE_WORDS + 1
    assert words.startswith(kept[:-1]) and words[len(kept) - 1] == " "  # cut between words


def test_no_licence(tmp_path: Path) -> None:
    assert licence_of(tmp_path, "") is None  # a copyright statement is not a licence
    assert parse(tmp_path, article()).licence is None


# --------------------------------------------------------------------------- ids, language, keywords


def test_pubmed_ids_language_and_keywords(tmp_path: Path) -> None:
    meta = (
        '<article-id pub-id-type="pmid">30475878</article-id><article-id pub-id-type="pmc">6261265</article-id>'
        '<article-id pub-id-type="doi">10.1371/journal.pone.0207763</article-id>'
        '<kwd-group kwd-group-type="author"><title>Keywords</title><kwd>Basil</kwd><kwd><italic>Ocimum</italic> tenuiflorum</kwd></kwd-group>'
        '<kwd-group xml:lang="de"><kwd>Basilikum</kwd><kwd>Basil</kwd><kwd> </kwd></kwd-group>'
    )
    document = parse(tmp_path, article(meta, attributes='xml:lang="en" article-type="research-article"'))
    assert (document.pmid, document.pmcid, document.doi) == ("30475878", "PMC6261265", "10.1371/journal.pone.0207763")
    assert document.language == "en"
    assert document.keywords == ["Basil", "Ocimum tenuiflorum", "Basilikum"]


@pytest.mark.parametrize("written", ['pub-id-type="pmcid">PMC4569613', 'pub-id-type="pmcid">4569613', 'pub-id-type="pmc">PMC4569613'])
def test_the_pmcid_has_its_prefix_however_it_is_written(tmp_path: Path, written: str) -> None:
    document = parse(tmp_path, article(f"<article-id {written}</article-id>"))
    assert (document.pmcid, document.pmid, document.language, document.keywords) == ("PMC4569613", None, None, [])


def test_a_referee_reports_ids_are_not_the_articles(tmp_path: Path) -> None:
    report = '<sub-article><front-stub><article-id pub-id-type="pmid">999</article-id></front-stub></sub-article>'
    document = parse(tmp_path, article('<article-id pub-id-type="pmid">123</article-id>').replace("</body>", f"</body>{report}"))
    assert document.pmid == "123"


# --------------------------------------------------------------------------- real articles


def manifest(folder: Path) -> list[dict[str, str]]:
    with (folder / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t") if row["file"].endswith(".nxml")]


def test_real_pmc_articles_licences_and_ids(pmc_pairs: Path) -> None:
    """Every article's licence is the one its MANIFEST row states (all CC BY, in four publishers'
    forms), BMC's data waiver notwithstanding; each has its PMCID, as its source's path names it."""
    rows = manifest(pmc_pairs)
    assert len(rows) == 32
    for row in rows:
        document = parse_jats(pmc_pairs / row["file"])
        assert document.licence == licence_key(row["licence"]) == "cc-by", row["file"]
        assert document.pmcid is not None and re.fullmatch(r"PMC\d+", document.pmcid), row["file"]
        named = re.search(r"/(PMC\d+)/", row["source"])
        if named:
            assert document.pmcid == named.group(1), row["file"]
    tulsi = parse_jats(pmc_pairs / "plosone-2018-tulsi-authenticity.nxml")
    assert (tulsi.pmid, tulsi.pmcid) == ("30475878", "PMC6261265")
    sensors = parse_jats(pmc_pairs / "sensors-2022-district-heating-leakage.nxml")
    assert sensors.language == "en" and len(sensors.keywords) == 6


def test_real_articles_with_a_second_licence_or_a_data_waiver(shared_corpus: Path) -> None:
    """F1000 licenses the article under CC BY and its data under CC0; BMC says both in one licence."""
    for name in ("f1000research-2015-sharpnose-shark-longevity.nxml", "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.nxml"):
        assert parse_jats(shared_corpus / name).licence == "cc-by", name
    bmc = parse_jats(shared_corpus / "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology.nxml")
    assert bmc.pmcid == "PMC4417228"
    assert "Traditional ecological knowledge" in bmc.keywords and len(bmc.keywords) == len(set(bmc.keywords))
