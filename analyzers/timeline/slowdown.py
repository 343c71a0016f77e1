"""Progress that slowed down step by step before a job failed.

A rank whose own work grows every step (host-side state that is never trimmed, memory that
swaps, a host shared with a growing neighbour) holds the others a little longer in each
collective. The ranks' progress lines then come further and further apart, on every rank,
since they wait for it, until one wait outlasts the collective timeout. That is no sudden
stop: its lines tell it apart. A line a rank prints once per step (`step 4 done`, `decode
step 7 passed`, the same `layer 0 done` in every step) repeats at the step's pace, so the
time between its repeats is the step's duration. When those durations grow at every one of
the last steps the job logged, by half again or more each time, to a second or more, the job
slowed down; a pace that stayed level and then stopped did not. Only lines with a time of
their own take part. A line whose number counts the steps (`step 4 done`, `step 5 done`) is one
repeated line with its number read past, and it names the pace better than a line repeated as
it is (`layer 0 done`), which is used when no numbered line shows the slowdown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from analyzers.core.types import Timeline

GROWTH = 1.5  # each of the last durations at least this many times the one before
GROWING = 4  # ... over at least this many durations in a row
SLOW_S = 1.0  # and the last one at least this long
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Slowdown:
    """The repeated line whose pace fell, its first and last duration, and the rank."""

    line: str  # the line with its numbers written as N (`step N done`)
    first_s: float
    last_s: float
    rank: int


def slowdown(timeline: Timeline) -> Slowdown | None:
    """The steepest slowdown any rank's repeated progress line shows, or None."""
    found: list[tuple[bool, Slowdown]] = []
    for rank in sorted(timeline.ranks):
        seq = timeline.ranks[rank]
        if not any(math.isfinite(t) for t in seq.time):
            continue
        by_text: dict[int, list[float]] = {}
        by_kind: dict[str, list[float]] = {}
        for text, time in zip(seq.text, seq.time, strict=False):
            if not math.isfinite(time):
                continue
            by_text.setdefault(text, []).append(time)
            by_kind.setdefault(_kind(timeline.texts[text]), []).append(time)
        series = [(True, line, times) for line, times in by_kind.items()]
        series += [(False, _kind(timeline.texts[t]), times) for t, times in by_text.items()]
        for numbered, line, times in series:
            durations = _growing(times)
            if durations:
                found.append((numbered, Slowdown(line, durations[0], durations[-1], rank)))
    if not found:
        return None
    best = max(found, key=lambda f: (f[0], f[1].last_s / max(f[1].first_s, 1e-3), -f[1].rank))
    return best[1]


def _kind(text: str) -> str:
    return _NUMBER.sub("N", text)


def _growing(times: Sequence[float]) -> list[float] | None:
    """The durations between the repeats when the last GROWING of them each grew by GROWTH."""
    durations = [b - a for a, b in pairwise(times)]
    if len(durations) < GROWING or durations[-1] < SLOW_S:
        return None
    tail = durations[-GROWING:]
    if all(b >= GROWTH * a > 0 for a, b in pairwise(tail)):
        return durations
    return None


def seconds(value: float) -> str:
    """A duration as a reader would say it: `0.08 s`, `2.2 s`, `19 s`."""
    if value < 1:
        return f"{value:.2f} s"
    if value < 10:
        return f"{value:.1f} s"
    return f"{value:.0f} s"
