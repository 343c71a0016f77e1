"""The interface a multi-line parser hands its results back through (`formats.sink.Sink`):
any object with `emit`, `add_fact` and `lookback` will do, so a parser can be run and read
without a scanner."""

from __future__ import annotations

import inspect
from typing import Any

from analyzers.core.types import Event, EventKind
from analyzers.formats.above_exception import frame_before
from analyzers.formats.base import ParsedLine
from analyzers.formats.lines import parse_line
from analyzers.formats.sink import Sink
from analyzers.formats.traceback import TracebackTracker
from analyzers.scan.sink import ScanSink


class RecordingSink:
    """Keeps what a parser reports, and the lines it was fed for `lookback`."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.events: list[Event] = []
        self.facts: dict[str, list[Any]] = {}

    def emit(
        self,
        lineno: int,
        line: ParsedLine,
        kind: EventKind,
        *,
        source: str | None = None,
        message: str | None = None,
        rank: int | None = None,
    ) -> Event:
        event = Event(
            file="worker_3.log",
            line=lineno,
            text=line.text,
            kind=kind,
            message=line.message.strip() if message is None else message,
            rank=line.rank if rank is None else rank,
            source=source or line.source,
        )
        self.events.append(event)
        return event

    def add_fact(self, topic: str, value: Any) -> None:
        self.facts.setdefault(topic, []).append(value)

    def lookback(self, lineno: int, count: int) -> list[tuple[int, str]]:
        first = max(1, lineno - count)
        return [(number, self.lines[number - 1]) for number in range(first, lineno)]


TRACEBACK = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/srv/train/step.py", line 88, in run_step
[rank3]:     loss = model(batch)
[rank3]: RuntimeError: shape '[4, 1024]' is invalid for input of size 2048
""".splitlines()


def read(lines: list[str], sink: Sink) -> None:
    """Feed the lines to the traceback parser, as the scanner does, then end the file."""
    tracker = TracebackTracker()
    for number, text in enumerate(lines, 1):
        tracker.feed(number, parse_line(text), sink)
    tracker.close_all(sink)


def test_a_parser_reports_its_exception_and_frame_through_any_sink():
    sink = RecordingSink(TRACEBACK)
    read(TRACEBACK, sink)
    error, frame = sink.events
    assert (error.line, error.kind, error.rank, error.source) == (
        4,
        EventKind.ERROR,
        3,
        "traceback",
    )
    assert error.message == "RuntimeError: shape '[4, 1024]' is invalid for input of size 2048"
    # the job's own frame, kept beside the exception as a warning
    assert (frame.line, frame.kind, frame.source) == (2, EventKind.WARNING, "traceback_frame")
    assert frame.message == 'File "/srv/train/step.py", line 88, in run_step'


def test_a_parser_adds_its_facts_by_topic():
    sink = RecordingSink(TRACEBACK)
    read(TRACEBACK, sink)
    (traceback,) = sink.facts["tracebacks"]
    assert (traceback["type"], traceback["rank"], traceback["header"]) == ("RuntimeError", 3, 1)
    assert traceback["statement"] == "loss = model(batch)"


def test_a_parser_looks_back_through_the_sink_for_the_lines_above():
    lines = [
        "loading shard 7 of 12",
        '  File "/srv/train/data.py", line 41, in __getitem__',
        "    return self.rows[index]",
        "IndexError: list index out of range",
    ]
    found = frame_before(4, RecordingSink(lines))
    assert found is not None
    number, frame = found
    assert (number, frame.message) == (2, lines[1])


def test_the_scanners_sink_has_the_interfaces_methods():
    for name in ("emit", "add_fact", "lookback"):
        wanted = inspect.signature(getattr(Sink, name))
        assert list(inspect.signature(getattr(ScanSink, name)).parameters) == list(
            wanted.parameters
        )
