"""Whom a pipeline's stages waited on, read from the order the stages pass work along.

A stage receives its input from the stage before it and its gradients from the stage after
it, so where each stage stopped says which one held the others up. The stages' order comes
from the layers each logs (`timeline.divergence.stage_order`) or, for stages that log each
microbatch and no layers, from their ranks (`timeline.divergence.microbatch_stages`). Each
answer says why, as a clause about the blamed stage::

    it ran its layers for 2 microbatch(es), but the next pipeline stage, rank 2, started
    only 1 and waited for its input

`causal.waited_on.singled_out` asks `wrong_peer` before the peers a wait names, and the
others after the ranks that left the common path.
"""

from __future__ import annotations

import re
from itertools import pairwise

from analyzers.causal.chain import Blame
from analyzers.causal.stalled import blocked_sending
from analyzers.checkpoints.checkpoint_rules import TRAIN_ROLES
from analyzers.checkpoints.patterns import classify_text
from analyzers.core.checkpoint_timeline import Timeline
from analyzers.core.phrases import ranks_said, say, several
from analyzers.core.types import Correlation, RankStatus
from analyzers.timeline.divergence import microbatch_stages, stage_order

_IN_STEP = re.compile(r"step (\d+) / ")
_FORWARD = re.compile(r"microbatch \d+ / (?:forward|fwd) passed")


def wrong_peer(correlation: Correlation, size_stated: bool) -> Blame | None:
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


def upstream_stage(correlation: Correlation, size_stated: bool) -> Blame | None:
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


def first_stage_behind(correlation: Correlation, size_stated: bool) -> Blame | None:
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


def ran_without_input(correlation: Correlation, size_stated: bool) -> Blame | None:
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
