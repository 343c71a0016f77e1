"""What a traceback's exception line becomes: an ERROR event, a WARNING event for the frame
kept above it, and a `tracebacks` fact that later stages read (chained or not, its chain's root,
the thread or wrapper that carried it, the frames around it).

When the innermost frame is the job's own code called back by a library (a `__getstate__`
the pickler of an object collective ran, a collate function a DataLoader called), the record
also keeps, as `caller`, the text of the last installed-package frame above it: the frame the
library handed control from, which says what the job's code was doing for it. It keeps as
`inner_packages` the innermost installed-package frames (at most six, innermost last): the
library layers under the job's call, such as a model hub's client above the HTTP library whose
dropped connection it raised. An exception seen without its header (a paste that starts in the
middle of a traceback) takes them from the run of frame and source lines right above it.

A bare exception that Python's own machinery raised is read with the frame that called it: a bare
`EOFError` out of `multiprocessing`'s `_recv` says only that a connection closed, and the frame
that read it says whose (`route.py", line 281, in task_distribute` over `key, func_name, detail
= resource_proxy[TASK_QUEUE].get()`: the operator compiler's worker reading the queue its main
process served). When the innermost frame is the standard library's or generated code and the
frame kept above it is the job's or a package's, the exception is read and cited with that frame
and the statement printed under it (`EOFError (File ".../route.py", line 281, in
task_distribute key, ... .get())`), as a traceback cut before its exception is cited with its
frame (formats.cut_traceback). A bare exception raised in the job's or a package's own code
(`raise TimeoutError` in a library's loop) is cited as it stands. A paste that wrapped a frame
after its path (`File ".../route.py",` then `line 281, in task_distribute`, blank lines
between) has that frame read as one.
"""

from __future__ import annotations

from analyzers.core.types import Event, EventKind
from analyzers.formats.above_exception import (
    BARE_ASSERTION,
    failed_assertion,
    raising_statement,
)
from analyzers.formats.base import ParsedLine
from analyzers.formats.open_traceback import OpenTraceback
from analyzers.formats.sink import Sink
from analyzers.formats.traceback_frames import is_machinery_frame
from analyzers.formats.traceback_lines import EXCEPTION

SOURCE = "traceback"
FRAME_SOURCE = "traceback_frame"


def emit_exception(
    lineno: int, line: ParsedLine, state: OpenTraceback, sink: Sink
) -> tuple[Event, str]:
    """The exception's ERROR event and the message it was read with (a bare one's with the
    statement or the frame that says what failed), then its kept frame's WARNING event."""
    message = line.message.strip()
    place = None
    if BARE_ASSERTION.match(message):
        statement = failed_assertion(lineno, sink)
        if statement is not None:
            message = f"{message} ({statement})"
    else:
        place = _raised_in_machinery(message, state)
        if place is not None:
            message = f"{message} ({place})"
    event = sink.emit(
        lineno, line, EventKind.ERROR, source=SOURCE, message=message, rank=state.child
    )
    if place is not None:
        event.text = f"{event.text.rstrip()} ({place})"
    if state.frame is not None:
        frame_no, frame = state.frame
        sink.emit(
            frame_no, frame, EventKind.WARNING, source=FRAME_SOURCE, message=frame.message.strip()
        )
    return event, message


def record(
    lineno: int, line: ParsedLine, state: OpenTraceback, root: int, event: Event, sink: Sink
) -> None:
    """The exception's `tracebacks` fact, and a re-raise fact for the thread header or the
    wrapper printed above it, whose line only carried this exception."""
    found = EXCEPTION.match(line.message.lstrip())
    sink.add_fact(
        "tracebacks",
        {
            "line": lineno,
            "type": found.group("type") if found else line.message.strip(),
            "frame_line": state.frame[0] if state.frame else None,
            "chained": state.root_line is not None,
            "root_line": root,
            "rank": event.rank,
            "thread": state.thread is not None,
            "ignored": state.ignored,
            "caller": state.caller.message.strip() if state.caller else None,
            "inner_packages": state.packages,
            "statement": raising_statement(lineno, sink) if state.frame else None,
            "header": state.start if state.start < lineno else None,
            "interactive": state.interactive,
            "warned": state.warned,
        },
    )
    for carrier in (state.thread, state.wrapper):
        if carrier is not None:
            sink.add_fact(
                "tracebacks",
                {
                    "line": carrier,
                    "type": "re-raise",
                    "frame_line": None,
                    "chained": True,
                    "root_line": lineno,
                    "rank": event.rank,
                },
            )


def _raised_in_machinery(message: str, state: OpenTraceback) -> str | None:
    """The kept frame and its statement, when `message` is a bare exception (its class alone)
    that Python's own machinery raised under that frame: the place that says what closed."""
    found = EXCEPTION.match(message)
    if (
        found is None
        or ":" in message
        or state.frame is None
        or state.statement is None
        or state.innermost is None
        or not is_machinery_frame(state.innermost)
        or is_machinery_frame(state.frame[1].message)
    ):
        return None
    return f"{state.frame[1].message.strip()} {state.statement}"
