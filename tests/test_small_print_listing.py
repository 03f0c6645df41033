"""A program's output set small in a typewriter face is text the paper prints (R's console
output in a Biometrical Journal preprint, 8 pt under 10 pt body): neither a figure's labels to
drop nor a table since console output is no table. Small short-lined labels in a text face are
still set aside or dropped as before."""

from __future__ import annotations

from paperpyramid.parsers.embedded.parser import _drop_small_print
from tests.block_builders import Stack

_block = Stack(step=12.0, page=3, x1=260.0).block
OUTPUT = ["Estimate Std. Error t value", "(Intercept) 0.59 0.13 4.52", "dose 0.02 0.01 2.11", "Signif. codes: 0 *** 0.001"]


def test_small_console_output_in_a_typewriter_face_stays_text() -> None:
    block = _block(OUTPUT, top=100.0, font="CMTT8", size=8.0)
    _drop_small_print([block], body_size=10.0)
    assert block.kind == "paragraph"


def test_small_labels_in_a_text_face_are_still_dropped() -> None:
    labels = _block(["0.0", "0.5", "1.0", "dose"], top=100.0, font="Helvetica", size=7.0)
    _drop_small_print([labels], body_size=10.0)
    assert labels.kind == "furniture"
