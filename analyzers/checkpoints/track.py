"""Every checkpoint line of one file, kept column by column so millions of them fit.

A bisection run prints a checkpoint per sub-module per layer per decode step: a real rank
log holds tens of thousands, a big job millions. An object per line would not fit in the
memory budget, so the scanner records each line as one entry in typed arrays (about 20
bytes a line: a line number takes 4 until a file passes 4 billion lines) with its normalised
text interned. Nothing is sampled: the comparison of the ranks
(`analyzers.timeline.correlate`) reads every entry.

A track crosses from a scanner process to the parent with its text ids and ranks in one
byte per entry when the values allow (a file's text ids and rank usually do), and a long
track with its line, time and rank columns compressed (`unpack` restores them): the parent
holds every file's track while both scanners run, the analysis's peak, and a column of a
file's consecutive line numbers or millisecond times compresses to a fraction of its width
(about 4 bytes a checkpoint in all instead of 14). Readers see the same values; the few
writers after that point go through `set_rank`.

Times are epoch seconds on the log's own (naive, read as UTC) clock, NaN when the line has
none. A time without a year (glog `I1129 ...`, vLLM `11-29 ...`) is kept as seconds within
its year plus `year_pending`, and `settle_years` places it once the file's year is known.
"""

from __future__ import annotations

import math
import sys
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from analyzers.core.checkpoint_timeline import epoch
from analyzers.core.types import Event, EventKind, FileScan
from analyzers.ingest.compression import compress_block, decompress_block

NAN = float("nan")
NO_RANK = -1
_NARROW_LINE_MAX = 0xFFFFFFFF  # line numbers an "I" column holds
# A column in transit: typecode, entries, and per byte of an item its plane (`_pack`)
_Packed = tuple[str, int, tuple[int | bytes, ...]]


@dataclass(slots=True)
class CheckpointTrack:
    texts: list[str] = field(default_factory=list)  # normalised texts, by local id
    text: array = field(default_factory=lambda: array("I"))  # text id of each checkpoint
    line: array = field(default_factory=lambda: array("I"))  # 1-based line number
    time: array = field(default_factory=lambda: array("d"))  # epoch seconds or NaN
    rank: array = field(default_factory=lambda: array("i"))  # rank the line names, or -1
    # Serving-framework process tags whose rank only the whole bundle can tell.
    workers: list[str] = field(default_factory=list)
    worker: array = field(default_factory=lambda: array("i"))  # index into workers, or -1
    year_pending: array = field(default_factory=lambda: array("I"))  # entries without a year
    unplaced: int = 0  # candidate lines past the per-file budget: counted, not read
    _ids: dict[str, int] = field(default_factory=dict, repr=False)
    # A received track's compressed columns, until `unpack` (those columns are unset till then)
    _packed: dict[str, _Packed] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.text)

    def text_id(self, text: str) -> int:
        found = self._ids.get(text)
        if found is None:
            found = self._ids[text] = len(self.texts)
            self.texts.append(text)
        return found

    def add(
        self, text_id: int, line: int, time: float, rank: int | None, worker: str | None = None
    ) -> None:
        try:
            self.text.append(text_id)
            self.line.append(line)
            self.rank.append(NO_RANK if rank is None else rank)
        except OverflowError:  # a column narrowed for transport, or a line past 4 billion
            self._widen(len(self.time))
            return self.add(text_id, line, time, rank, worker)
        self.time.append(time)
        if worker is not None or self.workers:
            self._add_worker(worker)

    def set_rank(self, index: int, rank: int) -> None:
        """Change one entry's rank (the bundle's layout told it), whatever the column's type."""
        if self.rank.typecode != "i":
            self.rank = array("i", self.rank)
        self.rank[index] = rank

    def _widen(self, size: int) -> None:
        """Give every integer column its full type again, dropping a half-made entry."""
        self.truncate(size)
        self.text, self.rank = array("I", self.text), array("i", self.rank)
        self.line = array("Q", self.line)

    def make_room_for_line(self, line: int) -> None:
        """Widen the line column before a line number it cannot hold is appended (hot loops
        bind the column's `append` once per block, so they call this first)."""
        if line > _NARROW_LINE_MAX and self.line.typecode == "I":
            self.line = array("Q", self.line)

    def _add_worker(self, worker: str | None) -> None:
        if not self.workers:  # the first tag: earlier entries had none
            self.worker.extend([NO_RANK] * (len(self.text) - 1))
        if worker is None:
            self.worker.append(NO_RANK)
            return
        if worker not in self.workers:
            self.workers.append(worker)
        self.worker.append(self.workers.index(worker))

    def entry(self, index: int) -> tuple[str, int, float | None, int, str | None]:
        """One checkpoint as plain values (time rounded to the microsecond), to compare."""
        time = self.time[index]
        worker = self.worker[index] if self.workers else NO_RANK
        return (
            self.texts[self.text[index]],
            self.line[index],
            None if math.isnan(time) else round(time, 6),
            self.rank[index],
            self.workers[worker] if worker != NO_RANK else None,
        )

    def truncate(self, size: int) -> None:
        """Drop the entries from `size` on."""
        self.unpack()  # a job's checkpoint budget may cut a track that just arrived
        for column in (self.text, self.line, self.time, self.rank):
            del column[size:]
        if self.workers:
            del self.worker[size:]
        while self.year_pending and self.year_pending[-1] >= size:
            self.year_pending.pop()

    def keep_first(self, size: int) -> None:
        """Keep the first `size` entries; the dropped ones count as unplaced."""
        if len(self) > size:
            self.unplaced += len(self) - size
            self.truncate(size)

    def texts_in_order(self) -> Iterator[str]:
        texts = self.texts
        return (texts[i] for i in self.text)

    def ranks(self) -> set[int]:
        return set(self.rank) - {NO_RANK}

    def year_less_times(self) -> tuple[array, array]:
        """The entries waiting for a year and their times on the year-less grid, to keep
        before `settle_years(None)` drops them (the bundle may know the year)."""
        pending = self.year_pending
        return array("I", pending), array("d", (self.time[i] for i in pending))

    def place_year_less(self, kept: tuple[array, array], year: int) -> None:
        """Put back the year-less times `year_less_times` kept and place them in `year`;
        entries a job's checkpoint budget cut since then are passed over."""
        size = len(self)
        for index, grid in zip(*kept, strict=True):
            if index < size:
                self.time[index] = grid
                self.year_pending.append(index)
        self.settle_years(year)

    def settle_years(self, year: int | None) -> None:
        """Place the year-less times in `year` (or drop them when no year is known)."""
        days: dict[int, float] = {}
        for index in self.year_pending:
            day, seconds = divmod(self.time[index], 86400.0)
            base = days.get(int(day))
            if base is None and year is not None:
                base = days[int(day)] = _day_start(year, int(day))
            self.time[index] = NAN if base is None or math.isnan(base) else base + seconds
        self.year_pending = array("I")

    def __getstate__(self) -> dict:
        self.unpack()
        state = _narrowed({name: getattr(self, name) for name in _STATE}, len(self.texts))
        if len(self) >= PACK_MIN:
            for name in PACKED:
                state[name] = _pack(state[name])
        return state

    def __setstate__(self, state: dict) -> None:
        """The received track; a long one's `PACKED` columns stay compressed: `unpack` before
        reading them (an unset column raises `AttributeError`, never reads as empty)."""
        packed = {name: state[name] for name in PACKED if isinstance(state[name], tuple)}
        for name in _STATE:
            if name not in packed:
                setattr(self, name, state[name])
        self._packed = packed or None
        self._ids = {text: i for i, text in enumerate(self.texts)}

    def unpack(self) -> None:
        """Restore the columns a received track holds compressed (no-op on any other)."""
        packed, self._packed = self._packed, None
        for name, column in (packed or {}).items():
            setattr(self, name, _unpacked(column))


_LITTLE = sys.byteorder == "little"


def _narrowed(state: dict, texts: int) -> dict:
    """The integer columns in one byte per entry where their values allow (text ids below
    256, ranks from -1 to 127), else as they are. The low byte of each 4-byte item is taken
    with one strided slice: a file's columns are narrowed in well under a millisecond."""
    state["text"] = _low_bytes(state["text"], "B") if texts <= 0x100 else state["text"]
    rank = state["rank"]
    if rank and _LITTLE:
        first = rank[0]
        uniform = rank.count(first) == len(rank)
        low, high = (first, first) if uniform else (min(rank), max(rank))
        if low >= -0x80 and high < 0x80:
            state["rank"] = _low_bytes(rank, "b")
    return state


def _low_bytes(column: array, code: str) -> array:
    if not _LITTLE or column.itemsize != 4:
        return column
    return array(code, column.tobytes()[:: column.itemsize])


# The columns a track crosses to the parent compressed. Each is split into planes of its
# items' bytes: a high byte barely changes along a file (one value: sent as that value), a
# middle one deflates well, a low one of times or scattered line numbers hardly at all (sent
# as it is: inflating it would cost the parent more than its bytes are worth).
PACKED = ("line", "time", "rank")
# Shorter tracks cross as they are: they are small, and a few short streams cost more to
# deflate and inflate than they save.
PACK_MIN = 4096


def _pack(column: array) -> _Packed:
    raw, width, size = column.tobytes(), column.itemsize, len(column)
    planes: list[int | bytes] = []
    for byte in range(width):
        plane = raw[byte::width]
        if plane.count(plane[:1]) == size:
            planes.append(plane[0])
            continue
        deflated = compress_block(plane)
        planes.append(deflated if len(deflated) < size // 2 else plane)
    return column.typecode, size, tuple(planes)


def _unpacked(packed: _Packed) -> array:
    """The column `_pack` split, allocated at its exact size (`frombytes` would
    over-allocate by a sixteenth). A plane of `size` bytes was sent as it is, a shorter one
    deflated."""
    typecode, size, planes = packed
    column = array(typecode, [0]) * size
    width = column.itemsize
    constant = bytes(plane if isinstance(plane, int) else 0 for plane in planes)
    raw = bytearray(constant * size)
    for byte, plane in enumerate(planes):
        if isinstance(plane, bytes):
            raw[byte::width] = plane if len(plane) == size else decompress_block(plane)
    memoryview(column).cast("B")[:] = raw
    return column


_STATE = (
    "texts",
    "text",
    "line",
    "time",
    "rank",
    "workers",
    "worker",
    "year_pending",
    "unplaced",
)


def year_less(month: int, day: int, seconds_of_day: float) -> float:
    """A time without a year, kept until `settle_years` knows it: whole days on a grid of
    31-day months (so no calendar is needed yet) plus the seconds of that day."""
    return ((month - 1) * 31 + day - 1) * 86400.0 + seconds_of_day


def grid_month(grid: float) -> int:
    """The month (1-12) of a time on the `year_less` grid."""
    return int(grid // 86400.0) // 31 + 1


def _day_start(year: int, grid_day: int) -> float:
    month, day = divmod(grid_day, 31)
    try:
        return datetime(year, month + 1, day + 1, tzinfo=UTC).timestamp()
    except ValueError:  # 30 February: a misread, not a time
        return NAN


def is_timed(value: float) -> bool:
    return not math.isnan(value)


def from_entries(
    entries: Iterable[tuple[str, int, float, int | None, str | None]],
) -> CheckpointTrack:
    """A track from (text, line, time, rank, worker) tuples: for callers holding events."""
    track = CheckpointTrack()
    for text, line, time, rank, worker in entries:
        track.add(track.text_id(text), line, time, rank, worker)
    return track


def track_of(scan: FileScan) -> CheckpointTrack | None:
    """The scan's checkpoint track; scans assembled from events (tests, other producers)
    get one built from their CHECKPOINT events."""
    track = scan.facts.get("checkpoints")
    if isinstance(track, CheckpointTrack):
        return track
    events = [e for e in scan.events if e.kind == EventKind.CHECKPOINT]
    if not events:
        return None
    return from_entries(_entry(e) for e in sorted(events, key=lambda e: e.line))


def _entry(event: Event) -> tuple[str, int, float, int | None, str | None]:
    time = epoch(event.timestamp) if event.timestamp is not None else NAN
    return (event.message or event.text).strip(), event.line, time, event.rank, event.worker


def last_line_by_rank(track: CheckpointTrack) -> dict[int, int]:
    """The line of each rank's last checkpoint in the file (NO_RANK: lines naming none).
    A rank log names one rank throughout, which a count in C tells without a set of every
    entry's rank."""
    ranks, size = track.rank, len(track)
    if size and len(ranks) == size and ranks.count(ranks[-1]) == size:
        return {ranks[-1]: track.line[size - 1]}
    last: dict[int, int] = {}
    remaining = len(set(track.rank))
    for index in range(len(track) - 1, -1, -1):
        rank = track.rank[index]
        if rank not in last:
            last[rank] = track.line[index]
            if len(last) == remaining:
                break
    return last


class JobBudget:
    """Checkpoints placed across the whole job, so the parent's memory stays bounded however
    many checkpoint-heavy files a bundle holds: a file arriving past it keeps only what fits
    (its track says how many were not placed, and the report warns)."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def take(self, scan: FileScan) -> None:
        track = scan.facts.get("checkpoints")
        if isinstance(track, CheckpointTrack):
            track.keep_first(max(self.left, 0))
            self.left -= len(track)
