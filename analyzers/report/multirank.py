"""Rules that read the ranks side by side rather than one line at a time.

They decide the job when no line explains it (all ranks finished, ranks stalled, ranks
missing, ranks that went different ways) and correct a line-level verdict when the rank
pattern says more than the line: high ranks dying while loading weights as the low ranks
wait, a timeout on ranks whose checkpoint sequences diverged, only consequence lines left
by ranks whose peers died silently. Each rule returns a `Verdict` or None.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from analyzers.causal.chain import CausalChain
from analyzers.causal.launched_ranks import never_started, stated_world_size
from analyzers.causal.stalled import STALLED as _STALLED
from analyzers.causal.stalled import stalled
from analyzers.causal.verdict import Verdict
from analyzers.causal.waited_on import divergence_said, one_node_folder
from analyzers.causal.world_sizes import (
    odd_timeouts,
    odd_world_sizes,
    ranks_started_twice,
    waits_past_world,
)
from analyzers.checkpoints.patterns import is_success
from analyzers.checkpoints.track import track_of
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_SYMPTOM, TIER_WRAPPER
from analyzers.core import regex_programs
from analyzers.core.phrases import ranks_said, say
from analyzers.core.report import UNLABELLED
from analyzers.core.types import Correlation, EventKind, FileKind, FileScan, RankStatus, RankSummary
from analyzers.tree.facts import npu_state

LOAD_PHASE = regex_programs.compile(
    r"\b(?:load(?:ing|ed)?|weights?|checkpoint shards?|safetensors)\b", re.I
)
# a loading checkpoint that reports the loading over (`load weights passed`, `weights loaded`)
_TIMED_OUT = regex_programs.compile(r"\btimed out\b|\btimeout\b", re.I)
LOAD_DONE = regex_programs.compile(r"\b(?:passed|done|finished|complete(?:d)?|loaded)\b", re.I)
# `from_pretrained` is where the hub-style loaders (transformers, the serving engines built on
# them) read a checkpoint into the model they build; a size error under it is the checkpoint
# not fitting the parameters, as under a loader's own frames. Megatron's checkpoint converter
# runs a loader and a saver as processes of their own (`tools/checkpoint/loader_<format>.py`,
# `saver_<format>.py`); the saver cuts every weight it receives into the target's
# tensor-parallel shards, so a size error in either is the checkpoint not fitting that split.
# Converters outside that tree are standalone scripts named for the two formats they convert
# between (`hf2mcore_<model>.py`, `mcore2hf_<model>.py`, `convert_ckpt.py`) or kept in a
# converter folder; they reshape each weight by the model's head and group counts, and a reshape
# that does not fit there is read the same way
# (docs/labelling.md#a-checkpoint-cut-for-another-number-of-ranks).
LOAD_FRAME = regex_programs.compile(
    r"load_weights|weight_loader|load_state_dict|model_loader|load_checkpoint|from_pretrained"
    r"|[/\\]checkpoint[/\\](?:saver|loader)_\w+\.py"
    r"|[/\\]\w*checkpoints?_conver(?:t|s)or\w*[/\\]"
    r"|[/\\](?:hf|mcore|megatron|mg)2(?:hf|mcore|megatron|mg)\w*\.py"
    r"|[/\\]convert_ckpt\w*\.py"
)
_JOB_LOGS = (FileKind.RANK_LOG, FileKind.LAUNCHER, FileKind.OTHER)
# A dataset library's split step lists the data files or shards a rank reads and indexes the
# first of them (to read the features, to open the first tar); a rank handed none, because the
# files or shards are fewer than the ranks or a pattern matched nothing on that node, raises a
# bare IndexError there (docs/labelling.md#a-rank-handed-no-data-files).
DATA_SPLIT_FRAME = regex_programs.compile(
    r"\bin (?:_split_generators|split_by_node|split_by_worker|split_dataset_by_node)\s*$"
)
EMPTY_LIST_INDEX = regex_programs.compile(r"\bIndexError: list index out of range\b")


# --- no error line at all ------------------------------------------------------------------


NOTHING = "multirank.nothing"  # the rule of a job whose ranks say nothing either
SILENT_DEATH = "multirank.silent_death"  # silent ranks whose peers lost them died


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
        if pending and scan.info.kind in _JOB_LOGS and _succeeded(scan):
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
    present = [r.rank for r in correlation.ranks if r.rank not in missing]
    if not missing or not present:
        return None
    ranks = tuple(missing)
    if min(missing) > max(present) and _waiting_on_load(correlation, present):
        reason = say("verdict.no_log_loading", ranks=ranks_said(ranks))
        return Verdict("multirank.weight_load", "weight_load", "framework", 0.55, ranks, reason)
    reason = say("verdict.no_log", ranks=ranks_said(ranks))
    return Verdict("multirank.missing", "device_fault", "device", 0.4, ranks, reason)


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
    ranks = idle if stated_world_size(scans) in (None, len(devices)) else ()
    where = say("verdict.npu_processes", busy=_ids(busy), idle=_ids(idle))
    if min(idle) > max(busy):
        reason = say("verdict.high_ranks_died", where=where)
        return Verdict("multirank.weight_load", "weight_load", "framework", 0.5, ranks, reason)
    reason = say("verdict.empty_npus_died", where=where)
    return Verdict("multirank.crashed", "device_fault", "device", 0.45, ranks, reason)


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
    logs = [s for s in scans if s.info.kind in _JOB_LOGS and s.info.lines]
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


def _waiting_on_load(correlation: Correlation, ranks: Sequence[int]) -> bool:
    lasts = [r.last_checkpoint for r in correlation.ranks if r.rank in ranks]
    return bool(lasts) and all(text and LOAD_PHASE.search(text) for text in lasts)


def _loading_done(correlation: Correlation, ranks: Sequence[int]) -> bool:
    """Whether every one of `ranks` last said that its weight loading finished."""
    lasts = [r.last_checkpoint for r in correlation.ranks if r.rank in ranks]
    return bool(lasts) and all(
        text and LOAD_PHASE.search(text) and LOAD_DONE.search(text) for text in lasts
    )


# --- corrections to a line-level verdict ---------------------------------------------------


def correct(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A better job-level verdict than the first error's own label, if the ranks show one."""
    rules = (
        _weight_load,
        _empty_data_split,
        _world_size_disagrees,
        _waits_past_world,
        _rank_started_twice,
        _timeout_shorter,
        _diverged_wait,
        _left_on_purpose,
        _silent_deaths,
        _world_too_large,
    )
    for rule in rules:
        verdict = rule(chain, category, correlation, scans)
        if verdict:
            return verdict
    return None


def _weight_load(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """Ranks that die while loading weights and leave the others waiting, or a traceback
    through a weight loader: an index, size or generic error there is a weight-loading
    failure."""
    first = chain.first
    if first is None or category not in (UNLABELLED, "shape_mismatch"):
        return None
    in_loader = _frame_near(first, scans, LOAD_FRAME)
    if not chain.culprit_ranks:
        # One process's traceback: a shape error raised inside a weight loader is the
        # checkpoint not fitting the (sharded) parameter, whichever rank printed it.
        return _loader_only(in_loader)
    others = [r.rank for r in correlation.ranks if r.rank not in chain.culprit_ranks]
    waiting = others and _waiting_on_load(correlation, others)
    if waiting and _loading_done(correlation, chain.culprit_ranks):
        # the failing ranks had said their loading finished: they failed in the next step
        # (its first collective), where the others then waited, not while loading
        waiting = False
    if not (in_loader or waiting):
        return None
    ranks = tuple(chain.culprit_ranks)
    reason = say("verdict.failed_loading", ranks=ranks_said(ranks))
    return Verdict("multirank.weight_load", "weight_load", "framework", 0.65, ranks, reason)


def _empty_data_split(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """An index error raised in a dataset library's split step: the rank was handed no data
    files or shards, which the data layout and the number of ranks decide (`config`)."""
    first = chain.first
    if first is None or category != UNLABELLED:
        return None
    if not EMPTY_LIST_INDEX.search(first.event.message or first.event.text):
        return None
    if not _frame_near(first, scans, DATA_SPLIT_FRAME):
        return None
    reason = say("verdict.empty_data_split")
    ranks = tuple(chain.culprit_ranks)
    return Verdict("multirank.empty_data_split", "config", "framework", 0.45, ranks, reason)


def _loader_only(in_loader: bool) -> Verdict | None:
    """Weight loading named by the traceback alone (no rank is known to have died)."""
    if not in_loader:
        return None
    reason = say("verdict.in_loader")
    return Verdict("multirank.weight_load", "weight_load", "framework", 0.6, (), reason)


def _diverged_wait(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A timeout while the ranks' checkpoint sequences diverged: a collective mismatch."""
    first = chain.first
    if first is None or first.tier not in (TIER_SYMPTOM, TIER_WRAPPER, TIER_CASCADE):
        return None
    if not correlation.divergent_ranks or (category == "hccl" and chain.culprit_ranks):
        return None
    ranks = tuple(correlation.divergent_ranks)
    reason = divergence_said(correlation) or say("verdict.other_path", ranks=ranks_said(ranks))
    return Verdict("multirank.diverged", "hccl", "communication", 0.6, ranks, reason)


LEFT_EARLY = "multirank.left_early"  # ranks that said they leave while their peers lost them


def _left_on_purpose(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """Peers lost the ranks the chain blamed, and each of those ranks wrote no error line and
    ended its log saying, below error level, that it leaves (`formats.leaving`): it left its
    loop on purpose (its data ran out, it thought its work done) while the others still ran
    collectives, so the ranks ran different numbers of them (labelling guide, "A rank that
    exits without a word"). The lost connection stays the first error; the label is `hccl`,
    more certain than a lost peer alone, and no process death is offered beside it."""
    first = chain.first
    if first is None or category != "hccl" or not chain.culprit_ranks:
        return None
    if not any(match.signature.peer_gone for match in first.matches):
        return None
    said: dict[int, str] = {}
    for rank in chain.culprit_ranks:
        own = [scan for scan in scans if scan.info.rank == rank and scan.info.kind in _JOB_LOGS]
        if any(event.kind == EventKind.ERROR for scan in own for event in scan.events):
            return None
        left = [scan.facts["left_at_end"] for scan in own if "left_at_end" in scan.facts]
        if not left:
            return None
        said[rank] = left[0]["text"]
    ranks = tuple(chain.culprit_ranks)
    text = said[ranks[0]]
    reason = say("verdict.left_early", ranks=ranks_said(ranks), text=text)
    return Verdict(LEFT_EARLY, "hccl", "communication", 0.6, ranks, reason, ("config",))


def _silent_deaths(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """Only consequence lines (peers lost the connection) while some ranks stopped without
    any error of their own: those ranks died. The chain may already have blamed them for
    stopping behind the others (a killed process loses the progress it had not flushed, a
    whole node's ranks stop a line short of their peers): blamed ranks that are all silent
    died the same way when several went down together (labelling guide, "A node that drops
    out")."""
    first = chain.first
    if first is None or first.tier > TIER_CASCADE:
        return None
    failed = {first.rank, *chain.consequence_ranks, *(i.rank for i in chain.top)} - {None}
    stalled = _STALLED if stated_world_size(scans) else (RankStatus.HUNG, RankStatus.KILLED)
    silent = tuple(
        r.rank for r in correlation.ranks if r.status in stalled and r.rank not in failed
    )
    if not silent or not failed:
        return None
    if chain.culprit_ranks:
        together = _went_down_together(chain, correlation, silent)
        if not together:
            return None
        silent = together
    reason = say("verdict.silent_death", ranks=ranks_said(silent))
    return Verdict(SILENT_DEATH, "device_fault", "device", 0.4, silent, reason)


def _went_down_together(
    chain: CausalChain, correlation: Correlation, silent: Sequence[int]
) -> tuple[int, ...]:
    """The ranks that went down together when the chain blamed ranks for stopping behind a lost
    peer: several of them, all silent, each behind the pack or without a line in its log (a
    node killed with its progress in a buffer, its files empty). One rank that ended early may
    have left on purpose (it ran out of data, said it was exiting), which is no death, unless
    it went quiet with the rest of its node: the silent ranks, the blamed one among them, are
    exactly the ranks whose files one node's folder holds, so the node went away and the
    ranks that had printed their last line level with the pack went with it, or its log is
    in the bundle but empty beside full ones (`_emptied_among_full`)."""
    first = chain.first
    if first is None or not any(match.signature.peer_gone for match in first.matches):
        return ()
    blamed = set(chain.culprit_ranks)
    short = {*correlation.behind_ranks, *correlation.missing_ranks}
    if not blamed <= set(silent) or not blamed <= short:
        return ()
    if len(blamed) > 1:
        return tuple(chain.culprit_ranks)
    if len(silent) > 1 and one_node_folder(correlation, silent) is not None:
        return tuple(silent)
    if _emptied_among_full(correlation, blamed):
        return tuple(chain.culprit_ranks)
    return ()


def _emptied_among_full(correlation: Correlation, blamed: set[int]) -> bool:
    """One blamed rank whose own log is in the bundle but holds no line, while every other rank
    logged its progress. A process that leaves on its own flushes its output as it exits, so
    an empty file beside full ones is a process that went away at once (killed, crashed,
    `os._exit`) with its output still in a buffer; a log never collected says nothing, nor
    does an empty plog or device log beside a missing one (`timeline.rank_logs`)."""
    if len(blamed) != 1:
        return False
    (rank,) = blamed
    if rank not in correlation.rank_logs.empty:
        return False
    others = [summary for summary in correlation.ranks if summary.rank != rank]
    return bool(others) and all(summary.checkpoints > 0 for summary in others)


def _world_size_disagrees(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A wait among ranks whose own start lines give different world sizes (labelling guide,
    "Ranks started with different world sizes"): the few that differ were started wrong. A
    rank that gloo refused for a number past its own size already reads as config; the ranks
    that state the same size are blamed with it."""
    if chain.first is None or category not in ("hccl", "config"):
        return None
    if category == "config" and not _rank_past_world(chain):
        return None
    found = odd_world_sizes(scans)
    if found is None:
        return None
    odd, size, theirs = found
    reason = say("verdict.world_size_differs", ranks=ranks_said(odd), size=size, theirs=theirs)
    return Verdict("multirank.world_size_differs", "config", "framework", 0.6, odd, reason)


def _waits_past_world(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A few ranks waiting in the store for the address of a rank the job does not have
    (labelling guide, "Ranks started with different world sizes"): they were given a larger
    world size, often failing before their own start line could state it."""
    if chain.first is None or category != "hccl":
        return None
    found = waits_past_world([*chain.top, *chain.waited_behind, *chain.cascades], scans)
    if found is None:
        return None
    odd, world = found
    reason = say("verdict.waits_past_world", ranks=ranks_said(odd), size=world)
    return Verdict("multirank.waits_past_world", "config", "framework", 0.6, odd, reason)


def _rank_started_twice(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A wait among processes two of which state the same rank in their start lines (labelling
    guide, "Ranks started with the same rank"): the one whose file is named for another rank
    was handed a number already taken, and the rank it should have been is the one waited for."""
    if chain.first is None or category != "hccl":
        return None
    odd = ranks_started_twice(scans)
    if odd is None:
        return None
    reason = say("verdict.rank_started_twice", ranks=ranks_said(odd))
    return Verdict("multirank.rank_started_twice", "config", "framework", 0.6, odd, reason)


def _timeout_shorter(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A timeout that ran out first on a rank whose start line states a shorter timeout than
    most ranks' (labelling guide, "A rank started with a shorter timeout"): the ranks started
    with it are the culprits, not a peer that was slow within the job's usual timeout. The
    label is the first error's own."""
    first = chain.first
    if first is None or category != "hccl":
        return None
    if not _TIMED_OUT.search(first.event.message or first.event.text):
        return None
    found = odd_timeouts(scans)
    if found is None or first.rank not in found[0]:
        return None
    odd, usual, theirs = found
    reason = say(
        "verdict.timeout_shorter", ranks=ranks_said(odd), theirs=_secs(theirs), usual=_secs(usual)
    )
    return Verdict("multirank.timeout_shorter", category, "communication", 0.6, odd, reason)


def _secs(seconds: float) -> str:
    return f"{seconds:g}s"


def _world_too_large(
    chain: CausalChain, category: str, correlation: Correlation, scans: Sequence[FileScan]
) -> Verdict | None:
    """A wait for ranks the job never started (labelling guide, "A world size larger than the
    job started"): the collective layer only reports the wait; the world size is the fault."""
    first = chain.first
    if first is None or category != "hccl" or chain.culprit_ranks:
        return None
    if first.tier not in (TIER_SYMPTOM, TIER_WRAPPER, TIER_CASCADE):
        return None
    absent = never_started(scans, correlation)
    if not absent:
        return None
    reason = say(
        "verdict.world_too_large",
        world=correlation.world_size,
        started=min(absent),
        ranks=ranks_said(tuple(absent)),
    )
    return Verdict("multirank.world_too_large", "config", "framework", 0.6, (), reason)


def _frame_near(first: Classified, scans: Sequence[FileScan], pattern: re.Pattern[str]) -> bool:
    """Whether the traceback frames just above the first error mention `pattern`."""
    scan = scans[first.order] if first.order < len(scans) else None
    if scan is None:
        return False
    line = first.event.line
    return any(
        event.line < line
        and line - event.line <= 60
        and event.kind == EventKind.WARNING
        and pattern.search(event.message or event.text)
        for event in scan.events
    )


def _rank_past_world(chain: CausalChain) -> bool:
    """Whether the first error is a rank refused for a number past its own world size
    (`Signature.rank_past_world`)."""
    first = chain.first
    return first is not None and first.best is not None and first.best.signature.rank_past_world
