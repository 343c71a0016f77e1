"""Judging a report against its sample's truth, and the figures over many samples.

A report is right on the category when its label is the truth's or one the truth also
accepts, on the first error when its text holds the phrase the truth names; `Score` gathers
the outcomes into the accuracies `python -m analyzers.eval` prints and checks against the
targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analyzers.labelled_sets import Sample

CATEGORY_TARGET = 0.95
FIRST_ERROR_TARGET = 0.95
CONFIDENT = 0.8  # answers this sure must be right at least CONFIDENT_TARGET of the time
CONFIDENT_TARGET = 0.95


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
        return share(o.category_ok for o in self.outcomes)

    @property
    def first_error_accuracy(self) -> float:
        return share(o.first_error_ok for o in self.outcomes)

    @property
    def culprit_accuracy(self) -> float | None:
        judged = [o.culprits_ok for o in self.outcomes if o.culprits_ok is not None]
        return share(judged) if judged else None

    @property
    def location_accuracy(self) -> float | None:
        judged = [o.location_ok for o in self.outcomes if o.location_ok is not None]
        return share(judged) if judged else None

    @property
    def checkpoint_accuracy(self) -> float | None:
        judged = [o.checkpoints_ok for o in self.outcomes if o.checkpoints_ok is not None]
        return share(judged) if judged else None

    @property
    def confident_accuracy(self) -> float | None:
        """Category accuracy of the answers given with confidence ≥ CONFIDENT (None: none)."""
        judged = [o.category_ok for o in self.outcomes if o.confidence >= CONFIDENT]
        return share(judged) if judged else None

    @property
    def primary_accuracy(self) -> float:
        """Share of cases answered with the truth's own label, not one it also accepts: a
        stricter reading of the same answers, as the first label is what a reader sees."""
        return share(o.category == o.expected for o in self.outcomes)

    @property
    def confident_primary_accuracy(self) -> float | None:
        judged = [o.category == o.expected for o in self.outcomes if o.confidence >= CONFIDENT]
        return share(judged) if judged else None

    @property
    def alternative_accuracy(self) -> float:
        """Share of cases whose expected label is the answer or one of its alternatives."""
        return share(o.category_ok or o.expected in o.alternatives for o in self.outcomes)

    def meets_targets(self) -> bool:
        confident = self.confident_accuracy
        return (
            self.category_accuracy >= CATEGORY_TARGET
            and self.first_error_accuracy >= FIRST_ERROR_TARGET
            and (confident is None or confident >= CONFIDENT_TARGET)
        )


def share(flags: Any) -> float:
    flags = list(flags)
    return sum(map(bool, flags)) / len(flags) if flags else 0.0


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
