"""Python tracebacks, including chained ones and excerpts that start mid-traceback.

    Traceback (most recent call last):
      File "/workspace/vllm/vllm/distributed/device_communicators/shm_broadcast.py", line 375, in acquire_read
        raise TimeoutError
    TimeoutError

    The above exception was the direct cause of the following exception:

    Traceback (most recent call last):
      ...
    RuntimeError: ...

Each exception line becomes an ERROR event (source "traceback"); its innermost frame becomes
a WARNING event (source "traceback_frame") because a bare `TimeoutError` says little without
the place that raised it. Python prints a chain oldest first, so the first exception of a
chain is the original cause: facts["tracebacks"] records, per exception, `chained` (raised
while handling or because of an earlier one) and `root_line` (the chain's first exception).
Interleaved writers (torchrun `[defaultN]:`, Ray tags) are tracked separately.

The lines around the exception are read by modules of their own: its message over the lines
below (`formats.exception_message`), an exception line two writers cut in two
(`formats.parted_exception`), what Python printed above it (`formats.above_exception`: the
statement a bare `AssertionError` failed, the frames of a traceback seen without its header),
what each frame says of the code that ran there (`formats.traceback_frames`) and the lines
above a traceback that say who carried it (`formats.traceback_carriers`: a wrapper's
`Original Traceback`, torch.multiprocessing.spawn's child, submitit's task, threading's and the
unraisable hook's headers). A wrapper's record is `chained` with the exception it carried as
its `root_line`, as a re-raise is; a spawned child's or a task's exception is that rank's.

rich's traceback handler (`rich.traceback.install()`, `RichHandler(rich_tracebacks=True)`)
draws the same traceback in a box, the frames as `│ /path/infer.py:162 in forward │` rows,
and prints the exception below the box at the box's own indentation, its message cut at the
console's width onto lines at that same indentation (under a RichHandler record, every line
sits behind the blank time and level columns):

                             ╭──────── Traceback (most recent call last) ────────╮
                             │ /srv/decoder/moe.py:88 in dispatch                │
                             ╰───────────────────────────────────────────────────╯
                             RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0.
                             DefaultCPUAllocator: can't allocate memory: you tried to
                             allocate 70368744177664 bytes. Error code 12 (Cannot allocate memory)

The box is read as a traceback, and the lines after its exception at the same indentation (up
to a blank line or another record) are the rest of its message, cited with it: each piece
alone says less (`87960930222080 bytes. Error code 12 ...` names no allocator).
"""

from __future__ import annotations

import re
from dataclasses import replace

from analyzers.core import regex_programs
from analyzers.formats.above_exception import (
    frame_before,
    package_frames_before,
    under_warning,
)
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.exception_events import emit_exception, record
from analyzers.formats.exception_message import MAX_MORE, ExceptionMessage, continues, cut_at_blank
from analyzers.formats.open_traceback import OpenTraceback, is_source, read_frame
from analyzers.formats.parted_exception import PartedTypes
from analyzers.formats.severity import load_prefilter
from analyzers.formats.sink import Sink
from analyzers.formats.traceback_carriers import (
    IGNORED,
    LOGGED_WRAPPER,
    ORIGINAL,
    SPAWN_CHILD,
    TASK_WRAPPER,
    THREAD,
)
from analyzers.formats.traceback_frames import (
    FRAME,
    INTERACTIVE_FRAME,
    WRAPPED_HEAD,
    WRAPPED_TAIL,
)
from analyzers.formats.traceback_lines import (
    CARETS,
    CHAIN,
    EXCEPTION,
    EXCEPTION_NAME,
    HEADER,
    ends_traceback,
    lead,
    stops_at_type,
)

# rich's boxed traceback: its top edge, and the rows and bottom edge of the box
_BOX_HEADER = regex_programs.compile(r"\s*╭─+ Traceback \(most recent call last\) ─+╮\s*$")
_BOX_ROW = regex_programs.compile(r"\s*[│╰]")
_MAX_OPEN_LINES = 400  # a traceback that never ends is given up


class TracebackTracker:
    def __init__(self) -> None:
        self._open: dict[str, OpenTraceback] = {}
        self._continued: dict[str, ExceptionMessage] = {}
        self._chain_root: dict[str, int] = {}  # writer -> root exception line of its chain
        self._last_root: dict[str, int] = {}
        self._last_exception: dict[str, int] = {}  # writer -> line of its latest exception
        self._task_wrapper: dict[str, tuple[int, int]] = {}  # writer -> (wrapper line, task)
        self._thread: dict[str, int] = {}  # writer -> line of its latest thread-death header
        self._ignored: dict[str, int] = {}  # writer -> line of its latest unraisable header
        self._parted = PartedTypes()

    def wants_more(self) -> bool:
        return bool(self._open or self._continued or self._parted)

    def close_all(self, sink: Sink) -> None:
        """End of file: a parted type whose message never came is read as its own line."""
        self._parted.close_all(sink)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """True when the line belongs to a traceback (the caller then emits nothing else)."""
        key = line.stream_key
        if key in self._continued and self._continues(line):
            return True
        if self._parted_piece(lineno, line, sink) or self._opens(lineno, line, sink):
            return True
        state = self._open.get(key)
        if state is not None:
            return self._inside(lineno, line, state, sink)
        return self._outside(lineno, line, sink)

    def _continues(self, line: ParsedLine) -> bool:
        """Append a continuation line to the exception's message; False ends the message."""
        if continues(self._continued[line.stream_key], line):
            return True
        del self._continued[line.stream_key]
        return False

    def _parted_piece(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """A parted exception type, or the `: message` that completes one (True: consumed)."""
        joined = self._parted.joined(lineno, line, sink)
        if joined is None:
            return self._parted.holds(lineno, line, sink)
        key = line.stream_key
        self._open.pop(key, None)
        self._exception(lineno, joined, OpenTraceback(lineno), sink)
        # the lines below belong to whichever writer comes next, not to this message
        self._continued.pop(key, None)
        return True

    def _opens(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """A traceback's header, Python's own or rich's box: a traceback opens (True)."""
        key, message = line.stream_key, line.message
        header = HEADER.match(message)
        if header is None and _BOX_HEADER.match(message):
            root = self._chain_root.pop(key, None)
            self._open[key] = OpenTraceback(lineno, root_line=root, indent=lead(message), box=True)
            return True
        if header is None:
            return False
        opened = OpenTraceback(
            lineno, root_line=self._chain_root.pop(key, None), indent=lead(message)
        )
        if header["rank"] is not None:
            opened.child = int(header["rank"])
        earlier = self._open.get(key)
        if earlier is not None and earlier.child is not None and earlier.frame is None:
            opened.wrapper, opened.child = earlier.wrapper, earlier.child
        self._carried(lineno, key, opened)
        opened.warned = under_warning(lineno, key, sink)
        self._open[key] = opened
        return True

    def _carried(self, lineno: int, key: str, opened: OpenTraceback) -> None:
        """What the lines just above a header said of the traceback it opens: a scheduler
        client's task, a thread that died, an exception the unraisable hook printed."""
        task = self._task_wrapper.pop(key, None)
        if task is not None and lineno - task[0] <= MAX_MORE + 1:
            opened.wrapper, opened.child = task
        thread = self._thread.pop(key, None)
        if thread is not None and lineno - thread == 1:
            opened.thread = thread
        ignored = self._ignored.pop(key, None)
        opened.ignored = ignored is not None and lineno - ignored == 1

    def _outside(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """A line of a writer with no open traceback: a hook's or a wrapper's line above one,
        a chain's sentence, or an exception seen without its header."""
        key, message = line.stream_key, line.message
        if THREAD.match(message):
            self._thread[key] = lineno
            return False
        if IGNORED.match(message):
            self._ignored[key] = lineno
            return False
        if "Caught " in message and LOGGED_WRAPPER.search(message):
            self._last_exception[key] = lineno
        if self._opens_under_wrapper(lineno, line):
            return True
        if CHAIN.match(message) and key in self._last_root:
            self._chain_root[key] = self._last_root[key]
            return True
        found = EXCEPTION.match(message)
        if found and EXCEPTION_NAME.search(found.group("type")) and not _quiet_warning(line, found):
            frame = frame_before(lineno, sink)
            opened = OpenTraceback(lineno, frame, self._chain_root.pop(key, None))
            opened.packages = package_frames_before(lineno, sink)
            opened.interactive = frame is not None and bool(
                INTERACTIVE_FRAME.match(frame[1].message)
            )
            self._exception(lineno, line, opened, sink)
            return True
        return False

    def _opens_under_wrapper(self, lineno: int, line: ParsedLine) -> bool:
        """An `Original Traceback` or a spawned child's header right under the exception of
        the wrapper that re-raised it: the traceback below is the one it carried."""
        key, message = line.stream_key, line.message
        child = SPAWN_CHILD.match(message)
        if child is None and not ORIGINAL.match(message):
            return False
        wrapper = self._last_exception.get(key)
        if wrapper is None or lineno - wrapper > MAX_MORE + 1:
            return False
        index = int(child["index"]) if child is not None else None
        self._open[key] = OpenTraceback(lineno, indent=lead(message), wrapper=wrapper, child=index)
        return True

    def _inside(self, lineno: int, line: ParsedLine, state: OpenTraceback, sink: Sink) -> bool:
        message = line.message
        if state.box and (not message.strip() or _BOX_ROW.match(message)):
            return True  # a row of the box (frames, source) or its bottom edge
        if state.head is not None and WRAPPED_TAIL.match(message):
            lineno, head = state.head  # the wrapped frame is read as one, at its path's line
            line = replace(head, message=f"{head.message.rstrip()} {message.strip()}")
            message = line.message
        if message.strip():
            state.head = None
        if WRAPPED_HEAD.fullmatch(message):
            state.head = (lineno, line)
            return True
        if FRAME.match(message):
            read_frame(lineno, line, state)
            return True
        if not message.strip() or is_source(message, state):
            if state.awaiting and message.strip() and not CARETS.fullmatch(message):
                state.statement, state.awaiting = message.strip(), False
            return True  # source line, ^^^^ markers, blank separator
        if ends_traceback(message.lstrip()):
            self._exception(lineno, line, state, sink)
            return True
        if lineno - state.start > _MAX_OPEN_LINES:
            self._open.pop(line.stream_key, None)
        return False

    def _exception(self, lineno: int, line: ParsedLine, state: OpenTraceback, sink: Sink) -> None:
        key = line.stream_key
        self._open.pop(key, None)
        root = state.root_line if state.root_line is not None else lineno
        self._last_root[key] = root
        self._last_exception[key] = lineno
        task = TASK_WRAPPER.search(line.message.strip())
        if task:
            self._task_wrapper[key] = (lineno, int(task["index"]))
        event, message = emit_exception(lineno, line, state, sink)
        self._continued[key] = ExceptionMessage(
            event,
            line,
            indent=lead(line.message),
            bare=stops_at_type(message),
            wrapped=state.box,
            soft=cut_at_blank(line),
        )
        record(lineno, line, state, root, event, sink)


def _quiet_warning(line: ParsedLine, found: re.Match[str]) -> bool:
    """A warning that is its writer's own message (`_leveled_warning`), or a notice the
    prefilter lists as no failure kept without its location and level (`UserWarning: HCCL
    doesn't support gather at the moment. ...` from a paste): neither ends a traceback.
    `found` is the line's message read as an exception line."""
    if _leveled_warning(line):
        return True
    return found.group("type").endswith("Warning") and _all_benign(line.message)


def _all_benign(message: str) -> bool:
    return not load_prefilter().benign.sub(" ", message).strip()


def _leveled_warning(line: ParsedLine) -> bool:
    """A line its writer stamped WARNING or quieter (`[W106 ...] Warning: Driver Version ...`,
    torch's C++ TORCH_WARN) is that writer's own message, not the last line of a Python
    traceback printed to stderr: outside a traceback it stays a warning for `classify`."""
    return line.level == "WARNING" or line.level in QUIET_LEVELS
