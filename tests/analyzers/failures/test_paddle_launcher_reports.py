"""Paddle's launcher reporting how a worker ended.

docs/labelling.md#a-rank-killed-for-host-memory: `Container rank <r> status failed cmd [...]
code -9 log <workerlog>` is read as torchrun's `exitcode: -9`: `device_fault` with `oom`
beside it and rank r the culprit; another signal is the rank's own crash; a plain status is a
summary under the rank's own error (docs/labelling.md#a-rank-that-exits-without-a-word).
Values of our own in the shape the launcher prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_files, diagnose_text

KILLED = """\
LAUNCH INFO 2025-06-02 14:20:11,301 Pod failed
LAUNCH ERROR 2025-06-02 14:20:11,305 Container failed !!!
Container rank 1 status failed cmd ['/opt/py/bin/python', '-u', 'tools/train.py', '-c', 'configs/det/det.yml'] code -9 log log/workerlog.1
env {'SHELL': '/bin/bash', 'PADDLE_TRAINER_ID': '1', 'PADDLE_TRAINERS_NUM': '2'}
"""

CRASHED = KILLED.replace("code -9 log", "code -11 log")

EXITED = """\
LAUNCH INFO 2025-06-02 14:20:11,301 Pod failed
LAUNCH ERROR 2025-06-02 14:20:11,305 Container failed !!!
Container rank 0 status failed cmd ['/opt/py/bin/python', '-u', 'train.py'] code 1 log log/workerlog.0
"""

WORKER_ERROR = """\
Traceback (most recent call last):
  File "train.py", line 40, in <module>
    main()
ValueError: learning_rate must be positive, got -0.1
"""


def test_a_container_killed_by_sigkill_is_a_killed_rank_with_oom_beside_it() -> None:
    diagnosis = diagnose_text("log/launch.log", KILLED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "code -9 log" in diagnosis.first_error.text
    assert "oom" in {alt.category for alt in diagnosis.alternatives}


def test_another_signal_is_the_ranks_own_crash_without_oom() -> None:
    diagnosis = diagnose_text("log/launch.log", CRASHED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "code -11 log" in diagnosis.first_error.text
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_plain_status_alone_is_the_only_word_about_the_rank() -> None:
    diagnosis = diagnose_text("log/launch.log", EXITED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "status failed cmd" in diagnosis.first_error.text


def test_a_plain_status_yields_to_the_error_in_the_workerlog() -> None:
    diagnosis = diagnose_files({"log/launch.log": EXITED, "log/workerlog.0": WORKER_ERROR})
    assert diagnosis.first_error is not None
    assert "learning_rate must be positive" in diagnosis.first_error.text
