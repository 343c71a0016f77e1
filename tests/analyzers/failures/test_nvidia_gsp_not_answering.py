"""A GPU whose own firmware processor stopped answering the NVIDIA driver.

Recent NVIDIA drivers run most of the GPU's resource manager on the board's firmware processor
(GSP) and expect a heartbeat from it. When the firmware stops, the driver says so in the kernel
log in its own words, with no error word: the heartbeat it polls for ran out (`_kgspRpcRecvPoll:
GSP RM heartbeat timed out`, with the numbers in `_kgspIsHeartbeatTimedOut: Heartbeat timed
out, ...`, and the firmware's OS the same `LibOS heartbeat timed out`), the firmware signalled
that its power-management unit halted (`Received signal from GSP that PMU has halted`), the
robust-channel watchdog found the GPU locked (`RC watchdog: GPU is probably locked!`), or the
driver could not halt the firmware's core (`Timeout waiting for RISC-V to halt`). Only after it
does the driver raise an Xid asking for a reset (154). The board stopped under the job:
`device_fault`, with the driver (`driver_env`) beside it, the first such line the first error,
ahead of the Xid that follows. An Xid printed before it (a firmware halt, Xid 62) keeps its
place as the first error.

docs/labelling.md#a-gpu-job-the-kernel-driver-timed-out-and-reset
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HEARTBEAT_LOST_THEN_RESET = """\
[ 3612.401220] NVRM: _kgspRpcRecvPoll: GSP RM heartbeat timed out
[ 3612.401231] NVRM: _kgspIsHeartbeatTimedOut: Heartbeat timed out, currentTimeMs 3612401 heartbeat 3540117 heartbeatWithOffsetMs 3540117 diff 72284 timeout 5200
[ 3612.401240] NVRM: _kgspRpcRecvPoll: LibOS heartbeat timed out
[ 3612.402010] NVRM: Xid (PCI:0000:41:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)
"""

# The watchdog's and the firmware core's words for the same stop, ahead of the Xids they cause.
GPU_LOCKED_THEN_XIDS = """\
Apr 02 21:10:05 node7 kernel: NVRM: krcWatchdog_IMPL: RC watchdog: GPU is probably locked!  Notify Timeout Seconds: 7
Apr 02 21:10:05 node7 kernel: NVRM: Xid (PCI:0000:3b:00): 109, pid=4410, name=python3, Ch 00000008
Apr 02 21:10:09 node7 kernel: NVRM: kflcnWaitForHaltRiscv_GA102: Timeout waiting for RISC-V to halt
"""

# A firmware halt the driver numbered first keeps its line; the PMU note follows from it.
XID_FIRST_THEN_PMU_HALTED = """\
NVRM: Xid (PCI:0000:81:00): 62, 1a2b3c4d 00002100 00000000 20662342 20662ba6 20664272 2065f7ca 2063f48c
NVRM: GPU1 _kgspRpcGspEventPmuHalted: Received signal from GSP that PMU has halted.
NVRM: Xid (PCI:0000:81:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)
"""

# The driver's notes that the firmware loaded and its heartbeat settings say nothing failed.
FIRMWARE_FINE = """\
[    9.880102] NVRM: GPU 0000:41:00.0: GSP firmware loaded, RM initialised
[    9.880311] NVRM: kgspInitRm: GSP heartbeat interval 5200 ms
"""


def test_a_lost_firmware_heartbeat_is_the_boards_fault_ahead_of_the_reset_xid() -> None:
    diagnosis = diagnose_text("dmesg.log", HEARTBEAT_LOST_THEN_RESET)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="GSP RM heartbeat timed out",
        rule="dev.nvidia_gsp_not_answering",
        beside=["driver_env"],
    )


def test_a_locked_gpu_reported_by_the_watchdog_comes_before_its_xids() -> None:
    diagnosis = diagnose_text("kern.log", GPU_LOCKED_THEN_XIDS)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="RC watchdog: GPU is probably locked!",
        rule="dev.nvidia_gsp_not_answering",
    )


def test_an_xid_printed_first_keeps_its_place_before_the_pmu_halt() -> None:
    diagnosis = diagnose_text("dmesg.log", XID_FIRST_THEN_PMU_HALTED)
    assert_reads(diagnosis, "device_fault", first_error="Xid (PCI:0000:81:00): 62")


def test_the_firmware_loading_and_its_heartbeat_setting_report_nothing() -> None:
    diagnosis = diagnose_text("dmesg.log", FIRMWARE_FINE)
    assert "dev.nvidia_gsp_not_answering" not in rules_of(diagnosis)
    assert diagnosis.category != "device_fault"
