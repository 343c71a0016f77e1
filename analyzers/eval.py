"""Measure the analyzer on the development corpus: category and first-error accuracy.

Every `cases/dNN/` folder (its logs, packed as a bundle without `truth.json`) and every
`torch/*.tar.gz` bundle goes through the full pipeline (`analyzers.analyze`); the report is
compared with the truth file next to it (`analyzers.scoring`; the sets are read by
`analyzers.labelled_sets`):

- category: right when equal to `category` or listed in `category_also`;
- first error: right when `diagnosis.first_error.text` contains `first_error_contains` or
  one of `first_error_also`; when the truth has no first error (a healthy run) or marks it
  optional, reporting none is right too;
- culprits (torch bundles): right when `culprit_ranks` equals the truth's;
- checkpoints (torch bundles): right when every rank's last checkpoint (layer-qualified) and
  the last one all ranks reached equal the truth's `per_rank_last_checkpoint_qualified` and
  `last_common_checkpoint_qualified`.

    python -m analyzers.eval [--corpus DIR ...] [--verbose] [--ablate-rules]

The corpus defaults to `../shared/corpus` next to the checkout (RANKLENS_CORPUS overrides).
Several `--corpus` sets (the development corpus and held-out batches, say) are scored one by
one and then pooled: the calibration promise holds on every labelled set, so the reliability
table is printed for the pool too.
"""

from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

from analyzers import AnalyzeOptions, analyze
from analyzers.labelled_sets import Sample, as_bundle, corpus_root, is_corpus, samples
from analyzers.scoring import (
    CATEGORY_TARGET,
    CONFIDENT,
    CONFIDENT_TARGET,
    FIRST_ERROR_TARGET,
    Score,
    judge,
    share,
)

BIN_EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # reliability table bins, last one closed


def evaluate(root: Path | None = None) -> Score:
    """Run every sample through the pipeline (in-process scanning) and judge it."""
    return Score(
        tuple(judge(sample, report_of(sample)) for sample in samples(root or corpus_root()))
    )


def report_of(sample: Sample) -> dict[str, Any]:
    """The report the full pipeline (in-process scanning) writes for one sample."""
    with as_bundle(sample) as bundle:
        return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def render(score: Score, verbose: bool = False) -> str:
    lines = []
    for o in score.outcomes:
        marks = ("ok " if o.category_ok else "BAD") + (" ok " if o.first_error_ok else " BAD")
        line = f"{o.name:32} {marks}  {o.category:15} {o.confidence:.2f} (want {o.expected})"
        if verbose or not (o.category_ok and o.first_error_ok):
            line += f"\n{'':37}alternatives: {', '.join(o.alternatives) or 'none'}"
            line += f"\n{'':37}first error: {o.first_error!r}"
        lines.append(line)
    lines.append(
        f"category accuracy:    {score.category_accuracy:.0%} (target ≥{CATEGORY_TARGET:.0%})"
    )
    lines.append(
        f"first-error accuracy: {score.first_error_accuracy:.0%} (target ≥{FIRST_ERROR_TARGET:.0%})"
    )
    if score.culprit_accuracy is not None:
        lines.append(f"culprit accuracy:     {score.culprit_accuracy:.0%} (torch bundles)")
    if score.location_accuracy is not None:
        lines.append(f"first-error file:line {score.location_accuracy:.0%} (torch bundles)")
    if score.checkpoint_accuracy is not None:
        lines.append(f"checkpoints:          {score.checkpoint_accuracy:.0%} (torch bundles)")
    lines.append(f"samples: {len(score.outcomes)}")
    lines += reliability_table(score)
    return "\n".join(lines)


def reliability_table(score: Score) -> list[str]:
    """Confidence bins with how many answers fell in each and how many were right: a
    calibrated analyzer is right about as often as it says it is sure."""
    lines = ["", "confidence   cases  category right"]
    for low, high in pairwise(BIN_EDGES):
        last = high == BIN_EDGES[-1]
        inside = [
            o for o in score.outcomes if low <= o.confidence and (o.confidence < high or last)
        ]
        right = f"{share(o.category_ok for o in inside):.0%}" if inside else "-"
        lines.append(f"{low:.1f}-{high:.1f}{']' if last else ')'}   {len(inside):5}  {right:>14}")
    confident = score.confident_accuracy
    shown = "-" if confident is None else f"{confident:.0%}"
    lines.append(f"at ≥{CONFIDENT:.1f}: {shown} right (target ≥{CONFIDENT_TARGET:.0%})")
    lines.append(f"label among answer + alternatives: {score.alternative_accuracy:.0%}")
    strict = score.confident_primary_accuracy
    strict_shown = "-" if strict is None else f"{strict:.0%}"
    lines.append(
        f"primary label alone: {score.primary_accuracy:.0%} (at ≥{CONFIDENT:.1f}: {strict_shown})"
    )
    return lines


def pooled(scores: list[Score]) -> Score:
    """One score over several sets, each case counted once."""
    return Score(tuple(o for score in scores for o in score.outcomes))


def render_sets(named: list[tuple[str, Score]], verbose: bool = False) -> str:
    """Each set's cases and figures, then one line per set and the pooled figures."""
    parts = [f"== {name}\n{render(score, verbose)}" for name, score in named]
    summary = [
        "",
        "== all sets",
        "set                                  cases  category  first error",
    ]
    summary += [
        f"{name[-36:]:36} {len(s.outcomes):6}  {s.category_accuracy:8.0%}  {s.first_error_accuracy:11.0%}"
        for name, s in named
    ]
    everything = pooled([score for _, score in named])
    summary.append(
        f"{'pooled':36} {len(everything.outcomes):6}  {everything.category_accuracy:8.0%}"
        f"  {everything.first_error_accuracy:11.0%}"
    )
    summary += reliability_table(everything)
    return "\n\n".join(parts) + "\n" + "\n".join(summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, action="append", help="corpus directory (repeat for several)"
    )
    parser.add_argument("--verbose", action="store_true", help="show every first error")
    parser.add_argument(
        "--ablate-rules",
        action="store_true",
        help="judge each case again with the rules that read its first error held back",
    )
    args = parser.parse_args(argv)
    roots = args.corpus or [corpus_root()]
    if missing := [root for root in roots if not is_corpus(root)]:
        parser.error(
            f"not a labelled set: {', '.join(map(str, missing))} (expected a cases/ folder of "
            "case folders with truth.json, or a torch/ folder of bundles with .truth.json; "
            "RANKLENS_CORPUS or --corpus names one)"
        )
    if args.ablate_rules:
        return _ablation(roots, args.verbose)
    if len(roots) == 1:
        score = evaluate(roots[0])
        print(render(score, args.verbose))
        return 0 if score.meets_targets() else 1
    named = [(str(root), evaluate(root)) for root in roots]
    print(render_sets(named, args.verbose))
    return 0 if all(score.meets_targets() for _, score in named) else 1


def _ablation(roots: list[Path], verbose: bool) -> int:
    """The rule ablation (`analyzers.ablation`), imported here as it builds on this module."""
    from analyzers.ablation import report

    print(report(roots, verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
