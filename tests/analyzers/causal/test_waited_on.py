"""When the first error is only a wait, the ranks waited on and the reason the card gives.

Each row is a 4-rank job as the rank comparison sees it: per rank a status, a checkpoint
count and a last checkpoint; then the ranks blamed and why.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers.causal.waited_on import singled_out
from analyzers.core.types import Correlation, RankStatus, RankSummary
from tests.analyzers.job_bundles import RECV_TIMEOUT, analyze_job, ranks

HUNG, ERROR, KILLED, MISSING = (
    RankStatus.HUNG,
    RankStatus.ERROR,
    RankStatus.KILLED,
    RankStatus.MISSING,
)
NORM = "layer 3 / norm passed"
ATTENTION = "layer 3 / attention passed"


def job(*ranks: tuple[RankStatus, int, str | None], **facts: object) -> Correlation:
    summaries = [
        RankSummary(n, status, last and last.split(" / ")[-1], None, count, last)
        for n, (status, count, last) in enumerate(ranks)
    ]
    return Correlation(ranks=summaries, timeline={}, world_size=len(ranks), **facts)


CASES = [
    pytest.param(
        job((ERROR, 14, NORM), (KILLED, 14, NORM), (ERROR, 14, NORM), (ERROR, 14, NORM)),
        True,
        [1],
        "it was killed",
        id="killed",
    ),
    pytest.param(
        job(
            (ERROR, 6, NORM),
            (ERROR, 6, NORM),
            (MISSING, 0, None),
            (MISSING, 0, None),
            missing_ranks=[2, 3],
        ),
        True,
        [2, 3],
        "they left no log",
        id="missing-with-the-world-size-stated",
    ),
    pytest.param(
        job(
            (ERROR, 6, NORM),
            (ERROR, 6, NORM),
            (MISSING, 0, None),
            (MISSING, 0, None),
            missing_ranks=[2, 3],
        ),
        False,
        None,
        None,
        id="missing-but-the-world-size-is-only-guessed",
    ),
    pytest.param(
        job(
            (ERROR, 14, NORM),
            (ERROR, 14, NORM),
            (ERROR, 14, "layer 3 / MoE passed"),
            (ERROR, 14, NORM),
            divergent_ranks=[2],
            divergence="rank 2 left the common sequence after 'layer 3 / norm passed'",
        ),
        True,
        [2],
        "rank 2 left the common sequence after 'layer 3 / norm passed'",
        id="diverged",
    ),
    pytest.param(
        job(
            (ERROR, 15, ATTENTION),
            (ERROR, 15, ATTENTION),
            (ERROR, 15, ATTENTION),
            (HUNG, 14, NORM),
            behind_ranks=[3],
        ),
        True,
        [3],
        f"it stopped at '{NORM}' while the others went on to '{ATTENTION}'",
        id="one-behind",
    ),
    pytest.param(
        job(
            (ERROR, 14, NORM),
            (ERROR, 14, NORM),
            (ERROR, 15, ATTENTION),
            (ERROR, 14, NORM),
            ahead_ranks=[2],
        ),
        True,
        [2],
        f"it ran on to '{ATTENTION}' while the others stopped at '{NORM}', skipping a "
        "collective they waited in",
        id="one-ahead",
    ),
    pytest.param(
        job((ERROR, 14, NORM), (ERROR, 14, NORM), (ERROR, 14, NORM), (ERROR, 14, NORM)),
        True,
        None,
        None,
        id="all-alike-nobody",
    ),
    pytest.param(
        job((ERROR, 14, NORM), (HUNG, 14, NORM), (ERROR, 14, NORM), (ERROR, 14, NORM)),
        True,
        [1],
        f"it stopped without an error while the others failed, last at '{NORM}'",
        id="one-quiet-among-failed-peers",
    ),
    pytest.param(
        job(
            (ERROR, 14, NORM),
            (ERROR, 14, NORM),
            (ERROR, 15, ATTENTION),
            (HUNG, 14, NORM),
            ahead_ranks=[2],
        ),
        True,
        [3],
        f"it stopped without an error while the others failed, last at '{NORM}'",
        id="one-quiet-beside-one-ahead-that-failed",
    ),
    pytest.param(
        job((ERROR, 14, NORM), (HUNG, 14, NORM), (HUNG, 14, NORM), (ERROR, 14, NORM)),
        True,
        None,
        None,
        id="half-quiet-singles-nobody-out",
    ),
    pytest.param(
        job(
            (RankStatus.OK, 14, NORM),
            (HUNG, 14, NORM),
            (ERROR, 14, NORM),
            (ERROR, 14, NORM),
        ),
        True,
        None,
        None,
        id="quiet-next-to-a-finished-rank-is-not-singled-out",
    ),
]


@pytest.mark.parametrize(("correlation", "size_stated", "ranks", "why"), CASES)
def test_wait_blames_the_rank_the_comparison_singles_out(
    correlation: Correlation, size_stated: bool, ranks: list[int] | None, why: str | None
) -> None:
    blame = singled_out(correlation, size_stated)
    got = (blame.ranks, blame.why.en if blame.why else None) if blame else (None, None)
    assert got == (ranks, why)


def _pipeline(done: list[int]) -> Correlation:
    """Four pipeline stages (rank r holds layers 2r, 2r+1) that each got through `done[r]`
    microbatches, every one failing with a timeout."""
    from array import array

    from analyzers.core.checkpoint_timeline import RankSequence, Timeline

    texts = ["load weights passed"] + [f"layer {n} passed" for n in range(8)]
    ranks = {}
    for rank, count in enumerate(done):
        seq = [0]
        for _ in range(count):
            seq += [1 + 2 * rank, 2 + 2 * rank]
        ranks[rank] = RankSequence(text=array("I", seq))
    timeline = Timeline(texts=texts, labels=texts, files=[], ranks=ranks)
    summaries = [
        RankSummary(r, ERROR, f"layer {2 * r + 1} passed", None, 1 + 2 * n, None)
        for r, n in enumerate(done)
    ]
    return Correlation(ranks=summaries, timeline=timeline, world_size=4)


def test_a_pipeline_stage_whose_output_never_arrived_is_blamed_not_the_stages_behind() -> None:
    blame = singled_out(_pipeline([2, 2, 1, 1]), True)
    assert blame is not None
    assert blame.ranks == [1]
    assert "next pipeline stage, rank 2, started only 1" in blame.why.en


def test_pipeline_stages_all_in_step_single_out_no_upstream_stage() -> None:
    """Counterexample: every stage started as many microbatches as its upstream finished."""
    blame = singled_out(_pipeline([2, 2, 2, 2]), True)
    assert blame is None or "pipeline stage" not in blame.why.en


def test_a_quiet_stage_is_blamed_not_the_stage_that_timed_out_waiting_on_it() -> None:
    """Stage 2 received its next microbatch and stalled before its layers, with no error of
    its own; stage 1 ran its layers for that microbatch and timed out waiting for gradients.
    Stage 2 was in no receive (it would have timed out too): it is the quiet one."""
    correlation = _pipeline([2, 2, 1, 1])
    correlation.ranks[2].status = HUNG
    blame = singled_out(correlation, True)
    assert blame is not None
    assert blame.ranks == [2]
    assert "stopped without an error" in blame.why.en


def _microbatch_stages(lasts: list[str]) -> Correlation:
    """Pipeline stages logging each microbatch (no layer lines) over two training steps,
    every one failing with a timeout; `lasts` is each rank's last qualified checkpoint."""
    from array import array

    from analyzers.core.checkpoint_timeline import RankSequence, Timeline

    texts = ["microbatch 0 / fwd passed", "microbatch 0 / bwd passed", "step 1 done"]
    texts.append("step 2 done")
    ranks = {}
    summaries = []
    for rank, last in enumerate(lasts):
        seq = [0, 1, 2, 0, 1] + ([3] if last == "step 2 done" else [])
        ranks[rank] = RankSequence(text=array("I", seq))
        summaries.append(RankSummary(rank, ERROR, last.split(" / ", 1)[-1], None, len(seq), last))
    timeline = Timeline(texts=texts, labels=texts, files=[], ranks=ranks)
    return Correlation(ranks=summaries, timeline=timeline, world_size=len(lasts))


INSIDE = "step 2 / microbatch 0 / bwd passed"


@pytest.mark.parametrize(
    ("lasts", "ranks"),
    [
        # stage 1 closed step 2 without sending stage 0 its last gradient
        ([INSIDE, "step 2 done", "step 2 done"], [1]),
        # the same with tensor-parallel pairs: rank i of stage 1 sends to rank i of stage 0
        ([INSIDE, INSIDE, "step 2 done", "step 2 done"], [2, 3]),
    ],
)
def test_the_stage_after_a_first_stage_left_in_its_backward_withheld_a_gradient(
    lasts: list[str], ranks: list[int]
) -> None:
    blame = singled_out(_microbatch_stages(lasts), True)
    assert blame is not None
    assert blame.ranks == ranks
    assert "the first pipeline stage" in blame.why.en


@pytest.mark.parametrize(
    "lasts",
    [
        # a middle stage left behind may wait on either neighbour
        ["step 2 done", INSIDE, "step 2 done"],
        # every stage stopped inside the step
        [INSIDE, INSIDE, INSIDE],
    ],
)
def test_stages_left_in_a_step_elsewhere_are_not_read_this_way(lasts: list[str]) -> None:
    blame = singled_out(_microbatch_stages(lasts), True)
    assert blame is None or "the first pipeline stage" not in blame.why.en


MOE = "decode step 1 / layer 1 / attention passed"
LATER = "decode step 1 / layer 2 / norm passed"


def _eight(
    behind: dict[int, tuple[RankStatus, int, str]], hole_status: RankStatus = ERROR
) -> Correlation:
    """Eight ranks; those in `behind` stopped short of the pack at layer 2's first line."""
    rows = [behind.get(r, (ERROR, 22, LATER)) for r in range(8)]
    rows[6] = behind.get(6, (hole_status, 22, LATER))
    return job(*rows, behind_ranks=sorted(behind))


def test_the_member_that_went_on_from_a_group_its_partners_waited_in_is_blamed() -> None:
    """docs/labelling.md#a-collective-one-member-of-a-sub-group-never-entered: ranks 4, 5, 7
    stopped together before their expert group's collective while the pack, rank 6 with it,
    went on; the block 4-7 lacks only rank 6, which never entered the group's collective."""
    stuck = (ERROR, 19, MOE)
    blame = singled_out(_eight({4: stuck, 5: stuck, 7: stuck}), True)
    assert blame is not None
    assert blame.ranks == [6]
    assert blame.why is not None
    assert "ranks 4, 5, 7 of its group 4-7 stopped together" in blame.why.en


@pytest.mark.parametrize(
    ("behind", "hole_status", "ranks"),
    [
        # a whole pair behind: the group is complete, it waited for something outside it
        pytest.param({4: (ERROR, 19, MOE), 5: (ERROR, 19, MOE)}, ERROR, [4, 5], id="full-block"),
        # the ranks behind stopped at different places: no one collective they all waited in
        pytest.param(
            {4: (ERROR, 19, MOE), 5: (ERROR, 18, NORM), 7: (ERROR, 19, MOE)},
            ERROR,
            [4, 5, 7],
            id="different-stops",
        ),
        # the rank that would fill the block finished: it was not missing from the collective
        pytest.param(
            {4: (ERROR, 19, MOE), 5: (ERROR, 19, MOE), 7: (ERROR, 19, MOE)},
            RankStatus.OK,
            [4, 5, 7],
            id="hole-finished",
        ),
    ],
)
def test_ranks_behind_without_one_missing_member_keep_the_plain_reading(
    behind: dict[int, tuple[RankStatus, int, str]], hole_status: RankStatus, ranks: list[int]
) -> None:
    blame = singled_out(_eight(behind, hole_status), True)
    assert blame is not None
    assert blame.ranks == ranks


def _strided(behind: dict[int, tuple[RankStatus, int, str]]) -> Correlation:
    """Eight ranks with strided expert groups [0, 2, 4, 6] and [1, 3, 5, 7]; those in
    `behind` stopped short of the pack."""
    rows = [behind.get(r, (ERROR, 22, LATER)) for r in range(8)]
    return job(*rows, behind_ranks=sorted(behind))


def test_the_member_that_went_on_from_a_strided_group_is_blamed() -> None:
    """Ranks 1, 3, 7 stopped together in their expert group's all_reduce (the group
    `new_group([1, 3, 5, 7])`, no aligned block) while rank 5 skipped it and went on with the
    pack: the strided set lacks only rank 5."""
    stuck = (ERROR, 19, MOE)
    blame = singled_out(_strided({1: stuck, 3: stuck, 7: stuck}), True)
    assert blame is not None
    assert blame.ranks == [5]
    assert blame.why is not None
    assert "ranks 1, 3, 7 of its group [1, 3, 5, 7] stopped together" in blame.why.en


@pytest.mark.parametrize(
    ("behind", "ranks"),
    [
        # the whole strided pair [1, 5] behind: the group is complete
        pytest.param({1: (ERROR, 19, MOE), 5: (ERROR, 19, MOE)}, [1, 5], id="full-strided-set"),
        # two members of [1, 3, 5, 7] behind: two holes, no one member singled out
        pytest.param({1: (ERROR, 19, MOE), 3: (ERROR, 19, MOE)}, [1, 3], id="two-holes"),
    ],
)
def test_strided_ranks_behind_without_one_missing_member_keep_the_plain_reading(
    behind: dict[int, tuple[RankStatus, int, str]], ranks: list[int]
) -> None:
    blame = singled_out(_strided(behind), True)
    assert blame is not None
    assert blame.ranks == ranks


def test_a_stage_waiting_on_a_rank_that_is_not_its_neighbour_is_blamed() -> None:
    """Stage 2 posted its receive for rank 0 instead of rank 1 (`stage 2 waiting for
    activations of microbatch 1 from rank 0`): rank 0 never sends to it, rank 1 blocks in its
    send, and every stage times out. Rank 0 waits on nobody, but it is not the culprit."""
    correlation = _pipeline([3, 2, 1, 1])
    correlation.waiting_on = {2: 0, 3: 2}
    blame = singled_out(correlation, True)
    assert blame is not None
    assert blame.ranks == [2]
    assert blame.why is not None
    assert "waits for rank 0, a pipeline stage that is not next to it" in blame.why.en


def test_a_stage_waiting_on_its_upstream_is_read_as_any_wait() -> None:
    """Counterexample: stage 3 waits on stage 2, its upstream, which waits on nobody: the
    plain reading of the wait names rank 2."""
    correlation = _pipeline([2, 2, 2, 1])
    correlation.waiting_on = {3: 2}
    blame = singled_out(correlation, True)
    assert blame is not None
    assert blame.ranks == [2]
    assert blame.why is not None
    assert "not next to it" not in blame.why.en


_GLOO = "/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc"
_TIMED_OUT = {
    "send": f"[{_GLOO}:129] Timed out waiting 10000ms for send operation to complete",
    "recv": f"[{_GLOO}:78] Timed out waiting 10000ms for recv operation to complete",
}


def _pipeline_logs(pushed: list[int], waits: list[str]) -> dict[str, str]:
    """A four-stage forward pipeline, one `log_<rank>.log` per stage (Python logging): stage r
    logs `stage r microbatch m forward passed` for its first `pushed[r]` microbatches, then the
    timeout `waits[r]` ('send' or 'recv') with the traceback logging writes under its record
    and torch's `[rankN]:` copy of the exception (torch 2.13, gloo)."""
    c10d = "/opt/venv/lib/python3.11/site-packages/torch/distributed"
    files = {}
    for rank, (count, wait) in enumerate(zip(pushed, waits, strict=True)):
        lines = [f"2026-12-07 00:25:36,200 [rank{rank}] INFO load weights passed"]
        lines += [
            f"2026-12-07 00:25:36,{231 + m:03d} [rank{rank}] INFO stage {rank} microbatch {m} "
            "forward passed"
            for m in range(count)
        ]
        error = _TIMED_OUT[wait]
        frames = [
            "Traceback (most recent call last):",
            '  File "/home/user/llm-infer/infer.py", line 186, in run_pipeline',
            "    dist.send(y, dst=stage + 1)"
            if wait == "send"
            else "    dist.recv(x, src=stage - 1)",
            f'  File "{c10d}/distributed_c10d.py", line 2753, in {wait}',
            "    work.wait()",
            f"RuntimeError: {error}",
        ]
        lines.append(
            f"2026-12-07 00:25:46,{272 + rank:03d} [rank{rank}] ERROR model run failed: {error}"
        )
        lines += frames + [f"[rank{rank}]: {line}" for line in frames]
        files[f"job/log_{rank}.log"] = "\n".join(lines) + "\n"
    return files


def test_a_stage_that_pushed_more_microbatches_than_its_sender_passed_on_skipped_a_receive() -> (
    None
):
    """docs/labelling.md#pipeline-stages-that-log-each-microbatch: stage 2 skipped its receive
    of microbatch 1, so stage 1's last send was never taken. Stage 1 is the stage behind (three
    microbatches) and timed out in that send; stage 2 pushed all four forward although stage 1
    passed on only three: stage 2 ran without an input and is blamed. Before, no rank was named
    (a held-out four-stage gloo run)."""
    from tests.analyzers.excerpts import diagnose_files

    diagnosis = diagnose_files(_pipeline_logs([4, 3, 4, 4], ["recv", "send", "send", "recv"]))
    assert diagnosis.culprit_ranks == [2]
    assert "skipped a receive" in (diagnosis.culprit_reason or "")


def test_a_stage_no_further_than_the_sender_behind_it_is_not_read_so() -> None:
    """Counterexample: stage 1 timed out in a send, but stage 2 pushed no more microbatches
    than stage 1 passed on: it took every input it got, so nothing says it skipped one."""
    from tests.analyzers.excerpts import diagnose_files

    diagnosis = diagnose_files(_pipeline_logs([4, 3, 3, 3], ["recv", "send", "recv", "recv"]))
    assert "skipped a receive" not in (diagnosis.culprit_reason or "")


SEND_TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:129] Timed out "
    "waiting 10000ms for send operation to complete"
)


def test_a_rank_stuck_outside_the_collective_is_blamed_not_the_one_a_broadcast_let_through(
    tmp_path: Path,
) -> None:
    """Rank 3 blocked in its own code (a lock its loader thread also needs) before the step's
    first collective, a broadcast from rank 0: rank 2 got its part and ran one layer further
    before timing out in the next collective, ranks 0 and 1 timed out sending, and rank 3 wrote
    nothing more until the launch script's timeout ended it. The quiet rank is what the others
    waited for; the one ahead only met the collective later."""
    logs = ranks(4)
    for log in logs:
        log.loaded().layers(2)
        if log.rank == 2:
            log.steps(" norm passed", " attention passed", " MoE passed", "layer 2 passed")
            log.at(12_000).fails(f"RuntimeError: {RECV_TIMEOUT}", frame="forward")
        elif log.rank != 3:
            log.at(11_900).fails(f"RuntimeError: {SEND_TIMEOUT}", frame="forward")
    report = analyze_job(tmp_path, logs, {"run.log": "rank 3 (pid 23641) exited with status 124\n"})
    assert report.diagnosis.category == "hccl"
    assert report.diagnosis.culprit_ranks == [3]


SEND_TIMEOUT = RECV_TIMEOUT.replace("unbound_buffer.cc:81", "unbound_buffer.cc:129").replace(
    "for recv", "for send"
)


def _handoff_job(tmp_path: Path, waits: dict[int, int]) -> object:
    """Four ranks after prefill: the ranks in `waits` log the receive they are about to block
    in (`kv handoff: recv from rank 1`), the others go on to the logits all_gather; every rank
    then times out in gloo."""
    logs = ranks(4)
    for log in logs:
        log.layers(2).info("prefill passed")
        if log.rank in waits:
            log.info(f"kv handoff: recv from rank {waits[log.rank]}")
        frame = "recv" if log.rank in waits else "all_gather"
        log.at(15_100 + log.rank).fails(
            "RuntimeError: "
            + (RECV_TIMEOUT if log.rank in waits or log.rank == 2 else SEND_TIMEOUT),
            frame,
        )
    return analyze_job(tmp_path, logs)


def test_two_ranks_that_wait_on_each_other_while_the_rest_wait_in_a_collective(
    tmp_path: Path,
) -> None:
    """docs/labelling.md#a-wait-that-names-its-peer: ranks 0 and 1 each post their receive
    before their send, so each waits for the other; ranks 2 and 3 wait for both of them in the
    all_gather. The closed cycle is what the rest of the job waits on."""
    report = _handoff_job(tmp_path, {0: 1, 1: 0})
    assert report.diagnosis.category == "hccl"
    assert report.diagnosis.culprit_ranks == [0, 1]


def test_a_cycle_of_waits_round_every_rank_still_names_no_one(tmp_path: Path) -> None:
    report = _handoff_job(tmp_path, {0: 1, 1: 2, 2: 3, 3: 0})
    assert report.diagnosis.culprit_ranks == []
