"""Token counting with the embedding model's tokenizer, and cutting sections into contexts."""

from __future__ import annotations

import json
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from paperpyramid.contexts import split_section
from paperpyramid.document import Block, Section, cells_to_markdown
from paperpyramid.errors import ConfigurationError
from paperpyramid.tokens import TokenCounter, default_model_dir, sentence_spans

SENTENCES = [
    "The transformer relates every position to every other through self-attention.",
    "Training used Adam with a warm-up of four thousand steps and inverse square-root decay.",
    "Dropout of 0.1 was applied to the sum of the embeddings and the positional encodings.",
    "Label smoothing hurt perplexity, but improved accuracy and the BLEU score.",
    "Beam search with a beam of four and a length penalty of 0.6 produced the translations.",
]


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


def paragraph(n: int, offset: int = 0) -> str:
    return " ".join(SENTENCES[(offset + i) % len(SENTENCES)] for i in range(n))


# TokenCounter


def test_default_counter_is_minilm_with_its_window(counter: TokenCounter) -> None:
    assert counter.name == "all-MiniLM-L6-v2"
    assert counter.window == 256
    assert counter.max_content_tokens == 254


def test_count_leaves_out_special_tokens(counter: TokenCounter) -> None:
    assert counter.count("hello") == 1
    assert counter.count("") == 0


def test_count_is_not_truncated_at_the_files_128(counter: TokenCounter) -> None:
    # tokenizer.json ships with truncation at 128 tokens; a long text must count in full.
    assert counter.count("word " * 500) == 500


def test_count_batch_agrees_with_count(counter: TokenCounter) -> None:
    texts = [*SENTENCES, "", "word " * 300]
    assert counter.count_batch(texts) == [counter.count(text) for text in texts]
    assert counter.count_batch([]) == []


def test_custom_tokenizer_needs_a_window(tmp_path: Path) -> None:
    shutil.copy(default_model_dir() / "tokenizer.json", tmp_path / "tokenizer.json")
    with pytest.raises(ConfigurationError, match="window"):
        TokenCounter(tmp_path / "tokenizer.json")
    custom = TokenCounter(tmp_path / "tokenizer.json", window=512, name="other")
    assert (custom.name, custom.window, custom.max_content_tokens) == ("other", 512, 510)
    assert custom.count("word " * 300) == 300


def test_custom_tokenizer_reads_window_from_sentence_bert_config(tmp_path: Path) -> None:
    shutil.copy(default_model_dir() / "tokenizer.json", tmp_path / "tokenizer.json")
    (tmp_path / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 128}))
    custom = TokenCounter(tmp_path / "tokenizer.json", reserved_tokens=0)
    assert (custom.name, custom.window, custom.max_content_tokens) == (tmp_path.name, 128, 128)


def test_nothing_is_loaded_at_import_time() -> None:
    code = (
        "import paperpyramid.tokens as t, paperpyramid.contexts, paperpyramid.db, paperpyramid.corpus\n"
        "t.TokenCounter()\n"
        "assert t.load_tokenizer.cache_info().currsize == 0, 'tokenizer loaded too early'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# split_to_fit


def test_split_to_fit_cuts_between_sentences(counter: TokenCounter) -> None:
    text = paragraph(12)
    pieces = counter.split_to_fit(text, 40)
    assert len(pieces) > 1
    assert all(counter.count(piece) <= 40 for piece in pieces)
    assert all(piece.endswith(".") for piece in pieces)
    assert " ".join(pieces) == text


def test_split_to_fit_cuts_a_long_sentence_between_words(counter: TokenCounter) -> None:
    words = [f"token{i}" for i in range(200)]
    text = " ".join(words)  # one sentence, no punctuation
    pieces = counter.split_to_fit(text, 30)
    assert len(pieces) > 1
    assert all(counter.count(piece) <= 30 for piece in pieces)
    assert [word for piece in pieces for word in piece.split()] == words


def test_split_to_fit_cuts_inside_a_word_only_when_the_word_is_over_the_limit(counter: TokenCounter) -> None:
    word = "qzx" * 30  # 90 word pieces
    text = f"Before. {word} After."
    pieces = counter.split_to_fit(text, 8)
    assert all(counter.count(piece) <= 8 for piece in pieces)
    assert pieces[0] == "Before."
    assert pieces[-1].endswith(" After.")  # the cut stays off the following word
    assert "".join(pieces[1:]).removesuffix(" After.") == word


def test_split_to_fit_keeps_short_text_whole(counter: TokenCounter) -> None:
    assert counter.split_to_fit("  A short text.  ", 40) == ["A short text."]
    assert counter.split_to_fit("   ", 40) == []


# split_section


def test_short_section_is_one_context_stopped_by_the_section(counter: TokenCounter) -> None:
    section = Section("Intro", blocks=[Block("First paragraph.", 1), Block("Second paragraph.", 2)])
    [context] = split_section(section, counter)
    assert context.text == "First paragraph.\n\nSecond paragraph."
    assert context.stop_reason == "Section"
    assert context.page_number == 1
    assert context.num_tokens == counter.count(context.text)


def test_long_section_splits_under_the_limit_with_stop_reasons(counter: TokenCounter) -> None:
    blocks = [Block(paragraph(1, i), page=1 + i // 4) for i in range(16)]
    contexts = split_section(Section("Methods", blocks=blocks), counter, max_tokens=40)
    assert len(contexts) > 3
    assert [c.stop_reason for c in contexts] == ["Token limit"] * (len(contexts) - 1) + ["Section"]
    for context in contexts:
        assert context.num_tokens == counter.count(context.text) <= 40
    # every block (each under the limit) lands whole in exactly one context, in order
    joined = [part for context in contexts for part in context.text.split("\n\n")]
    assert joined == [block.text for block in blocks]


def test_contexts_are_packed_greedily(counter: TokenCounter) -> None:
    blocks = [Block(paragraph(1, i), page=1) for i in range(16)]
    contexts = split_section(Section("Methods", blocks=blocks), counter, max_tokens=40)
    for context, following in zip(contexts, contexts[1:], strict=False):
        next_block = following.text.split("\n\n")[0]
        assert counter.count(context.text + "\n\n" + next_block) > 40


def test_context_page_is_the_page_where_it_starts(counter: TokenCounter) -> None:
    blocks = [Block(SENTENCES[0], 3), Block(SENTENCES[1], 4), Block(SENTENCES[2], 5)]
    contexts = split_section(Section("Results", blocks=blocks), counter, max_tokens=30)
    # each sentence is 14-19 tokens, so two never share a context of 30
    assert [c.page_number for c in contexts] == [3, 4, 5]


def test_an_oversized_block_keeps_its_page_in_every_piece(counter: TokenCounter) -> None:
    blocks = [Block("Opening.", 1), Block(paragraph(20), 2), Block("Closing.", 3)]
    contexts = split_section(Section("Discussion", blocks=blocks), counter, max_tokens=40)
    assert all(c.num_tokens <= 40 for c in contexts)
    assert contexts[0].page_number == 1
    assert contexts[-1].text.endswith("Closing.")
    middle_pages = {c.page_number for c in contexts[1:-1]}
    assert middle_pages == {2}


def test_real_window_limit_of_254(counter: TokenCounter) -> None:
    blocks = [Block(paragraph(4, i), page=i + 1) for i in range(12)] + [Block(paragraph(60), 13)]
    contexts = split_section(Section("Everything", blocks=blocks), counter)
    assert len(contexts) > 4
    assert max(c.num_tokens for c in contexts) <= 254
    assert all(c.num_tokens == counter.count(c.text) for c in contexts)
    assert contexts[-1].stop_reason == "Section"
    assert max(c.num_tokens for c in contexts) > 200  # packed, not one block per context


def test_context_kind_is_its_first_blocks_kind(counter: TokenCounter) -> None:
    blocks = [Block("| a | b |\n|---|---|\n| 1 | 2 |", 1, "table"), Block("Text after.", 1)]
    [context] = split_section(Section("Tables", blocks=blocks), counter)
    assert context.kind == "table"
    [paragraph_first] = split_section(Section("P", blocks=blocks[::-1]), counter)
    assert paragraph_first.kind == "paragraph"


def test_a_section_without_text_has_no_contexts(counter: TokenCounter) -> None:
    assert split_section(Section("Empty"), counter) == []
    assert split_section(Section("Blank", blocks=[Block("  \n ", 1)]), counter) == []


def test_no_context_cuts_a_word(counter: TokenCounter) -> None:
    words = re.findall(r"\S+", paragraph(30))
    contexts = split_section(Section("S", blocks=[Block(" ".join(words), 1)]), counter, max_tokens=25)
    assert [word for c in contexts for word in c.text.split()] == words


# a tokenizer that also counts the blank line between blocks: sums of block counts undercount


@pytest.fixture
def char_counter(tmp_path: Path) -> TokenCounter:
    chars = sorted(set(string.printable))
    vocab = {char: i for i, char in enumerate(["[UNK]", *chars])}
    Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token="[UNK]")).save(str(tmp_path / "tokenizer.json"))
    return TokenCounter(tmp_path / "tokenizer.json", window=40, reserved_tokens=0)


def test_contexts_fit_when_the_join_itself_costs_tokens(char_counter: TokenCounter) -> None:
    assert char_counter.count("ab\n\ncd") == 6  # every character is a token
    blocks = [Block("abcdefghij", 1) for _ in range(10)]
    contexts = split_section(Section("S", blocks=blocks), char_counter)
    assert [c.num_tokens for c in contexts] == [34, 34, 34, 10]  # three blocks and two joins fit in 40
    assert all(c.num_tokens == char_counter.count(c.text) for c in contexts)


def test_split_to_fit_with_a_tokenizer_that_counts_spaces(char_counter: TokenCounter) -> None:
    text = paragraph(3)
    pieces = char_counter.split_to_fit(text, 30)
    assert all(char_counter.count(piece) <= 30 for piece in pieces)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")


def test_split_to_fit_holds_for_a_tokenizer_that_glues_spaces_to_words(tmp_path: Path) -> None:
    # Byte-level BPE ("Ġword") counts a leading space inside the next token, so the
    # offset-based estimate undercounts and the pieces must be recounted and recut.
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([paragraph(5)] * 3, trainer)
    tokenizer.save(str(tmp_path / "tokenizer.json"))
    counter = TokenCounter(tmp_path / "tokenizer.json", window=30, reserved_tokens=0)
    text = paragraph(10)
    pieces = counter.split_to_fit(text, 30)
    assert max(counter.count(piece) for piece in pieces) <= 30
    assert " ".join(pieces) == text


def test_no_cut_after_an_initial_or_an_abbreviation(counter: TokenCounter) -> None:
    """Full stops that end no sentence: "F. poae" was cut into "…Actually, F." and "poae toxins…"."""
    filler = "Volatile profiles of infected kernels were measured with care over many days. " * 6
    text = filler + "Actually, F. poae toxins were found, e.g. in kernels as Fig. 3 shows and Smith et al. report. " + filler
    pieces = counter.split_to_fit(text, 60)
    assert all(not piece.endswith(("F.", "e.g.", "Fig.", "et al.")) for piece in pieces), pieces
    assert any("Actually, F. poae toxins were found, e.g. in kernels as Fig. 3 shows and Smith et al. report." in piece for piece in pieces)
    assert sentence_spans("One. Two! See p. 5 now. Dr. Who.") == [(0, 4), (5, 9), (10, 23), (24, 32)]


# Tables longer than a context

FROG_CAPTION = "Table 2. Morphometrics of the frogs measured."
FROG_HEADER = ["| Species | Site | Length (mm) | Mass (g) |", "|---|---|---|---|"]


def _long_table(rows: int) -> Block:
    cells = [["Species", "Site", "Length (mm)", "Mass (g)"]] + [
        [f"Rana {i}", f"Site {i % 7}", f"{10 + i}.5", f"{i * 3}.2"] for i in range(rows)
    ]
    return Block(text=FROG_CAPTION + "\n\n" + cells_to_markdown(cells), page=4, kind="table")


def test_a_long_table_is_cut_between_rows_with_its_caption_and_header_in_every_part(counter: TokenCounter) -> None:
    block = _long_table(120)
    section = Section(title="Results", level=1, blocks=[block])
    drafts = split_section(section, counter)
    assert len(drafts) >= 3
    assert all(draft.num_tokens == counter.count(draft.text) <= counter.max_content_tokens for draft in drafts)
    captions = [FROG_CAPTION] + ["Table 2 (continued). Morphometrics of the frogs measured."] * (len(drafts) - 1)
    for draft, caption in zip(drafts, captions, strict=True):
        lines = draft.text.split("\n")
        assert lines[0] == caption and lines[1] == "" and lines[2:4] == FROG_HEADER
        assert all(line.startswith("| ") and line.count("|") == 5 for line in lines[4:])  # whole rows only
        assert draft.kind == "table" and draft.page_number == 4
    rows = [line for draft in drafts for line in draft.text.split("\n")[4:]]
    assert rows == block.text.split("\n")[4:]  # every row once, in order


def test_a_long_caption_opens_the_table_whole_and_is_repeated_by_its_first_words(counter: TokenCounter) -> None:
    caption = "Table 3. " + " ".join(f"Note {i}: measured in the field at dawn." for i in range(15))
    block = _long_table(60)
    block.text = caption + block.text[block.text.index("\n\n") :]
    drafts = split_section(Section(title="Results", level=1, blocks=[block]), counter, max_tokens=200)
    assert all(draft.num_tokens <= 200 for draft in drafts)
    parts = [draft.text for draft in drafts if "| Species |" in draft.text]
    assert len(parts) >= 2 and parts[0].startswith(caption + "\n\n" + FROG_HEADER[0])
    for text in parts[1:]:
        repeat, blank, *header = text.split("\n")[:4]
        assert repeat.startswith("Table 3 (continued). Note 0: measured") and repeat.endswith(" …")
        assert counter.count(repeat) <= 200 // 4  # the label and a bounded prefix, not the whole caption
        assert blank == "" and header == FROG_HEADER
    rows = [line for text in parts for line in text.split("\n") if line.startswith("| Rana")]
    assert rows == block.text.split("\n")[4:]


def _wide_table(caption: str) -> tuple[list[list[str]], str]:
    """A table as wide as a real mutagenicity table: its header row and one row take more than a
    context, so rows must be cut as well as the table."""
    doses = [f"{dose} μg/ml" for dose in ("19.5", "39.0", "78.1", "156.2", "312.5", "625")]
    cells = [["Strain", "S9", "Untreated control", "Vehicle control (DMSO)", *doses, "Positive control"]]
    for strain in ("TA 98", "TA 100", "TA 1535", "TA 1537", "WP2 uvrA"):
        counts = [f"{i}.{j}7 ± 0.{j}8 {j}.33 ± 1.{i}5" for i, j in zip(range(9), range(9, 0, -1), strict=False)]
        cells.append([strain, "−S9 +S9", *counts])
    return cells, f"{caption}\n\n{cells_to_markdown(cells)}"


def test_every_part_of_a_table_too_wide_for_a_row_carries_label_caption_and_header(counter: TokenCounter) -> None:
    """A real table's second part ranked 18th in search: a row longer than the room left under
    the caption and header was cut as text, and the part holding its end had neither."""
    cells, text = _wide_table("Table 3: EGMAX, mutagenicity test results.")
    header = cells_to_markdown(cells).split("\n")[:2]
    assert counter.count(text.split("\n")[0] + "\n".join(header) + "\n" + text.split("\n")[4]) > counter.max_content_tokens
    drafts = split_section(Section("Results", blocks=[Block("The strains were tested twice.", 6), Block(text, 6, "table")]), counter)
    table_parts = [draft.text for draft in drafts if "| Strain |" in draft.text]
    assert len(table_parts) >= 5
    assert all(draft.num_tokens == counter.count(draft.text) <= counter.max_content_tokens for draft in drafts)
    assert drafts[0].text == "The strains were tested twice."  # the table's first part is full: the paragraph stands alone
    assert table_parts[0].startswith("Table 3: EGMAX, mutagenicity test results.\n\n")
    for part in table_parts[1:]:
        assert part.startswith("Table 3 (continued). EGMAX, mutagenicity test results.\n\n")
    for part in table_parts:
        lines = part.split("\n")
        start = lines.index(header[0])
        assert lines[start + 1] == header[1]
    # each strain's numbers sit under its name, even in the part that holds the end of its row
    body = [line for part in table_parts for line in part.split("\n")[part.split("\n").index(header[0]) + 2 :]]
    assert all(line.startswith(tuple(f"| {row[0]} |" for row in cells[1:])) for line in body)
    numbers = re.findall(r"\d+\.\d+", " ".join(line for line in body))
    assert numbers == re.findall(r"\d+\.\d+", " ".join(" | ".join(row) for row in cells[1:]))  # every value once, in order


FROG_DOSES = "Table 4. Doses given to the frogs of every pond, by week, by site and by the season of the year"


@pytest.mark.parametrize(
    ("columns", "caption", "header_repeated"),
    [
        (
            14,
            FROG_DOSES + ", as the keepers wrote them in the ledgers of the field station from spring to the late autumn, week after week.",
            True,
        ),
        (20, FROG_DOSES + ".", False),  # a header row of 202 tokens: even the label leaves it too little room
    ],
)
def test_a_wide_header_shortens_the_caption_repeat_and_never_passes_the_limit(
    counter: TokenCounter, columns: int, caption: str, header_repeated: bool
) -> None:
    cells = [[f"Dose {i} mg per kg" for i in range(columns)]] + [[f"{row}.{i}" for i in range(columns)] for row in range(40)]
    table = cells_to_markdown(cells)
    header, rows = table.split("\n")[:2], table.split("\n")[2:]
    assert counter.count(caption + "\n\n" + "\n".join(header)) > 254 * 3 // 4  # caption and header leave under a quarter
    drafts = split_section(Section("Results", blocks=[Block(caption + "\n\n" + table, 2, "table")]), counter)
    assert all(draft.num_tokens == counter.count(draft.text) <= counter.max_content_tokens for draft in drafts)
    assert drafts[0].text.startswith(caption + "\n\n" + "\n".join(header))  # the whole caption and the header open the table
    assert len(drafts) >= 3
    for draft in drafts[1:]:
        repeat = draft.text.split("\n")[0]
        assert repeat.startswith("Table 4 (continued). Doses given to the frogs") and counter.count(repeat) <= 254 // 4
        assert repeat.endswith(" …") is header_repeated  # beside the header row, the caption's first words only
        assert (draft.text.split("\n")[2:4] == header) is header_repeated
    assert [line for draft in drafts for line in draft.text.split("\n") if line in rows] == rows  # every row once, in order


def test_a_table_cut_under_a_caption_of_its_own_block_repeats_that_caption(counter: TokenCounter) -> None:
    # GROBID keeps a table's caption in a caption block before the table's cells
    table = _long_table(120)
    caption, cells = table.text.split("\n\n", 1)
    blocks = [Block("Figure 1. The pond.", 3, "caption"), Block(caption, 4, "caption"), Block(cells, 4, "table")]
    drafts = split_section(Section("Results", blocks=blocks), counter)
    parts = [draft for draft in drafts if "| Species |" in draft.text]
    assert len(parts) >= 3 and all(draft.num_tokens <= counter.max_content_tokens for draft in drafts)
    assert drafts[0].text == "Figure 1. The pond."
    assert parts[0].text.startswith(FROG_CAPTION + "\n\n" + FROG_HEADER[0])
    assert all(
        draft.text.startswith("Table 2 (continued). Morphometrics of the frogs measured.\n\n" + FROG_HEADER[0]) for draft in parts[1:]
    )
    # a figure's caption just before a table without one is not the table's: its parts open with the header row
    drafts = split_section(Section("Results", blocks=[blocks[0], blocks[2]]), counter)
    assert drafts[0].text.startswith("Figure 1. The pond.\n\n" + FROG_HEADER[0])
    assert all(draft.text.startswith(FROG_HEADER[0]) for draft in drafts[1:])


def test_notes_below_a_table_stay_under_its_label(counter: TokenCounter) -> None:
    # JATS puts a table's foot (its notes) under the markdown
    notes = " ".join(f"Note {i}: colonies counted by hand on plate {i}." for i in range(30))
    block = _long_table(40)
    block.text += "\n\n" + notes
    drafts = split_section(Section("Results", blocks=[block]), counter)
    assert all(draft.num_tokens <= counter.max_content_tokens for draft in drafts)
    noted = [draft.text for draft in drafts if "colonies counted" in draft.text]
    assert noted and all(text.startswith("Table 2 (continued). Morphometrics") for text in noted)
    assert all(not text.split("\n")[-1].startswith("| Species") for text in noted)  # no header row left without rows
    assert " ".join(text.split("\n\n", 1)[1] for text in noted if "| Species" not in text) in notes


# Section headings


def test_a_section_whose_only_text_is_its_heading_has_no_contexts(counter: TokenCounter) -> None:
    # a parser left "2. Materials and Methods" as the body of a section whose text is all in its subsections
    assert split_section(Section("Materials and Methods", number="2", blocks=[Block("2. Materials and Methods", 3)]), counter) == []
    assert split_section(Section("Results", blocks=[Block("RESULTS", 3), Block("  ", 3)]), counter) == []
    assert split_section(Section("Methods", blocks=[]), counter) == []


def test_a_heading_opens_the_context_of_the_text_after_it(counter: TokenCounter) -> None:
    heading = "2.1. Materials and Test Conditions"
    long = paragraph(2) + " " + " ".join(["the frogs sang at dawn"] * 100) + "."  # cut between words: parts fill the window
    section = Section("Materials and Test Conditions", number="2.1", blocks=[Block(heading, 3), Block(long, 4), Block("Closing.", 5)])
    drafts = split_section(section, counter)
    assert len(drafts) >= 3
    assert all(draft.num_tokens == counter.count(draft.text) <= counter.max_content_tokens for draft in drafts)
    assert drafts[0].text.startswith(heading + "\n\n" + SENTENCES[0]) and drafts[0].page_number == 3
    assert not any(re.fullmatch(r"[\d.]*\s*Materials and Test Conditions", draft.text) for draft in drafts)
    assert " ".join(draft.text for draft in drafts).split() == f"{heading} {long} Closing.".split()  # nothing lost, nothing repeated
    # a short text after it: one context, as before
    [one] = split_section(Section("Results", blocks=[Block("Results", 2), Block("It worked.", 2)]), counter)
    assert one.text == "Results\n\nIt worked."


def test_a_paragraph_that_only_starts_like_the_heading_is_text(counter: TokenCounter) -> None:
    [draft] = split_section(Section("Results", blocks=[Block("Results were mixed.", 2)]), counter)
    assert draft.text == "Results were mixed."
