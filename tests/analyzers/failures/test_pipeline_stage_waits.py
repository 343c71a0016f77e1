"""Pipeline stages, some split into tensor-parallel ranks, that print a wait line before each
blocking recv (`waiting for activations of microbatch 2 from rank 1`).

docs/labelling.md#pipeline-stages-that-log-each-microbatch and #a-wait-that-names-its-peer:
the wait line names the peer whose data the rank waits for, in the words a team chooses; but
it is printed before the recv, so a rank that received and then stopped still shows it. A rank
whose send timed out was waiting on its receiver, so the line naming it is no evidence against
it. A receiver that aborts on a longer message than it posted right after saying whom it
receives from names its sender. Stages of tensor-parallel pairs log the same layers within a
pair and disjoint layers across stages: they are stages, not ranks that left the path.
Fixtures follow multi-step gloo pipeline runs on torch 2.13, with values of our own.
"""

from __future__ import annotations

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.timeline.correlate import correlate
from tests.analyzers.excerpts import diagnose_files, scan_text

GLOO = "/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp"
WAIT = "waiting for {what} of microbatch {m} from rank {src}"


def _timeout(rank: int, op: str) -> str:
    cc = "unbound_buffer.cc:129" if op == "send" else "unbound_buffer.cc:78"
    return (
        f"[rank{rank}]: Traceback (most recent call last):\n"
        f"[rank{rank}]: RuntimeError: [{GLOO}/{cc}] Timed out waiting 8000ms for {op}"
        " operation to complete\n"
    )


def _steps(stage: int, rank: int, tp: int, layers: bool) -> list[str]:
    """Two whole steps of a GPipe schedule over two microbatches."""
    out = []
    for step in range(2):
        for m in range(2):
            if stage:
                out.append(WAIT.format(what="activations", m=m, src=rank - tp))
            if layers:
                out.append(f"layer {stage} passed")
            out.append(f"stage {stage} microbatch {m} forward passed")
        out += [f"stage {stage} microbatch {m} backward passed" for m in (1, 0)]
        out.append(f"train step {step} passed")
    return out


def _log(lines: list[str], tail: str = "") -> str:
    return "\n".join(lines) + "\n" + tail


def test_a_wait_line_in_a_team_s_own_words_names_its_peer() -> None:
    matcher = CheckpointMatcher(())
    for line in (
        "waiting for activations of microbatch 2 from rank 1",
        "2026-12-05 04:42:20,717 [rank 0] INFO recv gradients for microbatch 2 from rank 2",
    ):
        hit = matcher.classify(line)
        assert hit is not None
        assert (hit.role, hit.peer) == ("wait", int(line[-1]))


def _stopped_stage_zero() -> dict[str, str]:
    """pp2 x tp2: rank 0 stalls in step 2 before its layer, rank 1 (its tensor-parallel
    partner) blocks in their all_reduce, stage 1 waits; the agent is stopped from outside."""
    files = {}
    for rank in range(4):
        stage = rank // 2
        lines = _steps(stage, rank, 2, layers=True)
        if stage == 0:
            lines += ["layer 0 passed", "stage 0 microbatch 0 forward passed"]
        else:
            lines += [
                WAIT.format(what="activations", m=0, src=rank - 2),
                "layer 1 passed",
                "stage 1 microbatch 0 forward passed",
                WAIT.format(what="activations", m=1, src=rank - 2),
            ]
        files[f"job/log_{rank}.log"] = _log(lines)
    files["job/launcher.log"] = (
        "W1205 04:43:22.541000 9626 torch/distributed/elastic/agent/server/api.py:753] Received"
        " 15 death signal, shutting down workers\n"
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 9626 got signal:"
        " 15\n"
    )
    return files


def test_tensor_parallel_stages_are_stages_not_ranks_that_left_the_path() -> None:
    files = _stopped_stage_zero()
    matcher = CheckpointMatcher(())
    scans = [scan_text(p, t, matcher) for p, t in files.items() if "log_" in p]
    correlation = correlate(scans, None)
    assert correlation.divergent_ranks == []


def test_a_stopped_stage_the_next_stage_waits_for_is_the_hang_s_culprit() -> None:
    diagnosis = diagnose_files(_stopped_stage_zero())
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0, 1]


def test_a_stale_wait_line_on_a_quiet_stage_does_not_blame_the_stage_sending_to_it() -> None:
    """pp4: rank 1 received microbatch 1 and stalled before sending it on; rank 0 timed out
    sending it the next one, ranks 2 and 3 timed out in their recv; rank 1 said nothing more."""
    files = {}
    for rank in range(4):
        lines = _steps(rank, rank, 1, layers=False)
        if rank:
            lines.append(WAIT.format(what="activations", m=0, src=rank - 1))
        lines.append(f"stage {rank} microbatch 0 forward passed")
        if rank == 0:
            lines.append("stage 0 microbatch 1 forward passed")
        else:
            lines.append(WAIT.format(what="activations", m=1, src=rank - 1))
        tail = "" if rank == 1 else _timeout(rank, "send" if rank == 0 else "recv")
        files[f"job/log_{rank}.log"] = _log(lines, tail)
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [1]


def test_an_upstream_stage_whose_send_timed_out_is_not_the_one_that_withheld_it() -> None:
    """pp3 x tp2 with layer lines: stage 2 received microbatch 0 and went quiet (rank 4
    stalled, rank 5 in their all_reduce); stage 1 timed out sending microbatch 1, stage 0
    waiting for gradients. Stage 1 ran its layer for more microbatches than stage 2 started,
    but it did send them."""
    files = {}
    for rank in range(6):
        stage = rank // 2
        lines = _steps(stage, rank, 2, layers=True)
        if stage == 0:
            for m in (0, 1):
                lines += ["layer 0 passed", f"stage 0 microbatch {m} forward passed"]
            lines.append(WAIT.format(what="gradients", m=1, src=rank + 2))
            tail = _timeout(rank, "recv")
        elif stage == 1:
            lines += [
                WAIT.format(what="activations", m=0, src=rank - 2),
                "layer 1 passed",
                "stage 1 microbatch 0 forward passed",
                WAIT.format(what="activations", m=1, src=rank - 2),
                "layer 1 passed",
            ]
            tail = _timeout(rank, "send")
        else:
            lines.append(WAIT.format(what="activations", m=0, src=rank - 2))
            tail = ""
        files[f"job/log_{rank}.log"] = _log(lines, tail)
    diagnosis = diagnose_files(files)
    assert "Timed out waiting 8000ms" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [4, 5]


def test_a_receiver_that_aborts_after_naming_its_sender_blames_the_sender() -> None:
    files = {}
    for rank in range(4):
        stage = rank // 2
        lines = _steps(stage, rank, 2, layers=False)
        if stage == 0:
            lines.append("stage 0 microbatch 0 forward passed")
            tail = (
                f"[rank{rank}]: RuntimeError: [{GLOO}/pair.cc:553] Connection closed by peer"
                " [127.0.0.1]:59623. This is typically caused by a remote worker crashing.\n"
            )
        else:
            lines.append(WAIT.format(what="activations", m=0, src=rank - 2))
            tail = (
                f"[rank{rank}]: RuntimeError: [{GLOO}/pair.cc:537] Read error [127.0.0.1]:21933:"
                " Connection reset by peer.\n"
            )
        if rank == 3:
            tail = (
                "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
                f"  what():  [enforce fail at {GLOO}/pair.cc:456] op.preamble.length <="
                " op.nbytes. 512 vs 256. Received data size doesn't match expected size.\n"
            )
        files[f"job/log_{rank}.log"] = _log(lines, tail)
    diagnosis = diagnose_files(files)
    assert "op.preamble.length <= op.nbytes" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]
