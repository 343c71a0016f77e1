"""Every rank's checkpoints as compact columns, read back one entry at a time."""

from __future__ import annotations

import io
import json

from analyzers.core.checkpoint_timeline import Checkpoint, Timeline


def point(text: str, line: int, at: str | None = None) -> Checkpoint:
    return Checkpoint(text=text, index=0, file="rank0.log", line=line, timestamp=at)


def test_an_entry_reads_back_with_its_occurrence_counted_on_its_rank():
    timeline = Timeline.of(
        {0: [point("step done", 10), point("step done", 20, "2026-01-05T10:00:01")]}
    )

    last = timeline.last(0)

    assert last == Checkpoint("step done", 1, "rank0.log", 20, "2026-01-05T10:00:01", "step done")
    assert timeline.total() == 2
    assert timeline.last(1) is None


def test_the_json_keeps_texts_once_and_times_as_microseconds_after_the_first():
    timeline = Timeline.of(
        {0: [point("a", 1, "2026-01-05T10:00:00"), point("a", 2, "2026-01-05T10:00:01.5")]}
    )
    out = io.StringIO()

    timeline.write_json(out, parallel=False)

    columns = json.loads(out.getvalue())
    assert columns["texts"] == ["a"]
    assert columns["ranks"]["0"]["time_us"] == [0, 1_500_000]
    assert columns["ranks"]["0"]["file"] == [[0, 2]]  # one run of two from the same file
    assert columns == timeline.to_json()
