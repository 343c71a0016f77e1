"""When every rank that failed only waited, what their waits say about who left the step.

A collective timeout reads the same on every rank, and when the ranks' checkpoints agree
the rank comparison finds no one. Three things still tell the ranks apart:

- where each rank waited: the innermost frame of the traceback under its timeout names the
  collective it had entered (`in barrier`, `in all_reduce`), and where no traceback was
  printed, the watchdog's timeout line names the work it gave up on (`OpType=BROADCAST`).
  Ranks that time out together in different collectives were not at the same program step,
  and the few in another collective than most are the ones that left it;
- how each rank's wait ended: ranks that time out give up and exit, so a rank that reached
  the collective after that finds its peers' connections closed instead of timing out. The
  few whose only failure is such a lost peer, while the others timed out, arrived late: they
  were kept elsewhere (a long computation, a stall) while the others waited for them.
  gloo tells a rank of a lost peer only inside a collective, so when some rank printed no
  line of the failure at all, it is the one that never arrived, and the lost-peer ranks
  were waiting with a longer timeout. When the lost-peer ranks lost them inside another
  collective than the one the waiters timed out in, they were not late to it but waiting in
  a collective of their own with a longer timeout (a sub-group's, made with torch's long
  default): when they are all but one member of a sub-group, and that member is among the
  waiters, it skipped the group's collective and went on;
- whether each rank got through to the rendezvous store at all: ranks that reached it wait
  there for keys or for clients to join, while a rank given an address or port where no
  store listens times out connecting. The few that never connected, while the others waited
  in the store, are the ones the others waited for. A rank that reached the store names
  what it waited for: gloo's set-up waits for each peer's address under a key that ends in
  that peer's rank (`wait timeout after 30000ms, keys: /default_pg/0//cpu//0/3`), so when the
  waiting ranks agree on the few keys that never came, those ranks are the ones they waited
  for, even when the connect failures themselves carry no rank.

All three are read only when the first error is a wait (`analyzers.causal.culprits`), after the
rank comparison and before the launcher's first exit, which says least.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

from analyzers.causal.chain import CLOCK_TOLERANCE_S, Blame, CausalChain, epoch
from analyzers.causal.group_holes import group_hole
from analyzers.classify.collective_frames import frame_call
from analyzers.classify.matches import Classified, Match
from analyzers.core.phrases import say, several
from analyzers.core.types import Correlation, FileScan, RankStatus
from analyzers.formats.exception_events import FRAME_SOURCE

MIN_WAITERS = 2  # one waiting rank is no pack to compare against


def in_other_collective(
    chain: CausalChain, scans: Sequence[FileScan], offsets: Mapping[int, float] | None = None
) -> Blame | None:
    """The few ranks whose wait was in another collective than most ranks' waits.

    The first rank to time out closes its connections, so a peer still waiting in a deadlock
    may hear of that as a lost peer before its own timeout fires: a lost peer timed among the
    timeouts (`offsets` given) is that rank's wait too, in the collective its frames name."""
    calls = _calls([*chain.top, *_lost_among_waits(chain, offsets)], scans)
    if len(calls) <= MIN_WAITERS:
        return None
    common, count = Counter(calls.values()).most_common(1)[0]
    odd = sorted(rank for rank, call in calls.items() if call != common)
    if not odd or count * 2 <= len(calls):
        return None
    theirs = ", ".join(sorted({calls[rank] for rank in odd}))
    return Blame(odd, say("waited.other_collective", call=theirs, common=common, many=several(odd)))


def _lost_among_waits(chain: CausalChain, offsets: Mapping[int, float] | None) -> list[Classified]:
    """The lost peers of ranks with no wait of their own at the first's tier, timed no earlier
    than the clocks' tolerance before the first wait and no later than it after the last one.
    Without times none is taken: a lost peer may as well be a late arrival."""
    if offsets is None:
        return []
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return []
    waiters = {item.rank for item in chain.top}
    low, high = min(waits) - CLOCK_TOLERANCE_S, max(waits) + CLOCK_TOLERANCE_S
    return [
        item
        for rank, item in sorted(chain.peer_gone.items())
        if rank not in waiters
        and (moment := epoch(item, offsets)) is not None
        and low <= moment <= high
    ]


def _calls(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, str]:
    """Per rank, the collective it waited in: read from the tracebacks' frames, or, when
    too few ranks printed one, from the work types their timeout lines name. The two are
    never mixed: a frame says `all_reduce` where the watchdog says `ALLREDUCE`."""
    calls = _frame_calls(items, scans)
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


def _frame_calls(items: Sequence[Classified], scans: Sequence[FileScan]) -> dict[int, str]:
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
    calls = {line: frame_call(frame) for line, frame in _innermost_frames(scan).items()}
    return {line: call for line, call in calls.items() if call is not None}


def _innermost_frames(scan: FileScan) -> dict[int, str]:
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


# DDP's join hook on a rank that has run out of inputs: it answers the gradient all_reduce of
# every peer still training with one of its own (zeros), from the Join context's exit.
_JOIN_SHADOW = re.compile(
    r'[/\\]torch[/\\]nn[/\\]parallel[/\\]distributed\.py", line \d+, in '
    r"_match_(?:all_reduce_for_bwd_pass|unused_params_allreduce)\s*$"
)


def joined_early(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The few ranks whose failure came inside DDP's join hook while the others still trained.

    Under `model.join()` a rank that has run out of inputs leaves its loop and shadows the
    gradient all_reduces of the ranks still training. join shadows only DDP's own
    collectives: any other collective the training ranks still run (a loss or metric
    all_reduce each step) meets the joined rank's shadow instead, and the job fails with a
    size abort or a timeout on some rank. The joined ranks are the ones their data gave fewer
    batches; when they are fewer than the ranks that failed elsewhere, they are the culprits."""
    by_path = {scan.info.path: scan for scan in scans}
    frames: dict[str, dict[int, str]] = {}
    failed: set[int] = set()
    joined: set[int] = set()
    items = [*chain.top, *chain.own_failures, *chain.peer_gone.values(), *chain.cascades]
    for item in items:
        if item.rank is None:
            continue
        failed.add(item.rank)
        scan = by_path.get(item.event.file)
        if scan is None:
            continue
        if item.event.file not in frames:
            frames[item.event.file] = _innermost_frames(scan)
        frame = frames[item.event.file].get(item.event.line)
        if frame is not None and _JOIN_SHADOW.search(frame):
            joined.add(item.rank)
    if not joined or len(joined) * 2 >= len(failed):
        return None
    ranks = sorted(joined)
    return Blame(ranks, say("waited.joined_early", many=several(ranks)))


# Collectives in which every rank receives every other rank's message directly (gloo sends
# each rank's buffer to all the others), unlike the ring of an all_reduce.
_EVERYONE_RECEIVES = frozenset(
    {"all_gather", "all_gather_object", "all_to_all", "all_to_all_single"}
)


def lone_gather_receiver(chain: CausalChain, scans: Sequence[FileScan]) -> Blame | None:
    """The rank that alone aborted on a message longer than it posted, while the other
    ranks died inside an all_gather. There every rank receives every other rank's message, so
    a peer that sent a longer one would have aborted every receiver: a single receiver
    posted the short buffer itself (a tensor of a smaller size or dtype). In an all_reduce
    the message passes round a ring and only the sender's successor receives it, so a lone
    receiver there may be the victim and is not read so."""
    first = chain.first
    if first is None or first.rank is None:
        return None
    receivers = {
        item.rank
        for item in [*chain.top, *chain.own_failures, *chain.cascades]
        if item.rank is not None and any(m.signature.peer_sent for m in item.matches)
    }
    if receivers != {first.rank}:
        return None
    calls = _frame_calls([*chain.peer_gone.values(), *chain.cascades], scans)
    calls.pop(first.rank, None)
    if len(calls) < MIN_WAITERS or not set(calls.values()) <= _EVERYONE_RECEIVES:
        return None
    call = Counter(calls.values()).most_common(1)[0][0]
    return Blame([first.rank], say("blame.lone_gather_receiver", rank=first.rank, call=call))


def unreached_store(chain: CausalChain) -> Blame | None:
    """The few ranks whose store wait was a connect that never got through, while the other
    waiting ranks had reached the store and waited there (for keys, for clients to join).
    When most or all waiting ranks could not connect, the store itself was out of reach (its
    host down, a wrong address for everyone) and no client is singled out."""
    unreached: set[int] = set()
    reached: set[int] = set()
    for item in [*chain.top, *chain.waited_behind]:
        if item.rank is None:
            continue
        if any(match.signature.unreached for match in item.matches):
            unreached.add(item.rank)
        else:
            reached.add(item.rank)
    reached -= unreached
    if not unreached:
        return None
    if len(unreached) >= len(reached) and len(unreached) != _clients_not_joined(chain):
        return None
    ranks = sorted(unreached)
    return Blame(ranks, say("waited.unreached", many=several(ranks)))


# the store's own count when it gave up: "Timed out after 21 seconds waiting for clients.
# 2/4 clients joined."
_CLIENTS_JOINED = re.compile(r"\b(\d+)/(\d+) clients joined\b")


def _clients_not_joined(chain: CausalChain) -> int | None:
    """How many clients the store counted missing when it gave up, when a client besides its
    own host had joined (the store was reachable): when exactly that many ranks failed to
    connect, they are the missing ones (a whole late node is half the job or more, yet the
    store's count still singles them out). A store that counted only itself was out of
    reach for everyone."""
    for item in [*chain.top, *chain.waited_behind, *chain.cascades]:
        found = _CLIENTS_JOINED.search(item.event.message or item.event.text)
        if found and int(found.group(1)) >= 2:
            return int(found.group(2)) - int(found.group(1))
    return None


# gloo's address key for one rank of a group: <group prefix>//cpu//<n>/<rank>
_PEER_KEY = re.compile(r"\bkeys: .*?//cpu//\d+/(?P<rank>\d+)\b")


def keys_waited_for(chain: CausalChain) -> Blame | None:
    """The ranks whose address keys every rank that waited in the store timed out on, when
    at least two ranks waited and they name the same few peers, none of which failed or
    waited itself (the store's own rank counting clients is a waiter, not the one missing)."""
    named: dict[int, set[int]] = {}
    waiters: set[int] = set()
    for item in [*chain.top, *chain.waited_behind]:
        if item.rank is None:
            continue
        waiters.add(item.rank)
        keys = {int(m["rank"]) for m in _PEER_KEY.finditer(item.event.message or item.event.text)}
        if keys:
            named.setdefault(item.rank, set()).update(keys)
    if len(named) < MIN_WAITERS:
        return None
    agreed = set.intersection(*named.values())
    if not agreed or agreed & waiters or len(agreed) >= len(named):
        return None
    ranks = sorted(agreed)
    return Blame(ranks, say("waited.keys", many=several(ranks)))


def skipped_group_collective(
    chain: CausalChain, correlation: Correlation | None, scans: Sequence[FileScan]
) -> Blame | None:
    """The one member of a sub-group that went on past the group's collective. The waiters
    timed out together in one collective; the ranks that only lost their peers did so, after
    the waits, inside another one, so they were not late to the waiters' collective but
    waiting in their own, whose longer timeout had not run out (a group made with `new_group`
    keeps torch's long default). When those ranks are all the members but one of a sub-group
    (an aligned block or a strided set, `analyzers.causal.group_holes.group_hole`) and the
    missing member is among the waiters, it never entered the group's collective. Lost peers
    in the same collective as the waits are late arrivals (`arrived_late`), and lost-peer
    ranks that fill a whole group, or leave two out, single no one out."""
    if correlation is None:
        return None
    waits = _frame_calls(chain.top, scans)
    lost = {
        rank: call
        for rank, call in _frame_calls(list(chain.peer_gone.values()), scans).items()
        if rank not in waits
    }
    if len(waits) < MIN_WAITERS or len(lost) < MIN_WAITERS:
        return None
    if len(set(waits.values())) != 1 or len(set(lost.values())) != 1:
        return None
    waited, held = next(iter(waits.values())), next(iter(lost.values()))
    if waited == held:
        return None
    if _lost_before_waits(sorted(lost), chain, correlation.clock_offsets):
        return None
    found = group_hole(set(lost), len(correlation.ranks))
    if found is None or found[0] not in waits:
        return None
    hole, group = found
    members = ", ".join(str(rank) for rank in sorted(lost))
    why = say("waited.group_skipped", ranks=members, group=group, held=held, waited=waited)
    return Blame([hole], why)


def arrived_late(chain: CausalChain, correlation: Correlation | None) -> Blame | None:
    """The few ranks that failed only because their peers were gone, while the others timed
    out waiting: they reached the collective after the waiters had given up."""
    if correlation is None:
        return None
    waiters = {item.rank for item in chain.top if item.rank is not None}
    own = {item.rank for item in chain.own_failures if item.rank is not None}
    failed = {r.rank for r in correlation.ranks if r.status == RankStatus.ERROR}
    late = sorted(rank for rank in chain.peer_gone if rank in failed and rank not in waiters | own)
    if len(waiters) < MIN_WAITERS or not late or len(late) >= len(waiters):
        return None
    if _lost_before_waits(late, chain, correlation.clock_offsets):
        return None
    late = _after_the_waits(late, chain, correlation.clock_offsets)
    silent = _never_arrived(chain, correlation, waiters | own | set(chain.peer_gone))
    if silent:
        if len(silent) >= len(waiters):
            return None
        return Blame(silent, say("waited.never_arrived", many=several(silent)))
    return Blame(late, say("waited.late", many=several(late)))


def _never_arrived(chain: CausalChain, correlation: Correlation, heard: set[int]) -> list[int]:
    """Ranks with a log of their own that printed no line of the failure at all (neither a
    wait nor a lost peer nor a failure), while the others timed out or lost their peers:
    gloo tells a rank that its peer went away only inside a collective, so a rank that lost
    no peer was still elsewhere when the launcher stopped it, and the ranks that lost their
    peers were waiting in the collective with a longer timeout, not arriving late."""
    lined = {item.rank for item in [*chain.top, *chain.cascades, *chain.waited_behind]}
    return sorted(
        r.rank
        for r in correlation.ranks
        if r.rank not in heard
        and r.rank not in lined
        and r.status in (RankStatus.ERROR, RankStatus.HUNG, RankStatus.KILLED)
        and r.last_checkpoint is not None
    )


def _after_the_waits(
    late: Sequence[int], chain: CausalChain, offsets: Mapping[int, float]
) -> list[int]:
    """The lost-peer ranks that lost their peers after the waiters gave up. A rank waiting in
    the same collective can lose a neighbour that timed out a moment before its own timeout
    fired: its loss stands among the timeouts. When the times show some losses among the
    timeouts and others well after the last of them, only the later ones arrived late."""
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return list(late)
    last_wait = max(waits)
    moments = {rank: epoch(chain.peer_gone[rank], offsets) for rank in late}
    after = [r for r in late if (m := moments[r]) is not None and m > last_wait + CLOCK_TOLERANCE_S]
    among = [
        r for r in late if (m := moments[r]) is not None and m <= last_wait + CLOCK_TOLERANCE_S
    ]
    return after if after and among else list(late)


def _lost_before_waits(
    late: Sequence[int], chain: CausalChain, offsets: Mapping[int, float]
) -> bool:
    """Whether a late rank lost its peer before any waiter gave up: then a peer went away
    first and the waits are not what closed the connections."""
    waits = [moment for item in chain.top if (moment := epoch(item, offsets)) is not None]
    if not waits:
        return False
    first_wait = min(waits)
    for rank in late:
        moment = epoch(chain.peer_gone[rank], offsets)
        if moment is not None and moment < first_wait - CLOCK_TOLERANCE_S:
            return True
    return False
