"""Two receivers of one bad collective both abort on gloo's size check.

A rank that all-reduces a tensor of another size than its peers makes every rank that receives
one of its chunks abort (`op.preamble.length <= op.nbytes ... Received data size doesn't match
expected size`), often two ring neighbours. torchrun names whichever exited first as the root
cause; it is one of the receivers, whose exit says nothing about which peer sent the odd size
(docs/labelling.md, "A rank that aborts on what a peer sent")."""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

ATTEMPT = "job-7d9cbc36/torchrun_logs/none_ll75bqzp/attempt_0"


def _abort(got: int, want: int) -> str:
    return (
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        f"pair.cc:456] op.preamble.length <= op.nbytes. {got} vs {want}. Received data size "
        "doesn't match expected size. Is there a distributed collective mismatch in your code?\n"
    )


RESET = (
    "[rank{r}]: Traceback (most recent call last):\n"
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:537] Read error [127.0.0.1]:14722: Connection reset by peer. This is typically caused"
    " by a remote worker hanging or bugs in the application. Check the logs of the remote worker"
    " before reporting an error. GLHF!\n"
)

STEPS = "init passed\ntrain step 1 start\n  forward passed\n  backward passed\n"

LAUNCHER = (
    "W1205 03:52:15.393000 14465 torch/distributed/elastic/multiprocessing/api.py:1028] Sending"
    " process 14467 closing signal SIGTERM\n"
    "E1205 03:52:15.432000 14465 torch/distributed/elastic/multiprocessing/api.py:1002] failed"
    " (exitcode: -6) local_rank: 1 (pid: 14468) of binary: /usr/bin/python3\n"
    "Traceback (most recent call last):\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "=======================================================\n"
    "/srv/job/train.py FAILED\n"
    "-------------------------------------------------------\n"
    "Root Cause (first observed failure):\n"
    "[0]:\n"
    "  time      : 2026-12-05_03:52:15\n"
    "  host      : localhost\n"
    "  rank      : 1 (local_rank: 1)\n"
    "  exitcode  : -6 (pid: 14468)  (SIGABRT)\n"
    "  error_file: <N/A>\n"
    "  traceback : Signal 6 (SIGABRT) received by PID 14468\n"
    "=======================================================\n"
)


def _job(second_receiver: bool) -> dict[str, str]:
    """Members in the order a real archive held them: rank 2's abort is read before rank 1's,
    so rank 2's line is the first error and rank 1 the launcher's first exit."""
    files = {"job-7d9cbc36/launcher.log": LAUNCHER}
    for rank in (3, 2, 0, 1):
        files[f"{ATTEMPT}/{rank}/stdout.log"] = STEPS
        files[f"{ATTEMPT}/{rank}/stderr.log"] = RESET.format(r=rank)
    files[f"{ATTEMPT}/2/stderr.log"] = _abort(156, 132)
    if second_receiver:
        files[f"{ATTEMPT}/1/stderr.log"] = _abort(176, 172)
    return files


def test_the_first_receiver_to_exit_is_not_blamed_when_another_receiver_reported_first() -> None:
    diagnosis = diagnose_files(_job(second_receiver=True))
    assert_reads(diagnosis, "hccl", first_error="Received data size doesn't match")
    assert diagnosis.culprit_ranks == []


def test_a_rank_that_exited_first_without_reporting_the_bad_message_is_still_named() -> None:
    diagnosis = diagnose_files(_job(second_receiver=False))
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [1]
