"""Error blocks whose line breaks were lost when they were pasted.

Some reports arrive with a whole traceback and CANN block on one physical line, the original
line breaks turned into spaces (copied from a web page or a chat window):

    ... in kaiming_normal_ return tensor.normal_(0, std) RuntimeError: Run:.../OpParamMaker.cpp:
    128 NPU error,NPU error code is:100000 EZ9999: Inner Error, Please contact support
    engineer! EZ9999 Kernel task happen error, retCode=0x2a, [aicpu exception].[FUNC:...]
    [FILE:task.cc][LINE:1068] TraceBack (most recent call last): Aicpu kernel execute ...

Read as one line, the block's reason is buried in the middle of a frame list and the line is
cited whole. The places where the lines began still show: a Python frame (`File "x", line N,
in f`), an exception headline (`RuntimeError: `), an error-manager code (`EZ9999`), the
`TraceBack (most recent call last):` header, the end of a CANN trace line (`[LINE:n]`) and
the PTA summary (`[ERROR] 2026-01-02-03:04:05 (PID:`). A long line showing several of them, of
three kinds or more and at least one of them an error headline or a code, is cut there and
each piece read as a line of its own. A log line that only quotes a code or a frame in its
message stays whole.
"""

from __future__ import annotations

import re

MIN_LENGTH = 300  # a short line holds one message even when it quotes a code
MIN_STARTS = 4  # a headline that quotes a code or a frame is not a flattened block
MAX_PIECES = 400

_STARTS = {
    "frame": rb'(?<=\s)File "[^"\n]+", line \d+, in ',
    "exception": rb"(?<=\s)(?:[A-Z]\w*\.)*[A-Z]\w*(?:Error|Exception): ",
    "code": rb"(?<=\s)E[A-Z0-9]\d{4}(?=[:\s\[])",
    "trace": rb"(?<=\s)TraceBack \(most recent call last\):",
    "summary": rb"(?<=\s)\[ERROR\] \d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2} \(PID:",
}
_MARKS = (b'File "', b"TraceBack", b"(PID:")  # one of them is in every block worth cutting
_AFTER = re.compile(rb"\[LINE:\d+\]\.?(?=\s+[^\s\[])|TraceBack \(most recent call last\):")
_STARTS_RE = re.compile(
    b"|".join(f"(?P<{name}>".encode() + rx + b")" for name, rx in _STARTS.items())
)


def split_flattened(raw: bytes) -> list[bytes]:
    """The lines a flattened block held (the line itself when it does not look like one)."""
    if len(raw) < MIN_LENGTH or not any(mark in raw for mark in _MARKS):
        return [raw]
    starts = list(_STARTS_RE.finditer(raw))
    kinds = {match.lastgroup for match in starts}
    if len(starts) < MIN_STARTS or not (kinds & {"exception", "code"}) or len(kinds) < 3:
        return [raw]
    cuts = {match.start() for match in starts}
    cuts |= {match.end() for match in _AFTER.finditer(raw)}
    cuts = sorted(cut for cut in cuts if 0 < cut < len(raw))
    # Past MAX_PIECES cuts the rest stays one piece: bounded work, and no byte is dropped.
    pieces, begin = [], 0
    for cut in [*cuts[: MAX_PIECES - 1], len(raw)]:
        piece = raw[begin:cut].strip()
        if piece:
            pieces.append(piece)
        begin = cut
    return pieces or [raw]
