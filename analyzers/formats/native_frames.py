"""A log that holds no error line and ends in a native call stack printed at error level.

Some writers log the frames of the failure they caught at ERROR level, one
`backtrace_symbols()` frame a line (`/usr/lib64/libhcomm.so(HcclCommInitRootInfoConfig+0x1b4)
[0x7f...]`), under the line that says what failed (HCCL's plog does). A frame names code, never
a failure, so such lines are no events (`frame_lines` in knowledge/prefilter.yaml). A paste or
a stored excerpt can keep the frames and lose the line above them: the file then ends on frames
and nothing else says what failed. The process did not hang there, it reported an error; the
first frame printed, the innermost, is read in the lost line's place, as a traceback cut before
its exception is read at its deepest frame (formats.cut_traceback). A last line cut inside the
prefix the frames share holds no message and is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from analyzers.formats.base import ParsedLine
from analyzers.formats.cut_traceback import cut_in_prefix
from analyzers.formats.severity import ERROR_LEVELS, Prefilter

SOURCE = "native_frames_cut"
MIN_FRAMES = 2  # one frame alone is too little to call it a printed stack


def cut_native_frames(
    tail: Sequence[tuple[int, ParsedLine]], prefilter: Prefilter
) -> tuple[int, ParsedLine, str] | None:
    """(line number, frame line, frame text) of the frame to read when `tail` is made only of
    native frames written at error level, else None.

    The tail is read from its end and the reading stops at the first line that is no frame:
    a log's tail is mostly lines of another kind, so a tail that parses its lines as they are
    asked for (every plog's, at its end) parses one or two of them instead of all."""
    pattern = prefilter.frame_lines
    if pattern is None:
        return None
    filled = (item for item in reversed(tail) if item[1].message.strip())
    last, before = next(filled, None), next(filled, None)
    if last is None:
        return None
    cut = before is not None and cut_in_prefix(last[1], before[1])
    frames, first = 0, last
    for item in chain(() if cut else (last,), () if before is None else (before,), filled):
        if item[1].level not in ERROR_LEVELS or not pattern.match(item[1].message):
            return None
        frames, first = frames + 1, item
    if frames < MIN_FRAMES:
        return None
    lineno, frame = first
    return lineno, frame, frame.message.strip()
