"""Whom a pipeline's stages waited on, read from the order the stages pass work along.

Each job is four pipeline stages as the correlation sees them: stage r logs layers 2r and
2r+1 (`layer 5 passed`) once per microbatch, or, with no layer lines, `microbatch m / fwd
passed` lines; every stage failed waiting. Each reading is asked on its own here; the order
`causal.waited_on.singled_out` asks them in is tested with it.
"""

from __future__ import annotations

from array import array

import pytest

from analyzers.causal.stage_waits import (
    first_stage_behind,
    ran_without_input,
    upstream_stage,
    wrong_peer,
)
from analyzers.core.checkpoint_timeline import RankSequence, Timeline
from analyzers.core.types import Correlation, ErrorRef, RankStatus, RankSummary

ERROR, HUNG = RankStatus.ERROR, RankStatus.HUNG
GLOO = "/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc"
SEND = f"RuntimeError: [{GLOO}:129] Timed out waiting 10000ms for send operation to complete"
RECV = f"RuntimeError: [{GLOO}:78] Timed out waiting 10000ms for recv operation to complete"


def layered(done: list[int], waits: str = "rrrr") -> Correlation:
    """Stage r ran its two layers for `done[r]` microbatches, then timed out in a send ('s')
    or a receive ('r') by `waits[r]`."""
    texts = ["load weights passed"] + [f"layer {n} passed" for n in range(8)]
    ranks, summaries = {}, []
    for rank, count in enumerate(done):
        seq = [0] + [1 + 2 * rank, 2 + 2 * rank] * count
        ranks[rank] = RankSequence(text=array("I", seq))
        error = ErrorRef(f"job/rank{rank}.log", 40 + count, SEND if waits[rank] == "s" else RECV)
        last = f"layer {2 * rank + 1} passed"
        summaries.append(RankSummary(rank, ERROR, last, error, len(seq), last))
    timeline = Timeline(texts=texts, labels=texts, files=[], ranks=ranks)
    return Correlation(ranks=summaries, timeline=timeline, world_size=len(done))


def microbatches(pushed: list[int], waits: str) -> Correlation:
    """Stages logging `microbatch m / fwd passed` for their first `pushed[r]` microbatches and
    no layers, then timing out in a send ('s') or a receive ('r') by `waits[r]`."""
    texts = [f"microbatch {m} / fwd passed" for m in range(max(pushed))]
    ranks, summaries = {}, []
    for rank, count in enumerate(pushed):
        ranks[rank] = RankSequence(text=array("I", range(count)))
        error = ErrorRef(f"job/log_{rank}.log", 12, SEND if waits[rank] == "s" else RECV)
        last = texts[count - 1]
        summaries.append(RankSummary(rank, ERROR, last, error, count, last))
    timeline = Timeline(texts=texts, labels=texts, files=[], ranks=ranks)
    return Correlation(ranks=summaries, timeline=timeline, world_size=len(pushed))


def test_the_stage_that_finished_more_than_its_next_stage_started_is_upstream() -> None:
    blame = upstream_stage(layered([2, 2, 1, 1]), True)
    assert blame is not None
    assert blame.ranks == [1]
    assert blame.why.en == (
        "it ran its layers for 2 microbatch(es), but the next pipeline stage, rank 2, "
        "started only 1 and waited for its input"
    )


@pytest.mark.parametrize(
    ("done", "waits", "quiet"),
    [
        pytest.param([2, 2, 2, 2], "rrrr", None, id="stages-in-step"),
        pytest.param([2, 2, 1, 1], "rsrr", None, id="its-send-timed-out"),
        pytest.param([2, 2, 1, 1], "rrrr", 2, id="next-stage-went-quiet"),
    ],
)
def test_no_upstream_stage_when_the_next_stage_took_all_it_was_sent(
    done: list[int], waits: str, quiet: int | None
) -> None:
    correlation = layered(done, waits)
    if quiet is not None:
        correlation.ranks[quiet].status = HUNG
    assert upstream_stage(correlation, True) is None


def test_a_stage_waiting_on_a_rank_two_stages_away_asked_the_wrong_peer() -> None:
    correlation = layered([3, 2, 1, 1])
    correlation.waiting_on = {2: 0, 3: 2}
    blame = wrong_peer(correlation, True)
    assert blame is not None
    assert blame.ranks == [2]
    assert blame.why.en.startswith(
        "its last line waits for rank 0, a pipeline stage that is not next to it"
    )
    assert "its own upstream stage rank 1 waited to hand it activations" in blame.why.en


def test_a_stage_waiting_on_its_neighbour_asked_no_wrong_peer() -> None:
    correlation = layered([2, 2, 2, 1])
    correlation.waiting_on = {3: 2}
    assert wrong_peer(correlation, True) is None


def test_the_stage_that_pushed_more_than_its_blocked_sender_ran_without_input() -> None:
    blame = ran_without_input(microbatches([4, 3, 4, 4], "rssr"), True)
    assert blame is not None
    assert blame.ranks == [2]
    assert "skipped a receive" in blame.why.en


@pytest.mark.parametrize(
    ("pushed", "waits"),
    [
        pytest.param([4, 3, 3, 3], "rsrr", id="no-stage-ahead-of-its-sender"),
        pytest.param([4, 3, 4, 4], "rrrr", id="the-sender-was-in-no-send"),
    ],
)
def test_no_stage_ran_without_input(pushed: list[int], waits: str) -> None:
    assert ran_without_input(microbatches(pushed, waits), True) is None


def in_step(lasts: list[str]) -> Correlation:
    """Stages logging each microbatch over two training steps; `lasts` is each rank's last
    qualified checkpoint, inside step 2 or its closing `step 2 done`."""
    texts = ["microbatch 0 / fwd passed", "microbatch 0 / bwd passed", "step 1 done", "step 2 done"]
    ranks, summaries = {}, []
    for rank, last in enumerate(lasts):
        seq = [0, 1, 2, 0, 1] + ([3] if last == "step 2 done" else [])
        ranks[rank] = RankSequence(text=array("I", seq))
        summaries.append(RankSummary(rank, ERROR, last.split(" / ", 1)[-1], None, len(seq), last))
    timeline = Timeline(texts=texts, labels=texts, files=[], ranks=ranks)
    return Correlation(ranks=summaries, timeline=timeline, world_size=len(lasts))


INSIDE = "step 2 / microbatch 0 / bwd passed"


def test_the_next_stage_closed_the_step_the_first_stage_is_still_in() -> None:
    blame = first_stage_behind(in_step([INSIDE, INSIDE, "step 2 done", "step 2 done"]), True)
    assert blame is not None
    assert blame.ranks == [2, 3]
    assert "the first pipeline stage" in blame.why.en


@pytest.mark.parametrize(
    "lasts",
    [
        pytest.param(["step 2 done", INSIDE, "step 2 done"], id="a-middle-stage-behind"),
        pytest.param([INSIDE, INSIDE, INSIDE], id="every-stage-inside"),
    ],
)
def test_no_first_stage_behind(lasts: list[str]) -> None:
    assert first_stage_behind(in_step(lasts), True) is None
