"""HCCL collectives that run as vector-core kernels and stop on the device.

docs/labelling.md#an-operator-name-decides-nothing: a device fault whose kernel is one of
HCCL's own AIV collective kernels is still a device-side core exception (`aicore_timeout`, the
corpus rule), with the collective layer offered beside it and below the confident band; a
fault in any other vector kernel offers no collective. HCCL's note that several groups run AIV
collectives at once is its account of such a stall, the first error and `hccl`.

Fixtures follow the plog line format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

PLOG = "plog/plog-4120_20260302101100000.log"


def kernel_fault(kernel: str, at: str = "10:11:12.001.002") -> str:
    return (
        f"[ERROR] RUNTIME(4120,):2026-03-02-{at} [davinci_kernel_task.cc:1639]4170 "
        "PrintErrorInfoForDavinciTask:[DFX_INFO]Aicore kernel execute failed, device_id=3, "
        "stream_id=9, report_stream_id=9, task_id=412, flip_num=0, "
        f"fault kernel_name={kernel}, fault kernel info ext=none, program id=21, "
        "hash=5550001112223334445.\n"
    )


def test_a_fault_in_an_hccl_aiv_kernel_offers_the_collective_layer() -> None:
    diagnosis = diagnose_text(PLOG, kernel_fault("aiv_reduce_scatter_float16_t"))
    assert_reads(
        diagnosis,
        "aicore_timeout",
        first_error="kernel_name=aiv_reduce_scatter_float16_t",
        beside=("hccl",),
    )
    assert diagnosis.confidence < 0.8


def test_the_slot_dump_of_a_timed_out_aiv_collective_is_read_too() -> None:
    line = (
        "[ERROR] RUNTIME(4120,):2026-03-02-10:11:12.000.500 [device_error_proc.cc:1992]4171 "
        "ProcessStarsTimeoutDfxSlotInfo:aicore task timeout dfx, show slot info, slot_id=2, "
        "device_id=3, stream_id=9, task_id=412, sche_mode=1, blockd_dim=24, "
        "kernel_name=aiv_all_reduce_bfloat16_t, kernel_info_ext=none, pc_start=0x12c0aa000100.\n"
    )
    diagnosis = diagnose_text(PLOG, line)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="aicore task timeout dfx", beside=("hccl",)
    )


def test_a_fault_in_a_model_vector_kernel_offers_no_collective() -> None:
    diagnosis = diagnose_text(PLOG, kernel_fault("aiv_rms_norm_quant_half"))
    assert diagnosis.category == "aicore_timeout"
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_hccl_note_on_groups_sharing_aiv_collectives_is_the_first_error() -> None:
    note = (
        "[ERROR] HCCL(4120,):2026-03-02-10:11:12.000.100 [task_exception_handler.cc:702] "
        "[4180][TaskExceptionHandler][PrintCommAivInfo] multi groups include aiv alg, may "
        "cause execution stuck.  has aiv group count[3]\n"
    )
    diagnosis = diagnose_files(
        {PLOG: note + kernel_fault("aiv_all_gather_bfloat16_t", "10:11:12.004.000")}
    )
    assert_reads(diagnosis, "hccl", first_error="multi groups include aiv alg")
    assert {"hang", "config"} & {alt.category for alt in diagnosis.alternatives}


def test_the_newer_kernel_report_wording_still_offers_the_collective_layer() -> None:
    line = kernel_fault("aiv_all_gather_bfloat16_t").replace(
        "Aicore kernel execute failed", "AI Core kernel execution failed"
    )
    diagnosis = diagnose_text(PLOG, line)
    assert_reads(
        diagnosis, "aicore_timeout", first_error="AI Core kernel execution failed", beside=("hccl",)
    )
