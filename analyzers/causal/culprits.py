"""The ranks that started a failure, once its first causal error is known, and why them.

In order of trust: ranks the first error's own line names (a peer's report, a launcher's
local ranks mapped to global ones), ranks a report right under it names (a desync report),
the ranks whose own failure falls in the causal window (`analyzers.causal.window`), and,
when the first error is only a wait, the ranks the rank comparison singles out (killed,
missing, divergent, the few ahead or behind, the few whose watchdog gave up on another work;
`analyzers.causal.waited_on`), then what the waits themselves say (a rank that never reached
the store its peers waited in, `analyzers.causal.store_waits`; a rank waiting in another
collective, `analyzers.causal.wait_places`; a rank that arrived after the others gave up,
`analyzers.causal.late_arrivals`).

Each choice comes with a clause saying why, about the culprits (`the first error names
it`), for the sentence that explains a first error reported on another rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from analyzers.causal.agent_teardown import agent_stopped, teardown_killed
from analyzers.causal.all_alike import shared_by_all
from analyzers.causal.chain import OWN_FAILURE_TIERS, Blame, CausalChain
from analyzers.causal.dumped_stacks import apart_in_dumps
from analyzers.causal.exchanges import unmatched_exchange, unmatched_handoff
from analyzers.causal.group_order import built_in_other_order
from analyzers.causal.group_ranks import in_world
from analyzers.causal.interrupted import interrupted_outside
from analyzers.causal.late_arrivals import arrived_late
from analyzers.causal.launched_ranks import stated_world_size, world_size_stated
from analyzers.causal.local_ranks import global_ranks, killed_alongside, node_stopped_from_outside
from analyzers.causal.lost_peers import ended_apart, lost_agent, ran_past_finished_peers
from analyzers.causal.message_receivers import exited_first, receiver_ran_ahead, sender_waited_on
from analyzers.causal.named_ranks import agreed_on, block_named, names_its_culprits, reported_with
from analyzers.causal.node_settings import odd_node_setting
from analyzers.causal.object_source import unpickled_from_one
from analyzers.causal.rank_dtypes import odd_dtype_rank, odd_rank_stated
from analyzers.causal.rank_sources import narrowed_to_source
from analyzers.causal.source_compared import odd_against_source
from analyzers.causal.store_waits import keys_waited_for, unreached_store
from analyzers.causal.wait_places import (
    in_other_collective,
    joined_early,
    lone_gather_receiver,
    skipped_group_collective,
)
from analyzers.causal.waited_on import singled_out
from analyzers.causal.watchdog_works import works_in_chain
from analyzers.causal.window import Together, failed_together, gap_said, same_failure
from analyzers.classify.matches import Classified
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import Correlation, FileScan, RankStatus

NOBODY = Blame([])


def blame(chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]) -> Blame:
    """Ranks whose own behaviour started the failure, not the peers that waited on them.

    The stages run in order of trust; the first that decides (NOBODY included) answers."""
    if chain.first is None:
        return NOBODY
    for stage in (_named_by_lines, _failed_on_its_own, _ended_or_set_apart, _peer_disagrees):
        found = stage(chain, correlation, scans)
        if found is not None:
            return found
    return _left_waiting(chain, correlation, scans)


def _named_by_lines(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """Ranks the first error's line names, or a report right under it names."""
    first = chain.first
    named = next((m.culprits for m in first.matches if names_its_culprits(m, first)), ())
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
    reported = block_named(chain)
    if reported:
        return Blame(reported, say("blame.report_names", many=several(reported)))
    return None


def _failed_on_its_own(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """The ranks whose own failure falls in the causal window, when the first error is one."""
    first = chain.first
    if first.tier not in OWN_FAILURE_TIERS:
        return None
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
    size_stated = world_size_stated(scans, correlation)
    return singled_out(correlation, size_stated, spared=teardown_killed(scans)) or NOBODY


def _ended_or_set_apart(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """A rank, agent or node that ended apart, a shared setting, a rank out of inputs or on
    its own pipeline schedule."""
    first = chain.first
    found = (
        ended_apart(chain)
        or lost_agent(first, correlation, scans)
        or _stopped_node(first, correlation, scans)
    )
    if found is not None:
        return found
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
    return None


def _stopped_node(
    first: Classified, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    stopped_node = node_stopped_from_outside(first, correlation, scans)
    if not stopped_node:
        return None
    return Blame(stopped_node, say("blame.stopped_node", many=several(stopped_node)))


def _quiet_suspect(chain: CausalChain) -> bool:
    """The first error blames no peer that sent it something: the quiet ranks are suspects."""
    return not any(match.signature.peer_sent for match in chain.first.matches)


def _peer_disagrees(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """A peer the waiting rank depended on, or one rank set up unlike the others."""
    first = chain.first
    if not _quiet_suspect(chain):
        sender = sender_waited_on(first.rank, correlation)
        if sender is not None:
            return Blame([sender], say("blame.receiver_waited_on", rank=first.rank))
        found = receiver_ran_ahead(first.rank, correlation) or _odd_setting(scans)
        if found is not None:
            return found
        found = _odd_dtype(scans) or _odd_size(scans) or lone_gather_receiver(chain, scans)
        if found is not None:
            return found
    # ranks that built their groups in another order broke the set-up the others waited in;
    # the ranks left hanging inside it are quiet, but they are not the ones at fault
    reordered = built_in_other_order(correlation)
    if reordered is not None:
        return reordered
    # ranks that logged both ends of a ring exchange: the pairs that did not meet say who
    return unmatched_exchange(correlation) or unmatched_handoff(correlation)


def _odd_setting(scans: Sequence[FileScan]) -> Blame | None:
    odd = odd_node_setting(scans)
    if odd is None:
        return None
    names, ranks = odd
    return Blame(ranks, say("blame.node_setting", names=", ".join(names), many=several(ranks)))


def _odd_dtype(scans: Sequence[FileScan]) -> Blame | None:
    dtype = odd_dtype_rank(scans)
    if dtype is None:
        return None
    rank, lone, common, words = dtype
    if not common:  # it alone warned of its dtype
        return Blame([rank], say("blame.rank_dtype_warned", dtype=lone, words=words))
    return Blame([rank], say("blame.rank_dtype", dtype=lone, common=common, words=words))


def _odd_size(scans: Sequence[FileScan]) -> Blame | None:
    """The one rank that stated another model width than its peers (`formats.size_said`)."""
    size = odd_rank_stated(scans, "size_said")
    if size is None:
        return None
    rank, lone, common, name = size
    return Blame([rank], say("blame.rank_size", name=name, size=lone, common=common))


def _left_waiting(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame:
    """The first error is only a wait: the ranks the comparison or the waits single out."""
    first = chain.first
    # an interrupt says who was outside the collective; a rank quiet after it was blocked
    spared = teardown_killed(scans)
    # a peer that closed the connection had ended before the first error: a rank the agent
    # stopped afterwards was still alive then, and is not the peer that went away
    gone = any(match.signature.peer_gone for match in first.matches)
    past = ran_past_finished_peers(first, correlation) if gone else None
    if past is not None:
        return past
    stopped = agent_stopped(scans) if gone else frozenset()
    size_stated = world_size_stated(scans, correlation)
    found = interrupted_outside(chain) or singled_out(
        correlation, size_stated, _quiet_suspect(chain), spared, stopped, works_in_chain(chain)
    )
    if found is not None and len(found.ranks) > 1:
        # ranks that stopped together in a sub-group: the one whose wait is in a collective no
        # other rank was in swapped the program order, its partners only waited for it
        narrowed = in_other_collective(chain, scans, _offsets(correlation))
        if narrowed is not None and set(narrowed.ranks) < set(found.ranks):
            return narrowed_to_source(narrowed, scans)
    waited = (
        found
        or unreached_store(chain)
        or keys_waited_for(chain)
        or in_other_collective(chain, scans, _offsets(correlation))
        or _dumped_apart(correlation, scans)
        or skipped_group_collective(chain, correlation, scans)
        or arrived_late(chain, correlation)
        or exited_first(chain, scans)
        or NOBODY
    )
    # of several ranks left waiting in a broadcast, the one that logged another source
    return narrowed_to_source(waited, scans)


def _offsets(correlation: Correlation | None) -> Mapping[int, float] | None:
    return None if correlation is None else correlation.clock_offsets


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


def _dumped_apart(correlation: Correlation | None, scans: Sequence[FileScan]) -> Blame | None:
    """The few ranks whose stacks, dumped while the job hung, stand apart from the others'
    (`causal.dumped_stacks`): a wait or a stop that names no one still has them."""
    if correlation is None:
        return None
    present = [r.rank for r in correlation.ranks if r.status != RankStatus.MISSING]
    found = apart_in_dumps(scans, present)
    return Blame(*found) if found else None
