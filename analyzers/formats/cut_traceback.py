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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.formats.base import ParsedLine

SOURCE = "traceback_cut"

# a traceback frame as Python prints it (the comma before `in` sets it apart from faulthandler)
_FRAME = re.compile(r'\s*File "(?P<path>[^"]+)", line \d+, in \S')
# Python's own modules: a lib/pythonX.Y directory that is not a package directory, or frozen
_STDLIB = re.compile(r"[/\\]lib[/\\]python3(?:\.\d+)?[/\\](?!(?:site|dist)-packages)|^<frozen ")
_STACK_DUMP = re.compile(r"most recent call first|^\s*(?:Current )?[Tt]hread \w+")
_CARETS = re.compile(r"\s*[\^~]+\s*$")


def cut_frame(tail: Sequence[tuple[int, ParsedLine]]) -> tuple[int, ParsedLine, str] | None:
    """(line number, frame line, frame with its source statement) of the frame to read when
    `tail` ends inside a traceback without its exception line, else None."""
    lines = list(tail)
    while lines and not lines[-1][1].message.strip():
        lines.pop()
    if not lines or any(_STACK_DUMP.search(line.message) for _, line in lines):
        return None
    frames = [i for i, (_, line) in enumerate(lines) if _FRAME.match(line.message)]
    if not frames or not all(_source_of(lines, i) for i in range(frames[0], len(lines))):
        return None
    own = [i for i in frames if not _STDLIB.search(_path(lines[i][1]))]
    index = (own or frames)[-1]
    lineno, frame = lines[index]
    statement = _statement(lines, index)
    cited = frame.message.strip() + (f" {statement}" if statement else "")
    return lineno, frame, cited


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
