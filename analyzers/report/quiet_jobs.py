"""A job none of whose lines is an error, decided from its ranks side by side.

The ranks finished, stalled, went missing or went different ways; npu-smi shows processes
gone or cards idle; the logs are empty or end quietly. Each rule returns a `Verdict` or
None; the first that answers decides, else nothing is diagnosed and the report says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from analyzers.causal.launched_ranks import stated_world_size
from analyzers.causal.stalled import stalled
from analyzers.causal.verdict import Verdict
from analyzers.causal.waited_on import divergence_said
from analyzers.checkpoints.patterns import is_success
from analyzers.checkpoints.track import track_of
from analyzers.core.phrases import ranks_said, say
from analyzers.core.report import UNLABELLED
from analyzers.core.types import Correlation, EventKind, FileKind, FileScan, RankStatus, RankSummary
from analyzers.formats.store_wait import STORE_WAIT
from analyzers.report.load_phase import waiting_on_load
from analyzers.tree.facts import npu_state

NOTHING = "multirank.nothing"  # the rule of a job whose ranks say nothing either
# the files a job writes itself (a rank's log, its launcher's console, an unnamed log)
JOB_LOGS = (FileKind.RANK_LOG, FileKind.LAUNCHER, FileKind.OTHER)


def without_errors(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict:
    """Decide a job none of whose lines is an error."""
    rules = (
        _pending_end,
        _healthy,
        _finished_console,
        _diverged,
        _missing,
        _npu_processes_gone,
        _empty_logs,
        stalled,
        _npus_idle,
        _finished_log,
        _quiet_end,
    )
    for rule in rules:
        verdict = rule(correlation, scans)
        if verdict:
            return verdict
    return Verdict(NOTHING, UNLABELLED, "none", 0.1, (), say("verdict.nothing"))


def finished(rank: RankSummary) -> bool:
    """The rank finished: its status says so, or its last checkpoint is its success line
    (a rank that logged and survived an error still counts as finished)."""
    last = rank.last_checkpoint
    return rank.status == RankStatus.OK or bool(last and is_success(last))


def _pending_end(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """The job's log printed a success line, then announced another step and stopped there
    (`formats.pending`): the success was one unit of work, not the job's end."""
    for scan in scans:
        pending = scan.facts.get("pending_at_end")
        if pending and scan.info.kind in JOB_LOGS and _succeeded(scan):
            reason = say("verdict.pending_end", text=pending["text"], line=pending["line"])
            return Verdict("multirank.pending_end", "hang", "framework", 0.4, (), reason)
    return None


def _healthy(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    ranks = correlation.ranks
    if not ranks or not all(finished(r) or _console_finished(r, scans) for r in ranks):
        return None
    checkpoint = correlation.last_common_checkpoint
    if checkpoint:
        reason = say("verdict.healthy_at", checkpoint=checkpoint)
    else:
        reason = say("verdict.healthy")
    return Verdict("multirank.healthy", "healthy", "none", 0.9, (), reason)


def _finished_console(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """The launch states how many ranks it started (`--nproc_per_node=2`), so the ranks are
    known by number, but no line and no file is any rank's own: every rank reads as missing.
    Most scripts print from rank 0 alone, untagged, into the console the launcher writes, so
    that console is the job's log; when it printed the job's success line the run finished
    (docs/labelling.md#a-launch-whose-only-log-is-its-console)."""
    ranks = correlation.ranks
    if not ranks or any(r.files or r.checkpoints for r in ranks):
        return None
    if not any(_succeeded(scan) for scan in scans):
        return None
    reason = say("verdict.logged_success")
    return Verdict("multirank.healthy", "healthy", "none", 0.6, (), reason)


def _console_finished(rank: RankSummary, scans: Sequence[FileScan]) -> bool:
    """A rank named only by a tag that came after the progress began (a teardown warning's
    `[rank0]:`) has no checkpoint of its own; the console it shares with the untagged lines
    ends on a success line of no rank (a Trainer's run summary), so the run it belongs to
    finished (`analyzers.scan.stated_rank`)."""
    if rank.checkpoints or not rank.files:
        return False
    files = set(rank.files)
    mine = [scan for scan in scans if scan.info.path in files]
    return bool(mine) and all(_ends_in_unranked_success(scan) for scan in mine)


def _ends_in_unranked_success(scan: FileScan) -> bool:
    track = track_of(scan)
    if track is None or not track.texts or not len(track.text):
        return False
    last = len(track.text) - 1
    return track.rank[last] < 0 and is_success(track.texts[track.text[last]])


def _diverged(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    if not correlation.divergent_ranks:
        return None
    reason = divergence_said(correlation) or say("verdict.diverged")
    ranks = tuple(correlation.divergent_ranks)
    return Verdict("multirank.diverged", "hccl", "communication", 0.6, ranks, reason)


def _missing(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    missing = correlation.missing_ranks if stated_world_size(scans) else []
    gone = set(missing)
    present = [r.rank for r in correlation.ranks if r.rank not in gone]
    if not missing or not present:
        return None
    ranks = tuple(missing)
    if min(missing) > max(present) and waiting_on_load(correlation, present):
        reason = say("verdict.no_log_loading", ranks=ranks_said(ranks))
        return Verdict("multirank.weight_load", "weight_load", "framework", 0.55, ranks, reason)
    if _waiting_at_store(scans, present):
        reason = say("verdict.no_log_store", ranks=ranks_said(ranks))
        return Verdict("multirank.store_wait", "hccl", "communication", 0.45, ranks, reason)
    reason = say("verdict.no_log", ranks=ranks_said(ranks))
    return Verdict("multirank.missing", "device_fault", "device", 0.4, ranks, reason)


def _waiting_at_store(scans: Sequence[FileScan], present: Sequence[int]) -> bool:
    """Every rank with a log ended it in the store barrier's wait, fewer processes counted than
    the world holds (`formats.store_wait`): the ranks with none never reached the store, so
    nothing says they ran at all (docs/labelling.md#a-rank-that-never-reached-the-store)."""
    logs = [s for s in scans if s.info.kind in JOB_LOGS and s.info.rank in present]
    return bool(logs) and all(STORE_WAIT in s.facts for s in logs)


def _npu_processes_gone(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """npu-smi lists processes on some NPUs and none on others: the ranks of the empty NPUs
    died; when those are the high ones, typically while loading weights (one process per
    NPU, rank = NPU index on a single node)."""
    snapshots = sorted((s for s in scans if s.facts.get("npu_smi")), key=lambda s: s.info.path)
    if not snapshots:
        return None
    table = snapshots[-1].facts["npu_smi"]
    devices = {d.get("npu") for d in table.get("devices") or ()} - {None}
    busy = {p.get("npu") for p in table.get("processes") or ()} - {None}
    idle = tuple(sorted(devices - busy))
    if not busy or not idle:
        return None
    if not _several_ranks(correlation, scans, busy):
        return None
    ranks = idle if stated_world_size(scans) in (None, len(devices)) else ()
    where = say("verdict.npu_processes", busy=_ids(busy), idle=_ids(idle))
    if min(idle) > max(busy):
        reason = say("verdict.high_ranks_died", where=where)
        return Verdict("multirank.weight_load", "weight_load", "framework", 0.5, ranks, reason)
    reason = say("verdict.empty_npus_died", where=where)
    return Verdict("multirank.crashed", "device_fault", "device", 0.45, ranks, reason)


def _several_ranks(correlation: Correlation, scans: Sequence[FileScan], busy: set[int]) -> bool:
    """Whether anything says the job ran more than one process: more than one busy NPU, a
    stated world size above one, more than one rank in its logs, or logs named per rank
    (`log_0.log`: a job that writes one log per rank). One process on one card beside idle
    cards, with one log that names no rank, is what a single-process job on a shared machine
    looks like; the idle cards were never the job's, so they say nothing about ranks that died
    (docs/labelling.md#idle-cards-beside-a-single-process-job)."""
    stated = stated_world_size(scans)
    if len(busy) > 1 or (stated is not None and stated > 1) or len(correlation.ranks) > 1:
        return True
    return any(scan.info.rank is not None for scan in scans)


def _ids(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def _empty_logs(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """Every rank log is empty: an empty log shows no progress that stopped, so the ranks are
    not read as hung; nothing is diagnosed and the report says why (`timeline.rank_logs`)."""
    if not correlation.rank_logs.all_empty:
        return None
    reason = say("verdict.empty_logs")
    return Verdict("multirank.empty_logs", UNLABELLED, "none", 0.1, (), reason)


def _npus_idle(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """No error and no rank that stopped, but npu-smi shows every NPU holding its memory at
    0% AICore: the job is alive and computes nothing (a service that stopped answering)."""
    npu = npu_state([s for s in scans if s.facts.get("npu_smi")], correlation.world_size)
    if npu is None or not npu.aicore_idle or npu.hbm_low is not False:
        return None
    reason = say("verdict.npus_idle")
    return Verdict("multirank.idle", "hang", "communication", 0.4, (), reason)


def _finished_log(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """No rank to compare, no error, and the job's log printed its success line."""
    if correlation.ranks or not any(_succeeded(scan) for scan in scans):
        return None
    reason = say("verdict.logged_success")
    return Verdict("multirank.healthy", "healthy", "none", 0.6, (), reason)


def _quiet_end(correlation: Correlation, scans: Sequence[FileScan]) -> Verdict | None:
    """The job's own log ends with neither a success line nor any line that reads like an
    error: it stopped making progress (nobody uploads the logs of a job that worked)."""
    logs = [s for s in scans if s.info.kind in JOB_LOGS and s.info.lines]
    if not logs or any(_succeeded(scan) or _complained(scan) for scan in scans):
        return None
    reason = say("verdict.quiet_end")
    return Verdict("multirank.quiet_end", "hang", "framework", 0.3, (), reason)


def _succeeded(scan: FileScan) -> bool:
    track = track_of(scan)
    return track is not None and any(is_success(text) for text in track.texts)


def _complained(scan: FileScan) -> bool:
    """Some line reads like an error, even if none could be cited: not a quiet end."""
    return any(event.kind == EventKind.ERROR for event in scan.events)
