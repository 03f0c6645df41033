"""A table of flags and their descriptions (modelled on an R package vignette's table of flags, its
words invented): each description a paragraph justified in a narrow column, with code set in
shaded boxes, and its rows and wrapped lines all a line apart. Every line of a description goes
on from the one over it (the first word of the line would not have fit after it): the line over
it cut into pieces at its stretched spaces ("Dujo  FA-awon  coboberur  usojer  in") is read whole; a
line of values read whole opens with words ("anacej and ≥ 0.5% has mawuta atom"); a value goes on
from a line ending with an operator ("ohusuz <" over "2.6"); and the box behind a code word the
stops after it stand outside ("umega.usukofomuj=EKEJE).") is no rule between rows. Where a
sentence ends and the line under opens with a capital ("See Section 8."), the line is still read
as a row of its own: a group's row under its label is set so too. The lines and rules are given
as the parser reads them: top, bottom, type size and words with their edges."""

from __future__ import annotations

from dataclasses import replace

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_box
from paperpyramid.parsers.embedded.table_rules import Rule

_LINES = (
    (156.6, 165.5, 9.0, (("Poto", 99.4, 117.2),)),
    (156.6, 165.5, 9.0, (("Udobokubawa", 293.3, 340.1),)),
    (173.5, 182.6, 9.0, (("EPARASERO", 99.4, 150.4), ("COW", 153.7, 173.5))),
    (
        173.1,
        182.6,
        9.0,
        (
            (">", 293.3, 301.0),
            ("50%", 304.5, 322.7),
            ("of", 326.4, 334.9),
            ("edefur", 338.2, 370.0),
            ("in", 373.7, 381.2),
            ("COW", 384.9, 404.7),
            ("and", 408.4, 423.5),
            ("ohusuz", 427.2, 451.8),
            ("<", 455.6, 463.4),
        ),
    ),
    (185.6, 194.5, 8.8, (("2.6", 293.3, 306.0),)),
    (197.4, 206.6, 9.0, (("EPARASERO", 99.4, 150.4), ("EDUBOL", 153.7, 189.0))),
    (
        197.0,
        206.6,
        9.0,
        (("≥", 293.3, 301.0), ("1%", 303.8, 317.1), ("of", 320.4, 328.8), ("edefur", 331.8, 363.6), ("anugowa", 366.9, 396.4)),
    ),
    (209.3, 218.5, 9.0, (("DUJO", 99.4, 122.9), ("AT-", 126.2, 142.1), ("OR", 145.4, 159.2), ("FA-JUSEGAB", 162.5, 227.1))),
    (
        209.4,
        218.5,
        9.0,
        (("Dujo", 293.2, 312.7), ("FA-awon", 324.4, 356.8), ("coboberur", 368.5, 408.4), ("usojer", 420.0, 444.4), ("in", 455.6, 463.1)),
    ),
    (222.3, 230.2, 7.9, (("ele.jusegab", 293.3, 345.9),)),
    (233.3, 242.4, 9.0, (("DUJO", 99.4, 122.9), ("NAZEFA", 126.2, 162.0))),
    (232.9, 242.9, 7.9, (("(umez", 293.2, 318.6), ("umega.usukofomuj=EKEJE).", 324.9, 436.8))),
    (233.5, 242.4, 9.0, (("For", 449.8, 463.3),)),
    (
        245.4,
        254.4,
        9.0,
        (
            ("owaf", 293.3, 310.3),
            ("dujo", 316.1, 333.8),
            ("nazefa", 339.6, 363.6),
            ("felokos,", 369.4, 404.4),
            ("it", 410.9, 416.9),
            ("is", 422.7, 428.9),
            ("wucap\ufffe", 434.8, 463.2),
        ),
    ),
    (257.4, 266.3, 7.9, (("pemere", 293.3, 325.5), ("to", 330.2, 338.8), ("kak", 343.5, 355.3), ("umega.usukofomuj=EDES.", 360.1, 463.4))),
    (269.1, 278.3, 9.0, (("See", 293.3, 307.7), ("Section", 311.0, 341.4), ("8.", 344.8, 352.5))),
    (281.1, 290.2, 9.0, (("APA", 99.4, 121.2), ("NAZEFA", 124.6, 160.3))),
    (280.7, 290.2, 9.0, (("Nazefa", 293.2, 318.4), ("<", 321.8, 329.6), ("30%", 332.3, 350.6))),
    (293.0, 302.2, 9.0, (("APA", 99.4, 121.2), ("EFUWUMASU", 124.6, 184.3), ("ANAMA", 187.7, 218.3))),
    (293.1, 302.2, 9.0, (("momanekojOguzose", 293.3, 369.9), ("ehumocares", 380.9, 418.9), ("wesesewe", 429.9, 463.3))),
    (305.2, 314.2, 9.0, (("ehegomamo", 293.3, 328.8), ("rujujamaz", 332.2, 368.4))),
    (316.9, 326.1, 9.0, (("UPOCA", 99.4, 128.7), ("EZO-EPATO", 132.0, 183.8))),
    (317.2, 326.1, 9.0, (("Ezo-epato", 293.2, 331.0),)),
    (317.2, 326.1, 9.0, (("owujezos", 348.2, 383.7),)),
    (317.2, 326.1, 9.0, (("rewunusen", 400.9, 438.3),)),
    (317.2, 326.0, 8.8, ((">", 455.6, 463.4),)),
    (329.9, 337.8, 7.9, (("ele.onur.anuj", 293.3, 355.5),)),
    (340.8, 350.0, 9.0, (("UPOCA", 99.4, 128.7), ("ZENULUBUPOHO", 132.0, 207.5))),
    (341.1, 350.0, 7.9, (("More", 293.2, 314.5), ("than", 317.8, 336.4), ("ele.dowuwalo", 339.9, 397.3))),
    (352.8, 362.0, 9.0, (("AHU-POMUZOCO", 99.4, 176.7),)),
    (
        352.5,
        362.0,
        9.0,
        (
            ("≥", 293.3, 301.0),
            ("99%", 308.2, 326.4),
            ("of", 332.4, 340.8),
            ("edefur", 346.3, 378.2),
            ("has", 384.2, 397.9),
            ("ozegukere", 403.8, 438.4),
            ("acor", 444.4, 463.3),
        ),
    ),
    (
        364.4,
        373.9,
        9.0,
        (
            ("anacej", 293.3, 324.7),
            ("and", 330.0, 345.1),
            ("≥", 350.5, 358.2),
            ("0.5%", 364.3, 385.4),
            ("has", 390.7, 404.4),
            ("mawuta", 409.8, 437.7),
            ("atom", 443.0, 463.3),
        ),
    ),
    (376.9, 385.9, 9.0, (("ecunoj", 293.3, 328.6), ("regag", 332.0, 352.2))),
    (388.7, 397.8, 9.0, (("NOMATOTOMOH", 99.4, 169.1),)),
    (
        388.3,
        397.8,
        7.9,
        (
            ("≥", 293.3, 301.0),
            ("0.75×", 304.1, 329.5),
            ("ele.ahu.detake", 333.0, 400.0),
            ("kuculego", 403.5, 435.2),
            ("of", 438.7, 447.1),
            ("the", 450.1, 463.3),
        ),
    ),
    (400.8, 409.8, 9.0, (("edefur", 293.3, 325.2), ("in", 328.5, 336.0), ("apo-detake", 339.3, 380.8), ("regag", 384.1, 404.3))),
    (412.6, 421.8, 9.0, (("GUPA", 99.4, 126.8), ("OZE", 130.1, 149.8))),
    (412.7, 421.8, 7.9, (("OzE", 293.3, 310.5), ("<", 313.9, 321.6), ("wek.oze", 325.0, 358.5))),
    (
        424.5,
        433.7,
        9.0,
        (
            ("ANACECOMU", 99.4, 154.4),
            ("PUMOPO", 157.7, 196.3),
            ("LEJAWUGOMADAM", 199.6, 281.2),
            ("Gefarogekoj", 293.2, 336.8),
            ("ofofulo", 339.5, 369.1),
            ("of", 371.8, 380.3),
            ("obUGU", 382.5, 411.8),
            ("afucobod", 414.4, 446.6),
            ("mu\ufffe", 449.3, 463.1),
        ),
    ),
    (436.7, 445.7, 9.0, (("ogebudale", 293.3, 326.5), ("noher-bewupadelahe", 329.9, 409.9))),
    (448.4, 457.6, 9.0, (("TENO", 99.4, 124.8), ("NOGEZAWOT", 128.1, 187.8))),
    (
        448.7,
        457.6,
        9.0,
        (
            ("Ohusuz", 293.2, 319.0),
            ("<", 322.5, 330.2),
            ("1.5", 333.0, 345.7),
            ("or", 349.0, 357.1),
            (">", 360.5, 368.2),
            ("4.5", 371.0, 383.7),
        ),
    ),
)
_RULES = (
    (170.6, 141.5, 182.6, 141.5),
    (182.1, 141.5, 194.1, 141.5),
    (193.6, 141.5, 201.8, 141.5),
    (201.3, 141.5, 209.4, 141.5),
    (208.9, 141.5, 240.1, 141.5),
    (92.6, 151.1, 470.1, 152.7),
    (92.9, 168.6, 469.8, 169.6),
    (293.0, 221.3, 346.2, 221.3),
    (293.0, 230.4, 346.2, 230.4),
    (293.0, 221.3, 293.0, 230.4),
    (346.2, 221.3, 346.2, 230.4),
    (324.6, 233.3, 430.4, 233.3),
    (324.6, 242.4, 430.4, 242.4),
    (324.6, 233.3, 324.6, 242.4),
    (430.4, 233.3, 430.4, 242.4),
    (359.8, 257.2, 460.9, 257.2),
    (359.8, 266.3, 460.9, 266.3),
    (359.8, 257.2, 359.8, 266.3),
    (460.9, 257.2, 460.9, 266.3),
    (293.0, 293.1, 312.7, 293.1),
    (293.0, 302.1, 312.7, 302.1),
    (293.0, 293.1, 293.0, 302.1),
    (312.7, 293.1, 312.7, 302.1),
    (312.2, 293.1, 346.2, 293.1),
    (312.2, 302.1, 346.2, 302.1),
    (312.2, 293.1, 312.2, 302.1),
    (346.2, 293.1, 346.2, 302.1),
    (345.7, 293.1, 370.1, 293.1),
    (345.7, 302.1, 370.1, 302.1),
    (345.7, 293.1, 345.7, 302.1),
    (370.1, 293.1, 370.1, 302.1),
    (293.0, 328.9, 355.8, 328.9),
    (293.0, 338.0, 355.8, 338.0),
    (293.0, 328.9, 293.0, 338.0),
    (355.8, 328.9, 355.8, 338.0),
    (339.6, 340.9, 397.5, 340.9),
    (339.6, 350.0, 397.5, 350.0),
    (339.6, 340.9, 339.6, 350.0),
    (397.5, 340.9, 397.5, 350.0),
    (332.7, 388.7, 400.2, 388.7),
    (332.7, 397.8, 400.2, 397.8),
    (332.7, 388.7, 332.7, 397.8),
    (400.2, 388.7, 400.2, 397.8),
    (324.7, 412.6, 358.7, 412.6),
    (324.7, 421.7, 358.7, 421.7),
    (324.7, 412.6, 324.7, 421.7),
    (358.7, 412.6, 358.7, 421.7),
    (92.6, 460.5, 470.1, 462.1),
)
_REGION = (93.0, 152.0, 470.0, 461.0)


def _line(top: float, bottom: float, size: float, words: tuple[tuple[str, float, float], ...]) -> Line:
    """The line of ``words``, cut after its numbers as the parser reads a table's lines ("> 50%"
    then "of edefur in COW and ohusuz <")."""
    text = " ".join(word for word, _, _ in words)
    line = Line(text, 24, words[0][1], top, words[-1][2], bottom, size, False, False, "LMSans10-Regular", words=list(words))
    cuts = [index + 1 for index, (word, _, _) in enumerate(words[:-1]) if word[:1].isdigit()]
    if not cuts:
        return line
    pieces = [words[start:end] for start, end in zip([0, *cuts], [*cuts, len(words)], strict=True)]
    return replace(line, parts=[_line(top, bottom, size, piece) for piece in pieces])


def test_every_line_of_a_justified_description_stays_in_its_row() -> None:
    cells = read_box([_line(*line) for line in _LINES], [Rule(*rule) for rule in _RULES], _REGION)
    assert cells is not None
    assert [row[0] for row in cells if row[0]] == [
        "Poto",
        "EPARASERO COW",
        "EPARASERO EDUBOL",
        "DUJO AT- OR FA-JUSEGAB",
        "DUJO NAZEFA",
        "APA NAZEFA",
        "APA EFUWUMASU ANAMA",
        "UPOCA EZO-EPATO",
        "UPOCA ZENULUBUPOHO",
        "AHU-POMUZOCO",
        "NOMATOTOMOH",
        "GUPA OZE",
        "ANACECOMU PUMOPO LEJAWUGOMADAM",
        "TENO NOGEZAWOT",
    ], cells
    # a sentence opening under a justified description's full last line goes on in its cell
    # (table_row_joins._paragraph_open): no row is left without its label
    assert [row for row in cells if not row[0]] == [], cells
    described = dict(cells)
    assert described["EPARASERO COW"] == "> 50% of edefur in COW and ohusuz < 2.6"
    assert described["DUJO AT- OR FA-JUSEGAB"] == "Dujo FA-awon coboberur usojer in ele.jusegab"
    assert described["AHU-POMUZOCO"] == "≥ 99% of edefur has ozegukere acor anacej and ≥ 0.5% has mawuta atom ecunoj regag"
    assert described["DUJO NAZEFA"].startswith("(umez umega.usukofomuj=EKEJE). For owaf dujo nazefa felokos")
    assert described["DUJO NAZEFA"].endswith("=EDES. See Section 8.")
