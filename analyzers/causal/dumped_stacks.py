"""Whom a hang blames from the stacks its ranks dumped while they hung.

When every rank stopped at the same checkpoint, the checkpoints single nobody out. A job set
up to show where it hangs (faulthandler's timer or signal dumps, read by
`formats.stack_dump`) still does: each rank's main thread was somewhere when the dump was
taken. Ranks of a hang wait in a collective for the one that did not come, so:

- the few whose main thread is outside any collective (a loop of their own, a sleep, a
  stuck host-side call) while the others wait in one are the ones the others wait for;
- when every dumped rank is in a collective, the few in another collective than most left
  the program step the others are in (collectives called in a different order), as for
  tracebacks under a timeout (`causal.wait_places`).

Only the last main-thread stack of each rank counts (the latest view of where it stood), and
it takes at least three dumped ranks, most of the ranks that stopped, and a strict minority to
single anyone out. docs/labelling.md, "Stacks a hung job dumped".

Dumps attached for a few ranks only (an engineer runs py-spy on the rank that looks stuck and
saves its output beside the logs) leave no pack to compare against, but say as much on their
own when every one of them is outside any collective: in a job that stopped at one checkpoint,
a rank in its own code is not waiting for a peer, so the others wait for it
(`alone_in_dumps`). docs/labelling.md, "A dump attached for the stuck rank alone".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from analyzers.classify.collective_frames import frame_call
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import EventKind, FileScan
from analyzers.formats.stack_dump import FACT

MIN_DUMPED = 3  # one rank against one is no pack to compare against
INNERMOST = 3  # frames looked at for the collective call: the API call sits on top


def apart_in_dumps(
    scans: Sequence[FileScan], stopped: Sequence[int]
) -> tuple[list[int], Said] | None:
    """The few stopped ranks whose dumped stack stands apart from the others', and why."""
    where = _last_main_stacks(scans, set(stopped))
    if len(where) < MIN_DUMPED or len(where) * 2 <= len(stopped):
        return None
    calls = {rank: _collective(frames) for rank, frames in where.items()}
    outside = sorted(rank for rank, call in calls.items() if call is None)
    inside = {rank: call for rank, call in calls.items() if call is not None}
    if outside:
        if len(inside) < 2 or len(outside) * 2 >= len(calls):
            return None
        common = Counter(inside.values()).most_common(1)[0][0]
        frame = _function(where[outside[0]][0])
        values = {"ranks": ranks_said(outside), "frame": frame, "common": common}
        return outside, say("dumps.outside", many=several(outside), **values)
    common, count = Counter(inside.values()).most_common(1)[0]
    odd = sorted(rank for rank, call in inside.items() if call != common)
    if not odd or count * 2 <= len(inside):
        return None
    theirs = ", ".join(sorted({inside[rank] for rank in odd}))
    values = {"ranks": ranks_said(odd), "call": theirs, "common": common}
    return odd, say("dumps.other_collective", many=several(odd), **values)


def alone_in_dumps(
    scans: Sequence[FileScan], stopped: Sequence[int]
) -> tuple[list[int], Said] | None:
    """The stopped ranks dumped outside any collective when only a few ranks were dumped at
    all, each of those outside: fewer than half of the stopped ranks, and no dumped rank
    waiting in a collective beside them (a dump in one would make it a comparison, which
    `apart_in_dumps` reads with a pack of at least three)."""
    where = _last_main_stacks(scans, set(stopped))
    if not where or len(where) * 2 >= len(stopped) or len(where) >= MIN_DUMPED:
        return None
    if any(_collective(frames) is not None for frames in where.values()):
        return None
    alone = sorted(where)
    frame = _function(where[alone[0]][0])
    return alone, say("dumps.alone", many=several(alone), ranks=ranks_said(alone), frame=frame)


def waiting_in_dumps(scans: Sequence[FileScan], ranks: Sequence[int]) -> set[int]:
    """The ranks (of `ranks`) whose last dumped main-thread stack waits in a collective: a
    rank another rank's wait line names is not what that rank waits for when its own dump shows
    it waiting too (a cycle of waits), docs/labelling.md, "A wait that names its peer"."""
    where = _last_main_stacks(scans, set(ranks))
    return {rank for rank, frames in where.items() if _collective(frames) is not None}


def timer_dump_only(scans: Sequence[FileScan], rank: int) -> bool:
    """The rank dumped its stacks under the dump timer's headline (`Timeout (0:00:07)!`) in a
    file of its own, and that file holds no error line: all it said before it ended is the
    dump (`dump_traceback_later(..., exit=True)` exits with status 1 right after it)."""
    dumped = False
    for scan in scans:
        if scan.info.rank != rank:
            continue
        if any(event.kind == EventKind.ERROR for event in scan.events):
            return False
        dumped = dumped or any(stack.get("timer") for stack in scan.facts.get(FACT) or ())
    return dumped


def dumped_without_error(scans: Sequence[FileScan], rank: int) -> bool:
    """The rank dumped its stacks (a timer's or a signal handler's dump, in its own file or
    under its tag in a shared one) and logged no error line anywhere."""
    dumped = False
    for scan in scans:
        for event in scan.events:
            if event.kind == EventKind.ERROR and (event.rank, scan.info.rank).count(rank):
                return False
        dumped = dumped or any(stack.get("rank") == rank for stack in scan.facts.get(FACT) or ())
    return dumped


def _last_main_stacks(scans: Sequence[FileScan], ranks: set[int]) -> dict[int, list[str]]:
    """Per rank, the frames of the last main-thread stack it dumped (file order, then line);
    a rank whose log holds its stacks twice (its own file and a launcher's copy) reads the
    same stack from either."""
    found: dict[int, tuple[str, int, list[str]]] = {}
    for scan in scans:
        for stack in scan.facts.get(FACT) or ():
            rank = stack.get("rank")
            if rank not in ranks or not stack.get("main") or not stack.get("frames"):
                continue
            key = (scan.info.path, int(stack["line"]))
            kept = found.get(rank)
            if kept is None or (kept[0] == key[0] and kept[1] < key[1]):
                found[rank] = (key[0], key[1], list(stack["frames"]))
    return {rank: frames for rank, (_, _, frames) in found.items()}


def _collective(frames: Sequence[str]) -> str | None:
    """The collective the innermost frames are in, or None when they are in none."""
    for frame in frames[:INNERMOST]:
        call = frame_call(frame)
        if call is not None:
            return call
    return None


def _function(frame: str) -> str:
    """`_spin` from `File "x.py", line 83 in _spin` (faulthandler) or `_spin (x.py:83)`
    (py-spy)."""
    if frame.startswith('File "'):
        return frame.rsplit(" in ", 1)[-1].strip()
    return frame.split(" (", 1)[0].strip()
