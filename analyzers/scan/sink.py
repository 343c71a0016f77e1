"""Where one file's parsers report what they found: events, facts and earlier lines.

The multi-line parsers (`formats.traceback`, `formats.cann_block`, `formats.elastic`, ...)
only know this interface: `emit` an event for a line, `add_fact` to a topic, and `lookback`
for the lines before one (a CANN block names its operator a few lines above its code).
Caps keep an error storm from growing memory (see MAX_EVENTS).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from analyzers.core.types import Event, EventKind, FileInfo
from analyzers.formats.base import ParsedLine
from analyzers.formats.codes import extract_codes
from analyzers.formats.hints import HeadHints
from analyzers.formats.timestamps import PartialTime
from analyzers.ingest.textio import clean_line

LOOKBACK_LINES = 8
# An error storm (the same failure printed a million times) must not grow memory: past these
# counts per file, events are only counted (facts["events_dropped"]). The earliest are kept:
# they are the ones a first-error search needs.
MAX_EVENTS = {EventKind.ERROR: 2000, EventKind.WARNING: 500}
MAX_FACT_ITEMS = 1000
# Past a cap, a line unlike every event of its kind so far (its digits aside) is still kept, up
# to this many per kind: a long run can fill the cap with one repeated notice before the rank
# fails, and its own error, printed last, must not be dropped with the repeats.
MAX_LATE_SHAPES = 256
_FOLD_DIGITS = str.maketrans("123456789", "000000000")


class ScanSink:
    def __init__(self, info: FileInfo, hints: HeadHints) -> None:
        self.info = info
        self.hints = hints
        self.events: list[Event] = []
        self.facts: dict[str, Any] = {}
        self.partial: list[tuple[Event, PartialTime]] = []  # times waiting for their year
        self.ranks_seen: Counter[int] = Counter()
        self.kept: Counter[EventKind] = Counter()  # events emitted per kind, kept or not
        self.late_shapes: dict[EventKind, set[str]] = {}  # per kind, once its cap is full
        self.late_kept: Counter[EventKind] = Counter()  # events kept past the cap, per kind
        self.block = b""
        self.block_first_line = 1
        self.previous_tail: list[tuple[int, bytes]] = []
        self._cursor_block = b""  # the block `_cursor` walked: (line number, its offset)
        self._cursor = (1, 0)
        # a physical line cut into pieces (records that lost their breaks): its number and the
        # pieces already read, each a line of its own for a parser looking back
        self.pieces_line = 0
        self.pieces_read: list[bytes] = []

    # --- the Sink interface --------------------------------------------------------------

    def emit(
        self,
        lineno: int,
        line: ParsedLine,
        kind: EventKind,
        *,
        source: str | None = None,
        message: str | None = None,
        rank: int | None = None,
    ) -> Event:
        self.kept[kind] += 1
        keep = self.kept[kind] <= MAX_EVENTS.get(kind, self.kept[kind])
        if not keep:
            keep = self._new_shape(kind, line.message.strip() if message is None else message)
        event = self.make_event(lineno, line, kind, source, message, rank, keep=keep)
        if isinstance(line.time, datetime):
            self.hints.saw_year(line.time.year)
        elif isinstance(line.time, PartialTime) and keep:  # a dropped event needs no year
            self.partial.append((event, line.time))
        if line.rank is not None:
            self.ranks_seen[line.rank] += 1
        if keep:
            self.events.append(event)
        else:
            dropped = self.facts.setdefault("events_dropped", {})
            dropped[str(kind)] = dropped.get(str(kind), 0) + 1
        return event

    def _new_shape(self, kind: EventKind, message: str) -> bool:
        """Whether a message past its kind's cap differs from every event of that kind so far
        (digits folded), while fewer than MAX_LATE_SHAPES such were kept; the shapes are built
        from the kept events the first time the cap is passed."""
        shapes = self.late_shapes.get(kind)
        if shapes is None:
            shapes = self.late_shapes[kind] = {
                e.message.translate(_FOLD_DIGITS) for e in self.events if e.kind == kind
            }
            self.late_kept[kind] = 0
        if self.late_kept[kind] >= MAX_LATE_SHAPES:
            return False
        shape = message.translate(_FOLD_DIGITS)
        if shape in shapes:
            return False
        shapes.add(shape)
        self.late_kept[kind] += 1
        return True

    def make_event(
        self,
        lineno: int,
        line: ParsedLine,
        kind: EventKind,
        source: str | None = None,
        message: str | None = None,
        rank: int | None = None,
        *,
        keep: bool = True,
    ) -> Event:
        """The event for one line, neither kept nor counted (`emit` does both)."""
        message = line.message.strip() if message is None else message
        if rank is None:
            rank = line.rank if line.rank is not None else self.info.rank
        return Event(
            file=self.info.path,
            line=lineno,
            text=line.text,
            kind=kind,
            message=message,
            rank=rank,
            timestamp=line.time if isinstance(line.time, datetime) else None,
            level=line.level,
            source=source or line.source,
            # an event past the cap is only counted: its codes would be read by no one
            codes=_codes(message, line) if keep and kind != EventKind.CHECKPOINT else (),
            pid=line.pid,
            worker=line.tags.get("worker"),
            process=_process_of(line),
            collected=line.collected,
        )

    def add_fact(self, topic: str, value: Any) -> None:
        items = self.facts.setdefault(topic, [])
        if len(items) < MAX_FACT_ITEMS:
            items.append(value)

    def lookback(self, lineno: int, count: int) -> list[tuple[int, str]]:
        """Up to `count` lines before `lineno`, nearest last. When `lineno` is a physical line
        cut into pieces, the pieces read before the current one come first: each was read as
        a line of its own, so a statement printed just above an exception is found there. A
        line above that was itself cut (`split_pieces`) gives its pieces too, its last nearest:
        a paste that lost its breaks can end one physical line on the `assert` statement and
        open the next on the bare `AssertionError` under it."""
        pieces: list[tuple[int, str]] = []
        if lineno == self.pieces_line and count > 0:
            pieces = [(lineno, clean_line(raw)) for raw in self.pieces_read[-count:]]
            count -= len(pieces)
        found: list[tuple[int, str]] = []
        end = self._offset_of(lineno)
        above = lineno - 1
        while end > 0 and len(found) < count:
            start = self.block.rfind(b"\n", 0, end - 1) + 1
            for piece in reversed(self.split_pieces(self.block[start : end - 1])):
                found.append((above, clean_line(piece)))
            above -= 1
            end = start
        del found[max(count, 0) :]
        if len(found) < count and above + 1 == self.block_first_line:
            first = self.block_first_line - 1
            tail = [(n, clean_line(raw)) for n, raw in self.previous_tail if n <= first]
            found.extend(reversed(tail[-(count - len(found)) :]))
        return [*reversed(found), *pieces]

    def split_pieces(self, raw: bytes) -> list[bytes]:
        """The lines one physical line holds when a paste lost its breaks (itself here; the
        file scanner cuts as it cuts the lines it reads)."""
        return [raw]

    def _offset_of(self, lineno: int) -> int:
        """Byte offset of the start of `lineno` in the current block (0 if before it).

        Lines are asked for in increasing order within a block, so the walk resumes from
        the last answer: a block of thousands of exception lines costs one pass, not one
        pass per line."""
        block = self.block
        line, offset = self._cursor
        if self._cursor_block is not block or lineno < line:
            self._cursor_block, line, offset = block, self.block_first_line, 0
        while line < lineno:
            offset = block.find(b"\n", offset) + 1
            if offset == 0:
                self._cursor = (self.block_first_line, 0)
                return 0
            line += 1
        self._cursor = (line, offset)
        return offset

    def keep_tail(self, block: bytes, last_line: int) -> None:
        """Remember the block's last lines so lookback works across a block boundary."""
        tail: list[tuple[int, bytes]] = []
        end = len(block) - 1
        while end > 0 and len(tail) < LOOKBACK_LINES:
            start = block.rfind(b"\n", 0, end) + 1
            tail.append((last_line - len(tail), block[start:end]))
            end = start - 1
        tail.reverse()
        # A file whose last line has no line end gets that line as a block of its own
        # (ingest.textio.iter_blocks): the lines before it stay part of the tail.
        earlier = self.previous_tail
        if tail and earlier and len(tail) < LOOKBACK_LINES and earlier[-1][0] == tail[0][0] - 1:
            tail = [*earlier, *tail][-LOOKBACK_LINES:]
        self.previous_tail = tail

    def count_dropped(self, kind: EventKind) -> None:
        """An event past its cap that was not even built: counted like one that was."""
        self.kept[kind] += 1
        dropped = self.facts.setdefault("events_dropped", {})
        dropped[str(kind)] = dropped.get(str(kind), 0) + 1


def _codes(message: str, line: ParsedLine) -> tuple[str, ...]:
    return extract_codes(message, hccl=line.tags.get("module") == "HCCL")


def _process_of(line: ParsedLine) -> str | None:
    """The process tag the line carried (`Worker_TP1 pid=88`), or None when it had none."""
    name, pid = line.tags.get("process"), line.tags.get("process_pid")
    return f"{name} pid={pid}" if name and pid else None
