"""A log that holds no error line and ends inside a Python traceback.

A paste can stop in the middle of a traceback: the reporter showed the rest in a screenshot,
or a log store kept only the first part. The log then ends on `File "...", line N, in f`
frames and their source lines, with no exception line under them. The process did not hang
there; it raised, and the frames say where. After the scan, only for a file that produced no
error event, its last lines are read once (like `formats.refusal`): when they are traceback
frames up to the end of the file, the deepest frame outside Python's own standard library is
the job's error, cited with its source statement. The standard library's frames (`subprocess`,
`importlib`, `runpy`) are the machinery a package called, not what the job was doing: in
`_load_cudnn` -> `subprocess.check_output` -> `run`, the loader is the place to read.

A stack printed on purpose while a job hangs is not a cut traceback: faulthandler's dumps
(`File "x.py", line 12 in wait`, no comma) do not match a traceback frame, and a tail that
names threads or says `most recent call first` is left alone.

Pastes change the shape, not the frames: a paste can double every line's spacing, and a
narrow terminal can wrap a long frame after its path (`File "/.../route.py",` then
`line 268, in task_distribute` on the next line). Blank lines are skipped and a wrapped
frame is read as one. A frame with no file behind it (`File "<string>", line 2, in get`,
code a library generated at run time, such as the proxy methods of `multiprocessing`'s
managers) prints no source statement and is machinery like the standard library's: the
deepest frame with a file is read, and such a frame only when the tail holds no other.

A remote call's failure can head the traceback it quotes: Ray prints an actor whose
constructor raised as `Exception raised in creation task: The actor died because of an error
raised in its creation task, ray::X.__init__() (...)`, then the worker's frames and its
exception line. That header names no exception type, so in a paste cut inside those frames it
only echoes the exception that was cut off: when every error line of the file is such a header
directly above the cut frames, the deepest frame is read in its place (`headed_by`). A failed
task's or method's header (`RayTaskError(OutOfMemoryError): ray::X.f() (...)`) names the
exception's type, which says what failed more than a frame does, and keeps its own reading.
vLLM's engine and worker processes head the traceback they log the same way, with a sentence
that names no type (`EngineCore encountered a fatal error.`, `EngineCore failed to start.`,
`WorkerProc hit an exception.`, `WorkerProc failed to start.`) and Python's `Traceback (most
recent call last):` line under it; such a headline is read like Ray's. torch's distributed
checkpoint does the same for a save or a load that failed on some ranks: one `CheckpointException
ranks:dict_keys([0, 1, ...])` headline, then each failed rank's traceback under its own
`Traceback (most recent call last): (RANK n)` line. The headline only counts the ranks (the
signature reading it is a cascade: the quoted exceptions say why), so a paste cut inside a
quoted traceback has its deepest frame read in the headline's place too.

A paste cut by a character limit can stop inside the prefix its lines share: a last line that
is only the start of the previous line's writer tag, level and time (`(EngineCore_DP0 pid=7)
ERROR 11-25 12:06:16 [c`) carries no message, and the frames above it are still the tail. It
can also stop inside the next frame's path (`File "/usr/lib/python3.12/site`, no closing quote
and no line number): that line names no place yet, and the frames above it are the tail.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from analyzers.formats.base import ParsedLine
from analyzers.formats.traceback_frames import (
    WRAPPED_HEAD,
    WRAPPED_TAIL,
    is_generated_path,
    is_stdlib_path,
)

SOURCE = "traceback_cut"

# a traceback frame as Python prints it (the comma before `in` sets it apart from faulthandler)
_FRAME = re.compile(r'\s*File "(?P<path>[^"]+)", line \d+, in \S')
_STACK_DUMP = re.compile(r"most recent call first|^\s*(?:Current )?[Tt]hread \w+")
_CARETS = re.compile(r"\s*[\^~]+\s*$")
# a frame the paste's character limit cut inside its path: `File "/usr/lib/python3.12/site`
_CUT_FRAME = re.compile(r'\s*File "[^"]*')
# a header printed above the traceback it announces, naming no type: a remote call's failure
# (Ray's creation task), or vLLM's engine or worker headline logged with the exception
_HEADER = re.compile(
    r"The actor died because of an error raised in its creation task"
    r"|^\s*(?:EngineCore encountered a fatal error|EngineCore failed to start"
    r"|WorkerProc hit an exception|WorkerProc failed to start)\.\s*$"
    r"|\bCheckpointException ranks:\s*(?:dict_keys\()?[\[{]"
)
# Python's header, or the distributed checkpoint's quoted one that names the failed rank
_TRACEBACK_HEAD = re.compile(r"\s*Traceback \(most recent call last\):(?:\s*\(RANK \d+\))?\s*$")
# how far above the cut frames a header may sit (the frames between are read once)
MAX_HEADED_LINES = 400


def cut_frame(tail: Sequence[tuple[int, ParsedLine]]) -> tuple[int, ParsedLine, str] | None:
    """(line number, frame line, frame with its source statement) of the frame to read when
    `tail` ends inside a traceback without its exception line, else None."""
    lines = _unwrapped([item for item in tail if item[1].message.strip()])
    if len(lines) > 1 and cut_in_prefix(lines[-1][1], lines[-2][1]):
        lines = lines[:-1]
    if len(lines) > 1 and _CUT_FRAME.fullmatch(lines[-1][1].message):
        lines = lines[:-1]
    if not lines or any(_STACK_DUMP.search(line.message) for _, line in lines):
        return None
    frames = [i for i, (_, line) in enumerate(lines) if _FRAME.match(line.message)]
    if not frames or not all(_source_of(lines, i) for i in range(frames[0], len(lines))):
        return None
    own = [i for i in frames if not is_stdlib_path(_path(lines[i][1]))]
    filed = [i for i in own if not is_generated_path(_path(lines[i][1]))]
    index = (filed or own or frames)[-1]
    lineno, frame = lines[index]
    statement = _statement(lines, index)
    cited = frame.message.strip() + (f" {statement}" if statement else "")
    return lineno, frame, cited


def is_header(message: str) -> bool:
    """The line heads the quoted traceback of a remote call's exception."""
    return bool(_HEADER.search(message))


def first_frame_line(tail: Sequence[tuple[int, ParsedLine]]) -> int | None:
    """Line number of the first frame of the traceback `tail` ends in (as `cut_frame` reads)."""
    for lineno, line in tail:
        if _FRAME.match(line.message) or WRAPPED_HEAD.fullmatch(line.message):
            return lineno
    return None


def headed_by(between: Sequence[ParsedLine]) -> bool:
    """The lines between a header and the cut tail's first frame are all traceback lines:
    frames, the source lines and markers indented under them, blank lines."""
    return all(
        not message.strip()
        or _FRAME.match(message)
        or _TRACEBACK_HEAD.match(message)
        or _CARETS.fullmatch(message)
        or message[:1] in " \t"
        for message in (line.message for line in between)
    )


def cut_in_prefix(last: ParsedLine, previous: ParsedLine) -> bool:
    """The paste's last line stops inside the prefix (writer tag, level, time) that the line
    before it carries ahead of its message: it holds no message of its own."""
    text = last.text.rstrip()
    if not text or not previous.text.endswith(previous.message):
        return False
    prefix = previous.text[: len(previous.text) - len(previous.message)].rstrip()
    return len(text) < len(prefix) and prefix.startswith(text)


def _unwrapped(lines: Sequence[tuple[int, ParsedLine]]) -> list[tuple[int, ParsedLine]]:
    """The lines with every frame the paste wrapped after its path joined into one line."""
    joined: list[tuple[int, ParsedLine]] = []
    for lineno, line in lines:
        if joined and WRAPPED_TAIL.match(line.message):
            head_no, head = joined[-1]
            if WRAPPED_HEAD.fullmatch(head.message):
                message = f"{head.message.rstrip()} {line.message.strip()}"
                joined[-1] = (head_no, replace(head, message=message))
                continue
        joined.append((lineno, line))
    return joined


def _source_of(lines: Sequence[tuple[int, ParsedLine]], index: int) -> bool:
    """The line belongs to the traceback: a frame, or a source line or ^^^^ marker under one."""
    message = lines[index][1].message
    if _FRAME.match(message) or _CARETS.fullmatch(message):
        return True
    frame = next(
        (lines[i][1] for i in range(index - 1, -1, -1) if _FRAME.match(lines[i][1].message)), None
    )
    return frame is not None and _lead(message) > _lead(frame.message)


def _statement(lines: Sequence[tuple[int, ParsedLine]], index: int) -> str:
    """The source statement printed under the frame at `index`, if the tail holds it."""
    if index + 1 < len(lines):
        message = lines[index + 1][1].message
        if not _FRAME.match(message) and not _CARETS.fullmatch(message):
            return message.strip()
    return ""


def _path(line: ParsedLine) -> str:
    found = _FRAME.match(line.message)
    return found.group("path") if found else ""


def _lead(message: str) -> int:
    return len(message) - len(message.lstrip(" \t"))
