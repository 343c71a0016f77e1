"""Paddle's launcher reporting how a worker ended.

docs/labelling.md#a-rank-killed-for-host-memory: `Container rank <r> status failed cmd [...]
code -9 log <workerlog>` is read as torchrun's `exitcode: -9`: `device_fault` with `oom`
beside it and rank r the culprit; another signal is the rank's own crash; a plain status is a
summary under the rank's own error (docs/labelling.md#a-rank-that-exits-without-a-word).
Values of our own in the shape the launcher prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

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
    assert_reads(diagnosis, "device_fault", first_error="code -9 log", beside=("oom",))


def test_another_signal_is_the_ranks_own_crash_without_oom() -> None:
    diagnosis = diagnose_text("log/launch.log", CRASHED)
    assert_reads(diagnosis, "device_fault", first_error="code -11 log")
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_plain_status_alone_is_the_only_word_about_the_rank() -> None:
    diagnosis = diagnose_text("log/launch.log", EXITED)
    assert_reads(diagnosis, "device_fault", first_error="status failed cmd")


def test_a_plain_status_yields_to_the_error_in_the_workerlog() -> None:
    diagnosis = diagnose_files({"log/launch.log": EXITED, "log/workerlog.0": WORKER_ERROR})
    assert diagnosis.first_error is not None
    assert "learning_rate must be positive" in diagnosis.first_error.text


# FastDeploy's API server starts its model workers and, when they die before they report
# ready, says so and points at their own logs; its clean-up then finds the process gone.
FASTDEPLOY_WORKERS_GONE = """\
ERROR    2026-03-02 08:11:40,120 901  engine.py[line:160] Failed to launch worker processes, check log/workerlog.* for more details.
ERROR    2026-03-02 08:11:47,510 901  engine.py[line:447] Error extracting sub services: [Errno 3] No such process, Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/fastdeploy/engine/engine.py", line 444, in _exit_sub_services
    pgid = os.getpgid(self.worker_proc.pid)
ProcessLookupError: [Errno 3] No such process
"""


def test_fastdeploy_workers_that_failed_to_launch_are_the_first_error_when_alone() -> None:
    diagnosis = diagnose_text("log/api_server.log", FASTDEPLOY_WORKERS_GONE)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Failed to launch worker processes",
        beside=("other",),
    )


def test_fastdeploy_record_yields_to_the_worker_log_error() -> None:
    files = {
        "log/api_server.log": FASTDEPLOY_WORKERS_GONE,
        "log/workerlog.0": (
            "Traceback (most recent call last):\n"
            '  File "worker_process.py", line 700, in run_worker_proc\n'
            "MemoryError: (ResourceExhausted) Out of memory error on XPU 0. Cannot allocate"
            " 1.5GB memory on XPU 0.\n"
        ),
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.first_error is not None
    assert "Failed to launch worker processes" not in diagnosis.first_error.text
