"""Counting tokens word by word (``paperpyramid.tokens.WordCounts``): the same counts as the
tokenizer on every text, and the same cuts as counting with the tokenizer's offsets."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers

from paperpyramid.contexts import split_section
from paperpyramid.document import Block, Section
from paperpyramid.parsers.pubmed import PubmedRecord, parse_record, read_pubmed
from paperpyramid.tokens import TOKENIZER_DIR, TokenCounter, WordCounts, counts_by_word, load_tokenizer
from tests.conftest import DATA, PMC_PAIRS

TOKENIZER = load_tokenizer(str(TOKENIZER_DIR / "tokenizer.json"))

#: whitespace and control characters the two splits could disagree on, and text around them
AWKWARD = "\t\n\r \x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000\u200b\ufeff\x00\ufffd\u0301é中文"


def tokenizer_counts(texts: list[str]) -> list[int]:
    return [len(encoding.ids) for encoding in TOKENIZER.encode_batch(texts, add_special_tokens=False)]


def real_texts() -> list[str]:
    record = (DATA / "pubmed" / "pubmed-29768149.xml").read_text(encoding="utf-8")
    found = re.findall(r"<(?:ArticleTitle|AbstractText|Affiliation|Title)[^>]*>(.*?)</", record, flags=re.DOTALL)
    assert len(found) >= 5, "the committed PubMed record lost its text"
    return [re.sub(r"<[^>]+>", "", text) for text in found]


def test_the_default_tokenizer_counts_by_word_and_a_byte_level_one_does_not() -> None:
    assert counts_by_word(TOKENIZER)
    byte_level = Tokenizer(models.BPE())
    byte_level.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert not counts_by_word(byte_level)


def test_real_text_is_counted_as_the_tokenizer_counts_it() -> None:
    texts = real_texts()
    assert WordCounts(TOKENIZER).count_batch(texts) == tokenizer_counts(texts)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=st.one_of(st.characters(exclude_categories=["Cs"]), st.sampled_from(AWKWARD)), max_size=80), max_size=20))
def test_any_unicode_is_counted_as_the_tokenizer_counts_it(texts: list[str]) -> None:
    assert WordCounts(TOKENIZER, limit=50).count_batch(texts) == tokenizer_counts(texts)


def test_the_word_cache_stays_bounded_and_right_when_it_starts_again() -> None:
    words = WordCounts(TOKENIZER, limit=40)
    texts = real_texts()
    for text in texts * 2:
        assert words.count_batch([text]) == tokenizer_counts([text])
        assert len(words.counts) <= max(40, len(set(text.split())))


@pytest.fixture(scope="module")
def by_offsets(tmp_path_factory: pytest.TempPathFactory) -> TokenCounter:
    """The same tokenizer, with an added token that spans a space (it never occurs in papers):
    it no longer counts by word, so it counts and cuts with the tokenizer's offsets as before."""
    folder = tmp_path_factory.mktemp("offsets")
    config = json.loads((TOKENIZER_DIR / "tokenizer.json").read_text(encoding="utf-8"))
    config["added_tokens"].append({**config["added_tokens"][-1], "id": len(config["model"]["vocab"]), "content": "qx zq"})
    (folder / "tokenizer.json").write_text(json.dumps(config), encoding="utf-8")
    counter = TokenCounter(folder / "tokenizer.json", window=256)
    assert not counts_by_word(counter.tokenizer)
    return counter


def test_cuts_are_the_cuts_the_offsets_give(by_offsets: TokenCounter) -> None:
    """Sentences, words and words over the limit (a citation list of 45 tokens) are cut where
    the tokenizer's own offsets cut them, at every limit."""
    words = TokenCounter()
    citing = "The final sample consisted of 22 RCTs [" + ",".join(str(n) for n in range(26, 62)) + "] published from 1994 to 2017."
    texts = [*real_texts(), citing + " " + " ".join(real_texts())]
    for text in texts:
        for limit in (8, 40, 254):
            assert words.split_to_fit(text, limit) == by_offsets.split_to_fit(text, limit), (limit, text[:80])
    section = Section("Abstract", blocks=[Block(text, 1) for text in texts])
    for limit in (40, 254):
        assert split_section(section, words, limit) == split_section(section, by_offsets, limit)


@pytest.mark.skipif(not PMC_PAIRS.is_dir(), reason="../shared/pmc-pairs is not here (it is not part of the repository)")
def test_real_articles_are_cut_as_the_offsets_cut_them(by_offsets: TokenCounter) -> None:
    from paperpyramid.parsers.jats import parse_jats

    words = TokenCounter()
    for path in sorted(PMC_PAIRS.glob("*.nxml"))[:3]:
        for section in parse_jats(path).sections:
            assert split_section(section, words) == split_section(section, by_offsets), (path.name, section.title)
            assert split_section(section, words, 60) == split_section(section, by_offsets, 60), (path.name, section.title)


def test_a_record_read_from_a_pubmed_file_is_cut_the_same(by_offsets: TokenCounter) -> None:
    path = DATA / "pubmed" / "pubmed-29768149.xml"
    with path.open("rb") as stream:
        records = [item for item in read_pubmed(stream, name=path.name) if isinstance(item, PubmedRecord)]
    assert records, "the committed PubMed file holds no record"
    words = TokenCounter()
    for section in parse_record(records[0]).sections:
        assert split_section(section, words, 30) == split_section(section, by_offsets, 30)
