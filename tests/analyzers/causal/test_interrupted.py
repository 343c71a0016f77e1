"""Ctrl-C in the terminal of a job run as one process per rank, no launcher to record it
(`causal.interrupted`, docs/labelling.md, "A job stopped from outside").

The rank that sat in its own code raises `KeyboardInterrupt` at once and exits; the ranks
blocked in the collective raise it only after the collective failed on the closed connection.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.causal.interrupted import lead_ranks_interrupted_alone
from analyzers.classify.matches import Classified
from analyzers.classify.signature import Signature
from analyzers.classify.tiers import TIER_CASCADE, TIER_GENERIC
from tests.analyzers.classified import line, signature
from tests.analyzers.excerpts import assert_reads
from tests.analyzers.job_bundles import CLOSED, RankLog, analyze_job, ranks

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"


def interrupted(log: RankLog, in_collective: bool) -> RankLog:
    tag = f"[rank{log.rank}]: "
    lines = ["Traceback (most recent call last):"]
    if in_collective:
        lines += [
            f'  File "{C10D}/distributed_c10d.py", line 5356, in barrier',
            "    work.wait()",
            f"RuntimeError: {CLOSED}",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            '  File "/home/user/llm-infer/infer.py", line 169, in main',
            "    dist.barrier()",
        ]
    else:
        lines += ['  File "/home/user/llm-infer/infer.py", line 88, in wait_for_detokenizer']
        lines += ["    time.sleep(1.0)"]
    lines.append("KeyboardInterrupt")
    log.lines += [tag + line for line in lines]
    return log


def finished_layers() -> list[RankLog]:
    job = ranks(4)
    for log in job:
        log.loaded().layers(2)
    return job


def test_the_rank_interrupted_outside_the_collective_is_the_one_waited_for(
    tmp_path: Path,
) -> None:
    job = finished_layers()
    for log in job:
        interrupted(log, in_collective=log.rank != 3)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert_reads(diagnosis, "hang", first_error="KeyboardInterrupt")
    assert diagnosis.culprit_ranks == [3]


def test_the_interrupt_cited_is_the_one_raised_outside_the_collective(tmp_path: Path) -> None:
    """The files carry no time; rank 0's file comes first, but its interrupt was raised only
    after the collective returned, which it did because rank 3 had exited."""
    job = finished_layers()
    for log in job:
        interrupted(log, in_collective=log.rank != 3)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.rank == 3
    assert diagnosis.first_error.text.endswith("KeyboardInterrupt")


def test_lost_peers_on_every_interrupted_rank_are_not_the_interrupts_doing(
    tmp_path: Path,
) -> None:
    """Every rank lost a peer before its interrupt: some process went away first (rank 3
    died without a word), so the lost peers keep their reading."""
    job = finished_layers()
    for log in job[:3]:
        interrupted(log, in_collective=True)
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text


def alone(tmp_path: Path, extra: dict[str, str] | None = None):
    """Rank 1 alone gets SIGINT (`kill -INT <pid>`) while it sleeps between two layers; the
    other ranks, never interrupted, lose it in their next all_reduce."""
    job = finished_layers()
    for log in job:
        if log.rank == 1:
            interrupted(log, in_collective=False)
        else:
            log.at(900).fails(f"RuntimeError: {CLOSED}", frame="forward")
    return analyze_job(tmp_path, job, extra).diagnosis


def test_a_rank_interrupted_alone_leads_the_peers_that_lost_it(tmp_path: Path) -> None:
    diagnosis = alone(tmp_path)
    assert_reads(diagnosis, "hang", first_error="KeyboardInterrupt")
    assert diagnosis.culprit_ranks == [1]


def test_the_agents_report_of_the_childs_sigint_is_a_summary_of_it(tmp_path: Path) -> None:
    launcher = (
        "E1129 07:24:23.140000 20008 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: -2) local_rank: 1 (pid: 20095) of binary: /opt/venv/bin/python3\n"
    )
    diagnosis = alone(tmp_path, {"launcher.log": launcher})
    assert_reads(diagnosis, "hang", first_error="KeyboardInterrupt")
    assert "device_fault" not in {diagnosis.category}
    assert diagnosis.culprit_ranks == [1]


AGENT_INTERRUPTED = "".join(
    line + "\n"
    for line in [
        "W1129 07:24:45.382000 20242 torch/distributed/elastic/agent/server/api.py:753] "
        "Received 2 death signal, shutting down workers",
        *(
            "W1129 07:24:45.382000 20242 torch/distributed/elastic/multiprocessing/api.py:1028] "
            f"Sending process {pid} closing signal SIGINT"
            for pid in (20411, 20414, 20417, 20418)
        ),
        "Traceback (most recent call last):",
        '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/'
        'multiprocessing/api.py", line 86, in _terminate_process_handler',
        '    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)',
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 20242 got "
        "signal: 2",
    ]
)


def test_an_interrupted_agents_workers_that_lost_a_peer_were_interrupted_too(
    tmp_path: Path,
) -> None:
    """torchrun interrupted long after the last checkpoint (`--redirects` without `--tee`):
    the ranks' tracebacks carry no time, so their lost connections cannot be placed after the
    agent's record by the clock; but each rank that lost a peer was interrupted itself while
    handling it, and rank 0, in a loop of its own, lost none: the lost peers are what the
    interrupt did, and the agent's record stays the first error."""
    job = finished_layers()
    for log in job:
        interrupted(log, in_collective=log.rank != 0)
    diagnosis = analyze_job(tmp_path, job, {"launcher.log": AGENT_INTERRUPTED}).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" not in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [0]


def test_an_interrupted_agents_workers_that_lost_a_peer_first_keep_it(tmp_path: Path) -> None:
    """Counterexample: every interrupted rank lost a peer first (rank 3 went away without a
    word before the interrupt), so the lost peers keep their reading under the agent too."""
    job = finished_layers()
    for log in job[:3]:
        interrupted(log, in_collective=True)
    diagnosis = analyze_job(tmp_path, job, {"launcher.log": AGENT_INTERRUPTED}).diagnosis
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text


def _interrupt_alone_beside_a_lost_peer(read_by: Signature) -> list[Classified]:
    """Rank 0's own `KeyboardInterrupt`, read by `read_by`, and rank 1's lost connection."""
    lost = signature("demo.peer_closed", "hccl", role="cascade", peer_gone=True)
    return [
        line(read_by, TIER_GENERIC, rank=0, text="KeyboardInterrupt"),
        line(lost, TIER_CASCADE, rank=1, text=f"RuntimeError: {CLOSED}"),
    ]


def test_any_rule_flagged_interrupted_reads_a_bare_keyboard_interrupt_as_the_stop() -> None:
    by_hand = signature("demo.stopped_by_hand", "hang", role="generic", interrupted=True)
    stop, lost = items = _interrupt_alone_beside_a_lost_peer(by_hand)
    lead_ranks_interrupted_alone(items)
    assert stop.tier > lost.tier
    assert lost.demoted


def test_a_rule_not_flagged_interrupted_leaves_the_lost_peer_leading() -> None:
    other = signature("demo.generic_tail", "hang", role="generic")
    stop, lost = items = _interrupt_alone_beside_a_lost_peer(other)
    lead_ranks_interrupted_alone(items)
    assert (stop.tier, lost.tier) == (TIER_GENERIC, TIER_CASCADE)
    assert not lost.demoted


def test_a_launch_script_that_reports_each_rank_ended_by_the_interrupt_adds_no_crash(
    tmp_path: Path,
) -> None:
    """A Python launch script prints each child's return code; -2 is the SIGINT that ended
    it, the interrupt every rank got, not a crash of rank 0 (the first line printed)."""
    job = finished_layers()
    for log in job:
        interrupted(log, in_collective=log.rank != 3)
    summary = "".join(
        f"2026-12-07 01:08:15 rank {rank} (pid {27312 + rank}) exited with code -2\n"
        for rank in range(4)
    )
    launch = "2026-12-07 01:08:05 interrupted, waiting for the ranks to exit\n" + summary
    diagnosis = analyze_job(tmp_path, job, {"launch.log": launch}).diagnosis
    assert_reads(diagnosis, "hang", first_error="KeyboardInterrupt")
    assert diagnosis.culprit_ranks == [3]
