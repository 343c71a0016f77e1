"""srun ending the rest of a step after one task failed.

docs/labelling.md#a-rank-killed-for-host-memory: when one task of a step ends badly, srun says
so (`task 3: Exited with exit code 1`), announces that it is ending the step
(`_step_signal: Terminating StepId=...`, older releases `Terminating job step ...`) and then
reports every other task it stopped, as `Killed` once the step's grace time has passed. Those
`Killed` statuses are srun's own teardown, not a kill from outside the job: they offer no
`device_fault` of their own and the task that failed first stays the first error. A `Killed`
printed before srun's announcement is still a task killed from outside.
Fixtures are our own jobs written in srun's real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# Task 2 exits with status 1; srun ends the step and reports the other tasks killed.
EXIT_THEN_STEP_ENDED = """\
srun: error: gpu-a11: task 2: Exited with exit code 1
srun: launch/slurm: _step_signal: Terminating StepId=918273.0
slurmstepd: error: *** STEP 918273.0 ON gpu-a11 CANCELLED AT 2026-04-02T10:14:52 ***
srun: error: gpu-a11: tasks 0-1,3: Killed
srun: error: gpu-a12: tasks 4-7: Killed
srun: Force Terminated StepId=918273.0
"""

# The same teardown in the older wording of srun.
OLDER_WORDING = """\
srun: error: node-07: task 5: Exited with exit code 2
srun: Terminating job step 44120.0
slurmstepd: error: *** STEP 44120.0 ON node-07 CANCELLED AT 2025-11-20T03:40:11 ***
srun: error: node-07: tasks 0-4,6-7: Killed
"""

# Counterexample: a task killed before srun announced anything is the kill that ended the step.
KILLED_FIRST = """\
srun: error: gpu-a11: task 6: Killed
srun: launch/slurm: _step_signal: Terminating StepId=918274.0
srun: error: gpu-a11: tasks 0-5,7: Terminated
"""


def test_tasks_killed_after_srun_ended_the_step_are_its_teardown() -> None:
    diagnosis = diagnose_text("slurm-918273.out", EXIT_THEN_STEP_ENDED)
    assert_reads(
        diagnosis,
        "other",
        first_error="task 2: Exited with exit code 1",
        rule="other.srun_task_exit_status",
        beside=("device_fault",),
    )


def test_the_older_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("slurm-44120.out", OLDER_WORDING)
    assert_reads(diagnosis, "other", first_error="task 5: Exited with exit code 2")


def test_a_task_killed_before_the_announcement_stays_a_kill() -> None:
    diagnosis = diagnose_text("slurm-918274.out", KILLED_FIRST)
    assert_reads(diagnosis, "device_fault", first_error="task 6: Killed", beside=("oom",))
    assert "dev.srun_task_sigkill" in rules_of(diagnosis)
