"""One rank's status and first error, from its own lines and the launcher's report.

Statuses in order of precedence: missing > killed > error > ok > hung. A rank that stopped
with no error, no fatal signal and no success line was waiting for something (hung). The
launcher's exit codes come from the scanner's facts["elastic_failures"].
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from analyzers.checkpoints.patterns import is_success
from analyzers.checkpoints.patterns import termination_signals as _termination_signals
from analyzers.core.checkpoint_timeline import Checkpoint, Timeline
from analyzers.core.checkpoint_timeline import epoch as epoch_of
from analyzers.core.exits import signal_named
from analyzers.core.types import Event, FileScan, RankStatus, RankSummary


@dataclass(slots=True)
class RankFiles:
    """Everything one rank left in the bundle, grouped by file."""

    present: bool = False
    errors: dict[str, list[Event]] = field(default_factory=dict)
    killed_line: bool = False
    priority: dict[str, tuple[int, str]] = field(default_factory=dict)
    # file -> its last line, for files that end without a line end (cut mid-line)
    cut: dict[str, int] = field(default_factory=dict)


# --- status -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LauncherExit:
    """How the launcher says a rank's process ended."""

    exitcode: int | None
    signal: int | None


def rank_summary(
    rank: int,
    files: RankFiles | None,
    timeline: Timeline,
    missing: bool,
    exit_: LauncherExit | None,
) -> RankSummary:
    first = _first_error(files) if files else None
    seq = timeline.ranks.get(rank)
    last = timeline.last(rank)
    return RankSummary(
        rank=rank,
        status=_status(files, last, missing, exit_, first is not None),
        last_checkpoint=last.text if last else None,
        first_error=first.ref() if first else None,
        checkpoints=len(seq) if seq else 0,
        last_checkpoint_qualified=last.qualified if last else None,
        last_checkpoint_occurrence=last.index + 1 if last else None,
        files=sorted(files.priority, key=files.priority.__getitem__) if files else [],
        log_cut=[{"file": f, "line": n} for f, n in sorted(files.cut.items())] if files else [],
    )


def _status(
    files: RankFiles | None,
    last: Checkpoint | None,
    missing: bool,
    exit_: LauncherExit | None,
    has_error: bool,
) -> RankStatus:
    """missing > killed > error > ok > hung: a rank that stopped without an error, a fatal
    signal or a success line was waiting for something."""
    if missing or files is None:
        return RankStatus.MISSING
    if files.killed_line or (exit_ is not None and _fatal_signal(exit_, has_error)):
        return RankStatus.KILLED
    if has_error or (exit_ is not None and (exit_.exitcode or 0) > 0):
        return RankStatus.ERROR
    if (last is not None and is_success(last.text)) or (exit_ is not None and exit_.exitcode == 0):
        return RankStatus.OK
    return RankStatus.HUNG


def _fatal_signal(exit_: LauncherExit, has_error: bool = False) -> bool:
    """A signal the process died of by itself (SIGSEGV, SIGKILL from the OOM killer), as
    opposed to the SIGTERM a launcher sends the survivors. SIGABRT after the rank logged an
    error is how a native exception nobody caught ends the process (`terminate called`): the
    rank failed on what it logged, it was not killed."""
    number = exit_.signal
    if number is None and exit_.exitcode is not None and exit_.exitcode < 0:
        number = -exit_.exitcode
    if number is None:
        return False
    name = signal_named(number)
    if has_error and name == "SIGABRT":
        return False
    return name not in _termination_signals()


def _first_error(files: RankFiles) -> Event | None:
    """The earliest error line of the rank: by time when every file's first error has one,
    else the rank's own log before the launcher's copy."""
    firsts = [min(events, key=lambda e: e.line) for events in files.errors.values()]
    if not firsts:
        return None
    if all(e.timestamp for e in firsts):
        return min(firsts, key=lambda e: (epoch(e.timestamp), files.priority[e.file], e.line))
    return min(firsts, key=lambda e: (files.priority[e.file], e.line))


def elastic_exits(scans: Sequence[FileScan]) -> dict[int, LauncherExit]:
    """Rank -> exit from torchelastic failure reports (facts["elastic_failures"])."""
    exits: dict[int, LauncherExit] = {}
    for scan in scans:
        for failure in scan.facts.get("elastic_failures") or ():
            rank = _first_int(failure, ("rank", "global_rank", "local_rank"))
            if rank is not None:
                exits[rank] = _merge_exit(exits.get(rank), _exit_of(failure))
    return exits


def _exit_of(failure: Mapping[str, Any]) -> LauncherExit:
    code = _first_int(failure, ("exitcode", "exit_code"))
    raw = failure.get("signal")
    number = as_int(raw)
    if number is None and isinstance(raw, str) and raw.upper().startswith("SIG"):
        number = getattr(signal.Signals, raw.upper(), None)
    return LauncherExit(code, int(number) if number is not None else None)


def _merge_exit(old: LauncherExit | None, new: LauncherExit) -> LauncherExit:
    """Two reports of one rank (the `failed (exitcode: ...)` line and the summary block)."""
    if old is None:
        return new
    return LauncherExit(
        old.exitcode if old.exitcode is not None else new.exitcode,
        old.signal if old.signal is not None else new.signal,
    )


def _first_int(data: Mapping[str, Any], keys: Iterable[str]) -> int | None:
    for key in keys:
        value = as_int(data.get(key))
        if value is not None:
            return value
    return None


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d+", value.strip()):
        return int(value)
    return None


def epoch(moment: datetime | None) -> float:
    """Seconds since the epoch (`core.checkpoint_timeline.epoch`); no time sorts last."""
    return float("inf") if moment is None else epoch_of(moment)
