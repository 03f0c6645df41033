"""The tables :mod:`paperpyramid.parsers.latex.text` renders with: commands whose arguments are
dropped, text symbols, accents, escapes, and the Greek letters of headings' inline mathematics."""

from __future__ import annotations

__all__ = ["COMBINING", "DROP", "ESCAPES", "GREEK", "SYMBOLS"]

# arguments that are keys, sizes or files: the command goes with them (count of mandatory arguments)
DROP = {
    "label": 1, "vspace": 1, "hspace": 1, "includegraphics": 1, "color": 1, "setlength": 2, "addtolength": 2,
    "setcounter": 2, "addtocounter": 2, "stepcounter": 1, "refstepcounter": 1, "pagestyle": 1, "thispagestyle": 1,
    "bibliographystyle": 1, "bibliography": 1, "nocite": 1, "markboth": 2, "markright": 1, "linespread": 1,
    "captionsetup": 1, "definecolor": 3, "newcounter": 1, "fontsize": 2, "usepackage": 1, "documentclass": 1,
    "phantom": 1, "hphantom": 1, "vphantom": 1, "index": 1, "pdfbookmark": 2, "ead": 1, "fnref": 1, "tnoteref": 1,
    "corref": 1, "newtheorem": 2, "theoremstyle": 1, "numberwithin": 2, "counterwithin": 2, "pageref": 1,
    "bibpunct": 6, "setcitestyle": 1, "biboptions": 1, "graphicspath": 1, "addbibresource": 1, "urlstyle": 1,
    "hypersetup": 1, "renewcommand": 2, "newcommand": 2, "footnotemark": 0, "orcid": 1, "rowcolor": 1,
    "cellcolor": 1, "arrayrulecolor": 1, "cmidrule": 1, "cline": 1, "specialrule": 3, "resizebox": 2,
    "scalebox": 1, "rotatebox": 1, "parbox": 1, "raisebox": 1, "makebox": 0, "hyperref": 0, "hypertarget": 1,
    "textcolor": 1, "colorbox": 1, "fcolorbox": 2, "href": 1, "multicolumn": 2, "multirow": 2, "tag": 1,
    "affil": 0, "inst": 1, "ensuremath": 0, "texorpdfstring": 0, "settowidth": 2, "bibfield": 1,
    "bibinfo": 1, "doi": 0, "natexlab": 0, "vskip": 0, "hskip": 0, "mbox": 0,
}  # fmt: skip
SYMBOLS = {
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "l": "ł",
    "L": "Ł", "i": "ı", "j": "ȷ", "S": "§", "P": "¶", "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX", "ldots": "…", "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "dag": "†", "ddag": "‡", "textdagger": "†", "textdaggerdbl": "‡", "copyright": "©", "textcopyright": "©",
    "textregistered": "®", "texttrademark": "™", "pounds": "£", "euro": "€", "textdegree": "°", "degree": "°",
    "textbullet": "•", "textperiodcentered": "·", "textasciitilde": "~", "textbackslash": "\\",
    "textasciicircum": "^", "textunderscore": "_", "textbar": "|", "textless": "<", "textgreater": ">",
    "textquotedblleft": "“", "textquotedblright": "”", "textquoteleft": "‘", "textquoteright": "’",
    "guillemotleft": "«", "guillemotright": "»", "textmu": "µ", "textpm": "±", "texttimes": "×",
    "newline": "\n", "linebreak": " ", "par": "\n\n", "quad": " ", "qquad": " ", "enspace": " ", "space": " ",
    "textsection": "§", "checkmark": "✓", "xspace": " ", "hfill": " ", "hfil": " ", "break": " ", "eg": "e.g.", "ie": "i.e.", "etal": "et al.", "etc": "etc.",
}  # fmt: skip
COMBINING = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304", ".": "\u0307",
    "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331",
}  # fmt: skip
ESCAPES = {"&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", " ": " ", "\n": " ", ",": " ",
            ";": " ", ":": " ", "!": "", "/": "", "-": "", "@": "", "\\": "\n", "|": "‖", ">": " ", "<": ""}  # fmt: skip
GREEK = {
    name: chr(code)
    for code, name in enumerate(
        [
            "alpha",
            "beta",
            "gamma",
            "delta",
            "epsilon",
            "zeta",
            "eta",
            "theta",
            "iota",
            "kappa",
            "lambda",
            "mu",
            "nu",
            "xi",
            "omicron",
            "pi",
            "rho",
            "varsigma",
            "sigma",
            "tau",
            "upsilon",
            "phi",
            "chi",
            "psi",
            "omega",
        ],
        0x3B1,
    )
}
GREEK.update({name.capitalize(): chr(ord(char) - 32) for name, char in GREEK.items() if name not in ("varsigma", "omicron")})
GREEK.update(
    {
        "varepsilon": "ε",
        "vartheta": "ϑ",
        "varphi": "φ",
        "ell": "ℓ",
        "infty": "∞",
        "times": "×",
        "cdot": "·",
        "leq": "≤",
        "le": "≤",
        "geq": "≥",
        "ge": "≥",
        "neq": "≠",
        "pm": "±",
        "to": "→",
        "rightarrow": "→",
        "in": "∈",
        "sim": "∼",
        "approx": "≈",
    }
)
