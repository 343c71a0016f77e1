"""Rows that rich's logging handler wrapped a long message onto, read back as one message.

rich's logging handler (`formats.richlog`) wraps a long message at words onto rows whose time
and level columns are blank: the text starts in the message column (29 characters in after
the default date-and-time, 20 after `[%X]`) and every row is padded to the console's width.
A record's first row (time or blank, level, message, `file.py:NNN`) and an exception row at
the message column (`RuntimeError: ...`) open such a message; a traceback header, a frame
(indented further), a quoted path or a caret row never continues one. rich's console
(`Console.log`) sets its rows the same way from column 11, with no level column::

    [03:11:52] ERROR    [rank4] model run failed: [enforce fail at                train.py:70
                        alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't
                        allocate memory: you tried to allocate 912345678901 bytes.

`formats.wrapped.WrapJoiner` asks these before it looks for a terminal's cuts.
"""

from __future__ import annotations

from analyzers.core import regex_programs
from analyzers.formats.outer_prefix import AGENT_ROLE_BYTES

_RICH_GATE = (b"INFO     ", b"ERROR    ", b"WARNING  ")
# rich's console (`Console.log`) sets the time and the caller's source the same way with no
# level column: the message starts at column 11, and a wrapped row is blank up to there, as a
# record under a repeated second is too; only a record's first row ends in its source.
#     [17:45:37] rank 0 model run failed:                                        infer.py:330
#                [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553]
#                Connection closed by peer [127.0.0.1]:43190. This is typically caused by a
_CONSOLE_HEAD = regex_programs.compile(rb"(?:\[\d\d:\d\d:\d\d\]| {10}) \S.*\s[\w.-]+\.py:\d+\Z")
_CONSOLE_GATE = regex_programs.compile(rb"(?m)^\[\d\d:\d\d:\d\d\] \S[^\n]*[ \t][\w.-]+\.py:\d+\r?$")
_CONSOLE_COLUMN = 11
_RICH_HEAD = regex_programs.compile(
    rb"(?:\[\d\d/\d\d/\d\d \d\d:\d\d:\d\d\] | {20}|\[\d\d:\d\d:\d\d\] | {11})"
    rb"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) +\S.*\s[\w.-]+\.py:\d+\Z"
)
_RICH_PATH = regex_programs.compile(rb"\s+[\w.-]+\.py:\d+\Z")
_RICH_OPENS = regex_programs.compile(
    rb"[A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit)\b:? "
)
_RICH_NOT_TEXT = regex_programs.compile(
    rb"Traceback \(|File \"|\"|\^|\[(?:rank|" + AGENT_ROLE_BYTES + rb")\d+\]"
)


_BLANK_TIME = b" " * 20
_LEVEL_COLUMNS = frozenset((b"DEBUG    ", b"INFO     ", b"WARNING  ", b"ERROR    ", b"CRITICAL "))


def wrapped_rich_row(row: bytes) -> bool:
    """Byte test: blank for 20 columns and no level column after (a record under a repeated
    second keeps its level at column 20), or blank for the console's 11 with text at once and
    no level column there."""
    if row[:20] == _BLANK_TIME:
        return row[20:29] not in _LEVEL_COLUMNS
    return (
        row[:11] == _BLANK_TIME[:11]
        and row[11:12] not in (b" ", b"")
        and row[11:20] not in _LEVEL_COLUMNS
    )


def _rich_row(row: bytes, column: int) -> bool:
    """A wrapped message row: blank up to the message column, text right there."""
    return (
        len(row) > column
        and row[column : column + 1] not in (b" ", b"")
        and not row[:column].strip()
        and not _RICH_NOT_TEXT.match(row, column)
    )


def holds_rich_levels(block: bytes) -> bool:
    """Whether the block holds rich's level columns, or its console's source column, at all."""
    return any(gate in block for gate in _RICH_GATE) or bool(_CONSOLE_GATE.search(block))


def rich_rows(
    block: bytes, pos: int, end: int, most: int
) -> tuple[int, int, list[int], bytes] | None:
    """A rich record's message (or an exception row's) with the rows it wrapped onto,
    joined with a blank (rich wraps at words), as `WrapJoiner.logical` returns a line, at
    most `most` rows; None when the line is none of these."""
    row, origin = block[pos:end].rstrip(b"\r"), pos
    if not (wrapped_rich_row(row) or wrapped_rich_row(block[end + 1 : end + 30])):
        return None  # cheap: no wrapped row here or next, as for every ordinary record
    column = _rich_column(row)
    if column is None:  # a wrapped row: find the row that opened its message
        first = pos
        for _ in range(most):
            if first == 0:
                return None
            before = block.rfind(b"\n", 0, first - 1) + 1
            above = block[before : first - 1].rstrip(b"\r")
            column = _rich_column(above)
            if column is not None:
                break
            if not any(_rich_row(above, c) for c in (20, 29, _CONSOLE_COLUMN)):
                return None
            first = before
        else:
            return None
        if not _rich_row(row, column):
            return None
        pos = before
    starts = [pos]
    end = block.find(b"\n", pos)
    width = len(block[pos:end].rstrip(b"\r"))
    while len(starts) < most and 0 <= end < len(block) - 1:
        after_end = block.find(b"\n", end + 1)
        after = block[end + 1 : after_end if after_end >= 0 else len(block)].rstrip(b"\r")
        if len(after) != width or not _rich_row(after, column):
            break
        if column == _CONSOLE_COLUMN and _CONSOLE_HEAD.match(after):
            break  # the console's next record under a repeated second
        starts.append(end + 1)
        if after_end < 0:
            end = len(block)
            break
        end = after_end
    if len(starts) == 1 or starts[-1] < origin:
        return None
    ends = [*(start - 1 for start in starts[1:]), end]
    pieces = [block[a:b].rstrip(b"\r").rstrip(b" ") for a, b in zip(starts, ends, strict=True)]
    opens = _RICH_HEAD.match(pieces[0]) or _CONSOLE_HEAD.match(pieces[0])
    head = _RICH_PATH.sub(b"", pieces[0]) if opens else pieces[0]
    return starts[0], end, starts, _joined(head, pieces[1:], column)


def _joined(head: bytes, rows: list[bytes], column: int) -> bytes:
    """A rich message's rows joined with a blank (rich wraps at words), except after a row
    that holds one word reaching the column's right edge: rich folds a word longer than the
    column there (`.../unbound_buffer.cc:7` / `8] Timed out ...`), so the word goes on."""
    edge = max(len(row) for row in rows)
    joined = head
    for before, row in zip([head, *rows[:-1]], rows, strict=True):
        folded = len(before) == edge and b" " not in before[column:]
        joined += (b"" if folded else b" ") + row.lstrip(b" ")
    return joined


def _rich_column(row: bytes) -> int | None:
    """The message column of a row that opens a rich message: a record's first row (29 or
    20, by its time column), or an exception row at either message column."""
    if _RICH_HEAD.match(row):
        if row[:1] == b"[":
            return 29 if row[3:4] == b"/" else 20
        return 29 if row[:20] == b" " * 20 else 20
    if _CONSOLE_HEAD.match(row):
        return _CONSOLE_COLUMN
    for column in (20, 29):
        if not row[:column].strip() and _RICH_OPENS.match(row, column):
            return column
    return None
