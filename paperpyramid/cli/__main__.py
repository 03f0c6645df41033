"""``python -m paperpyramid.cli``: the ``paperpyramid`` command."""

from paperpyramid.cli import main

main()
