"""Rules near a table that are not the table's: the frames round code set beside it (a helper
of :mod:`.table_region`).

A code chunk's shaded box just over a table printed above its caption has its top and bottom
sides across the table's width, and a listing framed at its sides and foot just under a table
has a foot reaching past it: :func:`box_bottom` tells a box's bottom side by the upright sides
that stop on it, and none going on under it.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperpyramid.parsers.embedded.table_rules import Rule

__all__ = ["box_bottom"]

# an upright rule this close to a rule's height, and to its end, meets it there (a box's corner;
# a frame's rounded corners are drawn apart, its sides a few points past its foot's ends)
_SIDE = 1.5
_CORNER = 5.0


def box_bottom(rule: Rule, upright: Sequence[Rule]) -> bool:
    """Whether ``rule`` closes a box over it: upright rules at both its ends stop on it and none
    goes on under it, nor starts just under it (a grid's rule between rows has the sides of the
    rows under it too; a table boxed group by group, the next group's box)."""
    ends = [side for side in upright if min(abs(side.x0 - rule.x0), abs(side.x1 - rule.x1)) <= _CORNER]
    stopping = [side for side in ends if abs(side.bottom - rule.y) <= _SIDE and side.top < rule.y - _SIDE]
    going_on = any(rule.y - _SIDE <= side.top <= rule.y + _CORNER and side.bottom > rule.y + _SIDE for side in ends)
    at_left = any(abs(side.x0 - rule.x0) <= _CORNER for side in stopping)
    at_right = any(abs(side.x1 - rule.x1) <= _CORNER for side in stopping)
    return at_left and at_right and not going_on
