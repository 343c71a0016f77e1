"""A restarted job's first attempt's failure is its first causal error (labelling guide, "A
job its launcher restarted"), in attempt folders and in one console every attempt wrote into.

Example: rank 1 dies of SIGSEGV in attempt 0 without a word, torchrun restarts the group and
rank 2 fails on its own in attempt 1: the agent's exit-code line for rank 1 is the first error,
though rank 1 lost its peers in attempt 1 and rank 2's line is a root failure too.
Counterexample: a job that was not restarted keeps its ordinary reading (the rank's own error
before the agent's report).
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files

RUN = ["load weights passed", "prefill start: 8 tokens", "  norm passed", "  attention passed"]
SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:5771. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _report(second: int, code: int, local: int) -> str:
    return (
        f"E1204 20:52:{second:02d}.921000 32754 torch/distributed/elastic/multiprocessing/"
        f"api.py:1002] failed (exitcode: {code}) local_rank: {local} (pid: 3{local}8) of "
        "binary: /usr/bin/python3"
    )


def _prints(rank: int, lines: list[str]) -> list[str]:
    return [f"rank {rank}: {line}" for line in lines]


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def test_a_silent_death_of_the_first_attempt_goes_before_the_second_attempts_failure():
    first = [*_prints(0, RUN), *_prints(1, RUN[:3]), *_prints(2, RUN), _report(14, -11, 1)]
    second = [
        *_prints(0, RUN),
        *_prints(1, RUN),
        *_prints(2, RUN[:3]),
        f"[rank2]: {SHAPE}",
        f"[rank1]: {CLOSED}",
        _report(20, 1, 2),
    ]
    diagnosis = diagnose_files({"job/stdout.log": _text(first + second)})
    assert diagnosis.first_error is not None
    assert "failed (exitcode: -11) local_rank: 1" in diagnosis.first_error.text
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [1]


def test_attempt_folders_put_the_first_attempts_failure_first():
    tree = "job/torchrun_logs/none_3z76"
    files = {
        f"{tree}/attempt_0/0/stdout.log": _text(RUN),
        f"{tree}/attempt_0/1/stdout.log": _text(RUN[:3]),
        f"{tree}/attempt_0/0/stderr.log": _text([f"[rank0]: {CLOSED}"]),
        f"{tree}/attempt_1/0/stdout.log": _text(RUN[:2]),
        f"{tree}/attempt_1/1/stdout.log": _text(
            [*RUN, f"2026-12-04 20:52:19,100 [rank1] ERROR model run failed: {CLOSED[14:]}"]
        ),
        f"{tree}/attempt_1/1/stderr.log": _text([f"[rank1]: {CLOSED}"]),
        "job/launcher.log": _text([_report(14, -11, 1), _report(20, -9, 0)]),
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "failed (exitcode: -11) local_rank: 1" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [1]


def test_a_job_run_once_reads_the_ranks_own_error_first():
    lines = [*_prints(0, RUN), *_prints(1, RUN[:3]), f"[rank1]: {SHAPE}", f"[rank0]: {CLOSED}"]
    diagnosis = diagnose_files({"job/stdout.log": _text([*lines, _report(14, 1, 1)])})
    assert diagnosis.first_error is not None
    assert SHAPE in diagnosis.first_error.text
    assert diagnosis.category == "shape_mismatch"
