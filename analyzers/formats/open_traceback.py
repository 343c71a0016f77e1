"""What the traceback reader knows of a traceback it is inside: where it opened, who carried
it, the frame it keeps and the statement under that frame.

    Traceback (most recent call last):
      File "/usr/lib/python3.10/multiprocessing/connection.py", line 383, in _recv
        raise EOFError
    EOFError

Each frame line moves the kept frame down, unless it is machinery (Python's own library,
generated code) and a frame outside the machinery is already kept: the place that says what
failed is the deepest frame of the job's or a package's own code. A source line is deeper than
its frame, so a line no deeper than the frames that names an exception ends the traceback even
when a paste lost the header's indent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzers.formats.base import ParsedLine
from analyzers.formats.severity import SOURCE_THEN_EXCEPTION
from analyzers.formats.traceback_frames import (
    INNER_PACKAGE_FRAMES,
    INTERACTIVE_FRAME,
    THREAD_BOOTSTRAP_FRAME,
    is_machinery_frame,
    is_package_frame,
)
from analyzers.formats.traceback_lines import EXCEPTION, EXCEPTION_NAME, lead


@dataclass(slots=True)
class OpenTraceback:
    start: int
    frame: tuple[int, ParsedLine] | None = None
    root_line: int | None = None  # set when this traceback continues a chain
    indent: int = 0  # leading blanks of the header: a quoted traceback is indented as a whole
    wrapper: int | None = None  # the re-raising exception this `Original Traceback` explains
    child: int | None = None  # the spawned child (its local rank) whose traceback this is
    # the `Exception in thread X:` line printed above the header (or the header itself when
    # only the first frame, threading's bootstrap, says the traceback is a thread's)
    thread: int | None = None
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


def read_frame(lineno: int, line: ParsedLine, state: OpenTraceback) -> None:
    """A frame line: the deepest frame outside Python's machinery is the one kept, with the
    package frame that called it and the innermost package frames seen so far."""
    message = line.message
    if INTERACTIVE_FRAME.match(message):
        state.interactive = True
    if (
        state.innermost is None
        and state.thread is None
        and "_bootstrap_inner" in message
        and THREAD_BOOTSTRAP_FRAME.match(message)
    ):
        state.thread = state.start  # the first frame is a thread's bootstrap: no header said so
    kept = state.frame
    state.innermost, state.awaiting = message, False
    if kept is None or not is_machinery_frame(message) or is_machinery_frame(kept[1].message):
        state.frame = (lineno, line)
        state.caller = None if is_package_frame(message) else state.package
        state.statement, state.awaiting = None, True
    if is_package_frame(message):
        state.package = line
        state.packages = [*state.packages[1 - INNER_PACKAGE_FRAMES :], message.strip()]


def is_source(message: str, state: OpenTraceback) -> bool:
    """A line deeper than the header is source code or a ^^^^ marker - unless frames showed
    their depth and the line is no deeper than them and names an exception: a paste that lost
    the header's indent (`Traceback` at column 0, frames at 3, ` OSError: ...` at 1) still
    ends at its exception line, since source lines always sit below their frame."""
    depth = lead(message)
    if depth <= state.indent or SOURCE_THEN_EXCEPTION.search(message):
        return False
    if state.frame is None or depth > lead(state.frame[1].message):
        return True
    found = EXCEPTION.match(message.lstrip())
    return not (found and EXCEPTION_NAME.search(found.group("type")))
