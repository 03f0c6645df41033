"""A cell's paragraph whose last line opens with a number ("... from the mamupefu obedep" over
"10 pt one", modelled on a LaTeX package manual's table of options, its words invented): the line
goes on from the line over it, which filled its column, and is no row of its own; nor is it the
first line of the next row's cell, since that line would have room for the next word after it.
The lines are given as the parser reads them: top, bottom, type size and words with their edges."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_box

_LINES = (
    (97.9, 108.7, 10.7, (("Bosafu", 117.3, 150.5),)),
    (97.9, 108.7, 10.7, (("Sudeleg", 205.0, 247.5),)),
    (114.4, 124.9, 10.4, (("or", 117.3, 128.2),)),
    (
        114.2,
        125.0,
        10.7,
        (
            ("mafasera", 205.0, 244.8),
            ("bosafu", 247.8, 278.4),
            ("nawo", 281.4, 301.9),
            ("for", 304.8, 318.8),
            ("tewowomep", 321.8, 372.8),
            ("haladawepabep", 375.8, 439.5),
        ),
    ),
    (129.7, 140.2, 10.5, (("10pt", 117.3, 138.8),)),
    (
        129.6,
        140.4,
        10.7,
        (
            ("for", 205.0, 218.8),
            ("rehum", 221.7, 247.2),
            ("detu", 250.2, 271.2),
            ("one", 274.2, 291.2),
            ("fuhu", 294.2, 311.8),
            ("awet", 314.8, 333.8),
            ("adel", 336.8, 355.1),
            ("and", 358.1, 375.1),
            ("lowufabonocap", 378.1, 442.8),
            ("ukonum\ufffe", 445.8, 479.0),
        ),
    ),
    (
        144.1,
        154.8,
        10.7,
        (
            ("jok", 205.0, 220.6),
            ("or", 224.4, 234.6),
            ("zafapuwa", 238.4, 281.0),
            ("the", 284.8, 299.7),
            ("gudog", 303.5, 328.6),
            ("sakab", 332.4, 356.1),
            ("from", 359.9, 383.6),
            ("the", 387.4, 402.3),
            ("mamupefu", 406.1, 444.0),
            ("obedep", 447.8, 477.0),
        ),
    ),
    (158.6, 169.3, 10.7, (("10\u2009pt", 204.1, 226.2), ("one", 229.2, 246.4))),
    (173.0, 183.6, 10.4, (("upelEwejala", 117.3, 174.5),)),
    (
        173.0,
        183.7,
        10.7,
        (
            ("to", 205.0, 214.1),
            ("be", 216.9, 228.0),
            ("etafarul", 230.8, 268.5),
            ("in", 271.3, 280.5),
            ("bazah", 283.3, 308.0),
            ("to", 310.8, 319.9),
            ("cer", 322.7, 338.3),
            ("a", 341.1, 346.3),
            ("emejanubat", 349.1, 401.9),
            ("natuhos", 404.7, 439.0),
            ("Ujutofo", 441.8, 477.0),
        ),
    ),
    (187.4, 198.2, 10.7, (("awet", 205.0, 224.3),)),
    (
        201.8,
        212.6,
        10.7,
        (
            ("OrEcudoHulum", 117.1, 193.0),
            ("to", 205.0, 214.3),
            ("be", 217.3, 228.6),
            ("etafarul", 231.6, 270.3),
            ("in", 273.3, 282.6),
            ("bazah", 285.6, 310.9),
            ("to", 313.9, 323.2),
            ("jower", 326.2, 352.4),
            ("the", 355.4, 370.0),
            ("opowatekun", 373.0, 419.0),
            ("of", 422.0, 432.6),
            ("ebusuceb", 435.0, 477.0),
        ),
    ),
    (216.3, 227.1, 10.7, (("acomot", 205.0, 236.9), ("(uwafocu)", 239.9, 280.9))),
    (230.7, 241.4, 10.4, (("NehasUfeco", 117.3, 179.1),)),
    (
        230.7,
        241.5,
        10.7,
        (
            ("to", 205.0, 214.5),
            ("be", 218.4, 229.9),
            ("etafarul", 233.8, 273.0),
            ("in", 276.9, 286.4),
            ("bazah", 290.3, 316.0),
            ("to", 319.9, 329.4),
            ("have", 333.2, 355.9),
            ("zerenazab", 359.7, 403.2),
            ("uhok", 407.1, 426.7),
            ("the", 430.6, 445.5),
            ("kak", 449.4, 463.0),
            ("of", 466.8, 477.6),
        ),
    ),
    (
        245.2,
        256.0,
        10.7,
        (
            ("bazuce", 205.0, 239.5),
            ("that", 242.5, 260.5),
            ("bupufolo", 263.4, 300.0),
            ("junesep", 302.9, 338.8),
            ("the", 341.8, 356.4),
            ("ebusuceb", 359.4, 401.2),
            ("acomot", 404.2, 436.1),
        ),
    ),
)
_REGION = (102.0, 89.6, 492.0, 262.8)


def _line(top: float, bottom: float, size: float, words: tuple[tuple[str, float, float], ...]) -> Line:
    text = " ".join(word for word, _, _ in words)
    return Line(text, 3, words[0][1], top, words[-1][2], bottom, size, False, False, "NimbusRomNo9L", words=list(words))


def test_a_last_line_opening_with_a_number_goes_on_from_its_cell() -> None:
    cells = read_box([_line(*line) for line in _LINES], [], _REGION)
    assert cells is not None
    assert [row[0] for row in cells] == ["Bosafu", "or", "10pt", "upelEwejala", "OrEcudoHulum", "NehasUfeco"], cells
    assert cells[2][1].endswith("from the mamupefu obedep 10\u2009pt one"), cells
    assert cells[3][1] == "to be etafarul in bazah to cer a emejanubat natuhos Ujutofo awet", cells
