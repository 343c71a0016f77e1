"""A serving launcher that takes its own server down after a failure.

SGLang's launcher kills its process tree when a child signals that it failed (`Received
sigquit from a child process`) or when its start-up warm-up request fails (`Initialization
failed. warmup error`); the shell then prints a bare `Killed`. That kill is the server's own
teardown after an error already printed above it, not a process killed from outside for its
memory, so it offers neither `device_fault` nor `oom` beside the error that decided.
docs/labelling.md#a-serving-launcher-that-takes-its-own-server-down
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A scheduler's forward step is refused by an aclnn parameter check; the child signals the
# launcher, which kills the tree.
SCHEDULER_ERROR_THEN_TEARDOWN = """\
[2026-03-14 08:21:05 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/serve/srt/managers/scheduler.py", line 2811, in run_scheduler_process
    scheduler.event_loop_normal()
  File "/opt/serve/srt/layers/rotary.py", line 204, in forward_npu
    out = torch_npu.npu_rotary_mul(q, cos, sin)
RuntimeError: rotary_mul_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:42 NPU function error: call aclnnRotaryPositionEmbedding failed, error code is 161002
[ERROR] 2026-03-14-08:21:05 (PID:7310, Device:1, RankID:-1) ERR00100 PTA call acl api failed.
[PID: 7310] 2026-03-14-08:21:05.118.402 AclNN_Parameter_Error(EZ1001): The dim of cos should be equal to 4.

[2026-03-14 08:21:06] Received sigquit from a child process. It usually means the child failed.
Killed
"""

# The warm-up request comes back with the device error inside its JSON answer.
WARMUP_ERROR_THEN_KILLED = """\
[2026-05-02 17:03:40] INFO:     127.0.0.1:51210 - "POST /generate HTTP/1.1" 500 Internal Server Error
[2026-05-02 17:03:40] Initialization failed. warmup error: Traceback (most recent call last):
  File "/opt/serve/srt/entrypoints/http_server.py", line 1402, in _execute_server_warmup
    assert res.status_code == 200, f"{res.text}"
           ^^^^^^^^^^^^^^^^^^^^^^
AssertionError: {"object":"error","message":"Internal server error: index_select_out_op_api:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:61 NPU function error: call aclnnIndexSelect failed, error code is 161002\\n[ERROR] 2026-05-02-17:03:40 (PID:912, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\\n[PID: 912] 2026-05-02-17:03:40.551.027 AclNN_Parameter_Error(EZ1001): The index tensor dtype must be int32 or int64.\\n","type":"InternalServerError","param":null,"code":500}

Killed
"""

# Only the launcher's line reached the log: the child's own error is not there.
TEARDOWN_ALONE = """\
[2026-03-14 08:20:51 TP0] Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.02, #running-req: 0, #queue-req: 0
[2026-03-14 08:21:06] Received sigquit from a child process. It usually means the child failed.
Killed
"""

# Counterexample: the kill comes first; the launcher's line after it does not explain it.
KILLED_BEFORE_TEARDOWN = """\
[2026-03-14 08:20:51 TP0] Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.02, #running-req: 0, #queue-req: 0
Killed
[2026-03-14 08:21:06] Received sigquit from a child process. It usually means the child failed.
"""


def test_the_kill_after_a_childs_failure_adds_no_outside_kill() -> None:
    diagnosis = diagnose_text("serve/server.log", SCHEDULER_ERROR_THEN_TEARDOWN)
    assert_reads(diagnosis, "operator", first_error="The dim of cos should be equal to 4")
    labels = {alt.category for alt in diagnosis.alternatives}
    assert not labels & {"device_fault", "oom"}


def test_the_kill_after_a_failed_warmup_adds_no_outside_kill() -> None:
    diagnosis = diagnose_text("serve/server.log", WARMUP_ERROR_THEN_KILLED)
    assert_reads(diagnosis, "operator", first_error="The index tensor dtype must be int32 or int64")
    labels = {alt.category for alt in diagnosis.alternatives}
    assert not labels & {"device_fault", "oom"}


def test_the_teardown_alone_is_not_read_as_a_kill_from_outside() -> None:
    diagnosis = diagnose_text("serve/server.log", TEARDOWN_ALONE)
    assert diagnosis.category != "device_fault"
    assert diagnosis.first_error is not None
    assert "Received sigquit from a child process" in diagnosis.first_error.text


def test_a_kill_before_the_launchers_line_stays_a_kill() -> None:
    diagnosis = diagnose_text("serve/server.log", KILLED_BEFORE_TEARDOWN)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.strip() == "Killed"


# Children and the launcher write to one terminal: the launcher's notice can land above the
# child's own report. Here the child's scheduler lost rank 0 in a gloo monitored barrier.
TEARDOWN_ABOVE_THE_CHILDS_REPORT = """\
[2026-06-02 11:40:17] Received sigquit from a child process. It usually means the child failed.
[rank5]:[E602 11:40:17.318204551 ProcessGroupGloo.cpp:143] Rank 5 successfully reached monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.
[2026-06-02 11:40:17 TP5] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/serve/srt/managers/scheduler.py", line 2056, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
  File "/opt/serve/srt/model_executor/model_runner.py", line 182, in __init__
    self.initialize(min_per_gpu_memory)
"""


def test_the_launchers_notice_above_the_childs_report_yields_to_it() -> None:
    diagnosis = diagnose_text("serve/server.log", TEARDOWN_ABOVE_THE_CHILDS_REPORT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="successfully reached monitoredBarrier, but received errors",
    )
