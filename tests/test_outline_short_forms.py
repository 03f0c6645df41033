"""Outline entries that are a heading's short form (``\\section[gsubfn with lists]{gsubfn with list
objects}``) and entries of a letter or two ("fn" for "7. fn"): batch 19's gsubfn vignette lost
both headings, read as paragraphs."""

from __future__ import annotations

from paperpyramid.parsers.embedded.heading_styles import norm
from paperpyramid.parsers.embedded.outline_entries import short_form
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.unseen_pdfs import unseen_pdf


def test_a_short_form_opens_the_printed_heading_with_most_of_the_entry() -> None:
    assert short_form(norm("gsubfn with list objects"), norm("gsubfn with lists"))
    assert short_form(norm("Labels in the borders: labeling_text()"), norm("Labels in the borders"))
    # too little in common, or nothing more printed, or too short to tell
    assert not short_form(norm("Data and methods"), norm("Data analysis"))
    assert not short_form(norm("gsubfn with lists"), norm("gsubfn with lists"))
    assert not short_form(norm("Methods of analysis"), norm("Methods"))


def test_gsubfn_reads_its_short_titled_and_two_letter_sections() -> None:
    document = parse_pdf(unseen_pdf(19, "gsubfn-strings-function-arguments.pdf"))
    numbered = {section.number: section.title for section in document.sections if section.number}
    assert numbered["3"] == "gsubfn with list objects"
    assert numbered["7"] == "fn"
    assert [numbered[str(n)] for n in (2, 4, 5, 6)] == ["The gsubfn Function", "gsubfn with proto objects", "strapply", "Miscellaneous"]
