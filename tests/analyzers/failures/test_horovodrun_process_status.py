"""Horovod's own launcher reports how each process ended, and pastes mask the pid.

docs/labelling.md#a-rank-killed-for-host-memory: horovodrun (Gloo controller) prints
`Process <rank> exit with status code <status>.` for a process that ended badly; above 128
the status is 128 + the signal, so 137 is SIGKILL from outside (device_fault, oom beside it)
and 139 the rank's own crash, while status 1 is a summary under the rank's own error. Open
MPI's kill report reads the same when the paste masks its pid with x's. Values are our own,
in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HOROVODRUN_KILLED = """\
$ horovodrun -np 4 -H localhost:4 python train_ddp.py --epochs 3
[1,0]<stdout>:epoch 0 step 120 loss 2.113
[1,2]<stdout>:epoch 0 step 120 loss 2.098
Process 2 exit with status code 137.
Terminating remaining workers after failure of Process 2.
Process 0 exit with status code 143.
Traceback (most recent call last):
  File "/opt/venv/bin/horovodrun", line 8, in <module>
    sys.exit(run_commandline())
  File "/opt/venv/lib/python3.8/site-packages/horovod/runner/launch.py", line 768, in run_commandline
    _run(args)
"""

HOROVODRUN_CRASHED = """\
$ horovodrun -np 2 -H localhost:2 python train_ddp.py
Process 1 exit with status code 139.
Terminating remaining workers after failure of Process 1.
"""

# Counterexample: status 1 is a summary under the process's own error, which is the cause.
HOROVODRUN_OWN_ERROR = """\
[1,1]<stderr>:Traceback (most recent call last):
[1,1]<stderr>:  File "train_ddp.py", line 88, in <module>
[1,1]<stderr>:    model.load_state_dict(torch.load(args.ckpt))
[1,1]<stderr>:FileNotFoundError: [Errno 2] No such file or directory: '/data/ckpt/step_400.pt'
Process 1 exit with status code 1.
Terminating remaining workers after failure of Process 1.
"""

MPIRUN_MASKED_PID = """\
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
mpirun noticed that process rank 3 with PID XXXXX on node XXXXXXXX exited on signal 9 (Killed).
"""


def test_a_process_horovodrun_saw_killed_is_the_first_error() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_KILLED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Process 2 exit with status code 137.",
        rule="dev.horovodrun_process_killed",
        beside=("oom",),
    )


def test_a_process_horovodrun_saw_crash_is_its_own_crash() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_CRASHED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="status code 139",
        rule="dev.horovodrun_process_signal",
    )


def test_a_plain_status_yields_to_the_process_own_error() -> None:
    diagnosis = diagnose_text("horovodrun.log", HOROVODRUN_OWN_ERROR)
    assert diagnosis.first_error is not None
    assert "FileNotFoundError" in diagnosis.first_error.text
    assert not rules_of(diagnosis) & {
        "dev.horovodrun_process_killed",
        "dev.horovodrun_process_signal",
    }


def test_mpirun_kill_report_with_a_masked_pid_is_read() -> None:
    diagnosis = diagnose_text("mpirun.log", MPIRUN_MASKED_PID)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="rank 3 with PID XXXXX",
        rule="dev.mpirun_rank_sigkill",
    )
