"""The ranks that started a failure, once its first causal error is known, and why them.

In order of trust: ranks the first error's own line names (a peer's report, a launcher's
local ranks mapped to global ones), ranks a report right under it names (a desync report),
the ranks whose own failure falls in the causal window (`analyzers.causal.window`), and,
when the first error is only a wait, the ranks the rank comparison singles out (killed,
missing, divergent, the few ahead or behind, the few whose watchdog gave up on another work;
`analyzers.causal.waited_on`), then what the waits themselves say (a rank that never reached
the store its peers waited in, a rank waiting in another collective, a rank that arrived
after the others gave up; `analyzers.causal.wait_places`).

Each choice comes with a clause saying why, about the culprits (`the first error names
it`), for the sentence that explains a first error reported on another rank.
"""

from __future__ import annotations

import re
import signal
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime

from analyzers.causal.chain import OWN_FAILURE_TIERS, Blame, CausalChain
from analyzers.causal.dumped_stacks import apart_in_dumps
from analyzers.causal.exchanges import unmatched_exchange, unmatched_handoff
from analyzers.causal.group_order import built_in_other_order
from analyzers.causal.group_ranks import in_world
from analyzers.causal.interrupted import interrupted_outside
from analyzers.causal.node_settings import odd_node_setting
from analyzers.causal.object_source import unpickled_from_one
from analyzers.causal.rank_dtypes import odd_dtype_rank, odd_rank_stated
from analyzers.causal.rank_sources import narrowed_to_source
from analyzers.causal.source_compared import odd_against_source
from analyzers.causal.wait_places import (
    arrived_late,
    in_other_collective,
    joined_early,
    keys_waited_for,
    lone_gather_receiver,
    skipped_group_collective,
    unreached_store,
)
from analyzers.causal.waited_on import first_to_exit, singled_out
from analyzers.causal.watchdog_works import works_in_chain
from analyzers.causal.window import Together, failed_together, gap_said, same_failure
from analyzers.checkpoints.patterns import is_success
from analyzers.checkpoints.track import NO_RANK, track_of
from analyzers.classify.matches import Classified, Match
from analyzers.classify.process_ends import own_exit, teardown_kills
from analyzers.classify.tiers import TIER_CAUSE
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import Correlation, EventKind, FileKind, FileScan, RankStatus
from analyzers.formats.elastic import signal_name
from analyzers.ingest.layout import folder_prefix
from analyzers.timeline.agent_ranks import AGENT_OFFSET
from analyzers.timeline.divergence import microbatch_stages

NOBODY = Blame([])


def blame(chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]) -> Blame:
    """Ranks whose own behaviour started the failure, not the peers that waited on them."""
    first = chain.first
    if first is None:
        return NOBODY
    named = next((m.culprits for m in first.matches if _names(m, first)), ())
    if named:  # numbered inside a sub-group: its members' global ranks, or none if untold
        writers = [*chain.top, *chain.supporting, *chain.cascades]
        named = tuple(in_world(named, first, writers, stated_world_size(scans)) or ())
    compared = odd_against_source(chain.top, first, correlation)
    if compared is not None:
        if not compared:
            return NOBODY
        if compared != list(named):
            return Blame(compared, say("blame.differ_from_source", many=several(compared)))
    if named:
        named = reported_with(chain.top, first, named)
        ranks = agreed_on(chain.top, first) or killed_alongside(
            global_ranks(named, first, scans), first, scans
        )
        many = several(ranks)
        if first.rank is None:
            return Blame(ranks, say("blame.first_error_names", many=many))
        return Blame(ranks, say("blame.rank_error_names", rank=first.rank, many=many))
    reported = _block_named(chain)
    if reported:
        return Blame(reported, say("blame.report_names", many=several(reported)))
    if first.tier in OWN_FAILURE_TIERS:
        offsets = correlation.clock_offsets if correlation else {}
        own = _own(chain, offsets)
        source = unpickled_from_one(chain, own.ranks, correlation, scans)
        if source is not None:
            return source
        if shared_by_all(chain, own, correlation):
            return NOBODY
        if own.ranks or first.rank is not None:
            return own
        # A death reported by no rank's own log (a shell's job notice, a kernel line) names
        # no one: the rank comparison finds the rank that went quiet while its peers failed.
        size_stated = _size_stated(scans, correlation)
        return singled_out(correlation, size_stated, spared=teardown_killed(scans)) or NOBODY
    ended = _ended_apart(chain)
    if ended is not None:
        return ended
    lost = _lost_agent(first, correlation, scans)
    if lost is not None:
        return lost
    stopped_node = _stopped_node(first, correlation, scans)
    if stopped_node:
        return Blame(stopped_node, say("blame.stopped_node", many=several(stopped_node)))
    if any(match.signature.shared_setting for match in first.matches):
        # every rank read the same setting: a rank is singled out only by a line naming it
        return unreached_store(chain) or keys_waited_for(chain) or NOBODY
    joined = joined_early(chain, scans)
    if joined is not None:  # ranks that ran out of inputs, shadowing under DDP's join
        return joined
    schedule = odd_rank_stated(scans, "schedule_said")
    if schedule is not None:  # a pipeline stage that ran its sends and receives in another order
        rank, lone, common, _ = schedule
        return Blame([rank], say("blame.rank_schedule", schedule=lone, common=common))
    size_stated = _size_stated(scans, correlation)
    quiet_suspect = not any(match.signature.peer_sent for match in first.matches)
    sender = None if quiet_suspect else _sender_waited_on(first.rank, correlation)
    if sender is not None:
        return Blame([sender], say("blame.receiver_waited_on", rank=first.rank))
    ahead = None if quiet_suspect else _receiver_ran_ahead(first.rank, correlation)
    if ahead is not None:
        return ahead
    odd = None if quiet_suspect else odd_node_setting(scans)
    if odd is not None:
        names, ranks = odd
        return Blame(ranks, say("blame.node_setting", names=", ".join(names), many=several(ranks)))
    dtype = None if quiet_suspect else odd_dtype_rank(scans)
    if dtype is not None:
        rank, lone, common, words = dtype
        if not common:  # it alone warned of its dtype
            return Blame([rank], say("blame.rank_dtype_warned", dtype=lone, words=words))
        return Blame([rank], say("blame.rank_dtype", dtype=lone, common=common, words=words))
    lone = None if quiet_suspect else lone_gather_receiver(chain, scans)
    if lone is not None:
        return lone
    # ranks that built their groups in another order broke the set-up the others waited in;
    # the ranks left hanging inside it are quiet, but they are not the ones at fault
    reordered = built_in_other_order(correlation)
    if reordered is not None:
        return reordered
    # ranks that logged both ends of a ring exchange: the pairs that did not meet say who
    unmatched = unmatched_exchange(correlation) or unmatched_handoff(correlation)
    if unmatched is not None:
        return unmatched
    # an interrupt says who was outside the collective; a rank quiet after it was blocked
    spared = teardown_killed(scans)
    # a peer that closed the connection had ended before the first error: a rank the agent
    # stopped afterwards was still alive then, and is not the peer that went away
    gone = any(match.signature.peer_gone for match in first.matches)
    past = _ran_past_finished_peers(first, correlation) if gone else None
    if past is not None:
        return past
    stopped = agent_stopped(scans) if gone else frozenset()
    found = interrupted_outside(chain) or singled_out(
        correlation, size_stated, quiet_suspect, spared, stopped, works_in_chain(chain)
    )
    if found is not None and len(found.ranks) > 1:
        # ranks that stopped together in a sub-group: the one whose wait is in a collective no
        # other rank was in swapped the program order, its partners only waited for it
        narrowed = in_other_collective(chain, scans)
        if narrowed is not None and set(narrowed.ranks) < set(found.ranks):
            return narrowed_to_source(narrowed, scans)
    waited = (
        found
        or unreached_store(chain)
        or keys_waited_for(chain)
        or in_other_collective(chain, scans)
        or _dumped_apart(correlation, scans)
        or skipped_group_collective(chain, correlation, scans)
        or arrived_late(chain, correlation)
        or _exited_first(chain, scans)
        or NOBODY
    )
    # of several ranks left waiting in a broadcast, the one that logged another source
    return narrowed_to_source(waited, scans)


def _ended_apart(chain: CausalChain) -> Blame | None:
    """The rank whose own log records its process ending (a fault handler's abort, read as an
    echo of a native check that was not logged) while the ranks that reported a lost peer are
    all others: theirs is the process they lost. A rank that lost a peer itself and then
    ended is one of the victims, and its end names no one."""
    first = chain.first
    assert first is not None
    if first.rank is None or not chain.peer_gone or first.rank in chain.peer_gone:
        return None
    if first.category != "device_fault" or first.demoted:
        return None
    if any(match.signature.cause_if_silent for match in first.matches):
        return None  # a launcher's status line: its own reading decides (`_names`)
    return Blame([first.rank], say("blame.ended_apart"))


def _lost_agent(
    first: Classified, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """The ranks of the one node whose launcher agent's console ends with no error at all,
    when the first error is another agent's own line that the far end of its connection
    closed (the rendezvous store it shared went down with that agent): an agent that stops its
    workers, or sees them fail, says so; one killed with its node says nothing. The ranks whose
    files lie in that agent's node folder are blamed, not the ranks the surviving agent then
    stopped itself."""
    if correlation is None or first.rank is not None:
        return None
    if not any(match.signature.peer_gone for match in first.matches):
        return None
    agents = [scan for scan in scans if scan.info.kind == FileKind.LAUNCHER]
    if not any(scan.info.path == first.event.file for scan in agents):
        return None
    mute = [
        scan
        for scan in agents
        if scan.info.path != first.event.file
        and not any(event.kind == EventKind.ERROR for event in scan.events)
    ]
    if len(mute) != 1 or not (folder := folder_prefix(mute[0].info.path)):
        return None
    if folder_prefix(first.event.file) == folder:
        return None
    ranks = sorted(
        r.rank
        for r in correlation.ranks
        if r.status != RankStatus.MISSING
        and r.files
        and all(path.startswith(folder) for path in r.files)
    )
    if not ranks or len(ranks) >= len(correlation.ranks):
        return None
    return Blame(ranks, say("blame.lost_agent", folder=folder, many=several(ranks)))


def _sender_waited_on(receiver: int | None, correlation: Correlation | None) -> int | None:
    """The peer a receiver that aborted on a message longer than it posted had said it waits
    for, in its last progress line (`waiting for activations of microbatch 0 from rank 1`):
    the message came from that peer, so it sent the wrong size. The abort itself names no
    sender."""
    if receiver is None or correlation is None:
        return None
    sender = correlation.waiting_on.get(receiver)
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    return sender if sender is not None and sender != receiver and sender in present else None


_RUN_AHEAD = 2  # checkpoints past the rank furthest behind: more than a kill can cut short


def _receiver_ran_ahead(receiver: int | None, correlation: Correlation | None) -> Blame | None:
    """A receiver that aborted on a message longer than it posted, having logged as many
    checkpoints as the furthest rank and at least `_RUN_AHEAD` more than the rank furthest
    behind: ranks that issue their collectives in step cannot part that far, so it had run
    through a collective its peers were still in (it skipped one), and the longer message was
    a peer's earlier collective arriving in its later, smaller one. The sender was where the
    program put it. Pipeline stages that log their microbatches are apart by the schedule,
    so their counts say nothing."""
    if receiver is None or correlation is None:
        return None
    timeline = correlation.timeline
    if isinstance(timeline, Timeline) and microbatch_stages(timeline):
        return None
    present = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    mine = next((r for r in present if r.rank == receiver), None)
    if mine is None or len(present) < 2:
        return None
    counts = [r.checkpoints for r in present]
    if mine.checkpoints < max(counts) or mine.checkpoints - min(counts) < _RUN_AHEAD:
        return None
    reached = mine.last_checkpoint_qualified or mine.last_checkpoint
    return Blame([receiver], say("blame.receiver_ran_ahead", rank=receiver, checkpoint=reached))


def _dumped_apart(correlation: Correlation | None, scans: Sequence[FileScan]) -> Blame | None:
    """The few ranks whose stacks, dumped while the job hung, stand apart from the others'
    (`causal.dumped_stacks`): a wait or a stop that names no one still has them."""
    if correlation is None:
        return None
    present = [r.rank for r in correlation.ranks if r.status != RankStatus.MISSING]
    found = apart_in_dumps(scans, present)
    return Blame(*found) if found else None


def _exited_first(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The launcher's first child to exit, unless it is the rank that reported the wait or the
    bad message itself: that rank ended because of what a peer did (a size check on data a
    peer sent aborts the receiver), and its exit says nothing about which peer it was. Two
    receivers of one bad collective both abort on it; the first to exit is then any of the
    ranks whose own line reported what a peer sent."""
    first = chain.first
    exited = first_to_exit(scans)
    if exited is None or first is None:
        return exited
    exit_record = any(match.signature.cause_if_silent for match in first.matches)
    if first.rank is None or exit_record:
        return exited
    receivers = {first.rank}
    if any(match.signature.peer_sent for match in first.matches):
        receivers.update(
            item.rank
            for item in chain.top
            if item.rank is not None and any(m.signature.peer_sent for m in item.matches)
        )
    if set(exited.ranks) <= receivers:
        return None
    return exited


def _size_stated(scans: Sequence[FileScan], correlation: Correlation | None) -> bool:
    """Whether the world size that makes ranks missing is one the job was started with
    (ranks it never started are not missing: `never_started`)."""
    if stated_world_size(scans) is None or unranked_progress(scans):
        return False
    return not never_started(scans, correlation)


def unranked_progress(scans: Sequence[FileScan]) -> bool:
    """Whether a file read for no one rank holds progress lines that name no rank: ranks
    printing into one shared output without their rank (an mp.spawn driver's stdout, plain
    prints). A rank absent from the per-rank view may have written those lines, so its
    absence proves nothing."""
    for scan in scans:
        if scan.info.rank is not None:
            continue
        track = track_of(scan)
        if track is not None and any(rank == NO_RANK for rank in track.rank):
            return True
    return False


def never_started(scans: Sequence[FileScan], correlation: Correlation | None) -> list[int]:
    """The absent ranks, when the environment the job ran in counts fewer processes than the
    ranks say the world has and the ranks absent are exactly those past that count: a world
    size set too large, not ranks that died before writing a line."""
    launched = _launched(scans)
    if correlation is None or launched is None or not correlation.missing_ranks:
        return []
    if launched < (correlation.world_size or 0) and min(correlation.missing_ranks) >= launched:
        return list(correlation.missing_ranks)
    return []


def _launched(scans: Sequence[FileScan]) -> int | None:
    """The process count an environment dump states (`WORLD_SIZE=4`), when dumps agree; or,
    when the job has one node, the count that node's launcher started (`NPROC_PER_NODE=4`
    beside `MASTER_ADDR=127.0.0.1`), whichever is smaller: a dump that exports the world size
    the job was told repeats the mistake, while the per-node count says what ran."""
    counts = [n for n in (_env_count(scans, "WORLD_SIZE"), _one_node_count(scans)) if n is not None]
    return min(counts) if counts else None


def _env_count(scans: Sequence[FileScan], name: str) -> int | None:
    """A number every environment dump that states `name` agrees on."""
    counts = {str((scan.facts.get("env") or {}).get(name) or "").strip() for scan in scans} - {""}
    if len(counts) != 1 or not (only := counts.pop()).isdigit():
        return None
    return int(only)


# A rendezvous host only this machine can reach: no other node could have joined through it.
_LOOPBACK = re.compile(r"(?:127(?:\.\d{1,3}){3}|localhost|::1|\[::1\])", re.IGNORECASE)


def _one_node_count(scans: Sequence[FileScan]) -> int | None:
    """The processes a one-node job's launcher started: the per-node count, when the dump says
    the job has one node (`NNODES=1`) or its rendezvous host is a loopback address."""
    local = _env_count(scans, "NPROC_PER_NODE") or _env_count(scans, "LOCAL_WORLD_SIZE")
    if local is None:
        return None
    hosts = {str((scan.facts.get("env") or {}).get("MASTER_ADDR") or "").strip() for scan in scans}
    hosts -= {""}
    loopback = len(hosts) == 1 and _LOOPBACK.fullmatch(next(iter(hosts))) is not None
    return local if loopback or _env_count(scans, "NNODES") == 1 else None


_SAME_REPORT_LINES = 4  # how far below the first error a line of the same report stands


def reported_with(
    top: Sequence[Classified], first: Classified, named: Sequence[int]
) -> Sequence[int]:
    """The ranks of a report its writer printed over a few lines, one rank at a time and then
    as one list (a monitored barrier told to wait for every rank logs `Rank 5 failed to pass
    monitoredBarrier`, `Rank 6 ...`, then `Ranks 5, 6 ...`): the lines right under the first
    error, from the same writer and read by the same rule, name the same finding."""
    kinds = {m.signature.id for m in first.matches if _names(m, first)}
    ranks = set(named)
    for item in top:
        if item is first or item.event.file != first.event.file or item.rank != first.rank:
            continue
        if not 0 < item.event.line - first.event.line <= _SAME_REPORT_LINES:
            continue
        for match in item.matches:
            if match.signature.id in kinds and _names(match, item):
                ranks.update(match.culprits)
    return sorted(ranks) if len(ranks) > len(named) else named


def agreed_on(top: Sequence[Classified], first: Classified) -> list[int]:
    """The rank most writers name, when several ranks' lines of the first error's kind each
    name another rank (a fingerprint check run on every rank: the odd rank names one peer,
    every peer names the odd rank). One writer, or a tie, agrees on nothing."""
    kinds = {m.signature.id for m in first.matches if _names(m, first)}
    named_by: dict[int, set[int]] = {}
    for item in top:
        if item.rank is None or any(
            m.group_rank not in (None, item.rank) for m in item.matches
        ):  # a sub-group's writer numbers its peers in that group, not in the world
            continue
        for match in item.matches:
            if match.signature.id in kinds and _names(match, item):
                named_by.setdefault(item.rank, set()).update(set(match.culprits) - {item.rank})
    votes = Counter(rank for named in named_by.values() for rank in named)
    best = votes.most_common(2)
    if len(named_by) < 2 or not best or best[0][1] < 2:
        return []
    if len(best) > 1 and best[1][1] == best[0][1]:
        return []
    return [best[0][0], *_running_as(top, best[0][0], set(named_by))]


# `Rank A is running collective: <A's fingerprint>, but Rank B is running collective: <B's>`
_RUNNING = re.compile(
    r"Rank (?P<own_rank>\d+) is running collective: (?P<own>.*?), but Rank (?P<peer_rank>\d+) "
    r"is running collective: (?P<peer>.*?)\)?\.?(?:Collectives differ|$)"
)


def _running_as(top: Sequence[Classified], odd: int, writers: set[int]) -> list[int]:
    """Writers whose own collective is the one the majority quotes for the odd rank: each
    rank names only the first peer whose fingerprint differs from its own, so a second rank
    that ran the odd rank's collective (both ranks of a node whose setting differs) is named
    by nobody, yet its own fingerprint says it was with the odd rank. Only a minority of the
    writers can be added this way."""
    own: dict[int, str] = {}
    quoted: set[str] = set()
    for item in top:
        found = _RUNNING.search(item.event.message or item.event.text)
        if found is None or item.rank is None or int(found["own_rank"]) != item.rank:
            continue
        own[item.rank] = found["own"].rstrip(")")
        if int(found["peer_rank"]) == odd:
            quoted.add(found["peer"].rstrip(")"))
    alike = sorted(r for r, mine in own.items() if r != odd and mine in quoted and r in writers)
    if not alike or 2 * (len(alike) + 1) >= len(own):
        return []
    return alike


_RANK_WORDS = re.compile(r"(?i)\[(?:rank\s*|default)\d+\]:?|\brank\s*\d+")
_NUMBER = re.compile(r"\d+")


def shared_by_all(chain: CausalChain, own: Blame, correlation: Correlation | None) -> bool:
    """Whether every rank of the job failed on its own with the same line (rank numbers
    aside): a setting they all read, not one rank, started it, so nobody is singled out.
    A rank's failure may be quoted in another rank's log before its own (torch's distributed
    checkpoint raises every failed rank's exception on every rank), so the line is looked
    for among each rank's failures, not only its first."""
    if correlation is None or len(own.ranks) < 2:
        return False
    present = {r.rank for r in correlation.ranks if r.status != RankStatus.MISSING}
    if set(own.ranks) != present:
        return False
    texts: dict[int, set[str]] = {}
    for item in chain.own_failures:
        if item.rank in present:
            texts.setdefault(item.rank, set()).add(
                _same_but_numbers(item.event.message or item.event.text)
            )
    return len(texts) == len(present) and bool(set.intersection(*texts.values()))


def _same_but_numbers(text: str) -> str:
    """A rank's failure text with its rank words and numbers taken out: each rank names its
    own files and sizes (`__2.metadata`, `[256, 32]`) in the failure they all share."""
    return _NUMBER.sub("#", _RANK_WORDS.sub("", text)).strip()


def _names(match: Match, item: Classified) -> bool:
    """A line reporting how a rank ended names it only when it stands for the rank's own
    failure; as a summary of an error logged elsewhere it says nothing about who started."""
    if not match.culprits:
        return False
    return not match.signature.cause_if_silent or item.tier >= TIER_CAUSE


def _block_named(chain: CausalChain) -> list[int]:
    """Ranks a report printed right under the first error names (a desync report lists the
    ranks that fell out of step below the timeout headline of the rank that waited)."""
    first = chain.first
    assert first is not None
    for item in chain.nearby:
        if item is first or item.tier < first.tier or item.category != first.category:
            continue
        named = next((m.culprits for m in item.matches if m.culprits), ())
        if named and item.event.line > first.event.line:
            return sorted(set(named))
    return []


def _own(chain: CausalChain, offsets: Mapping[int, float]) -> Blame:
    """Ranks that failed on their own within the causal window of the first error; when
    the first error's file has no rank (a plog), the ranks whose own lines report it."""
    first = chain.first
    assert first is not None
    together = failed_together(first, chain.own_failures, offsets)
    if together:
        return Blame(sorted(together), _together_why(first, together))
    if first.rank is None:
        ranks = sorted({i.rank for i in chain.supporting if i.rank is not None and not i.demoted})
        return Blame(ranks, say("blame.own_lines", many=several(ranks)))
    return NOBODY


def _together_why(first: Classified, together: Mapping[int, Together]) -> Said | None:
    """`rank 3 failed the same way 49 ms later`, or None when the first error's rank is
    the only one."""
    others = sorted(r for r in together if r != first.rank)
    if not others:
        return None
    if first.rank is None:
        return say("blame.own_lines", many=several(others))
    alike = all(same_failure(together[r].item, first) for r in others)
    how = "together.alike" if alike else "together.own"
    when = gap_said([together[r].gap for r in others])
    if when is None:
        return say(how, ranks=ranks_said(others), many=several(others))
    return say(how + "_when", ranks=ranks_said(others), when=when, many=several(others))


def global_ranks(named: Sequence[int], first: Classified, scans: Sequence[FileScan]) -> list[int]:
    """Ranks a line names; a launcher names local ranks, mapped through its failure report.
    Each node's agent numbers its children from 0, so its own report maps them first; the
    other launchers' reports only when its own says nothing about that local rank."""
    if not any(m.signature.culprit == "local_rank" for m in first.matches):
        return sorted(set(named))
    mine = [scan for scan in scans if scan.info.path == first.event.file]
    own = [r for scan in mine for r in _failures(scan)]
    records = [r for scan in scans for r in _failures(scan)]
    share = _node_share(first, scans)
    # the child's pid on the line picks its own record out of several agents' reports (two
    # consoles in one file both number a child 2); an agent with no report of its own is
    # placed by its log tree's offset (`timeline.agent_ranks`) before another agent's report
    pids = dict(_LOCAL_PID.findall(first.event.text))
    offsets = {scan.facts.get(AGENT_OFFSET) for scan in mine} - {None}
    ranks = set()
    for local in named:
        pid = pids.get(str(local))
        known = _global_by_pid(local, pid, own) or _global_by_pid(local, pid, records)
        known = known or _global_of(local, own)
        if not known and len(offsets) == 1:
            known = {local + int(next(iter(offsets)))}
        known = known or _global_of(local, records)
        if len(known) == 1:
            ranks.add(known.pop())
        elif not own and local < len(share):
            ranks.add(share[local])
        else:
            ranks.add(local)
    return sorted(ranks)


def _stopped_node(
    first: Classified, correlation: Correlation | None, scans: Sequence[FileScan]
) -> list[int]:
    """The ranks an agent stopped from outside was running, when it ran only some of the
    job's ranks (one node's agent of several, its file holding that node's ranks' progress
    lines): the stop took them out and their peers lost them. An agent running every rank
    names nobody this way."""
    if correlation is None or not any(m.signature.outside_stop for m in first.matches):
        return []
    share = _node_share(first, scans)
    everyone = {r.rank for r in correlation.ranks}
    if not share or not set(share) < everyone:
        return []
    return share


def _node_share(first: Classified, scans: Sequence[FileScan]) -> list[int]:
    """The global ranks whose progress lines fill the first error's file, when they are one
    unbroken run (`[rank3]` .. `[rank5]`): a launcher that numbers its children from 0 on
    each node (a spawn per node, `process 1 terminated ...`) then means the run's second
    rank. A file of ranks 0..n-1 maps each local rank to itself; a broken run maps nothing."""
    for scan in scans:
        if scan.info.path != first.event.file:
            continue
        track = scan.facts.get("checkpoints")
        seen = sorted(set(track.rank) - {NO_RANK}) if track is not None else []
        if seen and seen == list(range(seen[0], seen[0] + len(seen))):
            return seen
    return []


def killed_alongside(
    ranks: Sequence[int], first: Classified, scans: Sequence[FileScan]
) -> list[int]:
    """A launcher line about one child killed by SIGKILL, with the same agent's report
    listing more of its children killed by SIGKILL: the kill took them together (a node's
    processes taken by the host's OOM killer or a reboot), and each is a culprit, not only
    the one the agent noticed first. Children the agent stopped itself (SIGTERM) or that
    exited with a status are not added."""
    if not any(m.signature.culprit == "local_rank" for m in first.matches):
        return list(ranks)
    own = [r for scan in scans if scan.info.path == first.event.file for r in _failures(scan)]
    killed = {r.get("rank") for r in own if _sigkilled(r)} - {None}
    if not killed or not set(ranks) <= killed:
        return list(ranks)
    return sorted({*ranks, *(r for r in killed if isinstance(r, int))})


def _ran_past_finished_peers(first: Classified, correlation: Correlation | None) -> Blame | None:
    """The rank that lost its peers in a collective when every other rank had printed its
    success line and ended cleanly: the peers did not go away early, they were done; the rank
    alone called one more collective (a statistic synced on one rank, an extra step) after the
    sequence they all ran, so it is the one whose behaviour diverged. A peer that ended with an
    error, or one that never printed its success line, leaves the usual reading in place."""
    if correlation is None or first.rank is None:
        return None
    others = [r for r in correlation.ranks if r.rank != first.rank]
    if not others or len(others) + 1 != len(correlation.ranks):
        return None
    if not all(
        r.status == RankStatus.OK and r.last_checkpoint and is_success(r.last_checkpoint)
        for r in others
    ):
        return None
    return Blame([first.rank], say("blame.ran_past_finished_peers", rank=first.rank))


def teardown_killed(scans: Sequence[FileScan]) -> frozenset[int]:
    """Ranks torchrun's summary records as killed with the signal its agent sends a survivor
    after the grace period, at a time after another child's record of an exit of its own (an
    error status, a crash): the agent was stopping the job for that child, and the kill is its
    teardown, which names no culprit (docs/labelling.md#a-launchers-own-kill-of-the-survivors).
    A kill recorded first, or with no such exit before it, is no teardown."""
    spared: set[int] = set()
    for scan in scans:
        records = [(r.get("rank"), _record_time(r), r, _signal_of(r)) for r in _failures(scan)]
        spared.update(rank for rank in teardown_kills(records) if isinstance(rank, int))
    return frozenset(spared)


# torchelastic's agent names each child it stops while it tears a failed group down:
# `Sending process 16463 closing signal SIGTERM`
_AGENT_STOP = re.compile(r"\bSending process (\d+) closing signal (SIG[A-Z]+)\b")


def agent_stopped(scans: Sequence[FileScan]) -> frozenset[int]:
    """Ranks the agent's own lines say it stopped (`Sending process <pid> closing signal
    SIGTERM`, or the SIGKILL after the grace period) and its summary records with that
    signal, beside a child of the same summary that ended by itself (an error status, a
    crash): the agent was tearing the group down for that child. The summary stamps its
    records to the second, so a kill and the exit it answers often share one time; the
    agent's line says which was which. A pid the agent did not name, or a summary whose
    children were all stopped (the agent itself was signalled), is no such teardown.
    Such a child was alive when the agent stopped it, after the first failure; whether it
    was also stuck is not told (docs/labelling.md#a-launchers-own-kill-of-the-survivors)."""
    found: set[int] = set()
    for scan in scans:
        found.update(_agent_stopped(scan))
    return frozenset(found)


def _agent_stopped(scan: FileScan) -> set[int]:
    records = _failures(scan)
    if not any(own_exit(r) for r in records):
        return set()
    stopped = {
        int(found.group(1)): found.group(2)
        for event in scan.events
        if (found := _AGENT_STOP.search(event.text))
    }
    return {
        rank
        for r in records
        if isinstance(rank := r.get("rank"), int)
        and (name := stopped.get(r.get("pid"))) is not None  # type: ignore[arg-type]
        and _signal_of(r) == name
    }


def _signal_of(record: Mapping[str, object]) -> str | None:
    named = record.get("signal")
    if isinstance(named, str):
        return named.upper()
    code = record.get("exitcode")
    return signal_name(code) if isinstance(code, int) else None


def _record_time(record: Mapping[str, object]) -> datetime | None:
    when = record.get("time")
    if not isinstance(when, str):
        return None
    try:
        return datetime.fromisoformat(when)
    except ValueError:
        return None


def _sigkilled(record: Mapping[str, object]) -> bool:
    code = record.get("exitcode")
    return isinstance(code, int) and code == -signal.SIGKILL


def _failures(scan: FileScan) -> Sequence[Mapping[str, object]]:
    return scan.facts.get("elastic_failures") or ()


def _global_of(local: int, records: Sequence[Mapping[str, object]]) -> set[object]:
    return {r.get("rank") for r in records if r.get("local_rank") == local} - {None}


# torchrun's line of a failed child: `local_rank: 2 (pid: 28493)`
_LOCAL_PID = re.compile(r"local_rank: (\d+) \(pid: (\d+)\)")


def _global_by_pid(
    local: int, pid: str | None, records: Sequence[Mapping[str, object]]
) -> set[object]:
    if pid is None:
        return set()
    return {
        r.get("rank") for r in records if r.get("local_rank") == local and str(r.get("pid")) == pid
    } - {None}


def stated_world_size(scans: Sequence[FileScan]) -> int | None:
    """The world size a launcher line or env dump states (not one guessed from ranks seen)."""
    for scan in scans:
        stated = scan.facts.get("world_size") or (scan.facts.get("env") or {}).get("WORLD_SIZE")
        if str(stated or "").strip().isdigit():
            return int(stated)
    return None
