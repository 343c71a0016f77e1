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

An exception's message may go on over deeper-indented lines, which are joined to it. When the
exception's own line stops at `Type:` (torch's pipelining prints `RuntimeError:` and its
reason on the lines below), the citation carries those lines too, since the line alone names
no failure. A native check that throws the runtime's message with the source place of the
failed call appended on a line of its own (SGLang's kernel library: `RuntimeError: invalid
argument` over `/sgl-kernel/csrc/allreduce/custom_all_reduce.cuh:350`) prints that place
unindented; a bare `path.cuh:N` line right under the exception is joined to its message too,
since the place is what says whose call failed. A line that ends in the CANN error manager's
`[FUNC:..][FILE:..][LINE:..]` tag is not part of it even when indented (a pasted excerpt can put a device block line right under
a torch_npu `RuntimeError`), so it stays its own line and is read, and cited, for what it says.
torch prints NCCL's error detail with a blank at its end (`ncclSystemError: ... device error. `)
and NCCL's `Last error:` header on the next line: that blank is torch's, not a paste that cut
the text, so the header is not joined to the line above and stays NCCL's own (see
formats.indented).

Python writes an exception's last line in pieces too: the type, then `: ` and the message.
Two ranks that share one console and fail at the same moment can leave one rank's type with the
other rank's next frame line glued after it (`RuntimeError  File ".../base_model.py", line 144,
in forward`) and the `: <message>` alone on the line below. The glued line is the type and a
frame, no failure of its own; the message line is read as `<Type>: <message>` at its own line,
so the knowledge sees the sentence with the type it was cut from. A type whose message never
follows within a few lines is read as the line it is. Counterexample: a line that opens with
`: ` and has no such type above it (a settings dump) is no exception, and a frame whose
function is named like an error (`in ReportError`) parts nothing.

A bare `AssertionError` carries no text: what failed is the `assert` statement Python printed
as the frame's source line just above it. Its message is read with that statement
(`AssertionError (assert isinstance(device, torch.device))`), so the knowledge can tell a type
check from a shape comparison; any other bare exception keeps its one word, unless Python's
own machinery raised it (below).

A wrapper that re-raises an exception caught in another process prints its own exception
first and the caught one's traceback after it, under `Original Traceback (most recent call
last):` (torch's DataLoader: `ValueError: Caught ValueError in DataLoader worker process 0.`).
The original is the chain's root there although it comes second: the wrapper's record is
`chained` with the original as its `root_line`, as a re-raise is. torch.multiprocessing.spawn's
join does the same for a child that raised: an empty `ProcessRaisedException:`, then
`-- Process 5 terminated with the following error:` and the child's own traceback. The number
is the child's spawn index (its local rank), so the child's exception is that rank's.
A job scheduler's client reports a failed task the same way: submitit's `FailedJobError: Job
(task=2) failed during processing with trace:`, a dashed rule, then the task's own traceback.
The task number is the task's global rank, so the traceback under it is that rank's and the
client's exception only re-raises it.

When the innermost frame is the job's own code called back by a library (a `__getstate__`
the pickler of an object collective ran, a collate function a DataLoader called), the record
also keeps, as `caller`, the text of the last installed-package frame above it: the frame the
library handed control from, which says what the job's code was doing for it. It keeps as
`inner_packages` the innermost installed-package frames (at most six, innermost last): the
library layers under the job's call, such as a model hub's client above the HTTP library whose
dropped connection it raised. An exception seen without its header (a paste that starts in the
middle of a traceback) takes them from the run of frame and source lines right above it.

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

A statement typed at Python's interactive prompt runs as code with no file behind it: its
frame reads `File "<stdin>", line 1, in <module>` (`"<console>"` under `code.interact`). The
record says `interactive` when a frame of the traceback is such a frame: the prompt printed
the exception and waited for the next statement, so the session did not end there.

An exception nobody caught in a thread other than the main one is printed by threading's hook
under a line naming the thread (`Exception in thread prefetch:`, then the traceback). That line
only carries the exception below it (recorded as a re-raise of it, as the wrappers above), and
the exception's record says `thread`: it ended that thread, not the process, so the rank's
later progress lines are its main thread's.

An exception Python could not raise anywhere (one in a destructor `__del__`, a weakref or
atexit callback, a finaliser run by the garbage collector) is printed by the interpreter's
unraisable hook under a line naming the object (`Exception ignored in: <function
Remote.__del__ at 0x...>`; newer releases say `Exception ignored while calling deallocator
<...>:` or `... in atexit callback ...`), then the traceback. The exception's record says
`ignored`: Python printed it and carried on, so it stopped nothing. Such tracebacks follow a
failure as objects are torn down, often a cleanup tripping over the state the failure left.

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

import keyword
from dataclasses import dataclass, field, replace

from analyzers.core import regex_programs
from analyzers.core.types import Event, EventKind
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.severity import SOURCE_THEN_EXCEPTION
from analyzers.formats.sink import Sink

SOURCE = "traceback"
FRAME_SOURCE = "traceback_frame"

# torch's distributed checkpoint quotes each failed rank's traceback inside the one
# `CheckpointException ranks:dict_keys([...])` every rank raises, its header ending `(RANK n)`:
# the exception under that header is rank n's, whichever rank's log quotes it
_HEADER = regex_programs.compile(
    r"\s*Traceback \(most recent call last\):(?:\s*\(RANK (?P<rank>\d+)\))?\s*$"
)
# the caught exception's traceback that a re-raising wrapper prints under its own exception
_ORIGINAL = regex_programs.compile(r"\s*Original Traceback \(most recent call last\):\s*$")
# torch's wrapper sentence at the end of a job's own record of the error it caught (`ERROR
# model run failed: Caught MemoryError in DataLoader worker process 1.`): the record stands
# where the wrapper's exception line would, above the `Original Traceback` it carries
_LOGGED_WRAPPER = regex_programs.compile(
    r"\bCaught [\w.]+ in (?:DataLoader worker process \d+|pin memory thread for device \d+)\.\s*$"
)
# torch.multiprocessing.spawn's join, above the traceback of the child that raised
_SPAWN_CHILD = regex_programs.compile(
    r"\s*-- Process (?P<index>\d+) terminated with the following error:\s*$"
)
# a scheduler client's exception that carries a task's traceback below it (submitit)
_TASK_WRAPPER = regex_programs.compile(
    r"\bJob \(task=(?P<index>\d+)\) failed during processing with trace:"
)
# threading's excepthook, above the traceback of a thread that died of an uncaught exception
_THREAD = regex_programs.compile(r"\s*Exception in thread (?P<name>.{1,120}?):\s*$")
# the interpreter's unraisable hook, above the traceback of an exception it could only print
# (a destructor, a weakref or atexit callback, a finaliser)
_IGNORED = regex_programs.compile(r"\s*Exception ignored (?:in|on|while)\b.{1,240}$")
# rich's boxed traceback: its top edge, and the rows and bottom edge of the box
_BOX_HEADER = regex_programs.compile(r"\s*╭─+ Traceback \(most recent call last\) ─+╮\s*$")
_BOX_ROW = regex_programs.compile(r"\s*[│╰]")
_FRAME = regex_programs.compile(r'\s*File "[^"]+", line \d+')
# a frame a narrow terminal wrapped after its path: the path line, then `line N, in f` alone
WRAPPED_HEAD = regex_programs.compile(r'\s*File "[^"]+",\s*$')
WRAPPED_TAIL = regex_programs.compile(r"\s*line \d+, in \S")
_FRAME_PATH = regex_programs.compile(r'\s*File "(?P<path>[^"]+)"')
# Python's own modules: a lib/pythonX.Y directory that is not a package directory, or frozen
_STDLIB_PATH = regex_programs.compile(
    r"[/\\]lib[/\\]python3(?:\.\d+)?[/\\](?!(?:site|dist)-packages)|^<frozen "
)
# an installed package's directory
_PACKAGE_PATH = regex_programs.compile(r"[/\\](?:site|dist)-packages[/\\]")
# code with no file behind it: `<string>`, `<stdin>`, `<frozen ...>`
_GENERATED_PATH = regex_programs.compile(r"^<[^>]*>$")
# a comprehension's or generator expression's own frame (`in <listcomp>`, before Python 3.12
# inlined them): code that runs inside the function that wrote it, at that function's place
_COMPREHENSION_FRAME = regex_programs.compile(r",? in <(?:listcomp|dictcomp|setcomp|genexpr)>\s*$")
# a statement typed at the interactive prompt (python's own, or `code.interact`)
_INTERACTIVE_FRAME = regex_programs.compile(r'\s*File "<(?:stdin|console)>", line \d+')
_CHAIN = regex_programs.compile(
    r"\s*(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):\s*$"
)
_EXCEPTION = regex_programs.compile(
    r"(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?:\s(?P<text>.*))?)?\s*$"
)
_EXCEPTION_NAME = regex_programs.compile(
    r"(?:Error|Exception|Interrupt|Exit|Warning|Failure|Fault|Unsupported|StopIteration)$"
)
# the CANN error manager's trace line (`... [FUNC:X][FILE:y.cc][LINE:12]`): its own writer's
# line, never the text of a Python exception printed above it
_CANN_TRACE = regex_programs.compile(r"\[FUNC:[^\]]*\]\[FILE:[^\]]*\]\[LINE:\d+\]\s*$")
# a C/C++ compiler's own diagnostic (`<file>:24:10: fatal error: 'cstdint' file not found`)
# that a compile step's exception quotes inside its message, under the include chain
_COMPILER_DIAGNOSTIC = regex_programs.compile(
    r"\s*/?(?:[\w.+-]+/)*[\w.+-]+:\d+:\d+: (?:fatal error|error):"
)
_BARE_ASSERTION = regex_programs.compile(r"(?:[A-Za-z_]\w*\.)*AssertionError\s*$")
# the source line Python prints indented under the frame; a paste that lost its line breaks
# (formats.flattened) lost the indent too, so the statement may open its piece
_ASSERT_STATEMENT = regex_programs.compile(r"\s*(?P<statement>assert\b.*?)\s*$")
_CARETS = regex_programs.compile(r"\s*[\^~]+\s*$")
# the source place a native check appends under the message it throws (`.../x.cuh:350`)
_NATIVE_PLACE = regex_programs.compile(
    r"\s*/?(?:[\w.+-]+/)*[\w.+-]+\.(?:cuh|cu|cc|cpp|cxx|c|hpp|h):\d+\s*$"
)
# an exception type with another writer's frame line glued after it; its `: message` follows
_PARTED_TYPE = regex_programs.compile(
    r'\s*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt))[ \t]+File "[^"]+", line \d+'
)
_PARTED_MESSAGE = regex_programs.compile(r":[ \t]+(?P<text>\S.*?)\s*$")
_PARTED_WINDOW = 4  # lines after the parted type within which its message is looked for
# NCCL's header for the reason it repeats below an exception: a structure of its own
# (formats.indented reads the next line as the reason), never the rest of a cut line
_NCCL_REASON_HEADER = "Last error:"
# a line that is a message of its own, whatever ended the line above: the C++ runtime's
# `terminate called ...`, Python's `Exception ignored in ...` and a shell's report of the
# process's end. Some messages end in a blank as printed (torch's report of a data loader
# worker killed by a signal leaves one after its full stop), so a blank end alone does not
# make the next line the rest of the message
_OWN_MESSAGE = regex_programs.compile(
    r"\s*(?:terminate called (?:after|without|recursively)\b|Exception ignored (?:in|on|while)\b"
    r"|(?:Aborted|Segmentation fault|Bus error|Killed)(?: \(core dumped\))?\s*$)"
)
_MAX_OPEN_LINES = 400  # a traceback that never ends is given up
_MAX_MORE = 12  # continuation lines joined into one exception message
# installed-package frames kept nearest the exception: the library layers under the job's call
# (a hub client, then the HTTP library it called), read by rules that hold only where a line
# was raised (`raised_in`)
_INNER_PACKAGE_FRAMES = 6


@dataclass(slots=True)
class _Open:
    start: int
    frame: tuple[int, ParsedLine] | None = None
    root_line: int | None = None  # set when this traceback continues a chain
    indent: int = 0  # leading blanks of the header: a quoted traceback is indented as a whole
    wrapper: int | None = None  # the re-raising exception this `Original Traceback` explains
    child: int | None = None  # the spawned child (its local rank) whose traceback this is
    thread: int | None = None  # the `Exception in thread X:` line printed above the header
    ignored: bool = False  # the unraisable hook's `Exception ignored in: ...` line is above it
    package: ParsedLine | None = None  # the latest frame in an installed package so far
    # the innermost installed-package frames so far (the library layers that made the call)
    packages: list[str] = field(default_factory=list)
    caller: ParsedLine | None = None  # the package frame that called the kept (user) frame
    box: bool = False  # rich's boxed traceback: rows until the bottom edge, then the exception
    interactive: bool = False  # a frame is a statement typed at the interactive prompt
    warned: bool = False  # the header stands right under its writer's WARNING record
    head: tuple[int, ParsedLine] | None = None  # a frame's path line the paste wrapped
    innermost: str | None = None  # the last frame printed: where the exception was raised
    statement: str | None = None  # the source statement printed under the kept frame
    awaiting: bool = False  # the kept frame's statement has not been read yet


@dataclass(slots=True)
class _Message:
    """An exception whose text goes on over the next lines (`Error(s) in loading state_dict
    for Model:` / `\tMissing key(s) in state_dict: ...`)."""

    event: Event
    line: ParsedLine
    count: int = 0
    indent: int = 0  # leading blanks of the exception line; continuations are deeper
    bare: bool = False  # the exception's own line ends at `Type:`; its text is all below
    wrapped: bool = False  # printed under a rich box: the console cut it at the same indent
    soft: bool = False  # the last line read ended in a blank: the text was cut at a space


class TracebackTracker:
    def __init__(self) -> None:
        self._open: dict[str, _Open] = {}
        self._continued: dict[str, _Message] = {}
        self._chain_root: dict[str, int] = {}  # writer -> root exception line of its chain
        self._last_root: dict[str, int] = {}
        self._last_exception: dict[str, int] = {}  # writer -> line of its latest exception
        self._task_wrapper: dict[str, tuple[int, int]] = {}  # writer -> (wrapper line, task)
        self._thread: dict[str, int] = {}  # writer -> line of its latest thread-death header
        self._ignored: dict[str, int] = {}  # writer -> line of its latest unraisable header
        # writer -> (line, parsed line, type) of an exception type whose message was pushed
        # below another writer's frame line
        self._parted: dict[str, tuple[int, ParsedLine, str]] = {}

    def wants_more(self) -> bool:
        return bool(self._open or self._continued or self._parted)

    def close_all(self, sink: Sink) -> None:
        """End of file: a parted type whose message never came is read as its own line."""
        for key in list(self._parted):
            self._flush_parted(key, sink)

    def _flush_parted(self, key: str, sink: Sink) -> None:
        lineno, line, _ = self._parted.pop(key)
        sink.emit(lineno, line, EventKind.ERROR)

    def _parted_piece(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """A parted exception type, or the `: message` that completes one (True: consumed)."""
        key, message = line.stream_key, line.message
        pending = self._parted.get(key)
        if pending is not None:
            found = _PARTED_MESSAGE.match(message)
            if found is not None:
                del self._parted[key]
                joined = replace(line, message=f"{pending[2]}: {found['text']}")
                self._open.pop(key, None)
                self._exception(lineno, joined, _Open(lineno), sink)
                # the lines below belong to whichever writer comes next, not to this message
                self._continued.pop(key, None)
                return True
            if lineno - pending[0] > _PARTED_WINDOW:
                self._flush_parted(key, sink)
        parted = _PARTED_TYPE.match(message)
        if parted is None:
            return False
        if key in self._parted:
            self._flush_parted(key, sink)
        self._parted[key] = (lineno, line, parted["type"])
        return True

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        """True when the line belongs to a traceback (the caller then emits nothing else)."""
        key, message = line.stream_key, line.message
        if key in self._continued and self._continues(line):
            return True
        if self._parted_piece(lineno, line, sink):
            return True
        state = self._open.get(key)
        header = _HEADER.match(message)
        if header is None and _BOX_HEADER.match(message):
            root = self._chain_root.pop(key, None)
            self._open[key] = _Open(lineno, root_line=root, indent=_lead(message), box=True)
            return True
        if header:
            root = self._chain_root.pop(key, None)
            opened = _Open(lineno, root_line=root, indent=_lead(message))
            if header["rank"] is not None:
                opened.child = int(header["rank"])
            if state is not None and state.child is not None and state.frame is None:
                opened.wrapper, opened.child = state.wrapper, state.child
            task = self._task_wrapper.pop(key, None)
            if task is not None and lineno - task[0] <= _MAX_MORE + 1:
                opened.wrapper, opened.child = task
            thread = self._thread.pop(key, None)
            if thread is not None and lineno - thread == 1:
                opened.thread = thread
            ignored = self._ignored.pop(key, None)
            opened.ignored = ignored is not None and lineno - ignored == 1
            opened.warned = _under_warning(lineno, key, sink)
            self._open[key] = opened
            return True
        if state is None and _THREAD.match(message):
            self._thread[key] = lineno
            return False
        if state is None and _IGNORED.match(message):
            self._ignored[key] = lineno
            return False
        if state is not None:
            return self._inside(lineno, line, state, sink)
        if "Caught " in message and _LOGGED_WRAPPER.search(message):
            self._last_exception[key] = lineno
        if _ORIGINAL.match(message):
            wrapper = self._last_exception.get(key)
            if wrapper is not None and lineno - wrapper <= _MAX_MORE + 1:
                self._open[key] = _Open(lineno, indent=_lead(message), wrapper=wrapper)
                return True
        child = _SPAWN_CHILD.match(message)
        if child:
            wrapper = self._last_exception.get(key)
            if wrapper is not None and lineno - wrapper <= _MAX_MORE + 1:
                self._open[key] = _Open(
                    lineno, indent=_lead(message), wrapper=wrapper, child=int(child["index"])
                )
                return True
        if _CHAIN.match(message) and key in self._last_root:
            self._chain_root[key] = self._last_root[key]
            return True
        found = _EXCEPTION.match(message)
        if found and _EXCEPTION_NAME.search(found.group("type")) and not _leveled_warning(line):
            frame = _frame_before(lineno, sink)
            opened = _Open(lineno, frame, self._chain_root.pop(key, None))
            opened.packages = _package_frames_before(lineno, sink)
            opened.interactive = frame is not None and bool(
                _INTERACTIVE_FRAME.match(frame[1].message)
            )
            self._exception(lineno, line, opened, sink)
            return True
        return False

    def _inside(self, lineno: int, line: ParsedLine, state: _Open, sink: Sink) -> bool:
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
        if _FRAME.match(message):
            if _INTERACTIVE_FRAME.match(message):
                state.interactive = True
            kept = state.frame
            state.innermost, state.awaiting = message, False
            if (
                kept is None
                or not is_machinery_frame(message)
                or is_machinery_frame(kept[1].message)
            ):
                state.frame = (lineno, line)
                state.caller = None if is_package_frame(message) else state.package
                state.statement, state.awaiting = None, True
            if is_package_frame(message):
                state.package = line
                state.packages = [*state.packages[1 - _INNER_PACKAGE_FRAMES :], message.strip()]
            return True
        if not message.strip() or _is_source(message, state):
            if state.awaiting and message.strip() and not _CARETS.fullmatch(message):
                state.statement, state.awaiting = message.strip(), False
            return True  # source line, ^^^^ markers, blank separator
        if _ends_traceback(message.lstrip()):
            self._exception(lineno, line, state, sink)
            return True
        if lineno - state.start > _MAX_OPEN_LINES:
            self._open.pop(line.stream_key, None)
        return False

    def _exception(self, lineno: int, line: ParsedLine, state: _Open, sink: Sink) -> None:
        key = line.stream_key
        self._open.pop(key, None)
        root = state.root_line if state.root_line is not None else lineno
        self._last_root[key] = root
        self._last_exception[key] = lineno
        message = line.message.strip()
        task = _TASK_WRAPPER.search(message)
        if task:
            self._task_wrapper[key] = (lineno, int(task["index"]))
        place = None
        if _BARE_ASSERTION.match(message):
            statement = _failed_assertion(lineno, sink)
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
        self._continued[key] = _Message(
            event,
            line,
            indent=_lead(line.message),
            bare=_stops_at_type(message),
            wrapped=state.box,
            soft=_cut_at_blank(line),
        )
        if state.frame is not None:
            frame_no, frame = state.frame
            sink.emit(
                frame_no,
                frame,
                EventKind.WARNING,
                source=FRAME_SOURCE,
                message=frame.message.strip(),
            )
        found = _EXCEPTION.match(line.message.lstrip())
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
                "statement": _raising_statement(lineno, sink) if state.frame else None,
                "header": state.start if state.start < lineno else None,
                "interactive": state.interactive,
                "warned": state.warned,
            },
        )
        if state.thread is not None:  # threading's hook named the thread this exception ended
            sink.add_fact(
                "tracebacks",
                {
                    "line": state.thread,
                    "type": "re-raise",
                    "frame_line": None,
                    "chained": True,
                    "root_line": lineno,
                    "rank": event.rank,
                },
            )
        if state.wrapper is not None:  # the wrapper printed above re-raised this exception
            sink.add_fact(
                "tracebacks",
                {
                    "line": state.wrapper,
                    "type": "re-raise",
                    "frame_line": None,
                    "chained": True,
                    "root_line": lineno,
                    "rank": event.rank,
                },
            )

    def _continues(self, line: ParsedLine) -> bool:
        """Append a continuation line to the exception's message; False ends the message."""
        state = self._continued[line.stream_key]
        message = line.message
        same_writer = (line.source, line.level) == (state.line.source, state.line.level)
        lead = _lead(message)
        opened = (
            state.event.message.endswith(":")
            or lead > state.indent
            or (state.wrapped and lead == state.indent)
            or (state.count == 0 and _NATIVE_PLACE.match(message) is not None)
            or (
                state.soft
                and lead == state.indent
                and not _ends_traceback(message.strip())
                and message.strip() != _NCCL_REASON_HEADER
                and _OWN_MESSAGE.match(message) is None
            )
        )
        ordinary = not (
            _HEADER.match(message)
            or _CHAIN.match(message)
            or _FRAME.match(message)
            or _CANN_TRACE.search(message)
        )
        if same_writer and opened and message.strip() and ordinary and state.count < _MAX_MORE:
            # a headline that ends at its colon (`Error(s) in loading state_dict for Model:`)
            # says only that something failed: its first line below says what, so the cited
            # line carries it too
            headline_only = state.count == 0 and state.event.message.endswith(":")
            state.event.message += " " + message.strip()
            if state.bare or headline_only or state.wrapped or state.soft:
                # the cited line alone would say only `RuntimeError:`, or what fitted the
                # console's width; what failed is below
                cited = state.event.text.strip() if state.wrapped else state.event.text.rstrip()
                state.event.text = f"{cited} {message.strip()}"
            elif _COMPILER_DIAGNOSTIC.match(message):
                # a compile step's exception quoting the compiler's log: the include chain
                # above says where, this line says why, so the cited line carries it
                state.event.text = f"{state.event.text.rstrip()} {message.strip()}"
            state.count += 1
            state.soft = _cut_at_blank(line)
            return True
        del self._continued[line.stream_key]
        return False


def _raised_in_machinery(message: str, state: _Open) -> str | None:
    """The kept frame and its statement, when `message` is a bare exception (its class alone)
    that Python's own machinery raised under that frame: the place that says what closed."""
    found = _EXCEPTION.match(message)
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


def _cut_at_blank(line: ParsedLine) -> bool:
    """The line ends in a blank, as no message a program prints does: a paste broke the text
    there (an editor or a markdown span wrapping a long message at its spaces), so the line
    below at the same depth carries the rest of it (`Fail to open library: ` / `<path> ` /
    `with error: <lib>: ` / `undefined symbol: <name>`). A run of blanks is a terminal's
    padding of a short row up to its width, whatever the row held: the row is whole."""
    return line.text.endswith((" ", "\t")) and not _padded(line.text) and bool(line.message.strip())


def _padded(text: str) -> bool:
    return text.endswith(("  ", "\t\t", " \t", "\t "))


def _stops_at_type(message: str) -> bool:
    """`RuntimeError:` with nothing after the colon: the exception's text is on the next lines."""
    found = _EXCEPTION.match(message)
    return bool(found) and message.endswith(":") and not (found.group("text") or "").strip()


def _ends_traceback(message: str) -> bool:
    """An exception line: `Type: text`, or a bare class name. A bare lower-case word is the
    tail of a frame line a terminal wrapped (`...in finish_grad` / `sync`), not a class. A
    Python keyword is never a class: `lambda: run_node(...)` or `else: ...` is a frame's source
    line in a paste that lost the traceback's indentation (every line at one depth after a
    `[rank0]: ` prefix), not the exception that ends it."""
    found = _EXCEPTION.match(message)
    if not found:
        return False
    name = found.group("type").rsplit(".", 1)[-1]
    if keyword.iskeyword(found.group("type").split(".", 1)[0]):
        return False
    return ":" in message or not name[0].islower() or bool(_EXCEPTION_NAME.search(name))


def _is_source(message: str, state: _Open) -> bool:
    """A line deeper than the header is source code or a ^^^^ marker - unless frames showed
    their depth and the line is no deeper than them and names an exception: a paste that lost
    the header's indent (`Traceback` at column 0, frames at 3, ` OSError: ...` at 1) still
    ends at its exception line, since source lines always sit below their frame."""
    lead = _lead(message)
    if lead <= state.indent or SOURCE_THEN_EXCEPTION.search(message):
        return False
    if state.frame is None or lead > _lead(state.frame[1].message):
        return True
    found = _EXCEPTION.match(message.lstrip())
    return not (found and _EXCEPTION_NAME.search(found.group("type")))


def is_machinery_frame(message: str) -> bool:
    """A frame in the standard library or in generated code: where a call ended up, not which
    layer made it. The frame kept for an exception is the deepest one that is not machinery
    (`multiprocessing`'s `_recv` says nothing; the compiler worker that read its queue does).
    A comprehension's own frame is the function that wrote it, one frame up, and counts the
    same way: that function names the place."""
    found = _FRAME_PATH.match(message)
    return found is not None and (
        is_stdlib_path(found.group("path"))
        or is_generated_path(found.group("path"))
        or _COMPREHENSION_FRAME.search(message) is not None
    )


def is_package_frame(message: str) -> bool:
    """A frame in an installed package (`site-packages`, `dist-packages`): a library's code,
    as opposed to the job's own script or the standard library."""
    found = _FRAME_PATH.match(message)
    return found is not None and _PACKAGE_PATH.search(found.group("path")) is not None


def is_stdlib_path(path: str) -> bool:
    """A frame's file in Python's own library: machinery a package called."""
    return _STDLIB_PATH.search(path) is not None


def is_generated_path(path: str) -> bool:
    """A frame's `file` that is none (`<string>`): code generated at run time, no source."""
    return _GENERATED_PATH.match(path) is not None


def _lead(message: str) -> int:
    """Leading blanks of a line (a tab counts as one): the traceback's own indentation."""
    return len(message) - len(message.lstrip(" \t"))


def _leveled_warning(line: ParsedLine) -> bool:
    """A line its writer stamped WARNING or quieter (`[W106 ...] Warning: Driver Version ...`,
    torch's C++ TORCH_WARN) is that writer's own message, not the last line of a Python
    traceback printed to stderr: outside a traceback it stays a warning for `classify`."""
    return line.level == "WARNING" or line.level in QUIET_LEVELS


def _under_warning(lineno: int, key: str, sink: Sink) -> bool:
    """Whether the line above a traceback header is a WARNING record of the same writer:
    `logger.warning("...", exc_info=True)` prints the record, then the traceback of an
    exception the program caught and logged (`Global metadata is not found. Falling back
    to rank local metadata.`)."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    above = sink.lookback(lineno, 1)
    if not above:
        return False
    parsed = parse_line(above[-1][1])
    return parsed.level == "WARNING" and parsed.stream_key == key


def _frame_before(lineno: int, sink: Sink) -> tuple[int, ParsedLine] | None:
    """The nearest `File "...", line N` above an exception seen without its header, or, when
    that one is machinery, the nearest above it that is not (as a traceback with its header
    keeps the deepest frame outside the machinery)."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    nearest = None
    for number, text in reversed(sink.lookback(lineno, 6)):
        if 'File "' not in text:  # a full parse costs more than the test; most lines fail it
            continue
        parsed = parse_line(text)
        if not _FRAME.match(parsed.message):
            continue
        if not is_machinery_frame(parsed.message):
            return number, parsed
        nearest = nearest or (number, parsed)
    return nearest


def _package_frames_before(lineno: int, sink: Sink) -> list[str]:
    """The installed-package frames of the frame block right above an exception seen without
    its header (innermost last, at most six), as a traceback with its header keeps them: a
    paste that starts in the middle of a traceback still shows which library raised. The block
    is the run of frame, source and blank lines above the exception; any other line (a log
    record, another exception) ends it."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    found: list[str] = []
    for _number, text in reversed(sink.lookback(lineno, 4 * _INNER_PACKAGE_FRAMES)):
        message = parse_line(text).message
        if _FRAME.match(message):
            if is_package_frame(message):
                found.append(message.strip())
        elif message.strip() and not message[:1].isspace():
            break
    return found[:_INNER_PACKAGE_FRAMES][::-1]


def _raising_statement(lineno: int, sink: Sink) -> str | None:
    """The source line Python printed under the innermost frame, right above the exception
    (carets skipped): the statement that raised, such as `x = float(os.environ["X"])`."""
    above = _source_above(lineno, sink, 4)
    if len(above) < 2 or not _FRAME.match(above[-2]) or _FRAME.match(above[-1]):
        return None
    return above[-1].strip() or None


def _failed_assertion(lineno: int, sink: Sink) -> str | None:
    """The `assert` statement printed right above a bare AssertionError (carets skipped)."""
    above = _source_above(lineno, sink, 3)
    found = _ASSERT_STATEMENT.fullmatch(above[-1]) if above else None
    return found.group("statement") if found else None


def _source_above(lineno: int, sink: Sink, count: int) -> list[str]:
    """The messages of up to `count` lines above `lineno`, the caret lines Python prints under
    a source line dropped from the end."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    above = [parse_line(text).message for _, text in sink.lookback(lineno, count)]
    while above and _CARETS.fullmatch(above[-1]):
        above.pop()
    return above
