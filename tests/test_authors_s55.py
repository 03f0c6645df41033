"""Authors' places on layouts no rule was written for: symbols that key the title page's notes, not
places (REVTeX, The American Naturalist); a note that gives a second place ("Also at …"); marks set
after the places they key (ACM SIGPLAN); AIP's "1)" numbers and "b)" notes; a collaboration under
its members' address; names in turn in acmart's boxes and ACM's journals' rows; the addresses amsart prints at
the article's end; BMC's foot that keys the corresponding author's place by its number. Each case
is drawn again with made-up names, as a PDF of real text (``tests/pdf_maker``) or as the parser's
lines; each was read wrong before its rule. The later tests are what these rules must not take:
a Harvard reference's last line, the body's starred lines, a note's label and telephone, a word
that a short given name and an initial spell, a title read twice over its own text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paperpyramid.document import Author, Document
from paperpyramid.parsers.embedded import affiliations as af
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.author_names import mostly_names
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.closing_addresses import closing_addresses
from paperpyramid.parsers.embedded.layout import Line, Page
from tests.block_builders import Stack
from tests.test_affiliation_elsewhere import BODY, REFERENCES, TITLE, Item, first_page, parse, regular

PHYSICS = "Department of Physics, Lund University, Lund, Sweden"
CHEMISTRY = "Institute of Chemistry, University of Oslo, Oslo, Norway"


def title_page(names: str, under: Sequence[str], foot: Sequence[str] = ()) -> list[Item]:
    """A title page: the title, ``names``, the lines ``under`` them in smaller type, a numbered
    heading, the body, and ``foot`` in small type at the page's foot."""
    items: list[Item] = [(72, 700, 17, [("bold", TITLE)]), regular(72, 672, 11, names)]
    items += [regular(72, 656 - 10 * i, 8, line) for i, line in enumerate(under)]
    items.append((72, 600, 11, [("bold", "1 Introduction")]))
    items += [regular(72, 584 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    items += [regular(72, 120 - 9 * i, 7, line) for i, line in enumerate(foot)]
    return items


def places(document: Document) -> dict[str, str | None]:
    return {author.name: author.affiliation for author in document.authors}


def test_symbols_that_key_the_foots_notes_leave_the_one_place_everybodys(tmp_path: Path) -> None:
    # The American Naturalist, REVTeX: the names' symbols point at the e-mail notes in the foot, not at a place
    foot = ["* Corresponding author; e-mail: aberg@example.org.", "† E-mail: cdahl@example.org."]
    document = parse(tmp_path, [title_page("Anna Berg* and Carl Dahl†", [PHYSICS], foot)])
    assert places(document) == {"Anna Berg": PHYSICS, "Carl Dahl": PHYSICS}


def test_a_note_that_gives_a_second_place_adds_it_and_a_notes_address_goes_to_its_symbols_bearer(tmp_path: Path) -> None:
    # REVTeX's \altaffiliation[Also at ]{…} and \email{…}, each a note keyed by the name's symbol
    foot = [f"† Also at {CHEMISTRY}.", "‡ office@example.org"]
    document = parse(tmp_path, [title_page("Anna Berg† and Carl Dahl‡", [PHYSICS], foot)])
    assert places(document) == {"Anna Berg": f"{PHYSICS}; {CHEMISTRY}", "Carl Dahl": PHYSICS}
    assert [author.email for author in document.authors] == [None, "office@example.org"]


def test_notes_that_are_sentences_or_labels_give_no_place() -> None:
    assert af._noted_place("This work was supported by the National Science Foundation.") == ""
    assert af._noted_place(f"Correspondence: {PHYSICS}") == ""  # BMC's, over the place read already
    assert af._noted_place("Part of the Invented Institute of Cosmology collaboration") == ""
    assert af._noted_place(f"Also at {CHEMISTRY}.") == CHEMISTRY


def test_symbols_after_the_places_key_them(tmp_path: Path) -> None:
    # ACM SIGPLAN (PLDI): "Mozilla Corporation∗" / "Adobe Corporation#", the names carrying "∗+", "#"
    under = ["Example Corporation*", "Lund University+", "Other Company#"]
    document = parse(tmp_path, [title_page("Anna Berg*+, Carl Dahl#", under)])
    assert places(document) == {"Anna Berg": "Example Corporation; Lund University", "Carl Dahl": "Other Company"}


def test_a_symbol_after_the_one_place_is_dropped(tmp_path: Path) -> None:
    # REVTeX: the e-mail's note mark set after the address ("…, UK∗")
    document = parse(tmp_path, [title_page("Anna Berg", [f"{PHYSICS}*"], ["* anna.berg@example.org"])])
    assert places(document) == {"Anna Berg": PHYSICS}


def test_numbers_closed_by_a_bracket_key_the_places(tmp_path: Path) -> None:
    # REVTeX's AIP substyles: "A. Author,1, b)" over "1)Authors' institution" / "2)Second institution"
    document = parse(tmp_path, [title_page("Anna Berg,1 and Carl Dahl2", [f"1){PHYSICS}", f"2){CHEMISTRY}"])])
    assert places(document) == {"Anna Berg": PHYSICS, "Carl Dahl": CHEMISTRY}


def test_letters_closed_by_a_bracket_key_the_foots_notes(tmp_path: Path) -> None:
    # REVTeX's AIP substyles: "A. Author,1, b)" over the foot's "b)Also at …", "c)Electronic mail: …"
    foot = [f"b)Also at {CHEMISTRY}.", "c)Electronic mail: office@example.org."]
    document = parse(tmp_path, [title_page("Anna Berg,1, b) and Carl Dahl1, c)", [f"1){PHYSICS}"], foot)])
    assert places(document) == {"Anna Berg": f"{PHYSICS}; {CHEMISTRY}", "Carl Dahl": PHYSICS}
    assert [author.email for author in document.authors] == [None, "office@example.org"]


def test_a_collaboration_under_the_address_is_no_part_of_it(tmp_path: Path) -> None:
    # REVTeX's \collaboration{MUSO Collaboration} under the members' \affiliation
    document = parse(tmp_path, [title_page("Anna Berg and Carl Dahl", [PHYSICS, "(Invented Collaboration)"])])
    assert places(document) == {"Anna Berg": PHYSICS, "Carl Dahl": PHYSICS}


def test_a_name_printed_whole_without_marks_has_none_of_a_namesakes() -> None:
    zone = "Ann Author† and Second Author‡ Delta Author"
    assert af._marks_of("Delta Author", zone) == []
    assert af._marks_of("Ann Author", zone) == ["†"]


def test_a_line_of_names_read_as_a_numbered_heading_is_the_names() -> None:
    # REVTeX's AAPM substyle: "A. Authorb) and B. Authorc)" taken for a heading numbered "A."
    stack = Stack(size=8.0)
    blocks = [
        stack.block("An Invented Title for the Example Paper", "title", size=12.0),
        stack.block("A. Bergb) and C. Dahlc)", "heading", number="A"),
        stack.block("Authors’ institution and/or address"),
        stack.block("(Dated: 27 December 2018)"),
    ]
    assert mostly_names("A. Bergb) and C. Dahlc)")
    entries, _, _ = af._entries(blocks, 0, {"A. Berg", "C. Dahl"}, "")
    assert entries == {None: "Authors’ institution and/or address"}


def _line(text: str, x0: float, top: float, size: float = 10.0) -> Line:
    return Line(text, 1, x0, top, x0 + 0.5 * size * len(text), top + size, size, False, False, "")


def test_names_stacked_over_one_address_in_a_box_share_it() -> None:
    # acmart's sigconf: "Ben Trovato∗" / "G.K.M. Tobin∗" / e-mails / "Institute for Clarity …", boxes side by side
    first, second, third = _line("Anna Berg*", 72, 100), _line("Carl Dahl*", 72, 112), _line("Eva Lind", 300, 100)
    named = [(first, ["Anna Berg"]), (second, ["Carl Dahl"]), (third, ["Eva Lind"])]
    placed = [(_line("Lund University", 72, 124, 9), "Lund University"), (_line("Oslo University", 300, 112, 9), "Oslo University")]
    owned = af._in_turn(named, placed, {"Anna Berg", "Carl Dahl", "Eva Lind"})
    assert owned == {"Anna Berg": "Lund University", "Carl Dahl": "Lund University", "Eva Lind": "Oslo University"}


def test_a_line_of_names_with_no_address_under_it_is_passed_over() -> None:
    # a manual's copyright line naming the authors over the names, each over its address
    holders = _line("Copyright by Anna Berg and Carl Dahl", 72, 80)
    named = [
        (holders, ["Anna Berg", "Carl Dahl"]),
        (_line("Anna Berg", 72, 100), ["Anna Berg"]),
        (_line("Carl Dahl", 72, 140), ["Carl Dahl"]),
    ]
    placed = [(_line(PHYSICS, 90, 112, 9), PHYSICS), (_line(CHEMISTRY, 90, 152, 9), CHEMISTRY)]
    assert af._in_turn(named, placed, {"Anna Berg", "Carl Dahl"}) == {"Anna Berg": PHYSICS, "Carl Dahl": CHEMISTRY}


def test_an_address_that_goes_on_from_names_on_its_row_is_theirs() -> None:
    # ACM's journals: "BEN TROVATO∗" "and G.K.M. TOBIN∗" ", Institute for Clarity in Documentation, USA" on one row
    stack = Stack(size=8.4)
    blocks = [
        stack.block("An Invented Title for the Example Paper", "title", size=13.0),
        stack.block("ANNA BERG*", top=100, x0=45, x1=118, size=9.8),
        stack.block("and CARL DAHL*", top=100, x0=121, x1=210, size=9.8),
        stack.block(", Lund University, Sweden", top=102, x0=210, x1=376),
        stack.block(["EVA LIND, University of Oslo, Norway"], top=114, x0=45, x1=300),
    ]
    authors = [Author("Anna Berg"), Author("Carl Dahl"), Author("Eva Lind")]
    af.attach_affiliations(authors, blocks, 0, 9.5, {1: 792.0})
    assert [author.affiliation for author in authors] == ["Lund University, Sweden"] * 2 + ["University of Oslo, Norway"]


def test_an_address_the_given_name_and_the_surnames_initial_spell_is_the_authors() -> None:
    authors = [Author("Lars Thorvald"), Author("Anna Berg")]
    assert af._owner_by_local("larst", authors) == 0


def closing_page(addresses: list[tuple[float, float, str]]) -> list[Item]:
    """The article's last page: the body's last lines, the references, and ``addresses`` (x, y, text) in small type."""
    items: list[Item] = [regular(72, 700 - 13 * i, 10, line) for i, line in enumerate(BODY)]
    items.append((72, 620, 11, [("bold", "References")]))
    items += [regular(72, 604 - 11 * i, 9, f"[{i + 1}] {line[3:]}") for i, line in enumerate(REFERENCES)]
    items += [regular(x, y, 7, text) for x, y, text in addresses]
    return items


def test_the_addresses_amsart_prints_at_the_end_are_the_authors_in_order(tmp_path: Path) -> None:
    # amsart: each author's \address and \email after the references, an address's first line set in
    addresses = [
        (84, 560, "Department of Physics, Lund University, Professorsgatan 1,"),
        (72, 551, "22100 Lund, Sweden"),
        (84, 540, "Email address: aberg@example.org"),
        (84, 520, "Institute of Chemistry, University of Oslo, Blindern, Oslo,"),
        (72, 511, "Norway"),
        (84, 500, "Email address: c.dahl@example.org"),
    ]
    document = parse(tmp_path, [title_page("Anna Berg and Carl Dahl", []), closing_page(addresses)])
    assert places(document) == {
        "Anna Berg": "Department of Physics, Lund University, Professorsgatan 1, 22100 Lund, Sweden",
        "Carl Dahl": "Institute of Chemistry, University of Oslo, Blindern, Oslo, Norway",
    }
    assert [author.email for author in document.authors] == ["aberg@example.org", "c.dahl@example.org"]


def test_a_references_last_lines_are_no_closing_address(tmp_path: Path) -> None:
    # an author-year reference in small type ends the page, its publisher a university's press
    ending = [(72, 560, "Lind, E. and Berg, A. Karst Hydrology of the North. Invented"), (84, 551, "University Press, Oslo, 2001.")]
    document = parse(tmp_path, [title_page("Anna Berg and Carl Dahl", []), closing_page(ending)])
    assert places(document) == {"Anna Berg": None, "Carl Dahl": None}


def test_a_place_that_opens_no_block_is_no_closing_address() -> None:
    # the last line of a note in small type, set apart from its first by a wider space: the note's, not an address
    lines = ["1 Supported by the research council under grant 1234, and by the", "grant for visits that the council gives to the"]
    note = Block([_line(lines[0], 72, 700, 7), _line(lines[1], 72, 709, 7), _line(CHEMISTRY, 72, 725, 7)])
    assert closing_addresses([Block([_line("Some body text of the article's last page.", 72, 600)]), note], 10.0) == []


def test_the_foots_place_opening_with_a_number_is_the_authors_of_that_number(tmp_path: Path) -> None:
    # BMC: the corresponding author's place in the foot keeps its number's mark ("²Physical Health …"), the
    # others listed at the end (here not read): it is the author's of that number, without the number
    foot = ["* Correspondence: carl.dahl@example.org", f"2 {CHEMISTRY}", "Full list of author information is available at the end"]
    document = parse(tmp_path, [first_page("Anna Berg1 and Carl Dahl2*", foot)])
    assert places(document) == {"Anna Berg": None, "Carl Dahl": CHEMISTRY}


def _title_line(text: str, top: float, x0: float = 72.0, size: float = 4.6, height: float = 8.0) -> Line:
    return Line(text, 1, x0, top, x0 + 4.0 * len(text), top + height, size, False, False, "")


def test_a_box_over_the_columns_lines_is_no_title_and_an_indent_is_measured_in_the_lines_height() -> None:
    # TUGboat set in bitmap fonts: the text layer reads the type at 4.6 points, lines 8 points high, and a word
    # in small capitals at 120 points, its box over the column; the title over the name a paragraph's indent in
    column = [_title_line(f"line {i} of the body's text, set in the column under the abstract", 150 + 12 * i) for i in range(8)]
    blocks = [
        Block([_title_line("The Invented Package", 80)]),
        Block([_title_line("Anna Berg", 96, x0=92)]),
        Block([_title_line("Abstract", 116)], kind="heading"),
        *(Block([line]) for line in column),
        Block([Line("Go forth now and", 1, 200, 140, 296, 260, 120.0, False, False, "")]),
    ]
    page = Page(1, 612, 792, [line for block in blocks for line in block.lines], 900, 0)
    assert fm.find_title(blocks, [page], 4.5) == [0]


def test_the_foots_places_numbered_in_turn_are_each_their_numbers(tmp_path: Path) -> None:
    # under the correspondence, places without a postal address (no elsarticle notes), the first opening with a
    # number and the next with the next: each number keys its own place, not the first all of them
    physics, chemistry = "Department of Physics, Lund University", "Institute of Chemistry, University of Oslo"
    foot = [
        "* Correspondence: carl.dahl@example.org",
        f"1 {physics}",
        f"2 {chemistry}",
        "Full list of author information is available at the end",
    ]
    document = parse(tmp_path, [first_page("Anna Berg1 and Carl Dahl2*", foot)])
    assert places(document) == {"Anna Berg": physics, "Carl Dahl": chemistry}


HARVARD_END = "World Health Organization, 2016. Global Report on Diabetes. World Health Organization, Geneva, Switzerland"


def test_a_harvard_references_last_line_is_no_closing_address() -> None:
    # Elsevier's author-year list: the year closes the authors' part, a sentence follows, then an address-like place
    body = Block([_line("Some body text of the article's last page.", 72, 600)])
    reference = Block([_line(HARVARD_END, 72, 700, 7), _line("Email address: who@example.org", 72, 709, 7)])
    assert closing_addresses([body, reference], 10.0) == []


def test_one_closing_address_without_a_contact_line_is_nobodys() -> None:
    # a place in small type alone at the end may be any note's or reference's: only a contact line tells an address
    authors = [Author("Anna Berg"), Author("Carl Dahl")]
    af._add_closing_places(authors, [(CHEMISTRY, [])])
    assert [author.affiliation for author in authors] == [None, None]
    af._add_closing_places(authors, [(CHEMISTRY, ["Email address: aberg@example.org"])])
    assert [author.affiliation for author in authors] == [CHEMISTRY, CHEMISTRY]


def test_the_body_and_a_tables_notes_in_body_type_key_no_notes(tmp_path: Path) -> None:
    # a line of the body's type high on the page that opens with a star ("* P < 0.05", a table's) is no note of the names'
    items = title_page("Anna Berg* and Carl Dahl†", [PHYSICS], ["† cdahl@example.org"])
    items.append(regular(72, 500, 10, f"* Also at {CHEMISTRY}"))
    document = parse(tmp_path, [items])
    assert places(document) == {"Anna Berg": PHYSICS, "Carl Dahl": PHYSICS}


def test_a_notes_address_label_and_telephone_are_cut_off() -> None:
    assert af._noted_place(f"Present Address {CHEMISTRY}") == CHEMISTRY
    assert af._noted_place(f"{CHEMISTRY}. Tel +47 22 85 50 50") == CHEMISTRY
    tel_aviv = "Department of Physics, Tel Aviv University, Tel Aviv, Israel"
    assert af._noted_place(tel_aviv) == tel_aviv


def test_a_place_closed_by_marks_after_a_joiner_has_no_joiner() -> None:
    assert af._closed_by_marks("Mayo Clinic* and Harvard University†") == {"*": "Mayo Clinic", "†": "Harvard University"}


def test_a_names_bracketed_letters_are_read_whatever_its_case() -> None:
    assert af._note_marks("Anna Berg", "ANNA BERG,1, b) and CARL DAHL2") == ["1", "b)"]


def test_a_short_given_name_and_an_initial_name_no_author() -> None:
    # "eval" spells Eva Lind's given name and initial, and a word: too short a name to tell
    assert af._owner_by_local("eval", [Author("Eva Lind"), Author("Carl Dahl")]) is None
    assert af._owner_by_local("carld2", [Author("Eva Lind"), Author("Carl Dahl")]) is None


def test_a_title_repeated_over_its_own_text_is_still_the_title() -> None:
    # a PDF that sets its text twice (an OCR layer under the print): the title's box lies over two copies of itself
    title = [_title_line("The Invented Package of Karst", 80, size=17.0, height=20.0) for _ in range(3)]
    blocks = [Block([line]) for line in title] + [Block([_title_line("Anna Berg", 110, size=10.0, height=11.0)])]
    blocks += [
        Block([_title_line(f"line {i} of the body's text, set in the column", 150 + 12 * i, size=10.0, height=11.0)]) for i in range(8)
    ]
    page = Page(1, 612, 792, [line for block in blocks for line in block.lines], 900, 0)
    assert fm.find_title(blocks, [page], 10.0)[:1] in ([0], [1], [2])
