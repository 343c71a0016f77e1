"""How each rank's process ended, settled once the diagnosis is made.

The correlation gives every rank a status from its own lines and torchrun's exit records, and
the causal stages read the job with those statuses: a rank that stopped without an error, a
crash signal or a success line is `hung` there, one that was waiting. Two kinds of such rank
did not hang, and the rank table says so once nothing reads the statuses any more:

- **Killed.** The launcher reports the rank's process ended by a signal:

      failed (exitcode: -9) local_rank: 5 (pid: 27258) of binary: /usr/bin/python3
      exitcode  : -15 (pid: 27253)  (SIGTERM)
      srun: error: node-2: task 5: Killed
      rank 2 (pid 19665) exited with status 143
      mpirun noticed that process rank 3 with PID 18900 on node gpu-2 exited on signal 9 (Killed).
      x1203c0s5b0n0.hsn.cm.example.org: rank 0 died from signal 15
      torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL
      ./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py --local_rank 3

  A crash signal or SIGKILL is a death whatever the rank was doing. A termination signal
  (SIGTERM, SIGINT, SIGHUP; torchrun's teardown of the survivors) is one when the rank was
  still advancing up to it: its last progress line within the clocks' tolerance before the
  launcher's record of the end. A rank whose progress stopped long before, or that printed no
  time, was stuck already and the signal only ended the hang: it stays `hung`. The ranks of
  a node that went down together (`multirank`'s silent death of blamed ranks, labelling
  guide "A node that drops out") are killed too.
- **Ok.** A rank that logged its normal end (its success line, or an exit status 0 by the
  launcher's record) and was then stopped by a termination or teardown signal, because a
  peer failed while it was still shutting down, finished its work.

torchrun's records come from `facts["elastic_failures"]`; other launchers' lines are read
by `checkpoints.yaml`'s `status.launcher_ends`. spawn numbers its processes on each node, as
a command's `--local_rank` does, so its index names a rank through its file's own block of
ranks. A line that names only a node (Slurm cancelling a node's step because some node
failed) ends the ranks the other records place on that node, by their `host` (torchrun's
records, srun, Open MPI, PALS); a node no record places a rank on changes nothing, since
guessing its ranks from file names could mark the wrong ranks stopped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from analyzers.causal.chain import CLOCK_TOLERANCE_S
from analyzers.checkpoints.launcher_ends import LauncherEnd
from analyzers.checkpoints.patterns import (
    is_success,
    launcher_end,
    teardown_signals,
    termination_signals,
)
from analyzers.checkpoints.track import NO_RANK
from analyzers.core.checkpoint_timeline import epoch
from analyzers.core.types import Correlation, EventKind, FileScan, RankStatus, RankSummary
from analyzers.formats.elastic import signal_name
from analyzers.timeline.rank_status import as_int


@dataclass(frozen=True, slots=True)
class RankEnd:
    """One launcher record of how a rank's process ended; `at` in epoch seconds, when the
    record has a time."""

    exitcode: int | None
    signal: str | None
    at: float | None


def settle_rank_statuses(correlation: Correlation, scans: Sequence[FileScan]) -> None:
    """Give the ranks that were stopped rather than stuck the status of how they ended."""
    ends = rank_ends(scans)
    for summary in correlation.ranks:
        found = ends.get(summary.rank, [])
        if found and summary.status in (RankStatus.HUNG, RankStatus.KILLED):
            summary.status = _settled(summary, found, _last_progress(correlation, summary.rank))


def mark_dead(correlation: Correlation, ranks: Iterable[int]) -> None:
    """The diagnosis reads these silent ranks as dead (their peers lost them): not hung."""
    dead = set(ranks)
    for summary in correlation.ranks:
        if summary.rank in dead and summary.status == RankStatus.HUNG:
            summary.status = RankStatus.KILLED


def _settled(summary: RankSummary, ends: Sequence[RankEnd], last: float | None) -> RankStatus:
    stops = termination_signals() | teardown_signals()
    signals = [end for end in ends if end.signal is not None]
    if _ended_normally(summary, ends) and signals and all(e.signal in stops for e in signals):
        return RankStatus.OK
    if summary.status != RankStatus.HUNG:
        return summary.status
    if any(end.signal not in termination_signals() for end in signals):
        return RankStatus.KILLED
    if any(_while_advancing(end, last) for end in signals):
        return RankStatus.KILLED
    if any(end.exitcode == 0 for end in ends):
        return RankStatus.OK
    return summary.status


def _ended_normally(summary: RankSummary, ends: Sequence[RankEnd]) -> bool:
    logged = summary.last_checkpoint is not None and is_success(summary.last_checkpoint)
    return logged or any(end.exitcode == 0 for end in ends)


def _while_advancing(end: RankEnd, last: float | None) -> bool:
    """The rank printed progress within the clocks' tolerance before the record of its end
    (a record that gives whole seconds only may come up to a second before the line)."""
    return end.at is not None and last is not None and last >= end.at - CLOCK_TOLERANCE_S


def _last_progress(correlation: Correlation, rank: int) -> float | None:
    seq = correlation.timeline.ranks.get(rank)
    if seq is None or not len(seq.time):
        return None
    last = seq.time[-1]
    return None if math.isnan(last) else last


# --- the launchers' records --------------------------------------------------------------


def rank_ends(scans: Sequence[FileScan]) -> dict[int, list[RankEnd]]:
    """Rank -> every launcher record of how its process ended."""
    ends: dict[int, list[RankEnd]] = {}
    hosts: dict[str, set[int]] = {}
    whole: list[tuple[str, RankEnd]] = []
    for scan in scans:
        for failure in scan.facts.get("elastic_failures") or ():
            rank = as_int(failure.get("rank"))
            rank = rank if rank is not None else as_int(failure.get("local_rank"))
            if rank is not None:
                ends.setdefault(rank, []).append(_elastic_end(failure))
                _place(hosts, failure.get("host"), (rank,))
        for found, at in _launcher_lines(scan):
            end = RankEnd(found.exitcode, found.signal, at)
            if found.whole_host:
                whole.append((_short(found.host or ""), end))
                continue
            ranks = _global(found.ranks, scan) if found.local else found.ranks
            _place(hosts, found.host, ranks)
            for rank in ranks:
                ends.setdefault(rank, []).append(end)
    for host, end in whole:
        for rank in sorted(hosts.get(host, ())):
            ends.setdefault(rank, []).append(end)
    return ends


def _launcher_lines(scan: FileScan) -> Iterable[tuple[LauncherEnd, float | None]]:
    for event in scan.events:
        if event.kind == EventKind.CHECKPOINT:
            continue
        found = launcher_end(event.message or event.text)
        if found is not None:
            stated = _stated_time(found.at)
            yield found, stated if stated is not None else _event_time(event.timestamp)


def _event_time(timestamp: datetime | None) -> float | None:
    return epoch(timestamp) if timestamp else None


def _stated_time(text: str | None) -> float | None:
    """The time a line states itself (Slurm's `CANCELLED AT 2023-03-06T03:17:51`)."""
    if text is None:
        return None
    try:
        return epoch(datetime.fromisoformat(text))
    except ValueError:
        return None


def _place(hosts: dict[str, set[int]], host: object, ranks: Iterable[int]) -> None:
    """Which ranks ran on which node, as the launchers' own records state it: a node's
    every rank is known only from them, never guessed from file names."""
    if isinstance(host, str) and host:
        hosts.setdefault(_short(host), set()).update(ranks)


def _short(host: str) -> str:
    """A node's name without its domain: Slurm names `nid004217`, PALS the same node as
    `nid004217.hsn.cm.example.org`."""
    return host.split(".", 1)[0].lower()


def _global(local: Sequence[int], scan: FileScan) -> tuple[int, ...]:
    """A launcher that numbers its children from 0 on each node (`mp.spawn`'s process index)
    names the global ranks whose progress lines fill its file when those are one node's
    block (`[rank4]`..`[rank7]` for processes 0-3: an unbroken run starting at a multiple of
    its length); otherwise the index is the rank, as on one node. A run that starts
    elsewhere (ranks 1-3, rank 0 silent) is one node missing a rank, not another node."""
    track = scan.facts.get("checkpoints")
    seen = sorted(set(track.rank) - {NO_RANK}) if track is not None else []
    if not seen or seen != list(range(seen[0], seen[0] + len(seen))) or seen[0] % len(seen):
        return tuple(local)
    return tuple(seen[i] if i < len(seen) else i for i in local)


def _elastic_end(failure: dict[str, object]) -> RankEnd:
    code = as_int(failure.get("exitcode"))
    named = failure.get("signal")
    return RankEnd(code, named if isinstance(named, str) else signal_name(code), _at(failure))


def _at(failure: dict[str, object]) -> float | None:
    moment = failure.get("time")
    if not isinstance(moment, str):
        return None
    try:
        return epoch(datetime.fromisoformat(moment))
    except ValueError:
        return None
