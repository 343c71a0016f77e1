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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from analyzers.core.checkpoint_timeline import RankSequence, Timeline

GROWTH = 1.5  # each of the last durations at least this many times the one before
GROWING = 4  # ... over at least this many durations in a row
SLOW_S = 1.0  # and the last one at least this long
WINDOW = GROWING + 1  # the timed repeats that hold the last GROWING durations
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
        for numbered, line, head, tail in _series(seq, timeline.texts):
            durations = _growing(tail)
            if durations and len(head) == 2:
                first = head[1] - head[0]
                found.append((numbered, Slowdown(line, first, durations[-1], rank)))
    if not found:
        return None
    best = max(found, key=lambda f: (f[0], f[1].last_s / max(f[1].first_s, 1e-3), -f[1].rank))
    return best[1]


_Key = tuple[bool, str]  # (numbers read past, the line with its numbers as N)


def _series(
    seq: RankSequence, texts: Sequence[str]
) -> list[tuple[bool, str, list[float], list[float]]]:
    """Each repeated line's first two and last WINDOW timed repeats, in the order the lines
    first appear with a time: all the pace test reads. A line repeated with its numbers
    read past (`step N done`) comes before each line repeated as written. Only lines that
    repeat WINDOW times take part, and the walks stop once every one of them is filled, so a
    long sequence is not read whole."""
    counts = Counter(seq.text)
    kinds = {t: _kind(texts[t]) for t in counts}
    per_kind = Counter()
    for t, n in counts.items():
        per_kind[kinds[t]] += n
    feeds: dict[int, list[_Key]] = {}
    for t, n in counts.items():
        keys = [(True, kinds[t])] if per_kind[kinds[t]] >= WINDOW else []
        keys += [(False, str(t))] if n >= WINDOW else []
        if keys:
            feeds[t] = keys
    heads, first_at = _walk(seq, feeds, range(len(seq.text)), 2)
    tails, _ = _walk(seq, feeds, range(len(seq.text) - 1, -1, -1), WINDOW)
    order = sorted(first_at, key=lambda key: (not key[0], first_at[key]))
    lines = {(False, str(t)): kinds[t] for t in feeds}
    return [
        (key[0], key[1] if key[0] else lines[key], heads[key], tails[key][::-1]) for key in order
    ]


def _walk(
    seq: RankSequence, feeds: dict[int, list[_Key]], indices: range, wanted: int
) -> tuple[dict[_Key, list[float]], dict[_Key, int]]:
    """Up to `wanted` finite times per line, met in the order of `indices`, and the index
    where each line was first met with one."""
    got: dict[_Key, list[float]] = {key: [] for keys in feeds.values() for key in keys}
    first_at: dict[_Key, int] = {}
    open_keys = len(got)
    text, time = seq.text, seq.time
    for i in indices:
        keys = feeds.get(text[i])
        if keys is None or not math.isfinite(time[i]):
            continue
        for key in keys:
            times = got[key]
            if len(times) < wanted:
                first_at.setdefault(key, i)
                times.append(time[i])
                if len(times) == wanted:
                    open_keys -= 1
        if not open_keys:
            break
    return got, first_at


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
