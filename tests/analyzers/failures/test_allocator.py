"""A stale allocator-lookup message carried inside a later device-exception block.

The runtime complains (`Invalid_Argument(EH0012): aclrtAllocatorGetByStream failed ... not
registered with any allocator`) whenever a stream without an external allocator is queried.
The error manager keeps the message and prints it inside the next error block, with its own
timestamp, which can be hours older than the failure the block reports. Next to a device-side
vector-core exception that line is baggage: the exception is the cause, even though the
allocator line carries the earliest timestamp. Fixtures are written here in the real shapes
with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STALE_ALLOCATOR_IN_VECTOR_BLOCK = """\
[rank2]:[E311 16:42:09.551230871 OpParamMaker.cpp:454] operator():../third_party/op-plugin/op_plugin/ops/opapi/IndexKernelNpuOpApi.cpp:41 NPU function error: call aclnnIndex failed, error code is 507035
[ERROR] 2026-03-11-16:42:09 (PID:40817, Device:2, RankID:-1) ERR00100 PTA call acl api failed
[Error]: The vector core execution is abnormal. 
        Rectify the fault based on the error information in the ascend log.
[PID: 40817] 2026-03-11-13:58:40.102.336 Invalid_Argument(EH0012): aclrtAllocatorGetByStream failed. Parameter stream is invalid. Reason: The stream is not registered with any allocator.
TraceBack (most recent call last):
        The error from device(chipId:2, dieId:0), serial number is 5, there is an exception of fftsplus aivector error, core id is 11, error code = 0, dump info: pc start: 0x12a0c0d1e000, current: 0x12a0c0d1e4a8, vec error info: 0x1f000002aa, mte error info: 0x0, ifu error info: 0x0, ccu error info: 0x0, cube error info: 0, biu error info: 0, aic error mask: 0x6500020bd00028c, para base: 0x12a1000c2a00.
"""

ALLOCATOR_LINE_ALONE = """\
[PID: 5120] 2026-05-02-09:00:01.000.321 Invalid_Argument(EH0012): aclrtAllocatorGetByStream failed. Parameter stream is invalid. Reason: The stream is not registered with any allocator.
"""


def test_the_device_exception_outranks_the_older_allocator_message() -> None:
    diagnosis = diagnose_text("serve/worker_2.log", STALE_ALLOCATOR_IN_VECTOR_BLOCK)
    assert_reads(diagnosis, "aicore_timeout", first_error="fftsplus aivector error")


def test_the_allocator_message_is_not_an_operator_parameter_rejection() -> None:
    diagnosis = diagnose_text("serve/worker_0.log", ALLOCATOR_LINE_ALONE)
    assert diagnosis.category != "operator"
