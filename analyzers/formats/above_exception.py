"""What Python printed right above an exception line, read back from the lines the sink
still holds: the frame and statement that raised, the installed-package frames over it, the
`assert` statement a bare AssertionError failed, and a WARNING record the traceback hangs from.

    File "/workspace/model.py", line 40, in forward
      assert isinstance(device, torch.device)
    AssertionError

A bare `AssertionError` carries no text: what failed is the statement Python printed as the
frame's source line just above it, so its message is read with that statement
(`AssertionError (assert isinstance(device, torch.device))`) and the knowledge can tell a type
check from a shape comparison. An exception seen without its header (a paste that starts in the
middle of a traceback) takes its frame and its package frames from the run of frame and source
lines right above it, as a traceback with its header keeps them.
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.base import ParsedLine
from analyzers.formats.sink import Sink
from analyzers.formats.traceback_frames import (
    FRAME,
    INNER_PACKAGE_FRAMES,
    is_machinery_frame,
    is_package_frame,
)
from analyzers.formats.traceback_lines import CARETS

BARE_ASSERTION = regex_programs.compile(r"(?:[A-Za-z_]\w*\.)*AssertionError\s*$")
# the source line Python prints indented under the frame; a paste that lost its line breaks
# (formats.flattened) lost the indent too, so the statement may open its piece
_ASSERT_STATEMENT = regex_programs.compile(r"\s*(?P<statement>assert\b.*?)\s*$")


def under_warning(lineno: int, key: str, sink: Sink) -> bool:
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


def frame_before(lineno: int, sink: Sink) -> tuple[int, ParsedLine] | None:
    """The nearest `File "...", line N` above an exception seen without its header, or, when
    that one is machinery, the nearest above it that is not (as a traceback with its header
    keeps the deepest frame outside the machinery)."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    nearest = None
    for number, text in reversed(sink.lookback(lineno, 6)):
        if 'File "' not in text:  # a full parse costs more than the test; most lines fail it
            continue
        parsed = parse_line(text)
        if not FRAME.match(parsed.message):
            continue
        if not is_machinery_frame(parsed.message):
            return number, parsed
        nearest = nearest or (number, parsed)
    return nearest


def package_frames_before(lineno: int, sink: Sink) -> list[str]:
    """The installed-package frames of the frame block right above an exception seen without
    its header (innermost last, at most six), as a traceback with its header keeps them: a
    paste that starts in the middle of a traceback still shows which library raised. The block
    is the run of frame, source and blank lines above the exception; any other line (a log
    record, another exception) ends it."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    found: list[str] = []
    for _number, text in reversed(sink.lookback(lineno, 4 * INNER_PACKAGE_FRAMES)):
        message = parse_line(text).message
        if FRAME.match(message):
            if is_package_frame(message):
                found.append(message.strip())
        elif message.strip() and not message[:1].isspace():
            break
    return found[:INNER_PACKAGE_FRAMES][::-1]


def raising_statement(lineno: int, sink: Sink) -> str | None:
    """The source line Python printed under the innermost frame, right above the exception
    (carets skipped): the statement that raised, such as `x = float(os.environ["X"])`."""
    above = _source_above(lineno, sink, 4)
    if len(above) < 2 or not FRAME.match(above[-2]) or FRAME.match(above[-1]):
        return None
    return above[-1].strip() or None


def failed_assertion(lineno: int, sink: Sink) -> str | None:
    """The `assert` statement printed right above a bare AssertionError (carets skipped)."""
    above = _source_above(lineno, sink, 3)
    found = _ASSERT_STATEMENT.fullmatch(above[-1]) if above else None
    return found.group("statement") if found else None


def _source_above(lineno: int, sink: Sink, count: int) -> list[str]:
    """The messages of up to `count` lines above `lineno`, the caret lines Python prints under
    a source line dropped from the end."""
    from analyzers.formats.lines import parse_line  # local: lines imports the header modules

    above = [parse_line(text).message for _, text in sink.lookback(lineno, count)]
    while above and CARETS.fullmatch(above[-1]):
        above.pop()
    return above
