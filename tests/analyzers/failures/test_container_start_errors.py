"""Containers whose process the runtime could not start.

docs/labelling.md#a-container-that-could-not-start-its-command: runc's refusal to execute a
command the image does not hold is the job's spec (`config`, `driver_env` beside it), and the
records that frame it (kubelet's `StartError`, a platform's summary, containerd's `failed to
create containerd task`) read the same way when the detail is cut off. A runtime hook that
could not set a device up keeps the node's reading. Values are our own, in the tools' shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text, rules_of

# kubectl describe of a pod whose command is a module name, not an executable.
COMMAND_NOT_IN_IMAGE = """\
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       StartError
      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "ddp.main": executable file not found in $PATH: unknown
      Exit Code:    128
"""

# A managed platform's summary, pasted only as far as the runtime's first words.
PLATFORM_SUMMARY_CUT = """\
Job failed with:
code: 3
message: "The replica workerpool1-0 exited with a non-zero status of 128. Termination reason: StartError. \\n Termination log message: failed to create containerd task: fa
"""

# Counterexample: the runtime's hook could not give the container its GPUs; the node's set-up.
HOOK_FAILED = """\
      Reason:       StartError
      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'
nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown
"""

# Counterexample: a container that ran and failed on its own terms.
RAN_AND_FAILED = """\
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
"""


def test_a_command_the_image_does_not_hold_is_the_jobs_spec() -> None:
    diagnosis = diagnose_text("describe-pod.txt", COMMAND_NOT_IN_IMAGE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert 'exec: "ddp.main": executable file not found' in diagnosis.first_error.text
    assert "cfg.container_command_not_found" in rules_of(diagnosis)


def test_a_start_error_whose_detail_was_cut_reads_the_same_way() -> None:
    diagnosis = diagnose_text("job_error.txt", PLATFORM_SUMMARY_CUT)
    assert diagnosis.category == "config"
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "StartError" in diagnosis.first_error.text
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_runtime_hook_that_failed_keeps_the_nodes_reading() -> None:
    diagnosis = diagnose_text("describe-pod.txt", HOOK_FAILED)
    assert diagnosis.category == "driver_env"
    assert "cfg.container_command_not_found" not in rules_of(diagnosis)


def test_a_container_that_ran_and_failed_is_no_start_error() -> None:
    diagnosis = diagnose_text("describe-pod.txt", RAN_AND_FAILED)
    assert "cfg.container_start_error" not in rules_of(diagnosis)
