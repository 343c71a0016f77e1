"""A task failure the runtime blames on a remote peer (507057).

docs/labelling.md#a-device-error-the-runtime-blames-on-a-remote-peer: `SUSPECT REMOTE ERROR`
is read like a wait. Alone it is the collective's failure (`hccl`), below the confident band,
with the device and a kernel that reached a bad address as the neighbours; the device's own
record of what failed in the same block, or a peer's own failure, is the first error.

Fixtures follow torch_npu's wrapper line, the error manager's block and vLLM's worker prefix,
with pids, streams and dates of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

WORKER = "(Worker_TP3 pid=7120) ERROR 05-06 10:20:31 [multiproc_executor.py:703] "

REMOTE_ALONE = (
    WORKER
    + "    hidden_states = self.model(input_ids, positions)\n"
    + WORKER
    + "RuntimeError: synchronize:torch_npu/csrc/core/npu/NPUStream.cpp:221 NPU function error: "
    "SUSPECT REMOTE ERROR, error code is 507057\n"
    + WORKER
    + "[ERROR] 2026-05-06-10:20:31 (PID:7120, Device:3, RankID:3) ERR00100 PTA call acl api "
    "failed\n"
)

# The same block carries the device's record of the core that failed and why.
REMOTE_WITH_CORE_RECORD = """\
RuntimeError: ACL stream synchronize failed, error code:507057
EZ9999: Inner Error!
EZ9999: [PID: 7120] 2026-05-06-10:20:31.118.402 The error from device(chipId:3, dieId:0), serial number is 4, there is an exception of aivec error, core id is 17, error code = 0x800000, dump info: pc start: 0x12c0aa010000, current: 0x12c0aa0104f0.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1183]
        The extend info: errcode:(0x800000, 0x4000, 0) errorStr: The DDR address of the MTE instruction is out of range. fixp_error0 info: 0x4, subErrType:4.
        TraceBack (most recent call last):
        rtStreamSynchronize execute failed, reason=[suspect remote error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
"""

# Rank 0 ran out of device memory; rank 1 then saw its collective fail on the remote side.
RANK0_OWN_FAILURE = """\
[2026-05-06 10:20:29] rank 0 step 41
RuntimeError: NPU out of memory. Tried to allocate 3.50 GiB (NPU 0; 60.97 GiB total capacity; 58.20 GiB already allocated)
"""
RANK1_REMOTE = """\
[2026-05-06 10:20:29] rank 1 step 41
[2026-05-06 10:20:31] RuntimeError: synchronize:torch_npu/csrc/core/npu/NPUEvent.cpp:215 NPU function error: SUSPECT REMOTE ERROR, error code is 507057
"""

# A link error is a different code and a different reading.
LINK_ERROR = """\
RuntimeError: ACL stream synchronize failed, error code:507056
"""


def test_a_suspect_remote_error_alone_is_the_collectives_failure() -> None:
    diagnosis = diagnose_text("serve/worker_3.log", REMOTE_ALONE)
    assert_reads(diagnosis, "hccl", first_error="SUSPECT REMOTE ERROR")
    alternatives = {alt.category for alt in diagnosis.alternatives}
    assert {"device_fault", "aicore_timeout"} <= alternatives
    assert diagnosis.confidence < 0.8


def test_the_devices_record_in_the_same_block_is_the_first_error() -> None:
    diagnosis = diagnose_text("serve/worker_3.log", REMOTE_WITH_CORE_RECORD)
    assert diagnosis.category == "aicore_timeout", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "507057" not in diagnosis.first_error.text
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}


def test_a_peers_own_failure_explains_the_remote_error() -> None:
    diagnosis = diagnose_files({"rank_0.log": RANK0_OWN_FAILURE, "rank_1.log": RANK1_REMOTE})
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_a_link_error_is_not_read_as_a_remote_error() -> None:
    """Counterexample: 507056 is its own code, not this rule's words."""
    diagnosis = diagnose_text("serve/worker_3.log", LINK_ERROR)
    assert "remote peer" not in diagnosis.root_cause
