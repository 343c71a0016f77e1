"""Measure the analyzer on the development corpus: category and first-error accuracy.

Every `cases/dNN/` folder (its logs, packed as a bundle without `truth.json`) and every
`torch/*.tar.gz` bundle goes through the full pipeline (`analyzers.analyze`); the report is
compared with the truth file next to it:

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
import json
import os
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from analyzers import AnalyzeOptions, analyze

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CATEGORY_TARGET = 0.95
FIRST_ERROR_TARGET = 0.95
CONFIDENT = 0.8  # answers this sure must be right at least CONFIDENT_TARGET of the time
CONFIDENT_TARGET = 0.95
BIN_EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # reliability table bins, last one closed


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    bundle: Path  # a directory of logs or an archive
    truth: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    category: str
    expected: str
    category_ok: bool
    first_error: str | None
    first_error_ok: bool
    culprits: tuple[int, ...]
    culprits_ok: bool | None  # None when the truth names no culprits
    location_ok: bool | None = None  # file:line equal to a truth candidate's, when given
    confidence: float = 0.0
    alternatives: tuple[str, ...] = ()  # the report's other labels, best first
    checkpoints_ok: bool | None = None  # None when the truth records no checkpoints


@dataclass(frozen=True, slots=True)
class Score:
    outcomes: tuple[Outcome, ...]

    @property
    def category_accuracy(self) -> float:
        return _share(o.category_ok for o in self.outcomes)

    @property
    def first_error_accuracy(self) -> float:
        return _share(o.first_error_ok for o in self.outcomes)

    @property
    def culprit_accuracy(self) -> float | None:
        judged = [o.culprits_ok for o in self.outcomes if o.culprits_ok is not None]
        return _share(judged) if judged else None

    @property
    def location_accuracy(self) -> float | None:
        judged = [o.location_ok for o in self.outcomes if o.location_ok is not None]
        return _share(judged) if judged else None

    @property
    def checkpoint_accuracy(self) -> float | None:
        judged = [o.checkpoints_ok for o in self.outcomes if o.checkpoints_ok is not None]
        return _share(judged) if judged else None

    @property
    def confident_accuracy(self) -> float | None:
        """Category accuracy of the answers given with confidence ≥ CONFIDENT (None: none)."""
        judged = [o.category_ok for o in self.outcomes if o.confidence >= CONFIDENT]
        return _share(judged) if judged else None

    @property
    def primary_accuracy(self) -> float:
        """Share of cases answered with the truth's own label, not one it also accepts: a
        stricter reading of the same answers, as the first label is what a reader sees."""
        return _share(o.category == o.expected for o in self.outcomes)

    @property
    def confident_primary_accuracy(self) -> float | None:
        judged = [o.category == o.expected for o in self.outcomes if o.confidence >= CONFIDENT]
        return _share(judged) if judged else None

    @property
    def alternative_accuracy(self) -> float:
        """Share of cases whose expected label is the answer or one of its alternatives."""
        return _share(o.category_ok or o.expected in o.alternatives for o in self.outcomes)

    def meets_targets(self) -> bool:
        confident = self.confident_accuracy
        return (
            self.category_accuracy >= CATEGORY_TARGET
            and self.first_error_accuracy >= FIRST_ERROR_TARGET
            and (confident is None or confident >= CONFIDENT_TARGET)
        )


def _share(flags: Any) -> float:
    flags = list(flags)
    return sum(map(bool, flags)) / len(flags) if flags else 0.0


def corpus_root() -> Path:
    return Path(os.environ.get("RANKLENS_CORPUS", DEFAULT_CORPUS))


def is_corpus(root: Path) -> bool:
    """Whether `root` is laid out as a labelled set (it may still hold no case yet)."""
    return (root / "cases").is_dir() or (root / "torch").is_dir()


def samples(root: Path) -> list[Sample]:
    """Every case folder and torch bundle of the corpus, by name."""
    found = [
        Sample(case.name, case, _read_json(case / "truth.json"))
        for case in sorted((root / "cases").glob("*"))
        if (case / "truth.json").is_file()
    ]
    found += [
        Sample(archive.name.removesuffix(".tar.gz"), archive, _read_json(truth))
        for archive in sorted((root / "torch").glob("*.tar.gz"))
        if (truth := archive.with_name(archive.name.replace(".tar.gz", ".truth.json"))).is_file()
    ]
    return found


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@contextmanager
def as_bundle(sample: Sample) -> Iterator[Path]:
    """An archive of the sample's logs: case folders are packed without their truth file,
    so the analyzer never reads the answer. Logs in subfolders (the held-out layout keeps
    them under `logs/`, a collected job under per-node trees) keep their relative paths."""
    if sample.bundle.is_file():
        yield sample.bundle
        return
    truth = sample.bundle / "truth.json"
    with tempfile.TemporaryDirectory(prefix="ranklens-eval-") as tmp:
        archive = Path(tmp) / f"{sample.name}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            for log in sorted(sample.bundle.rglob("*")):
                if log.is_file() and log != truth:
                    relative = log.relative_to(sample.bundle).as_posix()
                    tar.add(log, arcname=f"{sample.name}/{relative}")
        yield archive


def judge(sample: Sample, report: dict[str, Any]) -> Outcome:
    truth, diagnosis = sample.truth, report["diagnosis"]
    first = diagnosis.get("first_error") or None
    first_text = first["text"] if first else None
    expected_culprits = truth.get("culprit_ranks")
    culprits = tuple(diagnosis.get("culprit_ranks") or ())
    return Outcome(
        name=sample.name,
        category=diagnosis["category"],
        expected=truth["category"],
        category_ok=diagnosis["category"] in [truth["category"], *truth.get("category_also", [])],
        first_error=first_text,
        first_error_ok=_first_error_ok(truth, first_text),
        culprits=culprits,
        culprits_ok=None if expected_culprits is None else list(culprits) == expected_culprits,
        location_ok=_location_ok(truth, first),
        confidence=float(diagnosis.get("confidence") or 0.0),
        alternatives=tuple(alt["category"] for alt in diagnosis.get("alternatives") or ()),
        checkpoints_ok=_checkpoints_ok(truth, report),
    )


def _checkpoints_ok(truth: dict[str, Any], report: dict[str, Any]) -> bool | None:
    """Each rank's last checkpoint and the last common one, both layer-qualified."""
    wanted = truth.get("per_rank_last_checkpoint_qualified")
    if wanted is None:
        return None
    got = {str(r["rank"]): r.get("last_checkpoint_qualified") for r in report.get("ranks") or ()}
    common = (report.get("correlation") or {}).get("last_common_checkpoint_qualified")
    ranks_ok = all(got.get(rank) == last for rank, last in wanted.items())
    return ranks_ok and common == truth.get("last_common_checkpoint_qualified")


def _location_ok(truth: dict[str, Any], first: dict[str, Any] | None) -> bool | None:
    """Whether the cited file:line is one of the truth's candidates (torch bundles list them)."""
    candidates = truth.get("first_error_candidates")
    if not candidates:
        return None
    if first is None:
        return False
    return any(
        first["file"] == c.get("file") and first["line"] == c.get("line_no") for c in candidates
    )


def _first_error_ok(truth: dict[str, Any], text: str | None) -> bool:
    wanted = [truth.get("first_error_contains"), *truth.get("first_error_also", [])]
    wanted = [w for w in wanted if w]
    if text is None:
        return not wanted or bool(truth.get("first_error_optional"))
    return any(w in text for w in wanted)


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
        right = f"{_share(o.category_ok for o in inside):.0%}" if inside else "-"
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
