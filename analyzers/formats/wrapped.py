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
  continuation too (the width recurs), or two lines of that width end in a viewer's cut mark (`$`
  drawn in the last column in place of a character, as editors and pagers that fold long lines do)
  before a continuation, even with the same words (one device assertion printed by several
  threads) - or, for a lone cut, the width is a usual terminal width and the text reads on across
  the cut (`wrap_seams.reads_on`): inside a word (`the progr` / `ess`), inside a CamelCase name
  (`aclnn` / `FlashAttentionScore`), after a blank before a lower-case word (`system ` / `not yet
  initialized`), before a blank and a number (`size :` / ` 2048`), after a joiner (`OpType=` /
  `ALLREDUCE`), inside a version (`2.7.` / `8`) or before a comma or a closing bracket
  (`stream_id:2` / `, task_id:7`); at a width no usual terminal has, a lone cut that reads on so
  is joined only when the piece leaves a bracket open and the next one closes a bracket it did not
  open (`cudaMallocAsync(ptr, n, mCudaSt` / `ream->get()): out of memory`, one call's text) - or
  the copy pads its rows: a terminal that copies its screen rows whole fills each short row with
  blanks up to the window, so two rows of that width ending in blanks show the window whatever the
  words, even when every cut line is one record printed again with other numbers (each rank's
  watchdog timeout cut in its number); the piece after such a cut must then be a row of the
  window's width too (padded, or cut again), as every row of such a copy is;
- the line itself has no log prefix (`formats.lines` finds no wrapper or header), does not
  start another structure (a traceback frame, `Traceback (...)`, a CANN code, a time, an
  indented line, a table row) and does not begin like the line before it (repeated records
  of one width, e.g. Megatron's iteration lines, are not pieces of each other).

A copy that kept the terminal's colour codes has them around each row (`\x1b[1;31m` ... blanks
that pad the row ... `\x1b[0m`). They take no column, so every test above reads a row without
them (`wrap_seams.visible`): read with them, a padded row would not end in blanks, a row
nothing cut would be exactly as wide as the next, and such rows would be joined.

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

This module decides where a logical line starts and ends; the tests that read two lines'
text are `formats.wrap_seams`, the widths around a line `formats.wrap_widths`, and the rows
rich's logging handler wraps a message onto `formats.rich_rows`.
"""

from __future__ import annotations

from analyzers.formats.blockfilter import FOLD
from analyzers.formats.columns import columns
from analyzers.formats.rich_rows import holds_rich_levels, rich_rows, wrapped_rich_row
from analyzers.formats.wrap_seams import (
    BARE_HEADER,
    STARTS,
    closes_first,
    continues,
    opens_more,
    reads_on,
    visible,
)
from analyzers.formats.wrap_widths import NO_LINES, SPAN, Bucket, fills, read_bucket

MIN_WIDTH = 60  # narrower "windows" are too likely to be plain short lines
MAX_PIECES = 64  # pieces joined into one logical line (bounds the text of one event)
COMMON_WIDTHS = frozenset({80, 100, 120, 132, 140, 150, 160, 180, 200, 220, 240, 250})
NEAR = 8  # columns under the width that word-wrapped prose fills
# A viewer's mark in the last column that the line goes on past the window (`index < size$` /
# `[i] && ...`), drawn over whatever character the column held. A bare shell prompt ends in it
# too, which is why one mark alone proves no window (`_recurs` asks for two).
_CUT_MARK = b"$"


class WrapJoiner:
    """Joins cut pieces inside one block; caches the block's neighbourhood widths."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._block = b""
        self._buckets: dict[int, Bucket] = {}
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
            rich = rich_rows(block, pos, end, MAX_PIECES)
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
            piece + b" " if BARE_HEADER.search(piece) else piece for piece in pieces[:-1]
        )
        raw += pieces[-1]
        return starts[0], end, starts, raw.rstrip(b" ")  # a terminal's padding of the last piece

    def _may_be_rich(self, block: bytes, pos: int, end: int) -> bool:
        """Whether rich's wrapped rows can be here: the byte test on this row and the next
        first, and only then, once per block, whether the block holds rich's level columns at
        all. Searching a whole block for those columns costs more than every row's byte test,
        as a plain log's `INFO ` starts a partial match on each of its lines."""
        row = block[pos:end].rstrip(b"\r")
        if not (wrapped_rich_row(row) or wrapped_rich_row(block[end + 1 : end + 30])):
            return False
        if self._rich is None:
            self._rich = holds_rich_levels(block)
        return self._rich

    def _joins(self, start: int, end: int) -> bool:
        """Whether the line after `block[start:end]` (`end`: its newline) continues it."""
        if end - start < MIN_WIDTH:
            return False  # cheap: a line has no fewer bytes than columns
        block = self._block
        after = visible(block[end + 1 : block.find(b"\n", end + 1)])
        if STARTS.match(after.rstrip(b"\r")):
            return False  # the next line opens a record of its own: no widths needed
        row = visible(block[start:end])
        line = row.rstrip(b"\r")
        if line.endswith((b"]", b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8", b"9")) and (
            BARE_HEADER.search(line)
        ):
            return continues(line, after)  # the record's message is the next line, any width
        found = self._width(start // SPAN)  # where all around is ASCII, a byte is a column
        if found is None or (
            found[0] != end - start if found[2] else not fills(found[0], row, after)
        ):
            return False
        window, recurs, _, padded = found
        usual = window in COMMON_WIDTHS
        if not (recurs or padded or usual or opens_more(line)):
            return False  # cheap first: `continues` parses the next line
        if not continues(line, after):
            return False
        if recurs or (padded and columns(after.rstrip(b"\r")) == window):
            return True
        if not reads_on(line, after):
            return False
        return usual or closes_first(after)

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

    def _bucket(self, index: int) -> Bucket:
        """The lines starting in bucket `index`."""
        block, low = self._block, index * SPAN
        if index < 0 or low >= len(block):
            return NO_LINES
        if index not in self._buckets:
            self._buckets[index] = read_bucket(block, low)
        return self._buckets[index]
