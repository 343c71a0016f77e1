"""A rank's end raised to a cause: the launcher's report of a rank that said nothing of its
own, and a process's own record of its end that is the first error line its rank wrote
(docs/labelling.md#native-only-crashes)."""

from __future__ import annotations

import pytest

from analyzers.causal.promoted_ends import promote_first_own_ends
from tests.analyzers.excerpts import assert_reads, diagnose_files


def _ranks_losing_rank_3(rank3_error: str | None, exitcode: int = 3) -> tuple[list, dict[str, str]]:
    """Rank 3 ends inside layer 1 (with or without a word of its own); its peers lose the
    connection; torchrun's launcher log reports rank 3's exit status."""
    from tests.analyzers.job_bundles import CLOSED, ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    for rank, ms in ((0, 2100), (1, 2080), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    if rank3_error:
        job[3].at(2050).fails(rank3_error, frame="forward")
    launcher = (
        "W1129 07:24:24.020000 5120 torch/distributed/elastic/multiprocessing/api.py:1028] "
        "Sending process 5131 closing signal SIGTERM\n"
        "E1129 07:24:24.222000 5120 torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: {exitcode}) local_rank: 3 (pid: 5134) of binary: /srv/env/bin/python3\n"
    )
    return job, {"launcher.log": launcher}


def test_a_rank_that_exits_without_a_word_is_named_by_the_launcher(tmp_path) -> None:
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "device_fault", first_error="failed (exitcode: 3) local_rank: 3")
    assert diagnosis.culprit_ranks == [3]


def test_the_launcher_exit_line_only_summarises_a_rank_that_said_why(tmp_path) -> None:
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3("ValueError: top_k (9) is larger than the expert count (8)")
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "top_k (9) is larger" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


@pytest.mark.parametrize("exitcode", [3, -6], ids=["exit-status", "sigabrt"])
def test_a_silent_rank_is_named_by_the_launcher_in_a_combined_torchrun_stdout(
    tmp_path, exitcode: int
) -> None:
    """`torchrun --tee 3` into one file: every rank's lines carry `[defaultN]:` and the
    agent's own lines follow them in the same file, where its exit line is read as rank 3's.
    Rank 3 ends with a plain exit status, or calls abort() (SIGABRT, -6), with nothing logged;
    the peers' lost connections come after it."""
    from analyzers import AnalyzeOptions, analyze
    from tests.analyzers.job_bundles import bundle

    job, extra = _ranks_losing_rank_3(None, exitcode=exitcode)
    combined = [f"[default{log.rank}]:{line}" for log in job for line in log.lines]
    combined += extra["launcher.log"].splitlines()
    path = bundle(tmp_path, [], 4, {"stdout.txt": "\n".join(combined) + "\n"})
    diagnosis = analyze(path, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.first_error is not None
    assert f"failed (exitcode: {exitcode}) local_rank: 3" in diagnosis.first_error.text
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [3]


def test_a_rank_that_says_why_it_gives_up_is_the_first_error(tmp_path) -> None:
    """Rank 3 prints its own fatal line and exits without a traceback; no launcher log."""
    from tests.analyzers.job_bundles import CLOSED, analyze_job, ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    job[3].at(2050).log("ERROR", "fatal: kv cache config invalid, aborting")
    for rank, ms in ((0, 2100), (1, 2080), (2, 2120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {CLOSED}")
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert "kv cache config invalid, aborting" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_a_rank_that_logs_an_error_and_says_it_is_exiting_is_the_first_error(tmp_path) -> None:
    """Rank 3 logs an ERROR record that ends by saying it leaves (no `fatal:` word, no
    traceback) and calls sys.exit(3); the peers lose the connection later and the launcher
    reports the exit status. Before, the record matched no rule and a held-out gloo run was
    read from a peer's lost connection (`hccl`, blaming that peer)."""
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    job[3].at(2050).log(
        "ERROR", "no training samples left in shard part-00003.jsonl after filtering; exiting"
    )
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "other", first_error="after filtering; exiting")
    assert diagnosis.culprit_ranks == [3]


def test_an_info_line_that_says_a_rank_is_exiting_is_no_failure(tmp_path) -> None:
    """Counterexample: the same words at INFO level are the rank reporting its way out, not a
    failure; the launcher's exit line stays the first error."""
    from tests.analyzers.job_bundles import analyze_job

    job, extra = _ranks_losing_rank_3(None)
    job[3].at(2050).log("INFO", "checkpoint written to /ckpt/step_40; exiting")
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "failed (exitcode: 3) local_rank: 3" in diagnosis.first_error.text


def test_a_launcher_line_for_a_rank_cut_out_of_the_paste_does_not_outrank_a_traceback() -> None:
    """Only rank 7's traceback was pasted; the agent then names local rank 1, whose own
    lines are not there at all. Nothing says that rank ended on its own."""
    from tests.analyzers.excerpts import diagnose_text

    paste = (
        '[rank7]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/parallel/'
        'distributed.py", line 1127, in _log_and_throw\n'
        "[rank7]:     raise err_type(err_msg)\n"
        "[rank7]: ValueError: DistributedDataParallel device_ids and output_device arguments "
        "only work with single-device/multiple-device GPU modules or CPU modules, but got "
        "device_ids [7], output_device None, and module parameters {device(type='cpu')}.\n"
        "W1106 00:20:32.722000 8200 torch/distributed/elastic/multiprocessing/api.py:858] "
        "Sending process 32426 closing signal SIGTERM\n"
        "E1106 00:20:32.742000 8200 torch/distributed/elastic/multiprocessing/api.py:833] "
        "failed (exitcode: 1) local_rank: 1 (pid: 32427) of binary: /opt/venv/bin/python3.11\n"
    )
    diagnosis = diagnose_text("train.log", paste)
    assert diagnosis.first_error is not None
    assert "ValueError: DistributedDataParallel device_ids" in diagnosis.first_error.text


def _stalled_rank_stopped_by_the_script(peer_error: str) -> tuple[list, dict[str, str]]:
    """Rank 2 stops advancing inside layer 1 without a word; its peers fail 10 s later; the
    operator's timeout then stops the launch script, which forwards SIGTERM to rank 2, and
    the script's `wait` loop reports each rank's status."""
    from tests.analyzers.job_bundles import ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    for rank, ms in ((0, 12100), (1, 12080), (3, 12120)):
        job[rank].at(ms).log("ERROR", f"model run failed: {peer_error}")
        job[rank].raw(f"[rank{rank}]: RuntimeError: {peer_error}")
    script = (
        "rank 0 (pid 4101) exited with status 1\n"
        "rank 1 (pid 4102) exited with status 1\n"
        "rank 2 (pid 4103) exited with status 143\n"
        "rank 3 (pid 4104) exited with status 1\n"
    )
    return job, {"launch.out": script}


def test_a_rank_stopped_after_its_peers_timed_out_on_it_is_no_first_error(tmp_path) -> None:
    """Peers that timed out waiting for rank 2 were waiting for a live rank: it stalled, and
    the SIGTERM that ended it came afterwards. The first timeout is the first error and the
    silent rank the culprit."""
    from tests.analyzers.job_bundles import RECV_TIMEOUT, analyze_job

    job, extra = _stalled_rank_stopped_by_the_script(RECV_TIMEOUT)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 10000ms for recv")
    assert diagnosis.culprit_ranks == [2]


def test_a_rank_stopped_while_its_peers_lost_it_is_still_the_first_error(tmp_path) -> None:
    """Counterexample: peers that lost the connection lost a rank that was gone; its stop
    record is what happened first, as before."""
    from tests.analyzers.job_bundles import CLOSED, analyze_job

    job, extra = _stalled_rank_stopped_by_the_script(CLOSED)
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.first_error is not None
    assert "exited with status 143" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def test_ranks_stopped_while_another_raised_its_own_error_are_no_first_error(tmp_path) -> None:
    """Rank 1 raises an exception of its own and ends with status 1; the other ranks, left
    waiting for it, say nothing until the script's `timeout` stops them (status 124): the stop
    records only summarise their stop, and rank 1's exception is the first error."""
    from tests.analyzers.job_bundles import analyze_job, ranks

    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [" norm passed"])
    job[1].at(2050).fails("KeyError: 'expert_7'", frame="forward")
    script = "".join(
        f"rank {rank} (pid {4101 + rank}) exited with code {1 if rank == 1 else 124}\n"
        for rank in (0, 2, 3, 1)
    )
    diagnosis = analyze_job(tmp_path, job, {"launch.out": script}).diagnosis
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("KeyError: 'expert_7'")
    assert diagnosis.culprit_ranks == [1]


LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] "
    "Read error [127.0.0.1]:36758: Connection reset by peer. This is typically caused by a "
    "remote worker hanging or bugs in the application. Check the logs of the remote worker "
    "before reporting an error."
)

PEER = f"""\
2026-05-11 09:40:02,118 [rank0] INFO prefill passed
2026-05-11 09:40:02,461 [rank0] INFO decode step 0 passed
2026-05-11 09:40:02,552 [rank0] ERROR model run failed: {LOST.removeprefix("RuntimeError: ")}
Traceback (most recent call last):
  File "/srv/infer/run.py", line 186, in forward
    dist.all_reduce(load)
{LOST}
"""

# faulthandler's dump carries no time; the rank's last progress line came before the peer's
# error, and nothing of the rank's own came before the dump
ABORTED = """\
2026-05-11 09:40:02,120 [rank1] INFO prefill passed
2026-05-11 09:40:02,459 [rank1] INFO decode step 0 passed
Fatal Python error: Aborted

Current thread 0x00007ff3d37e2b80 (most recent call first):
  File "/srv/infer/run.py", line 167 in forward
  File "/srv/infer/run.py", line 300 in run_model

Extension modules: numpy._core._multiarray_umath, torch._C, torch._C._nn (total: 3)
"""

# the same dump under the rank's own earlier error only echoes it
ABORTED_AFTER_OWN = """\
2026-05-11 09:40:02,120 [rank1] INFO prefill passed
2026-05-11 09:40:02,459 [rank1] INFO decode step 0 passed
terminate called after throwing an instance of 'c10::Error'
  what():  expert id 13 outside the dispatch table of rank 1
Fatal Python error: Aborted

Current thread 0x00007ff3d37e2b80 (most recent call first):
  File "/srv/infer/run.py", line 167 in forward
"""


def test_an_abort_dump_that_is_its_ranks_first_error_outranks_the_peers_lost_connection() -> None:
    diagnosis = diagnose_files({"job/log_0.log": PEER, "job/log_1.log": ABORTED})
    assert_reads(diagnosis, "device_fault", first_error="Fatal Python error: Aborted")
    assert diagnosis.culprit_ranks == [1]


def test_an_abort_dump_under_its_ranks_own_error_is_not_the_first_error() -> None:
    diagnosis = diagnose_files({"job/log_0.log": PEER, "job/log_1.log": ABORTED_AFTER_OWN})
    assert diagnosis.first_error is not None
    assert not diagnosis.first_error.text.startswith("Fatal Python error")


def test_nothing_is_promoted_without_a_correlation() -> None:
    promote_first_own_ends([], None)
