"""Every rank's checkpoints as compact columns, and the timeline's JSON.

A big job logs millions of progress lines, so a rank's checkpoints are parallel `array`
columns of ids, lines and epoch seconds, not an object each; the report streams them rank by
rank (`Timeline.write_json`) and a `Checkpoint` is built only for the entries a reader asks for.
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, TextIO

from analyzers.core.rank_json import encode_columns, id_strings, rank_chunks


class Opening(NamedTuple):
    """What a start line kept out of the sequences opened: a training step (`step 3 start`) or
    a server's request (`request 2 prefill start`, with the decode step it names, if any)."""

    step: int | None = None
    request: int | None = None
    decode_step: int | None = None


@dataclass(slots=True)
class Checkpoint:
    """A progress line; `key` is (normalised text, occurrence index) so ranks compare."""

    text: str
    index: int
    file: str
    line: int
    timestamp: str | None = None
    qualified: str | None = None  # e.g. "layer 2 / attention passed"


@dataclass(slots=True)
class RankSequence:
    """Every checkpoint one rank logged, in its order, as parallel compact columns.

    Ids index `Timeline.texts`, `Timeline.labels` and `Timeline.files`; times are epoch
    seconds (NaN when the line had none).
    """

    text: array = field(default_factory=lambda: array("I"))
    label: array = field(default_factory=lambda: array("I"))  # layer-qualified text id
    file: array = field(default_factory=lambda: array("I"))
    line: array = field(default_factory=lambda: array("Q"))
    time: array = field(default_factory=lambda: array("d"))

    def __len__(self) -> int:
        return len(self.text)


@dataclass(slots=True)
class Timeline:
    """Every rank's checkpoints. Nothing is sampled: facts are computed from all of them."""

    texts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    ranks: dict[int, RankSequence] = field(default_factory=dict)
    # rank -> the peer its last progress line says it waits for (`waiting for kv from rank 3`)
    waits: dict[int, int] = field(default_factory=dict)
    # rank -> the peer that same line says it sends to, when it names both (a ring exchange)
    sends: dict[int, int] = field(default_factory=dict)
    # rank -> the peer its last hand-off line sends to, printed on a line of its own after
    # any receive (`send hidden to rank 2`)
    lone_sends: dict[int, int] = field(default_factory=dict)
    # rank -> the process groups it said it built, in its order (`creating group [0, 1]`)
    groups: dict[int, list[tuple[int, ...]]] = field(default_factory=dict)
    # (file id, line) of the first checkpoint after a line that opened a training step (`step
    # 3 start`) or a request (`request 2 prefill start`), kept out of the sequences -> what it
    # opened
    step_opens: dict[tuple[int, int], Opening] = field(default_factory=dict)

    @classmethod
    def of(cls, checkpoints: dict[int, list[Checkpoint]]) -> Timeline:
        """A timeline from per-rank `Checkpoint` lists (hand-built values, small jobs)."""
        timeline = cls()
        ids: dict[tuple[str, str], dict[str, int]] = {}
        for rank, points in checkpoints.items():
            seq = timeline.ranks.setdefault(rank, RankSequence())
            for point in points:
                seq.text.append(_id(timeline.texts, ids, "text", point.text))
                seq.label.append(_id(timeline.labels, ids, "label", point.qualified or point.text))
                seq.file.append(_id(timeline.files, ids, "file", point.file))
                seq.line.append(point.line)
                seq.time.append(_epoch(point.timestamp))
        return timeline

    def total(self) -> int:
        return sum(len(seq) for seq in self.ranks.values())

    def checkpoint(self, rank: int, index: int) -> Checkpoint:
        """One entry as a `Checkpoint` (its occurrence index counted on the rank)."""
        seq = self.ranks[rank]
        text = seq.text[index]
        time = seq.time[index]
        return Checkpoint(
            text=self.texts[text],
            index=seq.text[:index].count(text),
            file=self.files[seq.file[index]],
            line=seq.line[index],
            timestamp=None if math.isnan(time) else _iso(time),
            qualified=self.labels[seq.label[index]] if len(seq.label) > index else None,
        )

    def last(self, rank: int) -> Checkpoint | None:
        seq = self.ranks.get(rank)
        return self.checkpoint(rank, len(seq) - 1) if seq else None

    def to_json(self) -> dict[str, Any]:
        """Columns, not an object per checkpoint: a big job has millions of them. Times are
        whole microseconds after `t0` (integers encode faster and smaller than floats)."""
        columns = self.columns()
        columns["ranks"] = dict(columns["ranks"].items())
        return columns

    def columns(self) -> dict[str, Any]:
        """`to_json`, with each rank's columns built only when that rank is read, so a
        reader going rank by rank never holds every rank's lists at once."""
        firsts = (_earliest(s.time) for s in self.ranks.values())
        t0 = min((t for t in firsts if t is not None), default=None)
        return {
            "texts": self.texts,
            "labels": self.labels,
            "files": self.files,
            "t0": t0,
            "ranks": LazyRankColumns(self.ranks, t0),
        }

    def write_json(self, out: TextIO, *, parallel: bool = True) -> None:
        """Write `to_json()` to a text stream one rank at a time (bounded memory);
        `parallel`: a big timeline may be encoded on two cores (`rank_json`)."""
        columns = self.columns()
        ranks = columns.pop("ranks")
        out.write(json.dumps(columns, ensure_ascii=False)[:-1] + ', "ranks": {')
        keys = list(ranks)
        first = keys[0] if keys else None
        ids = id_strings(max(len(self.texts), len(self.labels)))

        def encode(key: str) -> str:
            lead = "" if key == first else ", "
            return f'{lead}"{key}": ' + encode_columns(ranks[key], ids)

        sizes = [len(self.ranks[int(key)]) for key in keys]
        for chunk in rank_chunks(keys, sizes, encode, parallel=parallel):
            out.write(chunk)
        out.write("}}")


class LazyRankColumns(Mapping[str, dict[str, Any]]):
    """Rank (as a string) -> that rank's columns, built on access."""

    def __init__(self, ranks: dict[int, RankSequence], t0: float | None) -> None:
        self._ranks = ranks
        self._t0 = t0

    def __getitem__(self, key: str) -> dict[str, Any]:
        return _sequence_json(self._ranks[int(key)], self._t0)

    def __iter__(self) -> Iterator[str]:
        return (str(rank) for rank in self._ranks)

    def __len__(self) -> int:
        return len(self._ranks)


def _id(values: list[str], ids: dict, kind: str, value: str) -> int:
    table = ids.setdefault(kind, {})
    if value not in table:
        table[value] = len(values)
        values.append(value)
    return table[value]


def epoch(moment: datetime) -> float:
    """Seconds since the epoch; naive times (most logs) are read as UTC so ranks compare."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _epoch(timestamp: str | None) -> float:
    return epoch(datetime.fromisoformat(timestamp)) if timestamp else math.nan


def _earliest(times: array) -> float | None:
    """The earliest time; NaN (untimed) entries are skipped: `min` would misorder them."""
    if not math.isnan(sum(times)):
        return min(times) if times else None
    return min((t for t in times if t == t), default=None)


def _sequence_json(seq: RankSequence, t0: float | None) -> dict[str, Any]:
    times: list[int | None]
    if t0 is None:
        times = [None] * len(seq)
    elif not math.isnan(sum(seq.time)):  # all timed: C-level maps, no per-item bytecode
        shifted = map((0.5 - t0 * 1e6).__add__, map((1e6).__mul__, seq.time))
        times = list(map(math.floor, shifted))
    else:
        times = [None if t != t else round((t - t0) * 1e6) for t in seq.time]
    return {
        "text": seq.text.tolist(),
        "label": seq.label.tolist(),
        "file": _runs(seq.file),
        "line": seq.line.tolist(),
        "time_us": times,
    }


def _runs(values: array) -> list[list[int]]:
    """[[value, count], ...]: a rank's checkpoints nearly all come from one file."""
    if not values:
        return []
    if values.count(values[0]) == len(values):
        return [[values[0], len(values)]]
    runs: list[list[int]] = []
    for value in values:
        if runs and runs[-1][0] == value:
            runs[-1][1] += 1
        else:
            runs.append([value, 1])
    return runs


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None).isoformat()
