"""Per rank, the collective it waited in, as its wait's own lines name it.

    File ".../torch/distributed/distributed_c10d.py", line 4287, in all_gather
    [Rank 3] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=42, OpType=ALLREDUCE, ...

The innermost frame of the traceback under a rank's timeout names the collective it had
entered (`in all_gather`); where too few ranks printed a traceback, the watchdog's timeout
line names the work it gave up on (`OpType=ALLREDUCE`). `causal.wait_places` compares the
ranks by it.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzers.causal.chain import MIN_WAITERS
from analyzers.classify.collective_frames import frame_call
from analyzers.classify.matches import Classified, Match
from analyzers.core.types import FileScan
from analyzers.formats.exception_events import FRAME_SOURCE


def waited_calls(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, str]:
    """Per rank, the collective it waited in: read from the tracebacks' frames, or, when
    too few ranks printed one, from the work types their timeout lines name. The two are
    never mixed: a frame says `all_reduce` where the watchdog says `ALLREDUCE`."""
    calls = frame_calls(items, scans)
    if len(calls) > MIN_WAITERS:
        return calls
    works = _work_types(items)
    return works if len(works) > len(calls) else calls


def _work_types(items: Sequence[Classified]) -> dict[int, str]:
    """Per rank, the work type (`ALLREDUCE`, `_ALLGATHER_BASE`) its first collective timeout
    names, as the watchdog prints it."""
    works: dict[int, str] = {}
    for item in items:
        if item.rank is None or item.rank in works:
            continue
        op = next((m.operator for m in item.matches if _names_work(m)), None)
        if op is not None:
            works[item.rank] = op
    return works


def _names_work(match: Match) -> bool:
    return match.role == "symptom" and match.category == "hccl" and match.operator is not None


def frame_calls(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, str]:
    """Per rank, the collective its first traceback-backed wait was in."""
    by_path = {scan.info.path: scan for scan in scans}
    frames: dict[str, dict[int, str]] = {}
    calls: dict[int, str] = {}
    for item in items:
        if item.rank is None or item.rank in calls:
            continue
        scan = by_path.get(item.event.file)
        if scan is None:
            continue
        if item.event.file not in frames:
            frames[item.event.file] = _frames_of(scan)
        call = frames[item.event.file].get(item.event.line)
        if call is not None:
            calls[item.rank] = call
    return calls


def _frames_of(scan: FileScan) -> dict[int, str]:
    """Exception line -> collective named by its innermost frame, for one file."""
    calls = {line: frame_call(frame) for line, frame in innermost_frames(scan).items()}
    return {line: call for line, call in calls.items() if call is not None}


def innermost_frames(scan: FileScan) -> dict[int, str]:
    """Exception line -> the innermost frame of its traceback, for one file."""
    lines = {e.line: e.message for e in scan.events if e.source == FRAME_SOURCE}
    found: dict[int, str] = {}
    introduced: dict[int, str] = {}
    for record in scan.facts.get("tracebacks") or ():
        frame = lines.get(record.get("frame_line"))
        if frame:
            found[record["line"]] = frame
            if record.get("header"):
                # Python logging's `logger.exception(...)` writes its record, then the
                # traceback right under it: the record is the same failure, in that frame
                introduced[record["header"] - 1] = frame
    return {**introduced, **found}
