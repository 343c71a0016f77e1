"""Sub-group and all-to-all misuse in tensor- and expert-parallel code.

docs/labelling.md#a-collective-called-on-a-group-the-rank-is-not-in: a rank that runs a
collective on another group's handle gets only a UserWarning naming it, and the members of its
own group time out later; the warning is the first error and names the culprit.
docs/labelling.md#a-collective-that-refuses-the-tensors-one-rank-handed-it: gloo's all-to-all
check of the block a rank sends itself against the block it receives from itself. Fixtures are
torchrun --log-dir streams of a gloo job (paths and lines as torch 2.13 writes them).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

ATTEMPT = "job-d0d24f55/torchrun_logs/6900b7dc_liuyurwm/attempt_0"

TIMEOUT_RECV = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "unbound_buffer.cc:78] Timed out waiting 15000ms for recv operation to complete\n"
)
TIMEOUT_SEND = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "unbound_buffer.cc:129] Timed out waiting 15000ms for send operation to complete\n"
)
NUMPY = (
    "/srv/env/lib/python3.11/site-packages/torch/_subclasses/functional_tensor.py:368: "
    "UserWarning: Failed to initialize NumPy: No module named 'numpy' (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:84.)\n"
)
OUTSIDE = (
    "/srv/env/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py:3222: "
    "UserWarning: Running all_reduce on global rank 4 which does not belong to the given group.\n"
)
SKIPPING = "skipping all_reduce: rank 4 is not in the expert group\n"
STDOUT = "layer 1 passed\n norm passed\n attention passed\n"


def _job(rank4_extra: str) -> dict[str, str]:
    files = {}
    for r in range(6):
        files[f"{ATTEMPT}/{r}/stdout.log"] = STDOUT
        timeout = TIMEOUT_RECV if r in (0, 2, 3, 5) else TIMEOUT_SEND
        extra = rank4_extra if r == 4 else ""
        files[f"{ATTEMPT}/{r}/stderr.log"] = NUMPY + extra + timeout.format(r=r)
    return files


def test_a_collective_on_a_group_the_rank_is_not_in_is_the_first_error() -> None:
    diagnosis = diagnose_files(_job(OUTSIDE))
    assert_reads(diagnosis, "hccl", first_error="which does not belong to the given group")
    assert diagnosis.culprit_ranks == [4]


def test_a_model_line_that_skips_its_group_leaves_the_timeout_first() -> None:
    diagnosis = diagnose_files(_job(SKIPPING))
    assert diagnosis.first_error is not None
    assert "Timed out waiting 15000ms" in diagnosis.first_error.text


def _shared_log_job(rank5_notice: str) -> dict[str, str]:
    """One file per rank holding its prints and its stderr: the rank that used another pair's
    handle goes on printing its layers after the warning, while its partner is left behind."""
    files = {}
    for r in range(6):
        lines = [f"init done: rank={r} world=6 backend=gloo\n"]
        lines += [f"step 0 layer {i} done\n" for i in range(3)] + ["step 0 finished\n"]
        lines += ["step 1 layer 0 done\n"]
        if r == 5:
            lines += [rank5_notice]
        lines += ["step 1 layer 1 done\n"]
        if r != 4:
            lines += ["step 1 layer 2 done\n"]
        if r == 4:
            lines += [PEER_CLOSED.format(r=r)]
        else:
            lines += [(TIMEOUT_SEND if r == 5 else TIMEOUT_RECV).format(r=r)]
        files[f"job-5c2e9a10/log_{r}.log"] = "".join(lines)
    return files


def test_the_outside_group_warning_leads_though_its_rank_printed_progress_after_it() -> None:
    notice = OUTSIDE.replace("rank 4", "rank 5") + '  _warn_not_in_group("all_reduce")\n'
    diagnosis = diagnose_files(_shared_log_job(notice))
    assert_reads(diagnosis, "hccl", first_error="which does not belong to the given group")
    assert diagnosis.culprit_ranks == [5]


def test_a_skip_the_model_decided_leaves_the_timeout_first_in_a_shared_log() -> None:
    diagnosis = diagnose_files(_shared_log_job(SKIPPING.replace("rank 4", "rank 5")))
    assert diagnosis.first_error is not None
    assert "Timed out waiting 15000ms" in diagnosis.first_error.text


A2A_OWN_BLOCK = (
    "[rank1]: RuntimeError: [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/"
    "alltoallv.cc:138] inLengthPerRank[myRank] == outLengthPerRank[myRank]. \n"
)
PEER_CLOSED = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:553] Connection closed by peer [127.0.0.1]:27269. This is typically caused by a "
    "remote worker crashing. Check the logs of the remote worker before reporting an error. "
    "GLHF! \n"
)


def _a2a_job(rank1: str) -> dict[str, str]:
    return {
        f"{ATTEMPT}/{r}/stderr.log": rank1 if r == 1 else PEER_CLOSED.format(r=r) for r in range(4)
    }


def test_all_to_all_splits_that_disagree_on_the_own_block_are_a_shape_mismatch() -> None:
    diagnosis = diagnose_files(_a2a_job(A2A_OWN_BLOCK))
    assert_reads(
        diagnosis, "shape_mismatch", first_error="inLengthPerRank[myRank]", beside=("hccl",)
    )
    assert diagnosis.culprit_ranks == [1]


def test_a_printed_own_block_length_is_no_failure() -> None:
    diagnosis = diagnose_files(_a2a_job("debug alltoallv: inLengthPerRank[myRank] = 64\n"))
    assert diagnosis.category != "shape_mismatch"
