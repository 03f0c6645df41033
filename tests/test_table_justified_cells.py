"""A justified cell (LaTeX's ``p{}``) whose line of few words stretches its spaces to a column's
gap, the one after a colon most ("Ohup   zanokopopa:        Zenofose", "Somoduk:   Zenofose
zafuzuba or"): the pieces are one line of the cell, since together they fill the measure of the
cell's other lines and the paragraph goes on under them. The layout is modelled on a two-column
table of commands and their descriptions from a LaTeX class's author guide, its words invented;
the lines are given as the parser reads them: top, bottom, type size and words with their
edges."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_box

_LINES = (
    (80.5, 89.5, 7.5, (("\\zegoto", 56.0, 88.8),)),
    (80.5, 89.5, 8.0, (("Seferof.", 153.1, 180.0), ("Secoguta", 184.1, 219.0), ("\\it", 222.2, 236.2))),
    (93.3, 102.2, 7.5, (("\\tozoza", 56.0, 88.8),)),
    (93.3, 102.2, 8.0, (("Ohup", 153.1, 171.9), ("kepa.", 175.0, 193.1), ("Secoguta", 197.2, 232.2), ("\\ec", 235.3, 249.3))),
    (106.1, 115.0, 7.5, (("\\tujafe", 56.0, 88.8),)),
    (106.1, 115.0, 8.0, (("Zujur.", 153.1, 184.4), ("Secoguta", 188.5, 223.5), ("\\es", 226.6, 240.6))),
    (118.9, 127.8, 7.5, (("\\ahakat", 56.0, 88.8),)),
    (118.9, 127.8, 8.0, (("Udeboge.", 153.1, 185.6), ("Secoguta", 189.7, 224.6), ("\\un", 227.8, 241.8))),
    (131.7, 140.6, 7.5, (("\\umopad", 56.0, 88.8),)),
    (131.7, 140.6, 8.0, (("Kefun", 153.1, 175.6), ("ubuk.", 178.7, 198.7), ("Secoguta", 202.8, 237.7), ("\\zu", 240.9, 254.9))),
    (144.5, 153.4, 7.5, (("\\ubusah", 56.0, 88.8),)),
    (144.5, 153.4, 8.0, (("Nuse", 153.1, 171.6), ("haref.", 174.6, 193.9), ("Secoguta", 198.0, 233.0), ("\\ju", 236.1, 250.1))),
    (157.2, 166.2, 7.5, (("\\detefe", 56.0, 88.8),)),
    (157.2, 166.2, 8.0, (("Aweharuzum.", 153.1, 200.5), ("Secoguta", 204.6, 239.5), ("\\os", 242.7, 256.7))),
    (170.0, 179.0, 7.5, (("\\mahuwu", 56.0, 88.8),)),
    (170.5, 178.5, 8.0, (("Nowebo", 153.1, 186.1), ("ogecaj", 189.2, 210.8))),
    (182.8, 191.8, 7.5, (("\\uzahewasan", 56.0, 107.7),)),
    (183.3, 191.3, 8.0, (("Egebag", 153.1, 183.0),)),
    (195.6, 204.6, 7.5, (("\\cacera", 56.0, 88.8),)),
    (196.1, 204.2, 8.0, (("Wajajob", 153.1, 184.3),)),
    (208.4, 217.4, 7.5, (("\\tutaja", 56.0, 88.8),)),
    (208.8, 216.9, 8.0, (("Ohup", 153.1, 171.9), ("kepa", 175.0, 190.6))),
    (221.2, 230.2, 7.5, (("\\pukukem", 56.0, 93.6),)),
    (221.2, 230.2, 8.0, (("Secoguta", 153.1, 188.1), ("\\dob", 191.2, 209.9))),
    (234.0, 243.0, 7.5, (("\\jafoha", 56.0, 88.8),)),
    (234.5, 242.5, 8.0, (("Seferof", 153.1, 177.4),)),
    (246.8, 255.7, 7.5, (("\\arenagepow", 56.0, 107.7),)),
    (246.8, 255.7, 8.0, (("Secoguta", 153.1, 188.1), ("\\ufo", 191.2, 209.9))),
    (259.6, 268.5, 7.5, (("\\eneler", 56.0, 88.8),)),
    (260.0, 268.0, 8.0, (("Nuse", 153.1, 171.6), ("haref", 174.6, 191.8))),
    (272.4, 281.3, 7.5, (("\\lohola", 56.0, 88.8),)),
    (272.9, 280.9, 8.0, (("Aweharuzum", 153.1, 197.9),)),
    (285.2, 294.1, 7.5, (("\\mukonuru", 56.0, 98.3),)),
    (285.7, 293.6, 8.0, (("Somoduk:", 153.1, 186.2),)),
    (285.7, 293.9, 8.0, (("Zenofose", 200.3, 235.1), ("zafuzuba", 243.2, 280.8), ("or", 288.9, 297.1))),
    (296.1, 304.4, 8.0, (("apulowa", 153.1, 186.0), ("matok", 189.1, 207.6), ("bosafu", 210.7, 236.3))),
    (308.4, 317.4, 7.5, (("\\oremog", 56.0, 88.8),)),
    (308.9, 316.9, 8.0, (("Ohup", 153.1, 171.9),)),
    (308.9, 316.9, 8.0, (("zanokopopa:", 187.1, 233.9),)),
    (308.9, 316.9, 8.0, (("Zenofose", 262.3, 297.0),)),
    (
        319.4,
        327.6,
        7.5,
        (("zafuzuba", 153.1, 190.7), ("or", 199.2, 207.4), ("apulowa", 215.9, 248.8), ("matok", 257.3, 275.8), ("ru-", 284.3, 297.1)),
    ),
    (329.8, 337.8, 8.0, (("oseh", 153.1, 168.9),)),
    (342.1, 351.1, 7.5, (("\\em", 56.0, 70.0),)),
    (
        342.5,
        350.7,
        8.0,
        (
            ("Ohup", 153.1, 171.9),
            ("Ehopu", 176.9, 200.8),
            ("and", 205.8, 220.7),
            ("gudog", 225.7, 246.7),
            ("cehe", 251.8, 272.7),
            ("uce-", 277.8, 297.0),
        ),
    ),
    (353.1, 361.1, 8.0, (("ruhe:", 153.1, 171.8),)),
    (353.1, 361.4, 7.5, (("Zenofose", 184.4, 219.1), ("\\wuboruneda{em}", 226.5, 297.1))),
    (
        363.6,
        371.8,
        8.0,
        (
            ("and", 153.1, 167.9),
            ("uko", 171.0, 187.9),
            ("lefegoj", 190.9, 218.9),
            ("the", 221.9, 234.7),
            ("zafuzuba", 237.8, 275.5),
            ("matok", 278.6, 297.1),
        ),
    ),
    (374.0, 382.0, 8.0, (("bosafu", 153.1, 178.7),)),
)
_REGION = (53.6, 73.4, 299.5, 387.6)


def _line(top: float, bottom: float, size: float, words: tuple[tuple[str, float, float], ...]) -> Line:
    text = " ".join(word for word, _, _ in words)
    return Line(text, 4, words[0][1], top, words[-1][2], bottom, size, False, False, "CMR9", words=list(words))


def test_a_justified_line_of_few_words_stays_one_cell() -> None:
    cells = read_box([_line(*line) for line in _LINES], [], _REGION)
    assert cells is not None
    assert all(len(row) == 2 for row in cells), cells
    assert ["\\mukonuru", "Somoduk: Zenofose zafuzuba or apulowa matok bosafu"] in cells, cells
    assert any(row[0] == "\\oremog" and row[1].startswith("Ohup zanokopopa: Zenofose zafuzuba or apulowa matok") for row in cells), cells


def test_a_justified_line_of_even_stretched_spaces_stays_one_cell() -> None:
    """The same line with no colon: its spaces stretched alike ("Ohup   zanokopopa   Zenofose")."""
    even = {"zanokopopa:": ("zanokopopa", 195.8, 238.4)}
    lines = [_line(top, bottom, size, tuple(even.get(word[0], word) for word in words)) for top, bottom, size, words in _LINES]
    cells = read_box(lines, [], _REGION)
    assert cells is not None
    assert all(len(row) == 2 for row in cells), cells
    assert any(row[0] == "\\oremog" and row[1].startswith("Ohup zanokopopa Zenofose zafuzuba") for row in cells), cells
