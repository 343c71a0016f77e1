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

A CANN log (plog, device log) pasted the same way is a run of its own line headers, each one
opening with level, module, pid and a timestamp to the microsecond:

    [ERROR] HCCL(4121,train):2026-05-02-10:12:44.602.318 [socket.cc:816] [4190]... timeout
    [ERROR] HCCL(4121,train):2026-05-02-10:12:44.603.127 [socket.cc:880] [4190]... ret[9].

on one physical line. Such a header only ever begins a line, so a long line holding two or
more of them is cut before each one, whatever else it holds. Python logging records pasted
the same way are read alike: `2025-10-31 03:11:02,474 - Trainer - INFO - ...`, the default
record time (comma before the milliseconds) followed by ` - `, opens each record, and two or
more of them on one long line are cut before each one.

torchrun's tee puts `[rankN]:` before every line a worker writes, so that prefix too only ever
begins a line. A paste that lost the breaks keeps the prefixes inline:

    [rank0]: Traceback (most recent call last): [rank0]: File "x.py", line 5, in f [rank0]: g()

A line that opens with a rank prefix and shows the same prefix again after a space is cut
before each repeat, whatever its length. A doubled prefix (`[rank0]:[rank0]:`, a worker that
prefixes its own lines) has no space between the two and is not a cut.

Ray's log monitor does the same for every line it forwards from a worker, with the writer's
tag (`(TrainerActor pid=5120, ip=10.0.2.15) `, older releases `(pid=5120) `), and Ray's own
report of a dead worker, which has no tag, runs on into the forwarded lines after it. A line
holding two or more such tags, one of them after a space, is cut before each tag after a
space. A message that names a single tagged process is no run of lines and stays whole.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzers.core import regex_programs

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
# `[LEVEL] MODULE(pid,name):YYYY-MM-DD-hh:mm:ss.mmm.uuu`, the CANN log line header
_CANN_HEADER = regex_programs.compile(
    rb"(?:(?<=\s)|^)\[(?:ERROR|WARNING|INFO|DEBUG|EVENT|TRACE)\] [A-Z][A-Z0-9_]*"
    rb"\(-?\d+,[^)\n]{0,64}\):\d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}\.\d{3}"
)
# `YYYY-MM-DD hh:mm:ss,mmm - `, the default Python logging record time and separator
_RECORD_HEADER = regex_programs.compile(
    rb"(?:(?<=\s)|^)\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3} - "
)
# torchrun's per-line worker prefix, `[rank3]:`, at the start of a line (or of a quoted one)
_RANK_PREFIX = regex_programs.compile(rb"(?:\s*>)?\s*(\[rank\d+\]:)")
_INLINE_RANK_PREFIX = regex_programs.compile(rb"(?<=\s)(\[rank\d+\]:)")
# Ray's tag before a forwarded line, `(Name pid=N, ip=A.B.C.D) ` or `(pid=N) `
_RAY_TAG = regex_programs.compile(
    rb"(?:(?<=\s)|^)\((?:[A-Za-z_][\w.:-]*(?: [A-Za-z_][\w.:-]*)? )?pid=\d+(?:, ip=[\w.:]+)?\) "
)
_AFTER = regex_programs.compile(
    rb"\[LINE:\d+\]\.?(?=\s+[^\s\[])|TraceBack \(most recent call last\):"
)
_STARTS_RE = regex_programs.compile(
    b"|".join(f"(?P<{name}>".encode() + rx + b")" for name, rx in _STARTS.items())
)


def split_flattened(raw: bytes) -> list[bytes]:
    """The lines a flattened block held (the line itself when it does not look like one)."""
    prefix = _RANK_PREFIX.match(raw)
    if prefix is not None:
        tag = prefix.group(1)
        repeats = [m.start(1) for m in _INLINE_RANK_PREFIX.finditer(raw) if m.group(1) == tag]
        if repeats:
            return _cut(raw, repeats)
    if raw.count(b"pid=") >= 2:  # cheap gate: every Ray tag holds one
        tags = [match.start() for match in _RAY_TAG.finditer(raw)]
        if len(tags) >= 2 and tags[-1] > 0:
            return _cut(raw, tags)
    if len(raw) < MIN_LENGTH:
        return [raw]
    if raw.count(b"):") >= 2:  # cheap gate: every CANN header holds one
        headers = [match.start() for match in _CANN_HEADER.finditer(raw)]
        if len(headers) >= 2:
            return _cut(raw, headers)
    if raw.count(b",") >= 2 and raw.count(b" - ") >= 2:  # cheap gate: every record holds both
        records = [match.start() for match in _RECORD_HEADER.finditer(raw)]
        if len(records) >= 2:
            return _cut(raw, records)
    if not any(mark in raw for mark in _MARKS):
        return [raw]
    starts = list(_STARTS_RE.finditer(raw))
    kinds = {match.lastgroup for match in starts}
    if len(starts) < MIN_STARTS or not (kinds & {"exception", "code"}) or len(kinds) < 3:
        return [raw]
    cuts = {match.start() for match in starts}
    cuts |= {match.end() for match in _AFTER.finditer(raw)}
    return _cut(raw, cuts)


def _cut(raw: bytes, cuts: Iterable[int]) -> list[bytes]:
    """The pieces between the cuts, stripped; every byte but the spaces at a cut is kept."""
    cuts = sorted(cut for cut in cuts if 0 < cut < len(raw))
    # Past MAX_PIECES cuts the rest stays one piece: bounded work, and no byte is dropped.
    pieces, begin = [], 0
    for cut in [*cuts[: MAX_PIECES - 1], len(raw)]:
        piece = raw[begin:cut].strip()
        if piece:
            pieces.append(piece)
        begin = cut
    return pieces or [raw]
