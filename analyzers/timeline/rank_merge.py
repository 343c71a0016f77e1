"""One rank's checkpoints from the several files that hold them, merged into one sequence.

    job/rank3.log        norm passed, layer 0 passed, ... layer 5 passed   (its own log)
    job/launcher.log     [default3]: norm passed, ... layer 6 passed        (the launcher's copy)

The fullest file of the best kind is the base, and another file adds only the checkpoint
occurrences the base lacks (a copy adds nothing), each before the next checkpoint both share
or, with a time on every line, in time order. The segments of a rotated log are first joined
into the one stream they were cut from.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from analyzers.core.checkpoint_timeline import RankSequence
from analyzers.ingest.layout import LIVE_AGE, logical_path, rotation_of


@dataclass(slots=True)
class RankPart:
    """The checkpoints of one rank found in one file."""

    priority: int
    path: str
    seq: RankSequence


def merged(parts: list[RankPart]) -> RankSequence:
    """One rank's sequence from its parts: the best kind of file first (a rank's own log is
    the better citation than the launcher's copy), then the fullest, then by path, so the
    same bundle always gives the same base; each other part adds what the base lacks."""
    parts = sorted(_joined_rotations(parts), key=lambda p: (p.priority, -len(p.seq), p.path))
    whole = parts[0].seq
    for part in parts[1:]:
        if _adds_something(whole, part.seq):
            whole = _merge_two(whole, part.seq)
    return whole


def _joined_rotations(parts: list[RankPart]) -> list[RankPart]:
    """A rotated log (`log_3.log.2`, `log_3.log.1`, `log_3.log`; or dated, `log_3.log-20261204`,
    `log_3.log-20261205`, `log_3.log`) is one stream cut into files. Its segments are joined
    oldest first (`analyzers.ingest.layout.rotation_of` says which is older): a later segment
    repeats the earlier ones' checkpoint texts (every step prints `norm passed` again) without
    being a copy of them."""
    groups: dict[str, list[tuple[tuple[int, int], RankPart]]] = {}
    for part in parts:
        name = logical_path(part.path)  # `log_3.log.gz` is the live `log_3.log`, gzipped
        found = rotation_of(name)
        base, age = (found.live, found.age) if found else (name, LIVE_AGE)
        groups.setdefault(base, []).append((age, part))
    joined = []
    for base, members in groups.items():
        if len(members) < 2 or all(age == LIVE_AGE for age, _ in members):
            joined.extend(part for _, part in members)
            continue
        members.sort(key=lambda member: member[0])
        priority = min(part.priority for _, part in members)  # `.1` is no known log suffix
        joined.append(RankPart(priority, base, _concatenated([part.seq for _, part in members])))
    return joined


def _concatenated(seqs: list[RankSequence]) -> RankSequence:
    return RankSequence(
        text=array("I", (t for seq in seqs for t in seq.text)),
        file=array("I", (f for seq in seqs for f in seq.file)),
        line=array("Q", (n for seq in seqs for n in seq.line)),
        time=array("d", (t for seq in seqs for t in seq.time)),
    )


def _adds_something(base: RankSequence, other: RankSequence) -> bool:
    """Whether `other` holds an occurrence `base` lacks (a copy of the same lines does not)."""
    have = Counter(base.text)
    return any(count > have[text] for text, count in Counter(other.text).items())


Row = tuple[int, int, int, float]  # text, file, line, time


def _merge_two(base: RankSequence, other: RankSequence) -> RankSequence:
    """Checkpoints only `other` has go in before the next checkpoint both share (at the end
    after the last one); with a time on every line, time decides."""
    base_rows, other_rows = _rows(base), _rows(other)
    have = Counter(base.text)
    before: dict[tuple[int, int], list[Row]] = {}
    pending: list[Row] = []
    for key, row in zip(_keys(other.text), other_rows, strict=True):
        if key[1] < have[key[0]]:
            if pending:
                before[key], pending = pending, []
        else:
            pending.append(row)
    rows: list[Row] = []
    for key, row in zip(_keys(base.text), base_rows, strict=True):
        rows.extend(before.get(key, ()))
        rows.append(row)
    rows.extend(pending)
    if all(row[3] == row[3] for row in rows):
        rows.sort(key=lambda row: row[3])
    return RankSequence(
        text=array("I", (r[0] for r in rows)),
        file=array("I", (r[1] for r in rows)),
        line=array("Q", (r[2] for r in rows)),
        time=array("d", (r[3] for r in rows)),
    )


def _rows(seq: RankSequence) -> list[Row]:
    return list(zip(seq.text, seq.file, seq.line, seq.time, strict=True))


def _keys(texts: Iterable[int]) -> list[tuple[int, int]]:
    seen: Counter[int] = Counter()
    keys = []
    for text in texts:
        keys.append((text, seen[text]))
        seen[text] += 1
    return keys
