"""When the first error is only a wait (a timeout, a lost peer), the ranks waited on.

The waiting rank's line rarely names whom it waited for, so the rank comparison decides:
killed or missing ranks, then ranks that left the common checkpoint path, then the few
ranks ahead of or behind the pack (one skipped a collective, or never reached it), then the
few that went quiet at the same place while every other rank failed, then the few whose
process-group watchdog gave up on another work than the others' (`causal.watchdog_works`),
then the ranks with the fewest checkpoints, and as a last resort the first process the
launcher saw exit. Each answer says why, as a clause about the blamed ranks::

    it stopped at 'layer 3 / norm passed' while the others went on to 'layer 3 / MoE passed'
    it ran on to 'layer 1 / attention passed' while the others stopped at 'layer 1 / norm
    passed', skipping a collective they waited in
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import pairwise
from pathlib import PurePosixPath

from analyzers.causal.chain import Blame
from analyzers.causal.stalled import (
    blocked_sending,
    fewest_checkpoints,
    named_peers,
    waiting_for,
)
from analyzers.causal.watchdog_works import TimedOutWork, out_of_step
from analyzers.checkpoints.checkpoint_rules import TRAIN_ROLES
from analyzers.checkpoints.patterns import classify_text
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import Said, ranks_said, say, several
from analyzers.core.types import Correlation, FileScan, RankStatus, RankSummary
from analyzers.timeline.divergence import microbatch_stages, stage_order

_IN_STEP = re.compile(r"step (\d+) / ")
_FORWARD = re.compile(r"microbatch \d+ / (?:forward|fwd) passed")


def singled_out(
    correlation: Correlation | None,
    size_stated: bool,
    quiet_suspect: bool = True,
    spared: Collection[int] = frozenset(),
    stopped: Collection[int] = frozenset(),
    works: Sequence[TimedOutWork] = (),
) -> Blame | None:
    """Killed or missing ranks (missing only when the world size is stated, else an
    excerpt of one rank would blame all the others), then ranks that left the common
    path, then the few ranks ahead of or behind the pack, then the few whose timed-out
    `works` are not the pack's, before the guesses from counts. Ranks that only went quiet
    are suspects unless the first error says a peer was running when it failed it
    (`quiet_suspect` false: a message that arrived too long was sent by a live peer). Such a
    first error also spares the pipeline stage that ran ahead of the next one: the receiver
    aborted on the message, it did not starve, and its upstream stages went on by schedule.
    Nor does a stage's place single anyone out then: downstream stages are behind by the
    schedule, so the receiver's few checkpoints do not make it the one that stopped first.
    `spared` ranks were killed by their launcher while it stopped the job after another
    rank had failed (`causal.agent_teardown.teardown_killed`): that kill is not why they stopped.
    `stopped` ranks the launcher stopped after a first error that says a peer process went
    away (`causal.agent_teardown.agent_stopped`): they were alive then, so no quiet suspect."""
    if correlation is None:
        return None
    everyone = len(correlation.ranks)
    timeline = correlation.timeline
    staged = isinstance(timeline, Timeline) and bool(stage_order(timeline))
    choosers = (
        _killed,
        _missing,
        _wrong_peer,
        _waited_for,
        _closed_cycle,
        _diverged,
        _upstream_stage,
        _first_stage_behind,
        _ran_without_input,
        _group_hole,
        _quiet_not_apart,
        _apart,
        _silent,
        out_of_step,
        _first_stopped,
    )
    for choose in choosers:
        if choose in (_silent, _quiet_not_apart, _upstream_stage) and not quiet_suspect:
            continue
        if choose in (_apart, _first_stopped) and staged and not quiet_suspect:
            continue
        if choose is _killed:
            blame = _killed(correlation, size_stated, spared)
        elif choose in (_silent, _quiet_not_apart):
            blame = choose(correlation, size_stated, stopped)
        elif choose is out_of_step:
            blame = out_of_step(works)
        else:
            blame = choose(correlation, size_stated)
        if blame and len(blame.ranks) < everyone:
            return blame
    return None


def _killed(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    dead = [
        r.rank for r in correlation.ranks if r.status == RankStatus.KILLED and r.rank not in spared
    ]
    return Blame(dead, say("waited.killed", many=several(dead))) if dead else None


def _missing(correlation: Correlation, size_stated: bool) -> Blame | None:
    missing = correlation.missing_ranks if size_stated else []
    return Blame(missing, say("waited.no_log", many=several(missing))) if missing else None


def _waited_for(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The peers a rank's last progress line says it waits for (`waiting for kv from rank
    3`): a point-to-point exchange whose other half was never posted. The waiting rank is
    the one behind; the rank it names went on."""
    peers = named_peers(correlation)
    if not peers:
        return None
    waiters = waiting_for(correlation, peers)
    return Blame(peers, say("waited.named", waiters=ranks_said(waiters), many=several(peers)))


def _closed_cycle(correlation: Correlation, size_stated: bool) -> Blame | None:
    """A cycle of waits among some ranks while the rest wait on no one they name: two ranks
    that each post their receive before their send wait for each other, and every other rank
    then waits for them in the next collective. The cycle singles no one out within it, but
    it is what the rest of the job waits on, so its ranks are the culprits. It holds only when
    every stopped rank outside the cycle logged no wait and the checkpoints set no one apart;
    a cycle round every rank (a ring whose waits all fail) names no one."""
    waits = correlation.waiting_on
    if not waits or correlation.ahead_ranks or correlation.behind_ranks:
        return None
    if correlation.divergent_ranks:
        return None
    members = set()
    for start in waits:
        seen, rank = [], start
        while rank in waits and rank not in seen:
            seen.append(rank)
            rank = waits[rank]
        if rank == start and len(seen) >= 2:
            members.update(seen)
    present = [r for r in correlation.ranks if r.status != RankStatus.MISSING]
    stopped = {r.rank for r in present if r.status != RankStatus.OK}
    others = [r.rank for r in present if r.rank not in members]
    if not members or not others or not members <= stopped:
        return None
    if any(rank in waits or rank not in stopped for rank in others):
        return None
    cycle = sorted(members)
    return Blame(
        cycle, say("waited.cycle", ranks=ranks_said(cycle), others=ranks_said(sorted(others)))
    )


def _wrong_peer(correlation: Correlation, size_stated: bool) -> Blame | None:
    """Pipeline stages (each logs its own layers): a stage whose last progress line waits for a
    rank two or more stages away posted its receive for the wrong peer (a schedule that
    computed its neighbour wrongly). That rank never sends to it, so the stage's own upstream
    blocks in a send it never takes and every other stage waits behind them: the waits form a
    cycle, and the ranks a plain reading of the waits blames (the peer this stage named,
    itself waiting on nobody) did nothing wrong: only this stage asked for the impossible. A
    wait for the stage before or after it, or for a rank of its own stage, is an ordinary
    exchange and says nothing here."""
    timeline = correlation.timeline
    stages = stage_order(timeline) if isinstance(timeline, Timeline) else None
    if not stages or not correlation.waiting_on:
        return None
    place = {rank: index for index, stage in enumerate(stages) for rank, _, _ in stage}
    wrong = sorted(
        waiter
        for waiter, peer in correlation.waiting_on.items()
        if waiter in place and peer in place and abs(place[waiter] - place[peer]) >= 2
    )
    if not wrong:
        return None
    upstream = [stages[place[w] - 1][0][0] for w in wrong if place[w] > 0]
    peers = sorted({correlation.waiting_on[w] for w in wrong})
    return Blame(
        wrong,
        say(
            "waited.wrong_peer",
            peers=ranks_said(peers),
            upstream=ranks_said(upstream),
            many=several(wrong),
        ),
    )


def _upstream_stage(correlation: Correlation, size_stated: bool) -> Blame | None:
    """Pipeline stages (each rank, or each tensor-parallel group, logs its own layers): the
    first stage that finished more microbatches than the next stage started. The next stage receives its input from it, so
    when it started fewer, the missing activations were never sent - the stage behind is the
    one waiting, not the one that stopped the pipeline. Killed and quiet stages are chosen
    before this, so a stage that died on its way is not passed over for its upstream. A stage
    whose send timed out did send: the next stage never took its activations, having stopped
    on its own (it received the earlier ones and went quiet), so it is not blamed this way.
    Nor is a stage that failed waiting on a next stage that went quiet with no error of its
    own: that stage was in no receive (it would have timed out like its upstream); it stopped
    before its layer on its own, and the quiet rank is found after this."""
    timeline = correlation.timeline
    stages = stage_order(timeline) if isinstance(timeline, Timeline) else None
    if not stages:
        return None
    sending = blocked_sending(correlation)
    status = {r.rank: r.status for r in correlation.ranks}
    for upstream, downstream in pairwise(stages):
        # a stage's tensor-parallel rank i sends to rank i of the next stage
        for (rank, _, done), (after, started, _) in zip(upstream, downstream, strict=False):
            went_quiet = status.get(after) == RankStatus.HUNG != status.get(rank)
            if started < done and rank not in sending and not went_quiet:
                why = say(
                    "waited.upstream_stage", done=done, started=started, ranks=ranks_said([after])
                )
                return Blame([rank], why)
    return None


def _first_stage_behind(correlation: Correlation, size_stated: bool) -> Blame | None:
    """Pipeline stages that log each microbatch, every one failed waiting: when the only
    ranks still inside a training step that every other rank closed are the lowest ones (the
    first stage, alone or as its tensor-parallel ranks), they wait for what only the next
    stage sends the first one: the gradients of that step's backward. The next stage closed
    the step all the same, so it went on without sending one: rank i of the next stage is
    blamed for rank i of the first. Counterexample: a later stage left behind may wait on
    either neighbour, and stages that all stopped inside the step single out no one."""
    timeline = correlation.timeline
    if not isinstance(timeline, Timeline) or not microbatch_stages(timeline):
        return None
    summaries = sorted(correlation.ranks, key=lambda r: r.rank)
    if any(r.status != RankStatus.ERROR for r in summaries):
        return None
    closed: set[int] = set()
    behind: list[int] = []
    for summary in summaries:
        hit = classify_text(summary.last_checkpoint) if summary.last_checkpoint else None
        inside = _IN_STEP.match(summary.last_checkpoint_qualified or "")
        if hit is not None and hit.role in TRAIN_ROLES and hit.step is not None:
            closed.add(hit.step)
        elif inside:
            closed.add(int(inside.group(1)))
            behind.append(summary.rank)
        else:
            return None
    everyone = [r.rank for r in summaries]
    width = len(behind)
    if len(closed) != 1 or not 0 < 2 * width <= len(everyone) or behind != everyone[:width]:
        return None
    if len(everyone) % width:  # stages of equal width
        return None
    nxt = everyone[width : 2 * width]
    if blocked_sending(correlation) & set(nxt):
        return None
    return Blame(nxt, say("waited.first_stage_behind", step=closed.pop(), ranks=ranks_said(behind)))


def _ran_without_input(correlation: Correlation, size_stated: bool) -> Blame | None:
    """Pipeline stages that log each microbatch and no layers, taken in rank order (the place
    a stage's rank gives it when no layer line says otherwise): a stage receives each
    microbatch from the stage before it, so it can never have pushed more microbatches forward
    than that stage did. When one stage did, while the stage before it timed out in a send
    (its data was ready and nobody took it), that stage skipped a receive and ran on with
    activations it never got: it is blamed, not the sender left behind. Counterexample: a
    stage ahead of an upstream that stopped in anything but a send, or several such stages,
    single out no one this way."""
    timeline = correlation.timeline
    if not isinstance(timeline, Timeline) or not microbatch_stages(timeline):
        return None
    if stage_order(timeline):
        return None
    sending = blocked_sending(correlation)
    if not sending:
        return None
    forward = {tid for tid, text in enumerate(timeline.texts) if _FORWARD.fullmatch(text.strip())}
    counts = {rank: sum(t in forward for t in seq.text) for rank, seq in timeline.ranks.items()}
    ahead = [
        (before, after)
        for before, after in pairwise(sorted(counts))
        if after == before + 1 and counts[after] > counts[before]
    ]
    if len(ahead) != 1 or ahead[0][0] not in sending:
        return None
    before, after = ahead[0]
    why = say(
        "waited.ran_without_input",
        done=counts[after],
        sent=counts[before],
        ranks=ranks_said([before]),
    )
    return Blame([after], why)


def _silent(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    """The few ranks that stopped with no error of their own while every other rank failed:
    the others lost them (a closed connection, a timeout), and they never said why - a
    process killed from outside, or one stuck where its peers could not follow. Ranks the
    launcher stopped after the peers had lost a process that went away (`spared`) were alive
    until then: quiet because it stopped them, not suspects."""
    quiet = [
        r.rank for r in correlation.ranks if r.status == RankStatus.HUNG and r.rank not in spared
    ]
    loud = [r for r in correlation.ranks if r.status not in (RankStatus.HUNG, RankStatus.MISSING)]
    if not quiet or not loud or any(r.status == RankStatus.OK for r in loud):
        return None
    node = None
    if len(quiet) * 2 >= len(correlation.ranks):
        node = one_node_folder(correlation, quiet)
        if node is None:
            return None
    why = say("waited.quiet", subject=say("apart.subject", many=several(quiet)))
    if node is not None:
        why = say("waited.quiet_node", folder=node)
    mine = _last_of(correlation.ranks, quiet, inside=True)
    return Blame(quiet, why + say("waited.quiet_at", checkpoint=mine) if mine else why)


def _quiet_not_apart(
    correlation: Correlation, size_stated: bool, spared: Collection[int] = frozenset()
) -> Blame | None:
    """The quiet ranks of `_silent` ahead of the few outliers of `_apart`, when none of them is
    an outlier and every outlier failed with an error of its own. A rank ahead of or behind the
    pack that then failed reached a collective that could fail; the quiet one never did (it was
    stuck in its own code: a lock, a queue, a loop) and the others' collective waited for it.
    Where the pack stopped is then only where that collective met each rank: a broadcast that
    reached one rank before its root blocked on the quiet one lets that rank run one layer
    further."""
    outliers = set(correlation.ahead_ranks) | set(correlation.behind_ranks)
    if not outliers:
        return None
    status = {r.rank: r.status for r in correlation.ranks}
    if any(status.get(rank) != RankStatus.ERROR for rank in outliers):
        return None
    blame = _silent(correlation, size_stated, spared)
    if blame is None or outliers & set(blame.ranks):
        return None
    return blame


def one_node_folder(correlation: Correlation, quiet: Sequence[int]) -> str | None:
    """The folder that holds every file of the quiet ranks and all of no other rank's: a
    node's own folder (`node1/`, `worker-2/`) of a multi-node job whose ranks all went
    silent together while the other nodes' ranks failed - the node went away (a lost
    machine, a killed agent). Half the ranks or more going quiet names no one otherwise."""
    held: dict[str, set[int]] = {}
    for summary in correlation.ranks:
        if summary.status == RankStatus.MISSING or not summary.files:
            continue
        folders = [set(PurePosixPath(f).parents) for f in summary.files]
        for folder in set.intersection(*folders):
            if str(folder) != ".":
                held.setdefault(str(folder), set()).add(summary.rank)
    wanted = set(quiet)
    found = [folder for folder, ranks in held.items() if ranks == wanted]
    return min(found, key=len) + "/" if found else None


def _diverged(correlation: Correlation, size_stated: bool) -> Blame | None:
    ranks = correlation.divergent_ranks
    if not ranks:
        return None
    return Blame(ranks, divergence_said(correlation) or say("waited.diverged"))


def divergence_said(correlation: Correlation) -> Said | None:
    """Where a rank left the common path, as the timeline said it in both languages."""
    english = correlation.divergence
    return Said(english, correlation.divergence_zh or english) if english else None


def _group_hole(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The one rank that went on from a sub-group the ranks behind were waiting in. Several
    ranks stopped together at one checkpoint that the pack passed, so what they waited in was
    no collective of the whole world but one of a group that includes them (an expert or
    tensor-parallel group): an aligned block of a power-of-two size, or, when no such block
    fits, a strided set (every s-th rank from one offset, `new_group([1, 3, 5, 7])`, the
    stride dividing the world). When the smallest such group that holds them all lacks
    exactly one rank, and that rank is with the pack, it is the member that never entered the
    group's collective. A full group behind (the whole group waited for something outside
    it) and a single rank behind say nothing of a group."""
    behind = set(correlation.behind_ranks)
    if len(behind) < 2 or correlation.ahead_ranks:
        return None
    summaries = {r.rank: r for r in correlation.ranks}
    stops = {(summaries[r].checkpoints, summaries[r].last_checkpoint_qualified) for r in behind}
    if len(stops) != 1:
        return None
    everyone = len(correlation.ranks)
    found = group_hole(behind, everyone)
    if found is None:
        return None
    hole_rank, block = found
    hole = summaries.get(hole_rank)
    if hole is None or hole.status in (RankStatus.MISSING, RankStatus.OK):
        return None
    if hole.checkpoints <= next(iter(stops))[0]:
        return None
    why = say(
        "waited.group_hole",
        ranks=", ".join(str(r) for r in sorted(behind)),
        checkpoint=next(iter(stops))[1] or "",
        block=block,
    )
    return Blame([hole_rank], why)


def group_hole(members: set[int], everyone: int) -> tuple[int, str] | None:
    """(the one rank missing, the group as said) for the smallest sub-group that holds every
    rank of `members` and lacks exactly one: an aligned power-of-two block, else a strided
    set. None when no such group lacks exactly one rank."""
    return _aligned_block(members, everyone) or _strided_set(members, everyone)


def _aligned_block(behind: set[int], everyone: int) -> tuple[int, str] | None:
    """The one rank missing from the smallest aligned power-of-two block holding `behind`."""
    size = 1
    while min(behind) // size != max(behind) // size:
        size *= 2
    start = min(behind) // size * size
    holes = [r for r in range(start, start + size) if r not in behind]
    if len(holes) != 1 or size >= everyone:
        return None
    return holes[0], f"{start}-{start + size - 1}"


def _strided_set(behind: set[int], everyone: int) -> tuple[int, str] | None:
    """The one rank missing from the smallest strided set (ranks `o, o + s, ...` below the
    world size, `s` a divisor of it) that holds every rank in `behind`."""
    for stride in range(everyone // 2, 1, -1):
        if everyone % stride or len({r % stride for r in behind}) != 1:
            continue
        members = range(min(behind) % stride, everyone, stride)
        holes = [r for r in members if r not in behind]
        if len(holes) != 1:
            return None
        return holes[0], "[" + ", ".join(str(r) for r in members) + "]"
    return None


def _apart(correlation: Correlation, size_stated: bool) -> Blame | None:
    """The few ranks ahead of or behind the pack; many outliers single nobody out."""
    outliers = sorted(set(correlation.ahead_ranks) | set(correlation.behind_ranks))
    if not outliers or len(outliers) * 2 >= len(correlation.ranks):
        return None
    return Blame(outliers, apart_why(correlation, outliers))


def _first_stopped(correlation: Correlation, size_stated: bool) -> Blame | None:
    """With no pack to compare against, the ranks that logged the fewest checkpoints."""
    ranks = fewest_checkpoints(correlation, [r.rank for r in correlation.ranks])
    return Blame(ranks, apart_why(correlation, ranks)) if ranks else None


def apart_why(correlation: Correlation, ranks: Sequence[int]) -> Said:
    """Where the blamed ranks stopped and where the others got to, when each side agrees."""
    mine = _last_of(correlation.ranks, ranks, inside=True)
    theirs = _last_of(correlation.ranks, ranks, inside=False)
    ahead = all(r in correlation.ahead_ranks for r in ranks)
    subject = say("apart.subject", many=several(ranks))
    if ahead:
        if mine:
            text = say("apart.ran_on", subject=subject, checkpoint=mine)
        else:
            text = say("apart.ran_ahead", subject=subject)
        if theirs:
            text += say("apart.others_stopped", checkpoint=theirs)
        else:
            text += say("apart.of_others")
        return text + say("apart.skipping")
    if mine:
        text = say("apart.stopped_at", subject=subject, checkpoint=mine)
    else:
        text = say("apart.stopped_early", subject=subject)
    if theirs:
        text += say("apart.others_went_on", checkpoint=theirs)
    return text


def _last_of(ranks: Sequence[RankSummary], chosen: Sequence[int], inside: bool) -> str | None:
    """The last checkpoint the chosen ranks (or the others) share, if they agree on one."""
    lasts = {
        r.last_checkpoint_qualified or r.last_checkpoint
        for r in ranks
        if (r.rank in chosen) == inside and r.status != RankStatus.MISSING
    }
    return lasts.pop() if len(lasts) == 1 and None not in lasts else None


def first_to_exit(scans: Sequence[FileScan]) -> Blame | None:
    """Last resort: the rank torch elastic calls "Root Cause". It is only the first child
    to exit, so it counts only when nothing else points anywhere."""
    ranks = {
        record.get("rank")
        for scan in scans
        for record in scan.facts.get("elastic_failures") or ()
        if record.get("root_cause")
    } - {None}
    if len(ranks) != 1:
        return None
    return Blame(sorted(ranks), say("waited.exit_first"))
