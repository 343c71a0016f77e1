"""A framework's device data queue that stops on a batch's data type.

docs/labelling.md#a-data-loader-that-waits-past-its-timeout: MindSpore converts each column of
a batch to a device data type before sending it to the device; a column with no device type
stops the queue (`Got unsupported acl datatype: -1`). The graph's data node then waits on an
empty channel until its task fails minutes later. The input pipeline stopped: `other`, with
the column types (`config`) and the stall (`hang`) beside it, and the queue's line is the first
error ahead of the device task failure. Fixtures follow the real formats with numbers of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

QUEUE_THEN_TASK_FAILURE = """\
[CRITICAL] DEVICE(5310,fffd6affd0f0,python):2024-05-06-07:08:09.101.112 [mindspore/ccsrc/plugin/device/ascend/hal/device/ascend_data_queue.cc:288] ParseType] Got unsupported acl datatype: -1
[ERROR] MD(5310,fffd6affd0f0,python):2024-05-06-07:08:09.101.700 [mindspore/ccsrc/minddata/dataset/util/task.cc:75] operator()] Unexpected error. Got unsupported acl datatype: -1
[ERROR] MD(5310,fffd6affd0f0,python):2024-05-06-07:08:09.101.760 [mindspore/ccsrc/minddata/dataset/util/task_manager.cc:222] InterruptMaster] Task is terminated with err msg (more details are in info level logs): Unexpected error. Got unsupported acl datatype: -1
[ERROR] RUNTIME(5310,python):2024-05-06-07:18:10.220.031 [engine.cc:1263]5377 ReportExceptProc:Task exception! device_id=0, stream_id=9, task_id=21, type=13, retCode=0x91, [the model stream execute failed].
[ERROR] RUNTIME(5310,python):2024-05-06-07:18:10.220.412 [api_c.cc:721]5377 rtStreamSynchronize:ErrCode=507011, desc=[the model stream execute failed], InnerCode=0x7150050
[CRITICAL] GE(5310,fffdf0fff0f0,python):2024-05-06-07:18:10.231.006 [mindspore/ccsrc/plugin/device/ascend/hal/device/ge_runtime/runtime_model.cc:241] Run] Call rt api rtStreamSynchronize failed, ret: 507011
RuntimeError: Run task error!

----------------------------------------------------
- Ascend Error Message:
----------------------------------------------------
EE9999: Inner Error, Please contact support engineer!
EE9999  Task execute failed, base info: device_id=0, stream_id=4, task_id=2, flip_num=0, task_type=3.[FUNC:GetError][FILE:stream.cc][LINE:1044]
        TraceBack (most recent call last):
        rtStreamSynchronize execute failed, reason=[the model stream execute failed][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:49]
"""

# Counterexample: the same task failure without the queue's refusal keeps its own reading.
TASK_FAILURE_ONLY = QUEUE_THEN_TASK_FAILURE.split("\n", 3)[3]


def test_the_queue_refusal_is_the_first_error_and_the_input_pipeline() -> None:
    diagnosis = diagnose_text("logs/train.log", QUEUE_THEN_TASK_FAILURE)
    assert_reads(diagnosis, "other", first_error="Got unsupported acl datatype")
    alternatives = alternative_labels(diagnosis)
    assert "config" in alternatives
    assert "hang" in alternatives


def test_without_the_refusal_the_task_failure_is_not_the_queue() -> None:
    diagnosis = diagnose_text("logs/train.log", TASK_FAILURE_ONLY)
    assert diagnosis.first_error is not None
    assert "unsupported acl datatype" not in diagnosis.first_error.text
    assert "device data queue" not in diagnosis.root_cause
