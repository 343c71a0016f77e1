"""A managed training platform's own record of how the training process ended.

docs/labelling.md#a-rank-killed-for-host-memory: ModelArts writes its service log into the job's
log under a `[ModelArts Service Log]` prefix, and when the user's process ends it records the
process's status (`Training end with return code: <status>`, `exit with <status>`). Above 128
the status is 128 + the signal, read like a launch script's: 137 is SIGKILL from outside the
process (most often the container's memory limit), `device_fault` with `oom` beside it; a crash
signal (139, 135, 136, 132) is the process's own crash. A clean end (0) and the platform's
progress lines are no failure. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

KILLED = """\
[ModelArts Service Log]2026-03-02 11:40:02,118 - INFO - proc-rank-0-device-0 (pid: 212) started
epoch 3 step 1200 loss 1.874
[ModelArts Service Log]Training end with return code: 137
"""


def test_the_platforms_status_137_is_a_process_killed_from_outside() -> None:
    diagnosis = diagnose_text("modelarts-job-a1b2-worker-0.log", KILLED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="return code: 137",
        rule="dev.platform_process_killed",
        beside=("oom",),
    )


CRASHED = """\
[Modelarts Service Log]exit with 139
"""


def test_a_crash_signal_in_the_platforms_record_is_the_process_crash() -> None:
    diagnosis = diagnose_text("modelarts-job-a1b2-worker-0.log", CRASHED)
    assert_reads(
        diagnosis, "device_fault", first_error="exit with 139", rule="dev.platform_process_signal"
    )


CLEAN = """\
[Modelarts Service Log]Training completed.
[Modelarts Service Log]Training end with return code: 0
[Modelarts Service Log]exit with 0
"""


def test_a_clean_end_in_the_platforms_record_is_no_failure() -> None:
    diagnosis = diagnose_text("modelarts-job-a1b2-worker-0.log", CLEAN)
    rules = rules_of(diagnosis)
    assert "dev.platform_process_killed" not in rules
    assert "dev.platform_process_signal" not in rules
