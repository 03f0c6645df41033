"""The journal and the publication year of papers set in layouts the parser was not tuned on.

Each case is a first page (and two more) written here in a publisher's layout: running heads,
mastheads, "Cite this article" boxes, copyright lines, dated front matter, an arXiv side stamp,
and reference lists whose journals and years are other papers'. The cases are split in two:
``DEV`` was developed against; ``HELD_OUT`` (other publishers and patterns) was written with it,
before the code changed, and not looked at while it changed: it measures how far the rules
generalise (issue 19, item 7). Each held-out round's misses led to a change, measured on the
next round, written before that change; a round's cases count as developed against after it.
The misses left are marked ``xfail`` (strict: a fix shows) with what the layout needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from paperpyramid.eval.gold import soft_norm
from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.retrieval.filters import year_of
from tests.pdf_maker import winansi_pdf

Item = tuple[float, float, float, str] | tuple[float, float, float, str, int]

_BODY = [
    "Understanding how populations respond to change is a long standing question, and the",
    "answer depends on the scale at which the question is asked. Here we combine field",
    "observations with a model of the process and show that the response is predictable",
    "from a small number of measured quantities. The approach is simple to apply and the",
    "data and code are available to anyone who wishes to repeat the analysis in full.",
    "We describe the study sites, the sampling design and the statistical model in turn,",
    "and then compare the predictions with the observations made over several seasons.",
    "Our results agree with earlier work on related systems and extend it in two ways.",
]


@dataclass
class Layout:
    """A paper's pages: a first page in a publisher's layout and two pages of body and references."""

    title: str
    head: list[str] = field(default_factory=list)  # the first page's running head or masthead lines
    front: list[str] = field(default_factory=list)  # small print under the authors: dates, a citation box
    foot: list[str] = field(default_factory=list)  # the first page's footer lines
    later_head: str = ""  # the running head of later pages
    later_foot: str = ""  # the running foot of later pages
    stamp: str = ""  # a side stamp up the left margin (arXiv)
    body: list[str] = field(default_factory=list)  # body lines after the standard ones (citations in the text)
    references: list[str] = field(default_factory=list)  # reference entries, laid out to the foot of pages 2 and 3

    def pdf(self) -> bytes:
        first: list[Item] = [(72, 760 - 11 * index, 8, text) for index, text in enumerate(self.head)]
        first += [(72, 690, 16, self.title), (72, 664, 11, "Anna Berg, Carl Dahl and Eva Falk")]
        first.append((72, 648, 9, "Department of Biology, University of Uppsala, Uppsala, Sweden"))
        first += [(72, 630 - 11 * index, 8, text) for index, text in enumerate(self.front)]
        y = 570 - 11 * max(len(self.front) - 3, 0)
        first.append((72, y, 12, "Abstract"))
        for index, text in enumerate(_BODY[:4]):
            first.append((72, y - 16 - 13 * index, 10, text))
        y -= 16 + 13 * 4 + 14
        first.append((72, y, 12, "1. Introduction"))
        for index, text in enumerate(_BODY + self.body):
            first.append((72, y - 16 - 13 * index, 10, text))
        first += [(72, 50 - 10 * index, 7, text) for index, text in enumerate(self.foot)]
        if self.stamp:
            first.append((24, 250, 20, self.stamp, 90))
        pages = [first]
        entries = list(self.references)
        for number in (2, 3):
            page: list[Item] = [(72, 765, 8, self.later_head)] if self.later_head else []
            page += [(72, 730 - 13 * index, 10, text) for index, text in enumerate(_BODY)]
            y = 730 - 13 * len(_BODY) - 14
            if number == 2 and entries:
                page.append((72, y, 12, "References"))
                y -= 16
            while entries and y > 60:
                page.append((72, y, 9, entries.pop(0)))
                y -= 12
            if self.later_foot:
                page.append((72, 30, 7, self.later_foot))
            page.append((300, 18, 8, str(number)))
            pages.append(page)
        return winansi_pdf(pages)


def _references(*journals: str) -> list[str]:
    """A reference list citing other papers in ``journals``, enough entries to reach the pages' feet."""
    out = []
    for index in range(44):
        journal = journals[index % len(journals)]
        out.append(f"{index + 1}. Author{chr(65 + index % 26)} B, Other C. A finding on topic {index}. {journal}")
    return out


# --- developed against -------------------------------------------------------------------------

DEV: dict[str, tuple[Layout, str | None, int | None]] = {
    "vancouver running head": (
        Layout(
            "Spike sorting of dense electrode recordings in awake mice",
            head=["J Neurosci Methods 2019;312:45–52"],
            later_head="A. Berg et al. / J Neurosci Methods 2019;312:45–52",
            references=_references("J Physiol 2012;590:1–20.", "Neuron 2015;85:1–14."),
        ),
        "J Neurosci Methods",
        2019,
    ),
    "nature pipes": (
        Layout(
            "Coherent transport of excitons in layered crystals",
            head=["ARTICLE"],
            foot=[
                "NATURE COMMUNICATIONS | (2021) 12:3456 | https://doi.org/10.1038/s41467-021-23456-7 | www.nature.com/naturecommunications"
            ],
            later_foot="NATURE COMMUNICATIONS | (2021) 12:3456 | https://doi.org/10.1038/s41467-021-23456-7 | www.nature.com/naturecommunications",
            references=_references("Nature 521, 436–444 (2015).", "Science 351, 12–15 (2016)."),
        ),
        "Nature Communications",
        2021,
    ),
    "ieee published in": (
        Layout(
            "Deep registration of brain images with uncertainty",
            front=["Published in: IEEE Transactions on Medical Imaging ( Volume: 39, Issue: 5, May 2020)", "Page(s): 1–9"],
            references=_references("IEEE Trans. Pattern Anal. Mach. Intell., vol. 40, no. 4, 2018."),
        ),
        "IEEE Transactions on Medical Imaging",
        2020,
    ),
    "elsevier masthead and copyright": (
        Layout(
            "Groundwater recharge under a changing snowpack",
            head=[
                "Journal of Hydrology 560 (2018) 1–12",
                "Contents lists available at ScienceDirect",
                "journal homepage: www.elsevier.com/locate/jhydrol",
            ],
            foot=[
                "https://doi.org/10.1016/j.jhydrol.2018.03.012",
                "Received 3 November 2017; Received in revised form 2 March 2018; Accepted 5 March 2018",
                "0022-1694/© 2018 Elsevier B.V. All rights reserved.",
            ],
            later_head="A. Berg et al. Journal of Hydrology 560 (2018) 1–12",
            references=_references("Water Resour. Res. 50 (2014) 1–15.", "Hydrol. Process. 29 (2015) 3–9."),
        ),
        "Journal of Hydrology",
        2018,
    ),
    "arxiv stamp": (
        Layout(
            "Sparse attention for long document summarisation",
            stamp="arXiv:2103.01234v2 [cs.CL] 4 Mar 2021",
            references=_references(
                "Transactions of the Association for Computational Linguistics, 8:1–14, 2020.", "Nature Communications, 11:1234, 2019."
            ),
        ),
        None,
        2021,
    ),
    "wiley footer outvoted by references": (
        Layout(
            "Seed dispersal by birds across a fragmented landscape",
            front=["Received: 2 May 2019 | Revised: 3 December 2019 | Accepted: 9 December 2019"],
            foot=["Ecology and Evolution. 2020;10:1234–1245. wileyonlinelibrary.com/journal/ece3 © 2020 The Authors."],
            body=["Similar effects were found in grasslands (Proc Natl Acad Sci USA 2015;112:1–5)."],
            references=_references("Proc Natl Acad Sci USA 2015;112:1–5."),
        ),
        "Ecology and Evolution",
        2020,
    ),
    "taylor and francis capitals": (
        Layout(
            "Robust estimation of variance components in small samples",
            head=["JOURNAL OF APPLIED STATISTICS", "2019, VOL. 46, NO. 3, 456–470", "https://doi.org/10.1080/02664763.2018.1234567"],
            later_head="JOURNAL OF APPLIED STATISTICS 457",
            references=_references("Biometrika 2012;99:1–17.", "J R Stat Soc B 2016;78:3–30."),
        ),
        "Journal of Applied Statistics",
        2019,
    ),
}

# --- held out: written before the code changed, not looked at while it changed ----------------

HELD_OUT: dict[str, tuple[Layout, str | None, int | None]] = {
    "pnas spelled out": (
        Layout(
            "Convergent evolution of venom in snakes and lizards",
            foot=[
                "Proceedings of the National Academy of Sciences of the United States of America, vol. 117, no. 4, pp. 1–9, January 2020"
            ],
            references=_references("Mol Biol Evol 2014;31:1–12."),
        ),
        "Proceedings of the National Academy of Sciences of the United States of America",
        2020,
    ),
    "bmc cite this article": (
        Layout(
            "Gene networks in budding yeast under stress",
            front=[
                "Cite this article: Berg A, Dahl C, Falk E. Gene networks in budding yeast under stress.",
                "BMC Bioinformatics 21, 112 (2020). https://doi.org/10.1186/s12859-020-3456-7",
            ],
            references=_references("Nucleic Acids Res 2017;45:1–9.", "Genome Biol 2016;17:2–10."),
        ),
        "BMC Bioinformatics",
        2020,
    ),
    "springer online first": (
        Layout(
            "Drought and the timing of crop sowing in East Africa",
            head=["Climatic Change", "https://doi.org/10.1007/s10584-019-02456-1"],
            front=["Received: 3 December 2018 / Accepted: 12 June 2019 / Published online: 1 July 2019", "© Springer Nature B.V. 2019"],
            references=_references("Global Environmental Change 2016, 38:1–12.", "Nature Climate Change (2017) 7:2–9."),
        ),
        "Climatic Change",
        2019,
    ),
    "frontiers citation": (
        Layout(
            "Memory and mood in adolescents who sleep little",
            head=["ORIGINAL RESEARCH", "published: 14 July 2020", "doi: 10.3389/fpsyg.2020.01234"],
            front=[
                "Citation: Berg A, Dahl C and Falk E (2020) Memory and mood in adolescents who sleep little.",
                "Front. Psychol. 11:1234. doi: 10.3389/fpsyg.2020.01234",
            ],
            foot=["Frontiers in Psychology | www.frontiersin.org 1 July 2020 | Volume 11 | Article 1234"],
            later_foot="Frontiers in Psychology | www.frontiersin.org 2 July 2020 | Volume 11 | Article 1234",
            references=_references("Sleep 2015, 38:1–10.", "Dev Psychol 2018, 54:3–12."),
        ),
        "Frontiers in Psychology|Front. Psychol.",
        2020,
    ),
    # the date under an unpublished document's title is when it was written, not a publication year
    "preprint with a date line": (
        Layout(
            "A note on the convergence of stochastic gradient methods",
            front=["September 2022"],
            body=["This bound improves on Neural Computation 2019, 31:1–20 by a constant factor."],
            references=_references("Neural Computation 2019, 31:1–20.", "Mathematical Programming 2018, 171:1–35."),
        ),
        None,
        None,
    ),
    "bmj to cite": (
        Layout(
            "Cohort study of sleep duration and blood pressure in adults",
            front=[
                "To cite: Berg A, Dahl C, Falk E, et al. Cohort study of sleep duration and blood",
                "pressure in adults. BMJ Open 2018;8:e012345. doi:10.1136/bmjopen-2017-012345",
            ],
            body=["Earlier trials disagreed (Lancet 2016;388:1–10), as did the cohorts that followed."],
            later_foot="Berg A, et al. BMJ Open 2018;8:e012345. doi:10.1136/bmjopen-2017-012345",
            references=_references("Lancet 2016;388:1–10.", "Hypertension 2017;70:2–9."),
        ),
        "BMJ Open",
        2018,
    ),
    "oxford academic head": (
        Layout(
            "Fast alignment of long reads to pangenome graphs",
            head=[
                "Bioinformatics, 36(5), 2020, 1234–1240",
                "doi: 10.1093/bioinformatics/btz123",
                "Advance Access Publication Date: 2 January 2020",
                "Original Paper",
            ],
            references=_references("Genome Res 2018;28:1–11.", "Nat Methods 2019;16:2–8."),
        ),
        "Bioinformatics",
        2020,
    ),
    "acs citation head": (
        Layout(
            "Catalytic asymmetric synthesis of strained rings",
            head=["J. Am. Chem. Soc. 2019, 141, 1234–1245"],
            foot=["© 2019 American Chemical Society"],
            later_head="Journal of the American Chemical Society Article",
            references=_references("Angew. Chem., Int. Ed. 2017, 56, 1–5.", "Chem. Rev. 2016, 116, 2–30."),
        ),
        "J. Am. Chem. Soc.|Journal of the American Chemical Society",
        2019,
    ),
}


# --- held out, second round: written after the first held-out measurement, before the changes
# it led to (names up to 16 words, Oxford's "Journal, 36(5), 2020"), and not looked at while they were made

HELD_OUT_2: dict[str, tuple[Layout, str | None, int | None]] = {
    "cell press footer": (
        Layout(
            "Circadian control of hepatic lipid storage",
            foot=[
                "Cell Reports 34, 108765, March 2, 2021 © 2021 The Author(s).",
                "This is an open access article under the CC BY license.",
            ],
            later_foot="Cell Reports 34, 108765, March 2, 2021",
            references=_references("Cell Metab. 2018;27:1–12.", "Hepatology 2017;66:2–9."),
        ),
        "Cell Reports",
        2021,
    ),
    "sage issue head": (
        Layout(
            "Loneliness and daily routines in later life",
            head=[
                "Journal of Applied Gerontology",
                "2021, Vol. 40(3) 234–245",
                "© The Author(s) 2020",
                "Article reuse guidelines: sagepub.com/journals-permissions",
            ],
            later_head="Berg et al. 235",
            references=_references("Gerontologist 2016;56:1–10.", "J Aging Health 2019;31:3–20."),
        ),
        "Journal of Applied Gerontology",
        2021,
    ),
    "physical review head": (
        Layout(
            "Bounds on light dark matter from stellar cooling",
            head=["PHYSICAL REVIEW LETTERS 124, 081301 (2020)"],
            later_head="PHYSICAL REVIEW LETTERS 124, 081301 (2020)",
            references=_references("Phys. Rev. D 95, 043541 (2017).", "Astrophys. J. 820, 12 (2016)."),
        ),
        "Physical Review Letters",
        2020,
    ),
    "peerj how to cite": (
        Layout(
            "Body size and diet breadth in carnivorous beetles",
            front=[
                "How to cite this article Berg A, Dahl C, Falk E. 2018. Body size and diet breadth in carnivorous",
                "beetles. PeerJ 6:e4567 http://doi.org/10.7717/peerj.4567",
            ],
            references=_references("Oecologia 2014, 175:1–9.", "Functional Ecology 2015, 29:2–11."),
        ),
        "PeerJ",
        2018,
    ),
    "science advances footer": (
        Layout(
            "A soft robotic gripper made from folded paper",
            foot=["Berg et al., Sci. Adv. 2020; 6 : eaba1234 15 May 2020"],
            later_foot="Berg et al., Sci. Adv. 2020; 6 : eaba1234 15 May 2020",
            references=_references("Nature 521, 467–475 (2015).", "Soft Robot. 2017;4:1–12."),
        ),
        "Sci. Adv.|Science Advances",
        2020,
    ),
    "elife footer": (
        Layout(
            "Dopamine signals in the striatum during foraging",
            foot=["Berg et al. eLife 2019;8:e45678. DOI: https://doi.org/10.7554/eLife.45678"],
            later_foot="Berg et al. eLife 2019;8:e45678. DOI: https://doi.org/10.7554/eLife.45678",
            references=_references("Neuron 2016;92:1–14.", "Nat Neurosci 2018;21:2–10."),
        ),
        "eLife",
        2019,
    ),
    "biorxiv stamp": (
        Layout(
            "Single cell atlas of the regenerating zebrafish fin",
            head=["bioRxiv preprint doi: https://doi.org/10.1101/2020.05.12.091234; this version posted May 14, 2020."],
            references=_references("Development 2017, 144:1–12.", "Dev Cell 2019, 48:2–15."),
        ),
        None,
        2020,
    ),
}


# --- held out, third round: written after the second round's measurement, before the changes it
# led to, and not looked at while they were made

_IEEE_REFERENCES = [
    f'[{n}] A. Author{chr(65 + n % 26)} and B. Other, "On topic {n}," IEEE Trans. Inf. Theory, vol. 60, no. 3, pp. 1–9, 2014.'
    for n in range(1, 45)
]

HELD_OUT_3: dict[str, tuple[Layout, str | None, int | None]] = {
    "annual reviews head": (
        Layout(
            "The development of attention in infancy",
            head=["Annu. Rev. Psychol. 2020. 71:1–25", "https://doi.org/10.1146/annurev-psych-010419-050123"],
            later_head="Annu. Rev. Psychol. 2020. 71:1–25",
            references=_references("Child Dev. 2015;86:1–20.", "Dev. Sci. 2018;21:3–15."),
        ),
        "Annu. Rev. Psychol.|Annual Review of Psychology",
        2020,
    ),
    "jama network footer": (
        Layout(
            "Screen time and sleep in school age children",
            foot=["JAMA Netw Open. 2021;4(5):e2112345. doi:10.1001/jamanetworkopen.2021.12345 May 20, 2021"],
            later_foot="JAMA Network Open. 2021;4(5):e2112345. doi:10.1001/jamanetworkopen.2021.12345 May 20, 2021",
            references=_references("Pediatrics 2016;138:1–12.", "Sleep Med 2019;55:2–9."),
        ),
        "JAMA Netw Open|JAMA Network Open",
        2021,
    ),
    "royal society cite": (
        Layout(
            "Cooperative breeding and lifespan in birds",
            front=[
                "Cite this article: Berg A, Dahl C. 2020 Cooperative breeding and lifespan in birds.",
                "Proc. R. Soc. B 287: 20201234. http://dx.doi.org/10.1098/rspb.2020.1234",
            ],
            references=_references("Am. Nat. 2014, 183:1–12.", "Evolution 2017, 71:2–14."),
        ),
        "Proc. R. Soc. B|Proceedings of the Royal Society B",
        2020,
    ),
    "copernicus head": (
        Layout(
            "Snowmelt timing and streamflow in alpine catchments",
            head=[
                "Hydrol. Earth Syst. Sci., 24, 1234–1250, 2020",
                "https://doi.org/10.5194/hess-24-1234-2020",
                "© Author(s) 2020. This work is distributed under the Creative Commons Attribution 4.0 License.",
            ],
            later_head="A. Berg et al.: Snowmelt timing and streamflow",
            references=_references("J. Hydrol. 2016, 540:1–12.", "Water Resour. Res. 2018, 54:2–19."),
        ),
        "Hydrol. Earth Syst. Sci.|Hydrology and Earth System Sciences",
        2020,
    ),
    "agu apa citation": (
        Layout(
            "Lightning and aerosol loading over the ocean",
            head=["RESEARCH LETTER", "10.1029/2019GL081234"],
            front=[
                "Citation: Berg, A., Dahl, C., & Falk, E. (2019). Lightning and aerosol loading over the ocean.",
                "Geophysical Research Letters, 46, 1234–1245. https://doi.org/10.1029/2019GL081234",
            ],
            references=_references("J. Geophys. Res. 2015, 120:1–20.", "Atmos. Chem. Phys. 2017, 17:3–19."),
        ),
        "Geophysical Research Letters",
        2019,
    ),
    "technical report with ieee references": (
        Layout(
            "Coding for channels with feedback and memory",
            front=["Technical Report TR-2019-04", "April 2019"],
            references=_IEEE_REFERENCES,
        ),
        None,
        2019,
    ),
}


# --- held out, fourth round: written after the third round's measurement, before the change it
# led to (a journal line read as a name followed by bibliographic numbers), not looked at meanwhile

HELD_OUT_4: dict[str, tuple[Layout, str | None, int | None]] = {
    "scientific reports footer": (
        Layout(
            "Microbial communities of deep sea sediments",
            front=["Received: 2 June 2017", "Accepted: 11 September 2017", "Published: 28 September 2017"],
            foot=["Scientific Reports | 7: 12345 | DOI:10.1038/s41598-017-12345-6"],
            later_foot="Scientific Reports | 7: 12345 | DOI:10.1038/s41598-017-12345-6",
            references=_references("ISME J 2016;10:1–12.", "Environ Microbiol 2015;17:2–14."),
        ),
        "Scientific Reports",
        2017,
    ),
    "de gruyter head": (
        Layout(
            "Green synthesis of silver nanoparticles from leaf extracts",
            head=["Open Chemistry 2018; 16: 123–130"],
            later_head="A. Berg et al.",
            references=_references("Chem. Eng. J. 2016, 300, 1–9.", "RSC Adv. 2017, 7, 2–11."),
        ),
        "Open Chemistry",
        2018,
    ),
    "hindawi publisher line": (
        Layout(
            "Vitamin D status and muscle strength in older adults",
            head=[
                "Hindawi",
                "BioMed Research International",
                "Volume 2021, Article ID 6612345, 12 pages",
                "https://doi.org/10.1155/2021/6612345",
            ],
            references=_references("Osteoporos Int 2016;27:1–10.", "Nutrients 2018, 10, 2–12."),
        ),
        "BioMed Research International",
        2021,
    ),
    "mdpi citation box": (
        Layout(
            "Low power sensing of soil moisture with radio tags",
            head=["sensors"],
            front=[
                "Citation: Berg, A.; Dahl, C. Low power sensing of soil moisture with radio tags.",
                "Sensors 2020, 20, 1234. https://doi.org/10.3390/s20041234",
            ],
            references=_references("IEEE Sens. J. 2017, 17, 1–9.", "Comput. Electron. Agric. 2019, 162, 2–10."),
        ),
        "Sensors",
        2020,
    ),
    "iop head": (
        Layout(
            "Urban heat islands under heat waves in Europe",
            head=["Environ. Res. Lett. 15 (2020) 094012 https://doi.org/10.1088/1748-9326/ab1234"],
            references=_references("Nat. Clim. Change 2016, 6:1–8.", "Urban Clim. 2018, 24:2–16."),
        ),
        "Environ. Res. Lett.|Environmental Research Letters",
        2020,
    ),
    "wiley vancouver footer": (
        Layout(
            "Warming shifts the flowering of alpine plants",
            front=["Received: 10 January 2020 | Revised: 4 March 2020 | Accepted: 5 March 2020", "DOI: 10.1111/gcb.15123"],
            foot=["Glob Change Biol. 2020;26:3456–3470. wileyonlinelibrary.com/journal/gcb © 2020 John Wiley & Sons Ltd"],
            later_foot="BERG ET AL.",
            references=_references("Ecology 2015, 96:1–12.", "New Phytol 2017, 214:2–15."),
        ),
        "Glob Change Biol|Global Change Biology",
        2020,
    ),
    "apa journal with a colon": (
        Layout(
            "Attention capture by reward history",
            head=[
                "Journal of Experimental Psychology: General",
                "2019, Vol. 148, No. 5, 901–915",
                "© 2019 American Psychological Association",
            ],
            references=_references("Psychol Sci 2016;27:1–10.", "Cognition 2018;170:2–12."),
        ),
        "Journal of Experimental Psychology: General",
        2019,
    ),
}


#: held-out layouts the rules still miss, and why
_GAPS: dict[str, str] = {}


def _cases(layouts: dict[str, tuple[Layout, str | None, int | None]]) -> list[object]:
    return [pytest.param(name, marks=pytest.mark.xfail(reason=_GAPS[name], strict=True)) if name in _GAPS else name for name in layouts]


def _same(found: str | None, expected: str | None) -> bool:
    """``found`` is one of the names ``expected`` lists (``|`` between) as ``eval parse`` matches
    journals: case, spaces and punctuation aside, so no volume, pages or DOI inside."""
    if expected is None or found is None:
        return found is expected
    return soft_norm(found) in {soft_norm(name) for name in expected.split("|")}


def _read(tmp_path: Path, name: str, layout: Layout) -> tuple[str | None, int | None]:
    path = tmp_path / (re.sub(r"\W+", "-", name) + ".pdf")
    path.write_bytes(layout.pdf())
    document = parse_pdf(path)
    return document.journal, year_of(document.date_published)


def _check(tmp_path: Path, name: str, case: tuple[Layout, str | None, int | None]) -> None:
    layout, journal, year = case
    found_journal, found_year = _read(tmp_path, name, layout)
    assert _same(found_journal, journal), found_journal
    assert found_year == year


@pytest.mark.parametrize("name", list(DEV))
def test_dev_layouts(tmp_path: Path, name: str) -> None:
    _check(tmp_path, name, DEV[name])


@pytest.mark.parametrize("name", _cases(HELD_OUT))
def test_held_out_layouts(tmp_path: Path, name: str) -> None:
    _check(tmp_path, name, HELD_OUT[name])


def test_a_reference_lists_citation_shapes_are_not_the_papers_journal() -> None:
    # entries begin with their authors; a body sentence cites in passing: neither names the paper's journal
    lines = [(page, f"{page}. Smith J, Lee K. A finding. J Neurosci Methods 2019;312:45–52.") for page in (2, 3, 4)]
    lines += [(1, "as shown before (Journal of Hydrology 560 (2018) 1–12) and since"), (3, "© 2015 Elsevier B.V.")]
    assert fm.find_journal(lines, {}) == (None, None, None)


def test_the_citation_box_names_the_journal_over_a_running_reference() -> None:
    lines = [(1, "Cite this article: Berg A, Dahl C. Gene networks in yeast. Genome Biology 21, 112 (2020).")]
    lines += [(page, "Smith et al. Journal of Field Biology 2015, 11:3") for page in (5, 6)]
    assert fm.find_journal(lines, {})[:2] == ("Genome Biology", 2020)


def test_a_name_in_capitals_is_written_as_a_title_and_keeps_no_volume() -> None:
    lines = [(1, "JOURNAL OF THE ROYAL SOCIETY OF MEDICINE 2019, VOL. 46, NO. 3, 456–470")]
    assert fm.find_journal(lines, {})[:2] == ("Journal of the Royal Society of Medicine", 2019)


@pytest.mark.parametrize(
    ("printed", "year"),
    [
        ("arXiv:1906.04321v3 [stat.ML] 2 Jan 2020", 2020),  # the stamp's date, not its identifier's
        ("arXiv:1906.04321 [stat.ML]", 2019),  # without a date: the identifier's year and month
        ("Received: 3 December 2018 / Accepted: 12 June 2019", 2019),  # accepted, the later
        ("0022-1694/© 2018 Elsevier B.V. All rights reserved.", 2018),
    ],
)
def test_the_year_where_no_journal_line_gives_one(printed: str, year: int) -> None:
    reference = [(2, "Received 3 May 2001; © 2001 Other Press")]  # a later page's dates are other papers'
    assert fm.find_journal([(1, printed)] + reference, {}) == (None, year, None)


@pytest.mark.parametrize("name", _cases(HELD_OUT_2))
def test_held_out_second_round(tmp_path: Path, name: str) -> None:
    _check(tmp_path, name, HELD_OUT_2[name])


@pytest.mark.parametrize("name", _cases(HELD_OUT_3))
def test_held_out_third_round(tmp_path: Path, name: str) -> None:
    _check(tmp_path, name, HELD_OUT_3[name])


@pytest.mark.parametrize("name", _cases(HELD_OUT_4))
def test_held_out_fourth_round(tmp_path: Path, name: str) -> None:
    _check(tmp_path, name, HELD_OUT_4[name])
