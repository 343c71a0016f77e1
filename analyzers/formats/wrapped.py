"""Log lines that a terminal broke into pieces before they were pasted into a report.

A log copied out of a terminal window (into an issue, a forum post, a chat) often has every
long line cut at the window's width: each piece but the last is exactly that many columns,
and the pieces after the first carry no log prefix:

    [rank2]:[E1105 08:01:12.000000001 ProcessGroupNCCL.cpp:1700] [PG ID 0 PG GUID 0(defau
    lt_pg) Rank 2] ProcessGroupNCCL's watchdog got stuck for 600 seconds without making p
    rogress ...

Read piece by piece, the headline loses its cause and a piece can be classified on its own.
`WrapJoiner.logical` gives the scanner the whole logical line around a physical one; the
logical line keeps the number of its first physical line (the log viewer links file:line).

A line joins the one before it only when all of these hold (so ordinary logs, whose lines
simply vary in length, are left alone):

- the line before is as wide as the widest line around it (the window width), more lines
  around have exactly that width than a little less (prose wrapped at words by an editor
  fills the columns just under its limit), it is not padded with blanks (a terminal pads the
  last piece) and is not a ruler of one repeated character;
- around it at least one other line of that same width, with other words, is followed by a
  continuation too (the width recurs), or two lines of that width end in a viewer's cut mark
  (`$` drawn in the last column in place of a character, as editors and pagers that fold long
  lines do) before a continuation, even with the same words (one device assertion printed by
  several threads) - or, for a lone cut, the width is a usual terminal width and the text
  reads on across the cut (`_SEAMS`): inside a word (`the progr` / `ess`), inside a CamelCase
  name (`aclnn` / `FlashAttentionScore`), after a blank before a lower-case word (`system ` /
  `not yet initialized`), before a blank and a number (`size :` / ` 2048`), after a joiner
  (`OpType=` / `ALLREDUCE`), inside a version (`2.7.` / `8`) or before a comma or a closing
  bracket (`stream_id:2` / `, task_id:7`); at a width no usual terminal has, a lone cut that
  reads on so is joined only when the piece leaves a bracket open and the next one closes a
  bracket it did not open (`cudaMallocAsync(ptr, n, mCudaSt` / `ream->get()): out of memory`,
  one call's text) - or the copy pads its rows: a terminal that copies
  its screen rows whole fills each short row with blanks up to the window, so two rows of that
  width ending in blanks show the window whatever the words, even when every cut line is one
  record printed again with other numbers (each rank's watchdog timeout cut in its number);
  the piece after such a cut must then be a row of the window's width too (padded, or cut
  again), as every row of such a copy is;
- the line itself has no log prefix (`formats.lines` finds no wrapper or header), does not
  start another structure (a traceback frame, `Traceback (...)`, a CANN code, a time, an
  indented line, a table row) and does not begin like the line before it (repeated records
  of one width, e.g. Megatron's iteration lines, are not pieces of each other).

A copy that kept the terminal's colour codes has them around each row (`\x1b[1;31m` ... blanks
that pad the row ... `\x1b[0m`). They take no column, so every test above reads a row without
them (`visible`): read with them, a padded row would not end in blanks, a row nothing cut would
be exactly as wide as the next, and such rows would be joined.

Widths are display columns (`formats.columns`), as the terminal counted them when it cut: a
Chinese character is 3 bytes in UTF-8 but 2 columns, so pieces of one width differ in bytes;
and a wide character that no longer fits in a row's last column opens the next row, leaving
that row a column short (80 columns wide: the first piece is 79 columns, 89 bytes):

    [ERROR] 2026-05-11-08:42:17 (PID:3041, Device:2, RankID:2) 数据集加载失败，请检
    查路径 /data/sft/train.jsonl 是否存在

Only lines the scanner visits (candidates and the lines a multi-line parser follows) are
looked at; the width of a neighbourhood is measured once per ~8 KiB of a block, lazily, with
`bytes.split`/`len` in C while the bytes are ASCII (a column each: most logs stay that fast);
only a bucket holding other bytes is decoded to count its columns. A logical line that
crosses a block boundary stays cut there.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzers.core import regex_programs
from analyzers.formats.blockfilter import FOLD
from analyzers.formats.columns import columns, opens_wide
from analyzers.formats.lines import parse_line
from analyzers.formats.outer_prefix import AGENT_ROLE_BYTES, AGENT_TAG_BYTES
from analyzers.ingest.textio import clean_line

MIN_WIDTH = 60  # narrower "windows" are too likely to be plain short lines
SPAN = 8192  # bytes per neighbourhood bucket; a neighbourhood is three buckets
MAX_PIECES = 64  # pieces joined into one logical line (bounds the text of one event)
COMMON_WIDTHS = frozenset({80, 100, 120, 132, 140, 150, 160, 180, 200, 220, 240, 250})
_HEAD = 12  # folded bytes compared to tell repeated records from pieces
_PROBES = 8  # width-long lines tried per bucket when looking for a second cut
NEAR = 8  # columns under the width that word-wrapped prose fills
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
_BARE_HEADER = regex_programs.compile(
    rb"\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] ?[A-Za-z][\w-]*\(-?\d+[,:][^)\n]*\):"
    rb"\S+\s+\[[^\]\s]+:\d+\](?:\[tid:\d+\])?\s*\d*\s*\Z"
)
# A viewer's mark in the last column that the line goes on past the window (`index < size$` /
# `[i] && ...`), drawn over whatever character the column held. A bare shell prompt ends in it
# too, which is why one mark alone proves no window (`_recurs` asks for two).
_CUT_MARK = b"$"
# A terminal's control sequences (colour and other CSI codes): a row shows none of their bytes.
_ESCAPES = regex_programs.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
_STARTS = regex_programs.compile(
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


# rich's logging handler (`formats.richlog`) wraps a long message at words onto rows whose time
# and level columns are blank: the text starts in the message column (29 characters in after
# the default date-and-time, 20 after `[%X]`) and every row is padded to the console's width.
# A record's first row (time or blank, level, message, `file.py:NNN`) and an exception row at
# the message column (`RuntimeError: ...`) open such a message; a traceback header, a frame
# (indented further), a quoted path or a caret row never continues one.
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


def _wrapped_rich_row(row: bytes) -> bool:
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


class WrapJoiner:
    """Joins cut pieces inside one block; caches the block's neighbourhood widths."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._block = b""
        self._buckets: dict[int, _Bucket] = {}
        self._widths: dict[int, tuple[int, bool, bool] | None] = {}
        self._rich: bool | None = None  # whether the block holds rich's level columns

    def logical(self, block: bytes, pos: int, end: int) -> tuple[int, int, list[int], bytes]:
        """The logical line holding the physical line `block[pos:end]` (`end`: its newline).

        Returns (offset of its first piece, offset of its last piece's newline, offsets of all
        its pieces, the joined bytes)."""
        if not self.enabled:
            return pos, end, [pos], block[pos:end]
        if block is not self._block:
            self._block, self._buckets, self._widths = block, {}, {}
            self._rich = None
        if self._may_be_rich(block, pos, end):
            rich = self._rich_rows(block, pos, end)
            if rich is not None:
                return rich
        starts = [pos]
        while len(starts) < MAX_PIECES and starts[0] > 0:
            before = block.rfind(b"\n", 0, starts[0] - 1) + 1
            if not self._joins(before, starts[0] - 1):
                break
            starts.insert(0, before)
        while len(starts) < MAX_PIECES and end + 1 < len(block):
            if not self._joins(starts[-1], end):
                break
            starts.append(end + 1)
            end = block.find(b"\n", end + 1)
        if len(starts) == 1:
            return pos, end, starts, block[pos:end]
        ends = [*(start - 1 for start in starts[1:]), end]
        pieces = [block[a:b].rstrip(b"\r") for a, b in zip(starts, ends, strict=True)]
        # a bare header was broken at the blank before its message: give the blank back
        raw = b"".join(
            piece + b" " if _BARE_HEADER.search(piece) else piece for piece in pieces[:-1]
        )
        raw += pieces[-1]
        return starts[0], end, starts, raw.rstrip(b" ")  # a terminal's padding of the last piece

    def _may_be_rich(self, block: bytes, pos: int, end: int) -> bool:
        """Whether rich's wrapped rows can be here: the byte test on this row and the next
        first, and only then, once per block, whether the block holds rich's level columns at
        all. Searching a whole block for those columns costs more than every row's byte test,
        as a plain log's `INFO ` starts a partial match on each of its lines."""
        row = block[pos:end].rstrip(b"\r")
        if not (_wrapped_rich_row(row) or _wrapped_rich_row(block[end + 1 : end + 30])):
            return False
        if self._rich is None:
            self._rich = any(gate in block for gate in _RICH_GATE) or bool(
                _CONSOLE_GATE.search(block)
            )
        return self._rich

    def _rich_rows(
        self, block: bytes, pos: int, end: int
    ) -> tuple[int, int, list[int], bytes] | None:
        """A rich record's message (or an exception row's) with the rows it wrapped onto,
        joined with a blank (rich wraps at words); None when the line is none of these."""
        row, origin = block[pos:end].rstrip(b"\r"), pos
        if not (_wrapped_rich_row(row) or _wrapped_rich_row(block[end + 1 : end + 30])):
            return None  # cheap: no wrapped row here or next, as for every ordinary record
        column = _rich_column(row)
        if column is None:  # a wrapped row: find the row that opened its message
            first = pos
            for _ in range(MAX_PIECES):
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
        while len(starts) < MAX_PIECES and 0 <= end < len(block) - 1:
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

    def _joins(self, start: int, end: int) -> bool:
        """Whether the line after `block[start:end]` (`end`: its newline) continues it."""
        if end - start < MIN_WIDTH:
            return False  # cheap: a line has no fewer bytes than columns
        block = self._block
        after = visible(block[end + 1 : block.find(b"\n", end + 1)])
        if _STARTS.match(after.rstrip(b"\r")):
            return False  # the next line opens a record of its own: no widths needed
        row = visible(block[start:end])
        line = row.rstrip(b"\r")
        if line.endswith((b"]", b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9")) and (
            _BARE_HEADER.search(line)
        ):
            return continues(line, after)  # the record's message is the next line, any width
        found = self._width(start // SPAN)  # where all around is ASCII, a byte is a column
        if found is None or (
            found[0] != end - start if found[2] else not _fills(found[0], row, after)
        ):
            return False
        window, recurs, _, padded = found
        usual = window in COMMON_WIDTHS
        if not (recurs or padded or usual or _opens_more(line)):
            return False  # cheap first: `continues` parses the next line
        if not continues(line, after):
            return False
        if recurs or (padded and columns(after.rstrip(b"\r")) == window):
            return True
        if not _reads_on(line, after):
            return False
        return usual or _closes_first(after)

    def _width(self, bucket: int) -> tuple[int, bool, bool, bool] | None:
        """(window width, whether cuts at it recur, whether all around is ASCII: a byte a
        column, whether the copy pads its rows to it) around a bucket; None: no window there.

        A window is the widest line's width around, when more lines have exactly it than
        are a little narrower: a terminal cuts every longer line at that width, while an
        editor that wraps prose at words leaves many lines just under it."""
        if bucket not in self._widths:
            buckets = [self._bucket(index) for index in (bucket - 1, bucket, bucket + 1)]
            top = max(max(around.widths, default=0) for around in buckets)
            fitted = [(around, around.fitted(top)) for around in buckets]
            probes = [at for around, widths in fitted for at in around.offsets(widths, top)]
            near = sum(top - NEAR <= width < top for _, widths in fitted for width in widths)
            wide = top >= MIN_WIDTH and sum(widths.count(top) for _, widths in fitted) > near
            bytewise = all(around.widths is around.lengths for around in buckets)
            found = (top, self._recurs(probes), bytewise, self._padded(probes))
            self._widths[bucket] = found if wide else None
        return self._widths[bucket]

    def _padded(self, probes: list[tuple[int, int]]) -> bool:
        """At least two rows of the window's width (`probes`) end in blanks: a copy of the
        terminal's rows, each short row filled up to the window. An editor or a program that
        wraps text at a width does not pad, and a log line that happens to end in blanks is
        seldom exactly as wide as the widest line around it."""
        block = self._block
        rows = sum(visible(block[start:end]).rstrip(b"\r").endswith(b"  ") for start, end in probes)
        return rows >= 2

    def _recurs(self, probes: list[tuple[int, int]]) -> bool:
        """At least two different lines of the window's width (`probes`: where they start and
        end) are followed by a continuation (a line printed again with other numbers is one
        line: repeats of a long record prove no cut), or two such lines end in a viewer's cut
        mark, which the viewer draws whatever the words: there the mark, not the variety of
        the text, shows the window."""
        block, cuts, marked = self._block, set(), 0
        for start, end in probes:
            if end + 1 < len(block):
                line = visible(block[start:end])
                if continues(line, block[end + 1 : block.find(b"\n", end + 1)]):
                    cuts.add(line.translate(FOLD))
                    marked += line.rstrip(b"\r").endswith(_CUT_MARK)
            if len(cuts) >= 2 or marked >= 2:
                return True
        return False

    def _bucket(self, index: int) -> _Bucket:
        """The lines starting in bucket `index`."""
        block, low = self._block, index * SPAN
        if index < 0 or low >= len(block):
            return _NO_LINES
        if index not in self._buckets:
            first = block.find(b"\n", low - 1) + 1 if low else 0
            high = low + SPAN
            stop = block.find(b"\n", high - 1) + 1 if high < len(block) else len(block)
            chunk = block[first:stop]
            lines = chunk.split(b"\n")[:-1]
            lengths = list(map(len, lines))
            if chunk.isascii() and b"\x1b" not in chunk:
                self._buckets[index] = _Bucket(first, lengths, lengths)
            else:
                lines = [*map(visible, lines), visible(block[stop : stop + 16])[:4]]
                gaps = frozenset(at for at, after in enumerate(lines[1:]) if opens_wide(after))
                self._buckets[index] = _Bucket(first, lengths, [*map(columns, lines[:-1])], gaps)
        return self._buckets[index]


@dataclass(frozen=True, slots=True)
class _Bucket:
    """The lines starting in one bucket: where the first starts, their lengths in bytes, their
    display widths (the same list when the bucket is ASCII) and which of them a wide character
    opens the next line of (`gaps`: a terminal may have left their last column empty)."""

    first: int
    lengths: list[int]
    widths: list[int]
    gaps: frozenset[int] = frozenset()

    def fitted(self, window: int) -> list[int]:
        """The widths, a line one column short of `window` before a wide character counted as
        `window`: the character did not fit in the last column, so the terminal cut there."""
        if not self.gaps:
            return self.widths
        gaps = self.gaps
        return [
            window if width == window - 1 and at in gaps else width
            for at, width in enumerate(self.widths)
        ]

    def offsets(self, widths: list[int], window: int) -> list[tuple[int, int]]:
        """Where up to `_PROBES` lines of `window` columns (by `widths`) start and end."""
        found: list[tuple[int, int]] = []
        at = -1
        while len(found) < _PROBES:
            try:
                at = widths.index(window, at + 1)
            except ValueError:
                break
            start = self.first + sum(self.lengths[:at]) + at
            found.append((start, start + self.lengths[at]))
        return found


_NO_LINES = _Bucket(0, [], [])


def continues(line: bytes, after: bytes) -> bool:
    """Whether `after` can be the next piece of `line` by its content alone (no widths)."""
    line, after = visible(line).rstrip(b"\r"), visible(after).rstrip(b"\r")
    if not after.strip() or line.endswith((b"  ", b"|")) or _ruler(line):
        return False
    if _STARTS.match(after) or line[:_HEAD].translate(FOLD) == after[:_HEAD].translate(FOLD):
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


def _fills(window: int, line: bytes, after: bytes) -> bool:
    """The line is `window` columns wide, or a column short before a wide character that did
    not fit in the last column."""
    width = columns(line)
    return width == window or (width + 1 == window and opens_wide(after))


def _ruler(line: bytes) -> bool:
    body = line.strip()
    return not body.strip(body[:1])


def _opens_more(line: bytes) -> bool:
    """The line ends with a bracket still open (a call's argument list cut short); a closing
    bracket nothing opened (a log header's `file.cc:553]`) closes nothing."""
    if b"(" not in line and b"[" not in line and b"{" not in line:
        return False  # cheap: most lines
    depth = 0
    for mark in _BRACKET.findall(line):
        depth = depth + 1 if mark in b"([{" else max(depth - 1, 0)
    return depth > 0


def _closes_first(after: bytes) -> bool:
    """The next line closes a bracket it did not open (`ream->get()): out of memory`): read with
    a line that left one open, the two are one call's text cut by a window of any width."""
    depth = 0
    for mark in _BRACKET.findall(after):
        depth += 1 if mark in b"([{" else -1
        if depth < 0:
            return True
    return False


def _reads_on(line: bytes, after: bytes) -> bool:
    """A cut no line end would make: `...found 1` / `2 of them`, `...is aclnn` /
    `FlashAttentionScore`, `...system ` / `not yet initialized`, `...mem size :` / ` 2048`."""
    line, after = line.rstrip(b"\r"), after.rstrip(b"\r")
    return any(end.search(line) and start.match(after) for end, start in _SEAMS)


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
