#!/usr/bin/env python3
"""How well the claim-support check tells true claims from fabricated ones: the rule ``ask``
uses to print a claim as fact (:mod:`paperpyramid.asking.support`) beside the rule it
replaced (30% of the claim's content words anywhere in the cited passages).

    .venv/bin/python benchmarks/claim_support.py [--set each|dev|held_out|kept|all] [--sweep] [--verbose]

The claims are ``tests/data/claim_support.json`` (``dev``: written before the rule was tuned on
them; ``held_out``: written after it, never tuned on) and ``tests/data/claim_support_kept.json``
(``kept``: written before the check learned flipped meanings, never tuned on): true ones quoting
or paraphrasing short passages of CC BY papers, fabricated ones reusing the passages' words
(negations, swapped numbers and entities, antonyms, swapped roles, invented retractions).
``each`` (the default) prints one table per set. "Supported" is the positive
class: precision is the share of claims the rule passes that are true, recall the share of true
claims it passes; the fabrications it passes are listed with ``--verbose``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CLAIMS = ROOT / "tests" / "data" / "claim_support.json"
KEPT = ROOT / "tests" / "data" / "claim_support_kept.json"
SETS = ("dev", "held_out", "kept")

_WORD = re.compile(r"[a-z0-9]+")
_COMMON = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "than",
        "which",
        "who",
        "what",
        "when",
        "where",
        "how",
        "has",
        "have",
        "had",
        "not",
        "no",
        "can",
        "may",
        "also",
        "such",
        "into",
        "over",
        "between",
        "their",
        "there",
        "they",
        "we",
    ]
)

Rule = Callable[[str, list[str]], bool]


def old_rule(claim: str, passages: list[str]) -> bool:
    """The rule before issue 20: 30% of the claim's content words anywhere in the passages."""
    wanted = {word for word in _WORD.findall(claim.lower()) if word not in _COMMON}
    present = {word for text in passages for word in _WORD.findall(text.lower())}
    return bool(wanted) and len(wanted & present) >= 0.3 * len(wanted)


def new_rule(share: float | None = None) -> Rule:
    from paperpyramid.asking import support

    return lambda claim, passages: support.check_text(claim, passages, share if share is not None else support.SUPPORT).supported


def load(which: str) -> tuple[list[dict[str, object]], dict[str, str]]:
    """The claims of set ``which`` (``all``: dev and held_out) and the passages they cite."""
    data = json.loads((KEPT if which == "kept" else CLAIMS).read_text())
    passages = {key: str(value["text"]) for key, value in data["passages"].items()}
    claims = [claim for claim in data["claims"] if which in ("all", "kept") or claim.get("set", "dev") == which]
    return claims, passages


def score(rule: Rule, claims: list[dict[str, object]], passages: dict[str, str]) -> dict[str, object]:
    passed = [rule(str(claim["text"]), [passages[key] for key in claim["passages"]]) for claim in claims]  # type: ignore[attr-defined]
    true_pass = sum(1 for claim, ok in zip(claims, passed, strict=True) if ok and claim["supported"])
    false_pass = sum(1 for claim, ok in zip(claims, passed, strict=True) if ok and not claim["supported"])
    true = sum(1 for claim in claims if claim["supported"])
    kinds = Counter(str(claim["kind"]) for claim, ok in zip(claims, passed, strict=True) if ok and not claim["supported"])
    return {
        "precision": true_pass / max(true_pass + false_pass, 1),
        "recall": true_pass / max(true, 1),
        "true": true,
        "fabricated": len(claims) - true,
        "true_passed": true_pass,
        "fabricated_passed": false_pass,
        "fabrications_passed_by_kind": dict(kinds),
        "passed": passed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--set",
        default="each",
        choices=["each", *SETS, "all"],
        help="which claims: each set apart (default), one set, or dev and held_out together (all)",
    )
    parser.add_argument("--sweep", action="store_true", help="also the new rule at other shares of content words")
    parser.add_argument("--verbose", action="store_true", help="list every claim the new rule gets wrong, with its reason")
    args = parser.parse_args()
    for which in SETS if args.set == "each" else (args.set,):
        report(which, args.sweep, args.verbose)


def report(which: str, sweep: bool, verbose: bool) -> None:
    """Print the table of one set (and, with ``verbose``, the claims the rule gets wrong)."""
    claims, passages = load(which)
    rules: list[tuple[str, Rule]] = [("before: 30% of content words", old_rule), ("after: paperpyramid.asking.support", new_rule())]
    if sweep:
        rules += [(f"after, share {share:.2f}", new_rule(share)) for share in (0.5, 0.6, 0.7, 0.8, 0.9)]
    print(
        f"{len(claims)} claims ({sum(1 for claim in claims if claim['supported'])} true, "
        f"{sum(1 for claim in claims if not claim['supported'])} fabricated), set {which}\n"
    )
    print("| rule | precision | recall | true passed | fabrications passed |\n| --- | --- | --- | --- | --- |")
    for name, rule in rules:
        figures = score(rule, claims, passages)
        print(
            f"| {name} | {figures['precision']:.3f} | {figures['recall']:.3f} | {figures['true_passed']}/{figures['true']} | "
            f"{figures['fabricated_passed']}/{figures['fabricated']} {figures['fabrications_passed_by_kind'] or ''} |"
        )
    if verbose:
        from paperpyramid.asking.support import check_text

        print()
        for claim in claims:
            verdict = check_text(str(claim["text"]), [passages[key] for key in claim["passages"]])  # type: ignore[attr-defined]
            if verdict.supported != claim["supported"]:
                label = "true claim refused" if claim["supported"] else f"fabrication passed ({claim['kind']})"
                print(f"- {label}: {claim['text']}" + (f"  [{verdict.reason}]" if verdict.reason else ""))
    print()


if __name__ == "__main__":
    main()
