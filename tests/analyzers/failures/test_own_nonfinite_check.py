"""A job's own finiteness check, raised in its own words.

A guard after the loss (`non-finite loss nan at step 0`), an assertion on the values a tensor
holds, or a check of what a collective returned (`all_reduce of gradients returned N non-finite
values`) says the numbers went non-finite where it ran: `other`, that rank the culprit, and the
peers that lose it afterwards are the cascade. When every rank fails the same check at once, the
logged copies of the message carry the times that order them, and no rank is singled out
(docs/labelling.md#numbers-that-went-non-finite).
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

LOSS_TAIL = """\
2026-12-04 23:13:12,391 [rank{r}] INFO   norm passed
2026-12-04 23:13:12,396 [rank{r}] INFO   attention passed
2026-12-04 23:13:12,420 [rank{r}] INFO   MoE passed
2026-12-04 23:13:12,420 [rank{r}] INFO layer 2 passed
2026-12-04 23:13:12,421 [rank{r}] INFO   norm passed
2026-12-04 23:13:12,431 [rank{r}] INFO   attention passed
2026-12-04 23:13:12,{ms} [rank{r}] INFO   MoE passed
2026-12-04 23:13:12,{ms} [rank{r}] INFO layer 3 passed
2026-12-04 23:13:12,{ms} [rank{r}] ERROR model run failed: non-finite loss inf at step 0 on rank {r}
Traceback (most recent call last):
  File "/srv/job/train.py", line 143, in <module>
    main()
  File "/srv/job/train.py", line 123, in main
    raise RuntimeError(f"non-finite loss {{loss.item()}} at step 0 on rank {{RANK}}")
RuntimeError: non-finite loss inf at step 0 on rank {r}
[rank{r}]: Traceback (most recent call last):
[rank{r}]:   File "/srv/job/train.py", line 123, in main
[rank{r}]:     raise RuntimeError(f"non-finite loss {{loss.item()}} at step 0 on rank {{RANK}}")
[rank{r}]: RuntimeError: non-finite loss inf at step 0 on rank {r}
"""

# rank 3 printed its failure first, rank 0 last
TIMES = {0: "461", 1: "452", 2: "455", 3: "438"}

VALIDATED = """\
2026-12-04 23:12:56,960 [rank0] INFO layer 3 passed
2026-12-04 23:12:56,962 [rank0] INFO loss 1.2051
2026-12-04 23:12:57,021 [rank0] ERROR model run failed: all_reduce of gradients returned 9216 non-finite values of 17680 on rank 0; refusing the update
Traceback (most recent call last):
  File "/srv/job/train.py", line 133, in main
    raise RuntimeError(
RuntimeError: all_reduce of gradients returned 9216 non-finite values of 17680 on rank 0; refusing the update
"""

LOST = """\
2026-12-04 23:12:56,990 [rank{r}] INFO grad all_reduce passed
2026-12-04 23:12:57,2{r}6 [rank{r}] ERROR model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:22958. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:22958. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
"""

ASSERTED = """\
2026-12-04 23:13:48,741 [rank5] INFO   norm passed
2026-12-04 23:13:48,748 [rank5] ERROR model run failed: attention probs at layer 2 hold 8 non-finite values (rank 5)
Traceback (most recent call last):
  File "/srv/job/train.py", line 62, in forward
    assert bad == 0, f"attention probs at layer {self.idx} hold {bad} non-finite values (rank {RANK})"
AssertionError: attention probs at layer 2 hold 8 non-finite values (rank 5)
"""


def test_every_rank_failing_the_same_loss_check_is_ordered_by_the_logged_times() -> None:
    files = {f"job-1/log_{r}.log": LOSS_TAIL.format(r=r, ms=TIMES[r]) for r in sorted(TIMES)}
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "other", first_error="non-finite loss inf at step 0 on rank 3")
    assert diagnosis.culprit_ranks == []
    assert any(e.rule == "num.own_check_nonfinite" for e in diagnosis.evidence)


def test_one_rank_rejecting_its_all_reduce_result_is_numbers_not_the_collective() -> None:
    files = {"job-2/log_0.log": VALIDATED}
    files.update({f"job-2/log_{r}.log": LOST.format(r=r) for r in (1, 2, 3)})
    diagnosis = diagnose_files(files)
    assert_reads(
        diagnosis, "other", first_error="returned 9216 non-finite values of 17680 on rank 0"
    )
    assert diagnosis.culprit_ranks == [0]


def test_an_assertion_on_tensor_values_is_numbers_on_that_rank() -> None:
    diagnosis = diagnose_text("job-3/log_5.log", ASSERTED)
    assert diagnosis.category == "other"
    assert any(e.rule == "num.own_check_nonfinite" for e in diagnosis.evidence)
    assert diagnosis.culprit_ranks == [5]


def test_the_source_line_of_the_check_is_no_failure() -> None:
    quoted = '    raise RuntimeError(f"non-finite loss {loss.item()} at step {step}")\n'
    diagnosis = diagnose_text("job-4/log_0.log", "INFO skipped 0 non-finite values\n" + quoted)
    assert diagnosis.first_error is None


NAN_STOP = """\
2026-12-05 03:51:46,814 INFO trainer:   forward passed
2026-12-05 03:51:46,816 INFO trainer:   backward passed
2026-12-05 03:51:46,818 INFO trainer: step 2 loss 0.9661
2026-12-05 03:51:46,820 INFO trainer:   forward passed
2026-12-05 03:51:46,821 ERROR trainer: loss is nan at step 3 (rank 3), stopping this rank
"""

NAN_PEER = """\
2026-12-05 03:51:46,817 INFO trainer: step 2 loss 1.2013
2026-12-05 03:51:46,819 INFO trainer:   forward passed
2026-12-05 03:51:46,820 INFO trainer:   backward passed
[rank{r}]: Traceback (most recent call last):
[rank{r}]:   File "/srv/job/train.py", line 80, in <module>
[rank{r}]:     dist.all_reduce(g); g /= world
[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:48870. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
"""

LAUNCHER_EXIT = """\
W1205 03:52:32.900000 15036 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 15039 closing signal SIGTERM
E1205 03:52:32.933000 15036 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 3) local_rank: 3 (pid: 15038) of binary: /usr/bin/python3
"""


@pytest.mark.parametrize(
    "line",
    [
        "2026-12-05 03:51:46,821 ERROR trainer: loss is nan at step 3 (rank 3), stopping this rank",
        "2026-12-05 03:51:46,821 [rank3] ERROR Loss is nan, stopping training",
        "2026-12-05 03:51:46,821 [rank3] ERROR NaN loss detected at step 3, aborting",
    ],
)
def test_a_rank_that_stops_itself_on_a_nan_loss_is_numbers_not_its_peers(line) -> None:
    files = {"job-3/log_3.log": NAN_STOP.replace(NAN_STOP.splitlines()[-1], line)}
    files.update({f"job-3/log_{r}.log": NAN_PEER.format(r=r) for r in (0, 1, 2)})
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None
    assert line.split(" ERROR ")[1].split(": ")[-1] in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_the_launchers_exit_code_of_the_rank_that_stopped_on_nan_is_no_crash() -> None:
    files = {"job-4/log_3.log": NAN_STOP, "job-4/launcher.log": LAUNCHER_EXIT}
    files.update({f"job-4/log_{r}.log": NAN_PEER.format(r=r) for r in (0, 1, 2)})
    diagnosis = diagnose_files(files)
    assert_reads(diagnosis, "other", first_error="loss is nan at step 3")
    assert diagnosis.culprit_ranks == [3]


@pytest.mark.parametrize(
    "line",
    [
        '        raise RuntimeError(f"loss is nan at step {step}")',
        '    print("Loss is {}, stopping training".format(loss_value))',
    ],
)
def test_the_source_line_of_a_nan_check_is_no_failure(line) -> None:
    diagnosis = diagnose_text("job-5/log_0.log", "step 2 loss 0.41\n" + line + "\n")
    assert diagnosis.category != "other" or diagnosis.first_error is None
