"""The older device dump in its task form: `EXCEPTION TASK:` with an `Exception info:` record.

Some CANN releases print the device's record of the failed task before the Python traceback
(`DEVICE[n] PID[p]:`, `EXCEPTION TASK:`, `Exception info:... task type=<kind> ...`). When the
kind is a kernel the record is a device kernel's failure: `aicore_timeout`, like every core
exception (docs/labelling.md#ai-cpu-exceptions-that-carry-a-notify-wait-timeout), and the first
error. A record of another kind (a notify wait, a copy) names no kernel and decides nothing.

The fixtures follow the block's shape; pids, task ids, times and paths are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def _block(kind: str) -> str:
    return (
        "DEVICE[3] PID[40711]: \n"
        "EXCEPTION TASK:\n"
        "  Exception info:TGID=40902, model id=65535, stream id=5, stream phase=SCHEDULE, "
        f"task id=812, task type={kind}, recently received task id=812, recently send task "
        "id=811, task phase=RUN\n"
        "  Message info[0]:aicpu=0,slot_id=0,report_mailbox_flag=0x5a5a5a5a,state=0x5210\n"
        "    Other info[0]:time=2026-02-11-08:15:40.100.200, function=proc_aicpu_task_done, "
        "line=970, error code=0x2a\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/jobs/finetune/run.py", line 41, in <module>\n'
        "    trainer.train()\n"
    )


def test_a_kernel_task_record_is_a_device_kernel_failure() -> None:
    diagnosis = diagnose_text("rank0/train.log", _block("aicpu kernel"))
    assert diagnosis.category == "aicore_timeout"
    assert diagnosis.confidence >= 0.8
    assert diagnosis.first_error is not None
    assert "task type=aicpu kernel" in diagnosis.first_error.text


def test_a_notify_wait_task_record_is_not_read_as_a_kernel() -> None:
    diagnosis = diagnose_text("rank0/train.log", _block("notify wait"))
    assert diagnosis.category != "aicore_timeout"
