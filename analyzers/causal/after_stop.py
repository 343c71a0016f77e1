"""Lines printed after the job was stopped from outside (the agent's signal record, a
scheduler's cancel) are what the stop did to the ranks, not why they failed; and the lines placed
before it are what the stop interrupted.

Placing a line against the stop takes its time on one clock, else its file's order, else the
launcher's `--tee` copy of it, else the times its file printed before it::

    torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGTERM death signal, shutting down workers
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, epoch
from analyzers.checkpoints.track import track_of
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE
from analyzers.core.types import FileScan


def demote_cascades_after_stop(
    items: Sequence[Classified], offsets: Mapping[int, float], scans: Sequence[FileScan] = ()
) -> None:
    """A lost peer or a re-raise printed after the job was stopped from outside (the agent's
    signal record, a scheduler's cancel) is what the stop did to the ranks: an interrupted
    rank drops its connections and its peers report them closed. On a job of several nodes
    the stopped agent's node is not the one whose ranks report the loss, and their lines
    often carry no time: a line with none is after the stop when the lines its file printed
    before it are already no earlier than the stop, within the clocks' tolerance."""
    stops = [i for i in items if i.best is not None and i.best.signature.outside_stop]
    if not stops:
        return
    stop = min(stops, key=lambda i: (i.order, i.event.line))
    copies = _copies_in(items, stop)
    stopped = epoch(stop, offsets)
    floors = _untimed_floors(items, scans) if stopped is not None else {}
    if stopped is not None:
        for key, when in _timed_twins(items, offsets).items():
            floors[key] = max(floors.get(key, when), when)
    for item in items:
        if (
            item.tier <= TIER_CASCADE
            and item.tier > stop.tier
            and (
                _after(item, stop, offsets, copies)
                or (
                    stopped is not None
                    and item.order != stop.order
                    and floors.get(id(item), stopped - 2 * CLOCK_TOLERANCE_S)
                    >= stopped - CLOCK_TOLERANCE_S
                )
            )
        ):
            item.tier, item.demoted = stop.tier - 0.5, True


_STATED = re.compile(r"(?:Error|Exception|error|failed): (?P<what>.{24,})$")


def _timed_twins(items: Sequence[Classified], offsets: Mapping[int, float]) -> dict[int, float]:
    """{id(item): time} for an untimed line (torch's `[rank0]: RuntimeError: ...` traceback in
    a torchrun `stderr.log`) whose rank also logged the same error with a time in another
    file (`... [local_rank0] ERROR model run failed: ...` in its `stdout.log`): a rank logs an
    exception while handling it, and the uncaught traceback is printed after that, so the
    logged time is a floor for the traceback's line."""
    timed: dict[tuple[int, str], list[tuple[str, float]]] = {}
    for item in items:
        when = epoch(item, offsets)
        if when is not None and item.rank is not None and item.best is not None:
            key = (item.rank, item.best.signature.id)
            timed.setdefault(key, []).append((item.event.message or item.event.text, when))
    twins: dict[int, float] = {}
    for item in items:
        if item.event.timestamp is not None or item.rank is None or item.best is None:
            continue
        stated = _STATED.search((item.event.message or item.event.text).rstrip())
        if stated is None:
            continue
        what = stated.group("what")
        times = [
            when
            for text, when in timed.get((item.rank, item.best.signature.id), ())
            if what in text
        ]
        if times:
            twins[id(item)] = min(times)
    return twins


def _untimed_floors(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, float]:
    """{id(item): the latest time its file printed before it}, for lines without a time of
    their own in files whose progress lines carry one: the line was written after those.
    One pass over each such file's progress lines (a running maximum), then a bisection per
    line, so a long file costs its length once."""
    wanted = {item.order for item in items if item.event.timestamp is None}
    peaks_of: dict[int, tuple[list[int], list[float]]] = {}
    for order in wanted:
        track = track_of(scans[order]) if order < len(scans) else None
        if track is not None:
            peaks_of[order] = _running_peaks(track.line, track.time)
    floors: dict[int, float] = {}
    for item in items:
        if item.event.timestamp is not None or item.order not in peaks_of:
            continue
        lines, peaks = peaks_of[item.order]
        before = bisect_left(lines, item.event.line)  # progress lines above this one
        if before:
            floors[id(item)] = peaks[before - 1]
    return floors


def _running_peaks(lines: Iterable[int], times: Iterable[float]) -> tuple[list[int], list[float]]:
    """The timed progress lines of a file in order, each with the latest time up to it."""
    kept, peaks, peak = [], [], float("-inf")
    for line, time in zip(lines, times, strict=True):
        if time == time:  # NaN: an untimed progress line
            peak = time if time > peak else peak
            kept.append(line)
            peaks.append(peak)
    return kept, peaks


def placed_before_stop(items: Sequence[Classified], offsets: Mapping[int, float]) -> set[int]:
    """Ids of the lines that the clock, their own file or the launcher's copy of them places
    before the job's stop record (the mirror of `_after`); none without a record."""
    stops = [i for i in items if i.best is not None and i.best.signature.outside_stop]
    if not stops:
        return set()
    stop = min(stops, key=lambda i: (i.order, i.event.line))
    copies = _copies_in(items, stop)
    return {id(item) for item in items if item is not stop and _before(item, stop, offsets, copies)}


def _before(
    item: Classified,
    stop: Classified,
    offsets: Mapping[int, float],
    copies: Mapping[tuple[int | None, str], Sequence[int]],
) -> bool:
    when, stopped = epoch(item, offsets), epoch(stop, offsets)
    if when is not None and stopped is not None and _one_clock(item, stop):
        return when < stopped
    if item.order == stop.order:
        return item.event.line < stop.event.line
    if (when is not None and stopped is None) or item.rank is None:
        return False
    lines = copies.get((item.rank, item.event.message), ())
    return bool(lines) and min(lines) < stop.event.line


def _copies_in(
    items: Sequence[Classified], stop: Classified
) -> dict[tuple[int | None, str], list[int]]:
    """Lines of the stop's own file by rank and words: a launcher that tees its ranks' output
    (torchrun's `--tee`, `[default0]:` before each line) holds a copy of every line a rank
    wrote to its own file, placed among the launcher's own lines in the order they came."""
    copies: dict[tuple[int | None, str], list[int]] = {}
    for item in items:
        if item.order == stop.order and item.rank is not None:
            copies.setdefault((item.rank, item.event.message), []).append(item.event.line)
    return copies


def _after(
    item: Classified,
    stop: Classified,
    offsets: Mapping[int, float],
    copies: Mapping[tuple[int | None, str], Sequence[int]] | None = None,
) -> bool:
    """Later than the stop by the clock when both lines carry time on one clock, else later in
    its file, else (a line of a rank's own file) when the copy of the same line that the
    stop's file holds comes after the stop.

    A collector's stamp in front of a line (`kubectl logs --timestamps`, the journal: when it
    read the line) and a time the program wrote itself are not on one clock: the program's
    zone and the hosts' offset are not in the lines."""
    when, stopped = epoch(item, offsets), epoch(stop, offsets)
    if when is not None and stopped is not None and _one_clock(item, stop):
        return when > stopped
    if item.order == stop.order:
        return item.event.line > stop.event.line
    if (when is not None and stopped is None) or item.rank is None or not copies:
        return False
    lines = copies.get((item.rank, item.event.message), ())
    return bool(lines) and min(lines) > stop.event.line


def _one_clock(item: Classified, other: Classified) -> bool:
    return item.event.collected == other.event.collected
