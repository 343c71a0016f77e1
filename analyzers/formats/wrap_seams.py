"""Whether a line can be the next piece of a line a terminal cut, read from the text alone.

`formats.wrapped` measures the window a terminal cut its lines at; these tests read what the
two lines hold, with no width: a line that opens a record of its own (a log prefix, a
traceback frame, a CANN code, a time, an indented line, a table row) or begins like the line
before it is no piece, and a lone cut is joined only where the text reads on across it
(`reads_on`: inside a word, a CamelCase name or a version, after a joiner) or a bracket the
first piece left open is closed by the next (`cudaMallocAsync(ptr, n, mCudaSt` /
`ream->get()): out of memory`)::

    [rank2]:[E1105 08:01:12.000000001 ProcessGroupNCCL.cpp:1700] [PG ID 0 PG GUID 0(defau
    lt_pg) Rank 2] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making p

A copy that kept the terminal's colour codes has them around each row; they take no column,
so every test reads a row without them (`visible`).
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.blockfilter import FOLD
from analyzers.formats.lines import parse_line
from analyzers.formats.outer_prefix import AGENT_TAG_BYTES
from analyzers.ingest.textio import clean_line

_HEAD = 12  # folded bytes compared to tell repeated records from pieces
# Where a terminal's cut may fall inside one sentence, as (end of the piece, start of the next):
# the column is blind to the text, so a seam can split a word or a name, or sit just before or
# just after a blank. Each shape asks for what a natural line end then a new line rarely gives
# (a blank then a capital or a digit, a finished word then a plain capitalised one, may be a
# line of its own: those stay apart).
_SEAMS = (
    (
        regex_programs.compile(rb"[A-Za-z0-9]\Z"),
        regex_programs.compile(rb"[a-z0-9]"),
    ),  # inside a word or number
    # a CamelCase name of three parts or more (`aclnn` / `FlashAttentionScore`): a product
    # name of two (`compile` / `PyTorch (12.4) ...`) often opens a writer's own next line
    (
        regex_programs.compile(rb"[a-z]\Z"),
        regex_programs.compile(rb"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*){2}"),
    ),
    (
        regex_programs.compile(rb"[^\s] \Z"),
        regex_programs.compile(rb"[a-z]"),
    ),  # after a blank: the sentence goes on
    (
        regex_programs.compile(rb"[^\s]\Z"),
        regex_programs.compile(rb" [0-9]"),
    ),  # before a blank: a value follows
    (
        regex_programs.compile(rb"[=(\[{/_]\Z"),
        regex_programs.compile(rb"[^\s]"),
    ),  # after a joiner: `OpType=` / `ALLREDUCE`
    (
        regex_programs.compile(rb"\d[.:]\Z"),
        regex_programs.compile(rb"\d"),
    ),  # inside a version or a time: `2.7.` / `8`
    (
        regex_programs.compile(rb"[^\s]\Z"),
        regex_programs.compile(rb"[,;)\]}]"),
    ),  # closing marks never open a record
)
# A lone cut at a width no usual terminal has is joined only when the first piece leaves a
# bracket open (`::cudaMallocAsync(ptr, n, mCudaSt`) and the next piece, read on across the seam,
# closes one it did not open (`ream->get()): out of memory (...)`): a call's text cut inside.
_BRACKET = regex_programs.compile(rb"[()\[\]{}]")
# A CANN log record whose header stands alone on its line, the message moved to the next one (a
# manual, a viewer or a copy that broke the record at the blank after the thread id):
# `[ERROR] RUNTIME(4410,python3):<stamp>  [api_impl.cc:5544]4502` / `CtxGetSysParamOpt:...`.
# Searched, not matched, so a `grep -n` or file prefix before the header does not hide it.
BARE_HEADER = regex_programs.compile(
    rb"\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] ?[A-Za-z][\w-]*\(-?\d+[,:][^)\n]*\):"
    rb"\S+\s+\[[^\]\s]+:\d+\](?:\[tid:\d+\])?\s*\d*\s*\Z"
)
# A terminal's control sequences (colour and other CSI codes): a row shows none of their bytes.
_ESCAPES = regex_programs.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
STARTS = regex_programs.compile(
    rb"\s\s|\t"  # indented: code under a frame, CANN trace lines, continuation of a message
    rb"|[|+]"  # a row or border of a table (npu-smi, elastic summaries)
    rb"|File \"|Traceback \(most recent|frame #\d+:|Exception raised from "
    rb"|During handling of the above|The above exception"
    rb"|\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\]"
    rb"|E[0-9A-Z]\d{4}\b"
    rb"|\[rank\d+\]:"
    rb"|\[?\d{4}-\d\d-\d\d[ T-]\d\d:\d\d"
    rb"|\[?[IWEFVC]\d{4} \d\d:\d\d"
    rb"|[\w.-]+:\d+:\d+ \[\d+\] "  # NCCL's and RCCL's `host:pid:tid [dev] ` line prefix
    rb"|terminate called (?:after|without|recursively)\b"  # the C++ runtime's own message
    rb"|[A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit)(?::|\s*$)"
    rb"|" + AGENT_TAG_BYTES  # torchrun's copy of a child's line, any role
)


def continues(line: bytes, after: bytes) -> bool:
    """Whether `after` can be the next piece of `line` by its content alone (no widths)."""
    line, after = visible(line).rstrip(b"\r"), visible(after).rstrip(b"\r")
    if not after.strip() or line.endswith((b"  ", b"|")) or _ruler(line):
        return False
    if STARTS.match(after) or line[:_HEAD].translate(FOLD) == after[:_HEAD].translate(FOLD):
        return False
    return not _has_prefix(after)


def visible(row: bytes) -> bytes:
    """The row as the screen showed it: without the control sequences (colour codes) a copy
    kept, which take no column and may stand after the blanks that pad the row."""
    return _ESCAPES.sub(b"", row) if b"\x1b" in row else row


def _has_prefix(raw: bytes) -> bool:
    """A wrapper or header that `formats.lines` recognises starts the line."""
    text = clean_line(raw)
    parsed = parse_line(text)
    return parsed.source is not None or bool(parsed.stream_key) or parsed.message != text.rstrip()


def _ruler(line: bytes) -> bool:
    body = line.strip()
    return not body.strip(body[:1])


def opens_more(line: bytes) -> bool:
    """The line ends with a bracket still open (a call's argument list cut short); a closing
    bracket nothing opened (a log header's `file.cc:553]`) closes nothing."""
    if b"(" not in line and b"[" not in line and b"{" not in line:
        return False  # cheap: most lines
    depth = 0
    for mark in _BRACKET.findall(line):
        depth = depth + 1 if mark in b"([{" else max(depth - 1, 0)
    return depth > 0


def closes_first(after: bytes) -> bool:
    """The next line closes a bracket it did not open (`ream->get()): out of memory`): read with
    a line that left one open, the two are one call's text cut by a window of any width."""
    depth = 0
    for mark in _BRACKET.findall(after):
        depth += 1 if mark in b"([{" else -1
        if depth < 0:
            return True
    return False


def reads_on(line: bytes, after: bytes) -> bool:
    """A cut no line end would make: `...found 1` / `2 of them`, `...is aclnn` /
    `FlashAttentionScore`, `...system ` / `not yet initialized`, `...mem size :` / ` 2048`."""
    line, after = line.rstrip(b"\r"), after.rstrip(b"\r")
    return any(end.search(line) and start.match(after) for end, start in _SEAMS)
