"""The bounds a LaTeX source bundle is held to, and the error it raises when it breaks one.

A source bundle comes from outside (an arXiv dump, an upload): a tar may declare a 10 GiB
member, an ``\\input`` may name ``/etc/passwd`` or loop, a ``\\def`` may expand forever.
Each is refused with :class:`BadSource`, a :class:`~paperpyramid.errors.BadInput` whose
message is one line a person understands.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperpyramid.errors import BadInput

__all__ = ["BadSource", "LatexLimits"]


class BadSource(BadInput):
    """A LaTeX source bundle that cannot or must not be read: no ``\\documentclass``, a binary
    file, a path outside the bundle, an ``\\input`` loop, a macro that expands without end, or a
    bundle over :class:`LatexLimits`."""


@dataclass(frozen=True, slots=True)
class LatexLimits:
    """Bounds on one source bundle; the defaults fit any real paper with room to spare."""

    #: members of a tar or files of a directory, all kinds counted
    max_files: int = 2_000
    #: the declared size of one member, checked before it is read
    max_file_bytes: int = 20 * 1024 * 1024
    #: the sum of the sizes of the members read (only text members are read)
    max_total_bytes: int = 100 * 1024 * 1024
    #: a gzipped single file (or tar) is not inflated past this
    max_unpacked_bytes: int = 200 * 1024 * 1024
    #: nesting of ``\\input``/``\\include``/``\\subfile``
    max_include_depth: int = 16
    #: the flattened source, after every input is inlined
    max_source_chars: int = 20_000_000
    #: macro expansions in the whole document
    max_expansions: int = 200_000
    #: characters the expanded document may grow to, as a multiple of the flattened source (plus 1 MB)
    max_expansion_growth: int = 8
