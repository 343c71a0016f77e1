"""Rules that read the ranks side by side rather than one line at a time, to correct a
line-level verdict when the rank pattern says more than the line: high ranks dying while
loading weights as the low ranks wait, a timeout on ranks whose checkpoint sequences
diverged, only consequence lines left by ranks whose peers died silently. Each rule returns
a `Verdict` or None. A job with no error line at all is decided in `report.quiet_jobs`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from analyzers.causal.chain import CausalChain
from analyzers.causal.launched_ranks import never_started, stated_world_size
from analyzers.causal.quiet_ranks import one_node_folder
from analyzers.causal.stalled import STALLED as _STALLED
from analyzers.causal.verdict import Verdict
from analyzers.causal.waited_on import divergence_said
from analyzers.causal.world_sizes import (
    odd_timeouts,
    odd_world_sizes,
    ranks_started_twice,
    waits_past_world,
)
from analyzers.classify.matches import Classified
from analyzers.classify.tiers import TIER_CASCADE, TIER_SYMPTOM, TIER_WRAPPER
from analyzers.core import regex_programs
from analyzers.core.phrases import ranks_said, say
from analyzers.core.report import UNLABELLED
from analyzers.core.types import Correlation, EventKind, FileScan, RankStatus
from analyzers.report.load_phase import LOAD_FRAME, loading_done, waiting_on_load
from analyzers.report.quiet_jobs import JOB_LOGS

_TIMED_OUT = regex_programs.compile(r"\btimed out\b|\btimeout\b", re.I)
# A dataset library's split step lists the data files or shards a rank reads and indexes the
# first of them (to read the features, to open the first tar); a rank handed none, because the
# files or shards are fewer than the ranks or a pattern matched nothing on that node, raises a
# bare IndexError there (docs/labelling.md#a-rank-handed-no-data-files).
DATA_SPLIT_FRAME = regex_programs.compile(
    r"\bin (?:_split_generators|split_by_node|split_by_worker|split_dataset_by_node)\s*$"
)
EMPTY_LIST_INDEX = regex_programs.compile(r"\bIndexError: list index out of range\b")

SILENT_DEATH = "multirank.silent_death"  # silent ranks whose peers lost them died


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
    waiting = others and waiting_on_load(correlation, others)
    if waiting and loading_done(correlation, chain.culprit_ranks):
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
        own = [scan for scan in scans if scan.info.rank == rank and scan.info.kind in JOB_LOGS]
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
