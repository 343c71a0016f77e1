"""Every rank killed with SIGKILL at once (`causal.killed_together`): an operator's `kill -9`
of the workers, not a rank that died. torchrun names the first child it saw go, and its
summary lists every rank with `exitcode : -9`; the checkpoints say who had stalled
(docs/labelling.md, "A job stopped from outside").
"""

from __future__ import annotations

from pathlib import Path

from tests.analyzers.job_bundles import RankLog, analyze_job, ranks

AGENT = "torch/distributed/elastic/multiprocessing/api.py"


def record(n: int, rank: int, code: int) -> str:
    name = {-9: "SIGKILL", -15: "SIGTERM"}[code]
    return (
        f"[{n}]:\n  time      : 2026-12-04_18:04:30\n  host      : vm\n"
        f"  rank      : {rank} (local_rank: {rank})\n  exitcode  : {code} (pid: 1684{rank})\n"
        f"  error_file: <N/A>\n  traceback : Signal {-code} ({name}) received by PID 1684{rank}"
    )


def launcher(codes: dict[int, int]) -> str:
    others = [record(n, r, codes[r]) for n, r in enumerate(sorted(codes)[1:], 1)]
    return "\n".join(
        [
            f"E1204 18:04:30.906000 16736 {AGENT}:1002] failed (exitcode: {codes[0]}) "
            "local_rank: 0 (pid: 16840) of binary: /opt/venv/bin/python3",
            "Traceback (most recent call last):",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py",'
            " line 383, in launch_agent",
            "    raise ChildFailedError(",
            "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
            "============================================================",
            "/home/user/llm-infer/infer.py FAILED",
            "------------------------------------------------------------",
            "Failures:",
            *others,
            "------------------------------------------------------------",
            "Root Cause (first observed failure):",
            record(0, 0, codes[0]),
            "============================================================",
        ]
    )


def test_every_rank_killed_at_once_is_a_stop_and_the_stalled_rank_is_blamed(
    tmp_path: Path,
) -> None:
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [] if log.rank == 3 else [" norm passed"])
    extra = {"launcher.log": launcher({0: -9, 1: -9, 2: -9, 3: -9})}
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [3]


def test_one_rank_killed_while_the_launcher_stopped_the_rest_is_that_ranks_death(
    tmp_path: Path,
) -> None:
    job = ranks(4)
    for log in job:
        log.loaded().layers(1, [] if log.rank == 3 else [" norm passed"])
    extra = {"launcher.log": launcher({0: -9, 1: -15, 2: -15, 3: -15})}
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.category != "hang"
    assert diagnosis.culprit_ranks == [0]


MODULES = (
    "Extension modules: numpy._core._multiarray_umath, numpy.linalg._umath_linalg, torch._C, "
    "torch._C._fft, torch._C._linalg, torch._C._nn (total: 6)"
)


def aborted(log: RankLog, rank: int) -> RankLog:
    """faulthandler's report of a SIGABRT a hang monitor sent (its stacks left empty)."""
    for line in (
        "Fatal Python error: Aborted",
        "",
        "Thread 0x00007fd20da236c0 (most recent call first):",
        "",
        f"Current thread 0x00007fd22fa5fb8{rank} (most recent call first):",
        "",
        MODULES,
    ):
        log.raw(line)
    return log


def test_every_rank_aborted_at_once_is_a_stop_and_the_stalled_rank_is_blamed(
    tmp_path: Path,
) -> None:
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [] if log.rank == 1 else [" norm passed"])
        aborted(log, log.rank)
    extra = {
        "launcher.log": f"E1207 03:32:15.337000 24057 {AGENT}:1002] failed (exitcode: -6) "
        "local_rank: 2 (pid: 24212) of binary: /work/torchenv/bin/python3"
    }
    diagnosis = analyze_job(tmp_path, job, extra).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]


def test_ranks_aborted_while_another_lost_them_is_no_stop_from_outside(tmp_path: Path) -> None:
    job = ranks(4)
    for log in job:
        log.loaded().layers(2, [] if log.rank == 1 else [" norm passed"])
    for log in job[:3]:
        aborted(log, log.rank)
    job[3].fails(
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553]"
        " Connection closed by peer [127.0.0.1]:1946. This is typically caused by a remote "
        "worker crashing.",
        frame="forward",
    )
    diagnosis = analyze_job(tmp_path, job).diagnosis
    assert diagnosis.category != "hang"
