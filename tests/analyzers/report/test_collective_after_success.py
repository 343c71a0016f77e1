"""A rank that runs one more collective after the success line every rank printed.

Every rank logs `model run success`; one rank then calls a collective the others never
call (a statistic synced on that rank alone) while its peers destroy the process group and
exit cleanly. Its collective fails at once on the closed connection and the exception ends
the process. The job failed, and the rank that went on alone is the one whose behaviour
diverged: it is blamed, not the peers that had finished. An error logged after the success
line that the rank survived keeps the run healthy.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files
from tests.analyzers.job_bundles import CLOSED

ENV = "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\nMASTER_PORT=29544\n"
RUN = [
    "load weights passed",
    "prefill start: 8 tokens",
    *[
        line
        for layer in range(2)
        for line in (" norm passed", " attention passed", " MoE passed", f"layer {layer} passed")
    ],
    "prefill passed",
    "decode step 0 passed",
    "generated tokens: [223]",
    "model run success",
]


def stamped(rank: int, lines: list[str], level: str = "INFO") -> list[str]:
    return [
        f"2026-12-02 10:15:{10 + n // 10:02d},{100 + n:03d} [rank{rank}] {level} {line}"
        for n, line in enumerate(lines)
    ]


def uncaught(rank: int) -> list[str]:
    """The logged error, the traceback and torch's `[rankN]:` copy: the exception ended it."""
    frames = [
        "Traceback (most recent call last):",
        '  File "/srv/decoder/run.py", line 301, in main',
        "    dist.all_reduce(norm)",
        '  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py",'
        " line 3252, in all_reduce",
        "    work.wait()",
        f"RuntimeError: {CLOSED}",
    ]
    return [
        f"2026-12-02 10:15:13,020 [rank{rank}] ERROR model run failed: {CLOSED}",
        *frames,
        *(f"[rank{rank}]: {line}" for line in frames),
    ]


def files(extra_rank: int, tail: list[str]) -> dict[str, str]:
    out = {"job/env.txt": ENV}
    for r in range(4):
        lines = stamped(r, RUN) + (tail if r == extra_rank else [])
        out[f"job/log_{r}.log"] = "\n".join(lines) + "\n"
    return out


def test_rank_failing_a_collective_after_every_rank_succeeded_is_blamed() -> None:
    diagnosis = diagnose_files(files(2, uncaught(2)))
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Connection closed by peer" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def test_error_logged_after_success_and_survived_keeps_the_run_healthy() -> None:
    # the same words, logged as a warning by a rank that went on: no traceback ended it
    survived = [f"2026-12-02 10:15:13,020 [rank2] WARNING stats sync skipped: {CLOSED}"]
    diagnosis = diagnose_files(files(2, survived))
    assert diagnosis.category == "healthy"
    assert diagnosis.culprit_ranks == []


def test_lone_failure_is_not_blamed_on_itself_when_a_peer_never_finished() -> None:
    # rank 1 stopped before its success line: the peers were not all done, so the lost
    # connection is not read as one rank running past the others
    out = files(2, uncaught(2))
    out["job/log_1.log"] = "\n".join(stamped(1, RUN[:6])) + "\n"
    diagnosis = diagnose_files(out)
    assert diagnosis.category != "healthy"
    assert diagnosis.culprit_ranks != [2]
