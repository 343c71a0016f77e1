"""Python stacks dumped on purpose while a job runs: faulthandler's timer and signal dumps.

A job that hangs is often set up to show where it hangs: `faulthandler.dump_traceback_later`
prints every thread's stack after N seconds, `faulthandler.register(SIGUSR1)` (and tools that
print in its format) on demand::

    Timeout (0:00:05)!
    Thread 0x00007f69b5468b80 (most recent call first):
      File ".../torch/distributed/distributed_c10d.py", line 3252 in all_reduce
      File "/srv/infer.py", line 128 in forward
    Current thread 0x00007fa1f787fb80 (most recent call first):
      File "/srv/infer.py", line 83 in _spin

Such a dump is no failure: its `Timeout (0:00:05)!` headline is the dump timer firing, not a
timeout of the job, and must not make the rank one that failed. It is evidence instead: the
innermost frames say where the thread stood when the dump was taken. The tracker swallows
the dump's lines and records one fact per thread stack (`stack_dumps`): the rank that wrote
it, the line of its thread header, its innermost frames (innermost first) and whether it is
the main thread's (its outermost frame is the script's `<module>`). A dump that follows a
fatal error (`Fatal Python error: Segmentation fault`, then `Current thread ...`) is read the
same way; the error line before it is not part of the dump and keeps its own reading.

py-spy (`py-spy dump --pid N`), the usual way to look into a process that hangs without such a
set-up, prints the same evidence in its own layout: a preamble naming the process and the
interpreter, then per thread a header with its native id, its state and its name, and frames
written as `function (file:line)`, innermost first::

    Process 3951: /usr/bin/python3 -u train.py
    Python v3.10.12 (/usr/bin/python3.10)

    Thread 3951 (active): "MainThread"
        broadcast (torch/distributed/distributed_c10d.py:2824)
        broadcast_object_list (torch/distributed/distributed_c10d.py:3628)

The preamble is no failure either: its first line is the process's whole command line, and
the options a job is started with carry error words of their own (`--timeout 60`,
`--fault-tolerance`, `--max-failures 3`), so both preamble lines are swallowed. Only a
command line is taken for one: its first word is a path or a Python interpreter, so a log's own
`Process 12: exited` keeps its reading.

An operator who dumps every rank in one go (a loop over the ranks' pids) often writes all the
dumps into one file whose path names no rank, each under a line naming the rank it came from
(`===== rank 1 (pid 21425) =====`). Such a line is swallowed, and the stacks after it, up to
the next one, are that rank's.

Its stacks are kept the same way (`main` when the thread is named `MainThread` or its outermost
frame is `<module>`). The frames' words are no failure (a package folder named `errors` is only
a path), so the frames are swallowed, in both layouts, all but each stack's innermost one: that
frame is where the thread stands, and a rule may know that place as a stall of its own (a wait
in torch's JIT build lock), so it is left to the rules. A faulthandler frame handed on is still
Python source to the prefilter, no event, unless it is one of the stall frames it lists.

gdb, attached to a process that hangs, prints the Python stack with its `py-bt` command in a
third layout: a `Traceback (most recent call first):` headline (Python's own tracebacks say
`most recent call last`), then frames written as a traceback writes them, comma and all, each
with its source statement below it, innermost first, with the C call the thread is blocked in
on top (`<built-in method allreduce of PyCapsule object at remote 0x...>`)::

    (gdb) py-bt
    Traceback (most recent call first):
      <built-in method allreduce of PyCapsule object at remote 0x7fb3b12c3f90>
      File ".../torch/distributed/distributed_c10d.py", line 1209, in all_reduce
        work = group.allreduce([tensor], opts)

It is a dump like the others, no exception: its frames are kept (written as faulthandler writes
them, so the readers of dumps see one layout) and swallowed, the innermost handed on. Such a
dump is often the last thing a paste holds, and its frames are then not a traceback the paste
cut before its exception line: `open_at_end` tells the end-of-file readers so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine
from analyzers.formats.sink import Sink

FACT = "stack_dumps"

# the timer's headline: `Timeout (0:00:05)!`, hours unpadded, optional fraction of a second
_TIMER = regex_programs.compile(r"\s*Timeout \(\d+:\d{2}:\d{2}(?:\.\d+)?\)!\s*$")
# a thread's header (`Thread 0x...`, `Current thread 0x...`), or `Stack` for one thread only
_THREAD = regex_programs.compile(
    r"\s*(?:(?:Current thread|Thread) 0x[0-9a-fA-F]+|Stack) \(most recent call first\):\s*$"
)
# a frame as faulthandler prints it: no comma before `in`, unlike a traceback's
_FRAME = regex_programs.compile(r'\s+File "[^"]+", line \d+ in \S+\s*$')
_NO_FRAME = regex_programs.compile(r"\s+<no Python frame>\s*$")
MAX_FRAMES = 12  # the innermost frames kept per stack: enough to see the call it is in
# the outermost frame of a program's main thread: the script's own top level
_MAIN = regex_programs.compile(r" in <module>\s*$")
MAX_DUMP_LINES = 2000  # a dump that never ends is given up
# a line that heads the dumps of one rank when an operator writes several ranks' dumps into
# one file (`===== rank 1 (pid 21425) =====`, `--- rank 3 ---`, `rank 2 (pid 5678):`): the
# rank, perhaps its pid, set off by a rule of signs on either side or ended by a colon
_RANK_HEADER = regex_programs.compile(
    r"\s*(?P<lead>[=#*~>-]{2,}\s*)?rank[ _=#-]?(?P<rank>\d+)"
    r"(?:\s*[(,]?\s*pid[ =:]*\d+\)?)?"
    r"(?(lead)\s*[=#*~<-]*|\s*(?:[=#*~<-]{2,}|:))\s*$",
    re.IGNORECASE,
)
# py-spy's thread header: native id (decimal or hex), state, name
_SPY_THREAD = regex_programs.compile(
    r'\s*Thread (?:0x[0-9a-fA-F]+|\d+) \((?:idle|active|gil)(?:\+gil)?\)(?:: "(?P<name>[^"]*)")?\s*$'
)
# py-spy's frame, `function (file:line)`; a native frame (`--native`) may name only its library
_SPY_FRAME = regex_programs.compile(r"\s+\S+ \(\S+?(?::\d+)?\)\s*$")
# what `--locals` prints under a frame: `Arguments:` / `Locals:` and one deeper line per name
_SPY_DETAIL = regex_programs.compile(r"\s{8,}\S")
_SPY_MAIN = regex_programs.compile(r"^\s*<module> \(")
# py-spy's preamble: `Process 3951: /usr/bin/python3 -u train.py ...` (the first word of the
# command line a path or an interpreter) and `Python v3.10.12 (/usr/bin/python3.10)`
_SPY_PROCESS = regex_programs.compile(r"\s*Process \d+: (?:\S*/\S+|\S*python[\w.]*)(?:\s|$)")
_SPY_PYTHON = regex_programs.compile(r"\s*Python v\d+\.\d+(?:\.\d+)?\S* \([^()]*\)\s*$")
# gdb's `py-bt`: its headline, its frames (a traceback's, with the comma), the C call on top
# and the notes it prints where it cannot read a frame
_GDB_HEAD = regex_programs.compile(r"\s*Traceback \(most recent call first\):\s*$")
_GDB_FRAME = regex_programs.compile(
    r'(?P<lead>\s*)File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>\S+)\s*$'
)
_GDB_NOTE = regex_programs.compile(
    r"\s*(?:<(?:built-in (?:method|function)|method-wrapper|wrapper_descriptor) [^>]*>"
    r"|\((?:unable to read python frame information|frame information optimized out)\)"
    r"|Waiting for the GIL|Garbage-collecting)\s*$"
)


def spy_layout(message: str) -> bool:
    """A line of py-spy's own layout outside the frames (a thread's header, the preamble):
    where a process stood when it was looked at, never what failed. A paste that starts inside
    a dump (its first thread's frames cut away) leaves such a header as a file's last
    unindented line, which nothing else marks as part of a dump."""
    return any(shape.match(message) for shape in (_SPY_THREAD, _SPY_PROCESS, _SPY_PYTHON))


@dataclass(slots=True)
class _Stack:
    line: int
    rank: int | None
    frames: list[str] = field(default_factory=list)
    main: bool = False  # its outermost frame is the script's top level
    timer: bool = False  # printed under the dump timer's `Timeout (...)!` headline
    spy: bool = False  # printed by py-spy (frames `function (file:line)`)
    named_main: bool = False  # py-spy named the thread `MainThread`
    gdb: bool = False  # printed by gdb's `py-bt` (frames with source statements below)
    lead: int = -1  # indentation of a gdb frame: its source statement is indented deeper
    worker: str | None = None  # the writer's tag (an srun task's `N: `) when it gave no rank


class StackDumpTracker:
    """Reads faulthandler-style dumps out of a file's lines (see the module docstring)."""

    def __init__(self, file_rank: int | None = None) -> None:
        self._file_rank = file_rank  # the rank the file's path gives, for lines with no tag
        self._open: dict[str, _Stack | None] = {}  # writer -> stack being read (None: header)
        self._lines: dict[str, int] = {}
        self._timer: set[str] = set()  # writers whose current dump the timer started
        self._headed: dict[str, int] = {}  # writer -> rank its last dump header named
        self.open_at_end = False  # the file ended inside a dump

    def wants_more(self) -> bool:
        return bool(self._open)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """True when the line belongs to a dump (the caller then emits nothing for it)."""
        key, message = line.stream_key, line.message
        if _TIMER.match(message):
            self._close(key, sink)
            self._open[key] = None
            self._lines[key] = 0
            self._timer.add(key)
            return True
        if _THREAD.match(message):
            self._open_stack(
                key, lineno, line, sink, _Stack(lineno, None, timer=key in self._timer)
            )
            return True
        header = _RANK_HEADER.match(message) if line.rank is None else None
        if header:
            self._close(key, sink)  # the dumps of another rank begin
            self._headed[key] = int(header.group("rank"))
            return True
        if _SPY_PROCESS.match(message) or _SPY_PYTHON.match(message):
            self._close(key, sink)  # a new process's dump begins
            return True
        if _GDB_HEAD.match(message):
            self._open_stack(key, lineno, line, sink, _Stack(lineno, None, gdb=True))
            return True
        spy = _SPY_THREAD.match(message)
        if spy:
            named = spy.group("name") == "MainThread"
            self._open_stack(
                key, lineno, line, sink, _Stack(lineno, None, spy=True, named_main=named)
            )
            return True
        if key not in self._open:
            return False
        stack = self._open[key]
        self._lines[key] += 1
        if stack is not None and stack.spy:
            return self._spy_line(key, message, stack, sink)
        if stack is not None and stack.gdb:
            return self._gdb_line(key, message, stack, sink)
        if stack is not None and (_FRAME.match(message) or _NO_FRAME.match(message)):
            innermost = bool(_FRAME.match(message)) and not stack.frames
            if _FRAME.match(message) and len(stack.frames) < MAX_FRAMES:
                stack.frames.append(message.strip())
            stack.main = bool(_MAIN.search(message))
            if self._lines[key] > MAX_DUMP_LINES:
                self._close(key, sink)
            # the innermost frame is where the thread stands: handed on like py-spy's, where
            # the prefilter drops it as Python source unless it names a known stall
            return not innermost
        if stack is not None and not message.strip():
            return True  # the blank line between two threads' stacks
        self._close(key, sink)
        self._timer.discard(key)  # the dump ended: a later one has its own headline
        return False

    def _open_stack(
        self, key: str, lineno: int, line: ParsedLine, sink: Sink, stack: _Stack
    ) -> None:
        self._close(key, sink)
        stack.rank = line.rank if line.rank is not None else self._headed.get(key, self._file_rank)
        stack.worker = line.tags.get("worker") if stack.rank is None else None
        stack.main = stack.named_main
        self._open[key] = stack
        self._lines[key] = 0

    def _spy_line(self, key: str, message: str, stack: _Stack, sink: Sink) -> bool:
        """A line after a py-spy thread header: a frame, a `--locals` detail or a blank line
        stay in the dump; the innermost frame is kept and still handed to the rules."""
        if _SPY_FRAME.match(message):
            innermost = not stack.frames
            if len(stack.frames) < MAX_FRAMES:
                stack.frames.append(message.strip())
            stack.main = stack.named_main or bool(_SPY_MAIN.match(message))
            if self._lines[key] > MAX_DUMP_LINES:
                self._close(key, sink)
            return not innermost
        if not message.strip() or (stack.frames and _SPY_DETAIL.match(message)):
            return True
        self._close(key, sink)
        return False

    def _gdb_line(self, key: str, message: str, stack: _Stack, sink: Sink) -> bool:
        """A line after gdb's `py-bt` headline: a frame (kept in faulthandler's form), the
        source statement indented under it, the C call or a note gdb prints, a blank line."""
        frame = _GDB_FRAME.match(message)
        if frame:
            innermost = not stack.frames
            if len(stack.frames) < MAX_FRAMES:
                stack.frames.append(
                    f'File "{frame.group("path")}", line {frame.group("line")} in {frame.group("func")}'
                )
            stack.main = frame.group("func") == "<module>"
            stack.lead = len(frame.group("lead"))
            if self._lines[key] > MAX_DUMP_LINES:
                self._close(key, sink)
            return not innermost
        if not message.strip() or _GDB_NOTE.match(message):
            return True
        if stack.frames and len(message) - len(message.lstrip()) > stack.lead:
            return True  # the source statement under the frame
        self._close(key, sink)
        return False

    def _close(self, key: str, sink: Sink) -> None:
        stack = self._open.pop(key, None)
        self._lines.pop(key, None)
        if stack is not None and stack.frames:
            sink.add_fact(
                FACT,
                {
                    "line": stack.line,
                    "rank": stack.rank,
                    "frames": stack.frames,
                    "main": stack.main,
                    "timer": stack.timer,
                    **({"worker": stack.worker} if stack.worker else {}),
                },
            )

    def finish(self, sink: Sink) -> None:
        """Record the stacks still open when the file ended (the process was killed)."""
        self.open_at_end = any(stack is not None for stack in self._open.values())
        for key in list(self._open):
            self._close(key, sink)
