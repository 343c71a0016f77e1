"""The interpreter refusing the script a launcher named: every worker prints Python's own
line and exits before the job runs. docs/labelling.md#a-script-the-interpreter-cannot-open
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

LAUNCH = (
    "W1204 10:00:00.100000 140001 torch/distributed/run.py:779] Setting OMP_NUM_THREADS "
    "environment variable for each process to be 1 in default\n"
    "W1204 10:00:00.100000 140001 torch/distributed/run.py:779] ****************************\n"
)


def _workers_refused(path: str, errno: str, count: int = 4) -> str:
    line = f"/usr/bin/python3: can't open file '{path}': {errno}\n"
    return LAUNCH + line * count


def test_a_launched_script_that_is_not_there_is_the_launch_setting() -> None:
    text = _workers_refused("/srv/videogen/infer_usp.py", "[Errno 2] No such file or directory")
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="can't open file '/srv/videogen/infer_usp.py'",
        beside=("driver_env",),
    )


def test_a_script_refused_for_permission_is_not_a_missing_script() -> None:
    text = _workers_refused("/srv/videogen/infer_usp.py", "[Errno 13] Permission denied", 1)
    assert diagnose_text("launcher.log", text).category != "config"
