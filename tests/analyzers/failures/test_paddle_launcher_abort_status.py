"""Paddle's launcher reporting a rank that ended in SIGABRT, with nothing else pasted.

docs/labelling.md#a-rank-that-exits-without-a-word: a status of -6 is the process ending
itself, read like a plain non-zero status: a summary under the rank's own error, and the first
error (`device_fault`, `other` beside it) when the paste kept only the launcher's lines.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RULE = "dev.paddle_launch_container_exit_code"

ABORT_ONLY = """\
LAUNCH INFO 2025-04-02 10:01:12,301 Pod failed
LAUNCH ERROR 2025-04-02 10:01:12,302 Container failed !!!
Container rank 3 status failed cmd ['/opt/py/bin/python', '-u', 'run_fleet.py'] code -6 log log/workerlog.3
"""

ABORT_UNDER_ERROR = """\
terminate called after throwing an instance of 'std::runtime_error'
  what():  unable to open shared memory object </paddle_91_0> in read-write mode
LAUNCH ERROR 2025-04-02 10:01:12,302 Container failed !!!
Container rank 3 status failed cmd ['/opt/py/bin/python', '-u', 'run_fleet.py'] code -6 log log/workerlog.3
"""


def test_an_abort_status_alone_is_the_first_error() -> None:
    diagnosis = diagnose_text("launch.log", ABORT_ONLY)
    assert_reads(diagnosis, "device_fault", first_error="code -6", rule=RULE)


def test_an_abort_status_under_the_rank_s_own_error_only_sums_it_up() -> None:
    diagnosis = diagnose_text("launch.log", ABORT_UNDER_ERROR)
    assert "status failed cmd" not in diagnosis.first_error.text
