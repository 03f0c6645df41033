"""Ctrl-C in a command that writes (ingest, embed, distill): one line saying what was kept, and
exit status 130, from one helper every such command raises."""

from __future__ import annotations

from paperpyramid.cli.common import _interrupted, console


def test_interrupted_says_what_was_kept_and_exits_130() -> None:
    with console.capture() as captured:
        exit_ = _interrupted("the vectors committed so far are kept, and a re-run embeds the rest")
    assert exit_.exit_code == 130
    assert captured.get().strip() == "stopped; the vectors committed so far are kept, and a re-run embeds the rest"
