"""A GPU job that the kernel's graphics driver timed out and reset.

docs/labelling.md#a-gpu-job-the-kernel-driver-timed-out-and-reset: Intel's xe driver (and
i915 before it) and AMD's amdgpu watch every job they hand a GPU engine. A job that does not
finish in time is reported in the kernel log (`Tile0: GT0: Timedout job: seqno=...`, `Check
job timeout: ... not started`, `Engine reset: engine_class=ccs ...`; i915's `GPU HANG: ecode
...`; amdgpu's `ring gfx_0.0.0 timeout, signaled seq=..., emitted seq=...`) before the driver
resets the engine and the runtime answers the job with a lost device. The device stopped on the
job: `device_fault`, the first such line the first error, `driver_env` beside it, and `hccl` only
when a collective shows in the bundle. The driver's firmware banner and its note that a reset
finished are no failure. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

XE_TIMEOUT = (
    "[Sat Mar  7 11:02:40 2026] xe 0000:41:00.0: [drm] Tile0: GT0: Check job timeout: seqno=88213,"
    " lrc_seqno=88213, guc_id=3, not started\n"
    "[Sat Mar  7 11:02:40 2026] xe 0000:41:00.0: [drm] Tile0: GT0: Timedout job: seqno=88213,"
    " lrc_seqno=88213, guc_id=3, flags=0x13 in python3 [5120]\n"
    "[Sat Mar  7 11:02:40 2026] xe 0000:41:00.0: [drm] Xe device coredump has been created\n"
    "[Sat Mar  7 11:02:40 2026] xe 0000:41:00.0: [drm] Tile0: GT0: reset started\n"
    "[Sat Mar  7 11:02:40 2026] xe 0000:41:00.0: [drm] Tile0: GT0: reset done\n"
)

XE_ENGINE_RESET = (
    "2026-03-07T11:02:40 xe 0000:41:00.0: [drm] Tile0: GT0: Engine reset: engine_class=ccs,"
    " logical_mask: 0x1, guc_id=4,\n"
    "state=0x29\n"
    "2026-03-07T11:02:40 xe 0000:41:00.0: [drm] Tile0: GT0: Timedout job: seqno=310,"
    " lrc_seqno=310, guc_id=4, flags=0x20 in\n"
    "python [811]\n"
)

I915_HANG = (
    "[ 1022.113201] i915 0000:00:02.0: [drm] GPU HANG: ecode 12:1:85dffffb, in python3 [2210]\n"
    "[ 1022.113260] i915 0000:00:02.0: [drm] python3[2210] context reset due to GPU hang\n"
)

AMDGPU_RING = (
    "[ 4410.802213] amdgpu 0000:c3:00.0: amdgpu: ring comp_1.0.0 timeout, signaled seq=5120,"
    " emitted seq=5122\n"
    "[ 4410.802290] amdgpu 0000:c3:00.0: amdgpu: GPU reset begin!\n"
)

WORKER_ALLREDUCE = (
    "(Worker_TP1 pid=811) WARNING 03-07 11:03:02 [xpu_communicator.py:61] all_reduce of"
    " 22020096 bytes has not returned after 60 s\n"
)

QUIET_DRIVER = (
    "[    4.085873] xe 0000:41:00.0: [drm] Tile0: GT0: Using GuC firmware from"
    " xe/bmg_guc_70.bin version 70.58.0\n"
    "[ 1022.200000] xe 0000:41:00.0: [drm] Tile0: GT0: reset done\n"
)


def test_the_xe_driver_timing_out_a_job_is_the_device_stopping_on_it() -> None:
    diagnosis = diagnose_text("dmesg.txt", XE_TIMEOUT)
    assert_reads(diagnosis, "device_fault", first_error="Check job timeout", beside=("driver_env",))


def test_an_engine_reset_the_driver_logged_is_read_as_the_same_stop() -> None:
    diagnosis = diagnose_text("kern.log", XE_ENGINE_RESET)
    assert_reads(diagnosis, "device_fault", first_error="Engine reset: engine_class=ccs")


def test_i915_and_amdgpu_word_the_same_timeout_their_own_way() -> None:
    for text, words in ((I915_HANG, "GPU HANG: ecode"), (AMDGPU_RING, "ring comp_1.0.0 timeout")):
        diagnosis = diagnose_text("dmesg.txt", text)
        assert_reads(diagnosis, "device_fault", first_error=words)


def test_a_collective_in_the_bundle_offers_the_collective_layer_beside_it() -> None:
    diagnosis = diagnose_files({"dmesg.txt": XE_TIMEOUT, "worker_tp1.log": WORKER_ALLREDUCE})
    assert diagnosis.category == "device_fault"
    assert "hccl" in {alt.category for alt in diagnosis.alternatives}


def test_the_firmware_banner_and_a_finished_reset_are_no_failure() -> None:
    diagnosis = diagnose_text("dmesg.txt", QUIET_DRIVER)
    assert diagnosis.category != "device_fault"
    assert diagnosis.first_error is None
