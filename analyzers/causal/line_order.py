"""The order the first error is chosen in: file by file by each file's earliest top-tier
line, lines in their file's order, with untimed lines placed by the timed record they stand under
(a logged exception, a CANN error-manager block) or the peers' losses that bound them.

One writer's file order is the truth even where its two clocks disagree, so times order files,
never the lines within one::

    [ERROR] 2026-10-22-12:47:24 (PID:8308179, ...) ERR00100 PTA call acl api failed
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.chain import epoch
from analyzers.causal.shared_files import NO_WRITER, shared_file_writers
from analyzers.causal.untimed_bound import untimed_bounds
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import CANN_BLOCK_SOURCE
from analyzers.core.types import FileKind, FileScan

MAX_BLOCK_LINES = 70  # a CANN block's headline, reason and trace (formats.cann_block)

_KIND_PRIORITY = {FileKind.RANK_LOG: 0, FileKind.PLOG: 1, FileKind.DEVICE_LOG: 1}


def record_times(
    items: Sequence[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan]
) -> dict[tuple[int, int], float]:
    """{(file order, exception line): moment} for an exception without a time whose traceback
    header stands right under a timed error record of the same writer: Python logging's
    `logger.exception(...)` prints the record's line, then the traceback, in one write, so the
    exception happened at the record's time. The lines of a CANN error-manager block under a
    timed record take its time likewise (`block_times`)."""
    found = block_times(items, offsets)
    timed = {
        (item.order, item.event.line): (moment, item.rank)
        for item in items
        if (moment := epoch(item, offsets)) is not None and not item.event.collected
    }
    copies: dict[tuple[int | None, str], set[int]] = {}
    for item in items:
        copies.setdefault((item.rank, _words_of(item)), set()).add(item.order)
    headers = {
        (order, record["line"]): record["header"]
        for order, scan in enumerate(scans)
        for record in scan.facts.get("tracebacks") or ()
        if record.get("header")
    }
    shared: dict[tuple[int | None, str], float] = {}
    for item in items:
        header = headers.get((item.order, item.event.line))
        if item.event.timestamp is not None or header is None:
            continue
        above = timed.get((item.order, header - 1))
        if above is None or (above[1] is not None and above[1] != item.rank):
            continue
        words = (item.rank, _words_of(item))
        if copies[words] - {item.order}:
            # the rank printed the same exception elsewhere too: every copy takes the record's
            # time, so the copies keep their order among themselves while the ranks are
            # ordered by their records
            if item.rank is not None:
                shared[words] = min(shared.get(words, above[0]), above[0])
            continue
        found[(item.order, item.event.line)] = above[0]
    for item in items:
        moment = shared.get((item.rank, _words_of(item)))
        if moment is not None and item.event.timestamp is None:
            found.setdefault((item.order, item.event.line), moment)
    return found


def block_times(
    items: Sequence[Classified], offsets: Mapping[int, float]
) -> dict[tuple[int, int], float]:
    """{(file order, line): moment} for the untimed lines of a CANN error-manager block (its
    TraceBack, a headline's reason) printed under a timed record of the same writer: a plog
    line that quotes an `EZ9903` headline, then `Solution:`, `TraceBack (most recent call
    last):` and the indented trace (`there is an exception of fftsplus aivector error`). The
    runtime writes the record and its block at once, so the trace happened at the record's
    time; by itself the untimed line would sort after every timed line of another file."""
    found: dict[tuple[int, int], float] = {}
    record: tuple[int, int, int | None, float] | None = None  # order, line, rank, moment
    for item in sorted(items, key=lambda i: (i.order, i.event.line)):
        moment = epoch(item, offsets)
        if moment is not None and not item.event.collected:
            record = (item.order, item.event.line, item.rank, moment)
            continue
        if (
            record is not None
            and item.event.timestamp is None
            and item.event.source == CANN_BLOCK_SOURCE
            and record[0] == item.order
            and record[2] in (None, item.rank)
            and 0 < item.event.line - record[1] <= MAX_BLOCK_LINES
        ):
            found[(item.order, item.event.line)] = record[3]
        else:
            record = None  # another untimed line between: the block is not the record's
    return found


def _words_of(item: Classified) -> str:
    return (item.event.message or item.event.text).strip()


def causal_order(
    items: Sequence[Classified],
    offsets: Mapping[int, float],
    recorded: Mapping[tuple[int, int], float] | None = None,
    ceilings: Mapping[tuple[int, int], float] | None = None,
) -> list[Classified]:
    """Events ordered file by file (by each file's earliest top-tier line), lines in order; a
    file whose ranks' own times contradict its line order is ordered rank by rank instead
    (`analyzers.causal.shared_files`).

    Where some top-tier line carries a time the program wrote, a line timed only by a log
    collector's stamp is ordered like an untimed one: the two clocks are not one. An untimed
    exception printed under a timed log record takes that record's time (`record_times`), and
    an agent's C++ line no later than its own Python lines printed after it (`ceilings`,
    `analyzers.causal.written_before`)."""
    if not items:
        return []
    best_tier = max(item.tier for item in items)
    bounds = dict(untimed_bounds(items, offsets))
    for item in items:
        moment = (recorded or {}).get((item.order, item.event.line))
        if moment is not None and item.tier == best_tier:
            bounds[item.order] = min(bounds.get(item.order, moment), moment)
    top = [item for item in sorted(items, key=lambda i: i.event.line) if item.tier == best_tier]
    own_clock = any(item.event.timestamp is not None and not item.event.collected for item in top)
    writers = shared_file_writers(top, items, offsets)

    def writer(item: Classified) -> tuple[int, int]:
        return (item.order, writers.get((item.order, item.event.line), NO_WRITER))

    file_keys: dict[object, tuple[int, float, int, int, int]] = {}
    for item in top:
        for group in (item.order, writer(item)):
            if group not in file_keys:
                if own_clock and item.event.collected:
                    file_keys[group] = _file_key(item, offsets, timed=False)
                else:
                    ceiling = (ceilings or {}).get((item.order, item.event.line))
                    file_keys[group] = _file_key(
                        item, offsets, bounds.get(item.order), ceiling=ceiling
                    )
    last = (2, 0.0, 0, 0, 0)
    return sorted(
        items,
        key=lambda i: (
            file_keys.get(writer(i), file_keys.get(i.order, last)),
            writer(i),
            i.event.line,
        ),
    )


def _file_key(
    item: Classified,
    offsets: Mapping[int, float],
    bound: float | None = None,
    *,
    timed: bool = True,
    ceiling: float | None = None,
) -> tuple[int, float, int, int, int]:
    seconds = epoch(item, offsets) if timed else None
    if seconds is not None and ceiling is not None:
        seconds = min(seconds, ceiling)  # printed before a line of its writer stamped earlier
    if seconds is None and item.event.timestamp is None:
        seconds = bound  # an untimed failure that a peer's timed loss places
    weight = item.best.weight if item.best else 0
    untimed = 1 if seconds is None else 0
    return (untimed, seconds or 0.0, -weight, _KIND_PRIORITY.get(item.kind, 2), item.order)
