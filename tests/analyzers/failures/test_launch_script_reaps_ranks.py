"""A launch script that kills the ranks still running past its limit stops them; no rank died.

docs/labelling.md#a-job-stopped-from-outside-all-at-once: a script that starts one process per
rank often bounds its wait and kills whatever is still alive at the end of it, saying so first
(`rank 0 (pid 21307) still running after 16s, sending SIGKILL`) and then reporting each status
(`exited with code -9`). Ranks that raised a gloo timeout can stay alive in their teardown, so
the script kills them too: the kill is the script's own stop, a summary under each rank's error,
and the timeouts (and the rank the checkpoints leave behind) keep their reading. The excerpts
follow a real gloo job (Python logging with times, untimed `[rankN]:` tracebacks) with values of
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, rules_of

REAPED = """\
2026-12-07 10:04:11 started rank 0 pid 4410
2026-12-07 10:04:11 started rank 1 pid 4411
2026-12-07 10:04:11 started rank 2 pid 4412
2026-12-07 10:04:11 started rank 3 pid 4413
2026-12-07 10:05:02 rank 0 (pid 4410) still running after 30s, sending SIGKILL
2026-12-07 10:05:02 rank 1 (pid 4411) still running after 30s, sending SIGKILL
2026-12-07 10:05:02 rank 2 (pid 4412) still running after 30s, sending SIGKILL
2026-12-07 10:05:02 rank 3 (pid 4413) still running after 30s, sending SIGKILL
2026-12-07 10:05:03 rank 0 (pid 4410) exited with code -9
2026-12-07 10:05:03 rank 1 (pid 4411) exited with code -9
2026-12-07 10:05:03 rank 2 (pid 4412) exited with code -9
2026-12-07 10:05:03 rank 3 (pid 4413) exited with code -9
"""
# the same script when something else killed rank 2 while its peers still ran
KILLED_FROM_OUTSIDE = """\
2026-12-07 10:04:11 started rank 0 pid 4410
2026-12-07 10:04:11 started rank 1 pid 4411
2026-12-07 10:04:11 started rank 2 pid 4412
2026-12-07 10:04:11 started rank 3 pid 4413
2026-12-07 10:04:40 rank 2 (pid 4412) exited with code -9
2026-12-07 10:04:41 rank 0 (pid 4410) exited with code 1
2026-12-07 10:04:41 rank 1 (pid 4411) exited with code 1
2026-12-07 10:04:41 rank 3 (pid 4413) exited with code 1
"""


def _waiting(rank: int, error: str) -> str:
    return f"""\
2026-12-07 10:04:21,500 [rank{rank}] INFO train step 0 start
2026-12-07 10:04:21,812 [rank{rank}] INFO   norm passed
2026-12-07 10:04:21,990 [rank{rank}] INFO layer 0 passed
2026-12-07 10:04:22,104 [rank{rank}] INFO   norm passed
[rank{rank}]: Traceback (most recent call last):
[rank{rank}]:   File "/srv/job/train.py", line 122, in main
[rank{rank}]:     dist.all_reduce(y)
[rank{rank}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 3252, in all_reduce
[rank{rank}]:     work.wait()
[rank{rank}]: RuntimeError: {error}
"""


TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] "
    "Timed out waiting 20000ms for recv operation to complete"
)
CLOSED = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed "
    "by peer [127.0.0.1]:40171. This is typically caused by a remote worker crashing. Check the "
    "logs of the remote worker before reporting an error. GLHF! 🏖️"
)
# rank 2 took a lock twice before layer 1 and printed nothing more
STALLED_RANK2 = """\
2026-12-07 10:04:21,501 [rank2] INFO train step 0 start
2026-12-07 10:04:21,809 [rank2] INFO   norm passed
2026-12-07 10:04:21,988 [rank2] INFO layer 0 passed
"""


def _job(launch: str, peer_error: str) -> dict[str, str]:
    return {
        "job/launch.log": launch,
        "job/log_0.log": _waiting(0, peer_error),
        "job/log_1.log": _waiting(1, peer_error),
        "job/log_2.log": STALLED_RANK2,
        "job/log_3.log": _waiting(3, peer_error),
    }


def test_ranks_the_script_killed_past_its_limit_leave_their_timeouts_the_failure() -> None:
    diagnosis = diagnose_files(_job(REAPED, TIMEOUT))
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 20000ms", beside=("hang",))
    assert diagnosis.culprit_ranks == [2]
    assert "dev.killed" not in rules_of(diagnosis)


def test_a_rank_killed_while_its_peers_ran_keeps_the_kill_reading() -> None:
    diagnosis = diagnose_files(_job(KILLED_FROM_OUTSIDE, CLOSED))
    assert_reads(diagnosis, "device_fault", first_error="rank 2 (pid 4412) exited with code -9")
    assert diagnosis.culprit_ranks == [2]


def test_ranks_the_script_killed_while_all_still_waited_are_a_hang_the_checkpoints_blame() -> None:
    """Nobody raised before the script's limit ran out: the kill stopped a job that had stopped
    advancing, read as every rank stopped from outside at once."""
    files = _peers_quiet(_job(REAPED, TIMEOUT))
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None
    assert diagnosis.culprit_ranks == [2]


# the same script bounding its wait with SIGTERM instead (`sending SIGTERM`, then `-15`)
TERMINATED = REAPED.replace("SIGKILL", "SIGTERM").replace("code -9", "code -15")


def test_ranks_the_script_terminated_past_its_limit_are_read_as_the_kill() -> None:
    """The SIGTERM form of the notice is the same stop: the rule reads it, and the timeouts
    and the rank the checkpoints leave behind keep their reading."""
    diagnosis = diagnose_files(_job(TERMINATED, TIMEOUT))
    assert_reads(diagnosis, "hccl", first_error="Timed out waiting 20000ms", beside=("hang",))
    assert diagnosis.culprit_ranks == [2]
    assert "tail.script_rank_reaped" in rules_of(diagnosis)


def test_ranks_the_script_terminated_while_all_still_waited_are_a_hang() -> None:
    files = _peers_quiet(_job(TERMINATED, TIMEOUT))
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert "tail.script_rank_reaped" in rules_of(diagnosis)


def test_a_launchers_teardown_sigterm_after_a_failure_is_not_the_scripts_limit() -> None:
    """Counterexample: torchrun's agent stopping the survivors once a child failed names no
    rank still running past a limit."""
    line = (
        "W1207 10:05:02.118000 4400 torch/distributed/elastic/multiprocessing/api.py:897] "
        "Sending process 4410 closing signal SIGTERM"
    )
    files = _job(REAPED.replace("still running after 30s, sending SIGKILL", "started"), TIMEOUT)
    files["job/launch.log"] += line + "\n"
    assert "tail.script_rank_reaped" not in rules_of(diagnose_files(files))


def _peers_quiet(files: dict[str, str]) -> dict[str, str]:
    """The same job with ranks 0, 1 and 3 printing no timeout of their own: every rank was still
    waiting when the script's limit ran out."""
    for rank in (0, 1, 3):
        lines = files[f"job/log_{rank}.log"].splitlines()
        files[f"job/log_{rank}.log"] = "".join(
            f"{line}\n" for line in lines if not line.startswith("[rank")
        )
    return files
