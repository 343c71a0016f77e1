"""Rule ablation: how the analyzer labels a first error in wording no rule knows.

Rules (`knowledge/signatures.yaml`) read the wordings someone has seen. On logs nobody tuned
for, a first error worded anew falls to the weak hints (`knowledge/fallback.yaml`) and the
error-code tables, and the labelled sets cannot show how well that goes: their lines are the
ones the rules were written for. So each case is analysed again with every signature that
matches its first error's line held back (`classify.rules.signatures_disabled`) and judged
against the same truth; the share still right is the honest figure for unseen wording.

    python -m analyzers.ablation [--corpus DIR ...]
    python -m analyzers.eval --ablate-rules [--corpus DIR ...]

A case whose first error no rule reads (the hints answered it already) or that has no first
error is not ablated and is counted apart.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from analyzers.classify.line_matches import match_line
from analyzers.classify.rules import load_knowledge, signatures_disabled
from analyzers.eval import report_of
from analyzers.formats.lines import parse_line
from analyzers.labelled_sets import Sample, corpus_root, samples
from analyzers.scoring import CONFIDENT, Outcome, judge

MISSES_SHOWN = 3  # wrong answers listed per expected label


@dataclass(frozen=True, slots=True)
class Ablated:
    """One case answered with and without the rules that read its first error."""

    baseline: Outcome
    disabled: tuple[str, ...]  # empty: no rule read the first error, nothing was ablated
    outcome: Outcome  # the baseline itself when nothing was ablated
    # a rule still reads the first error cited without them (another line, or another rule)
    still_read: bool = False

    @property
    def by_hints(self) -> bool:
        """Answered without any rule on the cited line: the hints and code tables alone."""
        return bool(self.disabled) and not self.still_read


def rules_reading(line: str) -> tuple[str, ...]:
    """Ids of every signature that matches the line, read as printed and as the classifier
    reads it (its message, past timestamps, levels and rank tags)."""
    knowledge = load_knowledge()
    texts = dict.fromkeys((line, parse_line(line).message))
    found = (match.signature.id for text in texts for match in match_line(text, (), knowledge))
    return tuple(dict.fromkeys(found))


def ablate_sample(sample: Sample) -> Ablated:
    """The case judged as it is, then again with its first error's rules held back."""
    baseline = judge(sample, report_of(sample))
    disabled = rules_reading(baseline.first_error) if baseline.first_error else ()
    if not disabled:
        return Ablated(baseline, (), baseline)
    with signatures_disabled(disabled):
        outcome = judge(sample, report_of(sample))
        still_read = bool(outcome.first_error and rules_reading(outcome.first_error))
    return Ablated(baseline, disabled, outcome, still_read)


def ablate(root: Path | None = None) -> tuple[Ablated, ...]:
    return tuple(ablate_sample(sample) for sample in samples(root or corpus_root()))


def render(results: Iterable[Ablated]) -> str:
    """Per expected label: cases whose first error a rule read, how many the full analyzer
    got right, and how many stay right with those rules gone; then the calibration of the
    ablated answers and the commonest wrong ones."""
    results = list(results)
    ablated = [r for r in results if r.disabled]
    lines = [
        "rule ablation: each first error's rules held back",
        f"{'expected':16} {'cases':>5} {'with rules':>10} {'category':>9} {'first error':>11}",
    ]
    by_label: dict[str, list[Ablated]] = defaultdict(list)
    for result in ablated:
        by_label[result.baseline.expected].append(result)
    for label in sorted(by_label):
        lines.append(_row(label, by_label[label]))
    lines.append(_row("all", ablated))
    lines.append(_row("by hints alone", [r for r in ablated if r.by_hints]))
    lines.append(
        f"not ablated (no rule read the first error, or none): {len(results) - len(ablated)}"
    )
    lines += _calibration(ablated)
    lines += _misses(by_label)
    return "\n".join(lines)


def _row(label: str, results: list[Ablated]) -> str:
    n = len(results)
    base = sum(r.baseline.category_ok for r in results)
    category = sum(r.outcome.category_ok for r in results)
    first = sum(r.outcome.first_error_ok for r in results)
    return f"{label:16} {n:5} {base:10} {category:9} {first:11}   ({_pct(category, n)} right)"


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def _calibration(ablated: list[Ablated]) -> list[str]:
    """Ablated answers as sure as a rule's (≥ CONFIDENT) must be rare and right: the hints
    alone should never speak with a rule's confidence."""
    lines = []
    for name, group in (
        ("ablated", ablated),
        ("by hints alone", [r for r in ablated if r.by_hints]),
    ):
        sure = [r.outcome for r in group if r.outcome.confidence >= CONFIDENT]
        right = sum(o.category_ok for o in sure)
        top = max((r.outcome.confidence for r in group), default=0.0)
        lines.append(
            f"{name} answers at ≥{CONFIDENT:.1f}: {len(sure)} ({right} right); highest {top:.2f}"
        )
    return lines


def _misses(by_label: dict[str, list[Ablated]]) -> list[str]:
    """The commonest wrong answers per expected label, with one first error each: the
    systematic errors the hints' vocabulary should be tuned on."""
    lines = ["", "wrong answers without the rules (expected <- answered: count, example)"]
    for label in sorted(by_label):
        wrong = [r for r in by_label[label] if not r.outcome.category_ok]
        for answer, count in Counter(r.outcome.category for r in wrong).most_common(MISSES_SHOWN):
            example = next(r for r in wrong if r.outcome.category == answer)
            text = (example.outcome.first_error or "")[:140]
            lines.append(f"{label:>16} <- {answer:15} {count:3}  {example.baseline.name}: {text!r}")
    return lines


def verbose(results: Iterable[Ablated]) -> str:
    """Every ablated case: its rules, the answer before and after, and the cited line."""
    lines = []
    for r in results:
        if not r.disabled:
            continue
        after = r.outcome
        mark = ("ok " if after.category_ok else "BAD") + (
            " ok " if after.first_error_ok else " BAD"
        )
        lines.append(
            f"{r.baseline.name:12} {mark} {after.category:15} {after.confidence:.2f} "
            f"(want {r.baseline.expected}; with rules {r.baseline.category})"
            f"\n{'':13}held back: {', '.join(r.disabled)}{'' if r.by_hints else ' (a rule reads the new first error)'}"
            f"\n{'':13}first error: {after.first_error!r}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, action="append", help="corpus directory (repeat for several)"
    )
    parser.add_argument("--verbose", action="store_true", help="show every ablated case")
    args = parser.parse_args(argv)
    print(report(args.corpus or [corpus_root()], args.verbose))
    return 0


def report(roots: list[Path], show_cases: bool = False) -> str:
    """Each set's ablation, then the sets pooled."""
    named = [(str(root), ablate(root)) for root in roots]
    parts = [
        "\n".join([f"== {name}", *([verbose(found)] if show_cases else []), render(found)])
        for name, found in named
    ]
    if len(named) > 1:
        parts.append(f"== all sets\n{render(r for _, found in named for r in found)}")
    return "\n\n".join(parts)


if __name__ == "__main__":
    sys.exit(main())
