"""A GPU the driver no longer reaches is a device fault, whatever the job printed.

When a board drops off mid-run, `nvidia-smi` cannot get a handle for it (`GPU is lost`, or
`Unknown Error`) and the kernel log carries the driver's Xid event. Those lines are the
device's own report: the first error, label `device_fault`. Corrected PCIe errors the kernel
logs on the same port are recovered warnings, never the first error, and a `PCIe Bus Error`
is not a process's SIGBUS. Counterexample: a user without permission to query the board.
`hang` is offered beside it only when the bundle shows the job stalled (a rank that stopped
with no error, a watchdog's timeout), never for the kernel log alone.

docs/labelling.md#a-gpu-the-driver-no-longer-reaches
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

SMI_GPU_LOST = """\
$ nvidia-smi
Unable to determine the device handle for GPU 0000:3B:00.0: GPU is lost.  Reboot the system to recover this GPU
"""

SMI_UNKNOWN_AFTER_CORRECTED_AER = """\
[  +0.000211] pcieport 0000:80:02.0: AER: Corrected error received: 0000:80:02.0
[  +0.000007] pcieport 0000:80:02.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)
[  +0.000004] pcieport 0000:80:02.0:   device [8086:2032] error status/mask=00001000/00002000
[  +0.000003] pcieport 0000:80:02.0:    [12] Timeout
$ nvidia-smi
Unable to determine the device handle for GPU0000:81:00.0: Unknown Error
"""

CORRECTED_AER_ONLY = SMI_UNKNOWN_AFTER_CORRECTED_AER.split("$ nvidia-smi")[0]

KERNEL_XID = """\
Mar  3 02:14:09 gpu-node7 kernel: [ 9120.553101] NVRM: Xid (PCI:0000:b1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
Mar  3 02:14:09 gpu-node7 kernel: [ 9120.553140] NVRM: GPU 0000:b1:00.0: GPU has fallen off the bus.
"""

# The driver's probe at start wraps its sentence over three `NVRM:` lines; the one that says
# what happened has no `has` on it. The module's load banner and the probe's count follow.
PROBE_WRAPPED_OFF_THE_BUS = """\
[  771.204518] NVRM: The NVIDIA GPU 0000:5e:00.0
               NVRM: (PCI ID: 10de:2330) installed in this system has
               NVRM: fallen off the bus and is not responding to commands.
[  771.330114] NVRM: The NVIDIA probe routine failed for 1 device(s).
[  771.330120] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build
"""

# A health agent's note that it watches for those words is no report of a lost board.
AGENT_WATCHES_FOR_THE_WORDS = """\
gpu-health: watching syslog for "fallen off the bus" messages
"""

SMI_NO_PERMISSION = """\
Unable to determine the device handle for GPU 0000:3B:00.0: Insufficient Permissions
"""


def test_a_lost_gpu_in_nvidia_smi_is_a_device_fault() -> None:
    diagnosis = diagnose_text("nvidia_smi.txt", SMI_GPU_LOST)
    assert_reads(diagnosis, "device_fault", first_error="GPU is lost")


def test_the_smi_line_outranks_corrected_pcie_errors() -> None:
    diagnosis = diagnose_text("node/dmesg_and_smi.txt", SMI_UNKNOWN_AFTER_CORRECTED_AER)
    assert_reads(diagnosis, "device_fault", first_error="Unable to determine the device handle")


def test_corrected_pcie_errors_alone_are_no_crash() -> None:
    assert diagnose_text("dmesg.txt", CORRECTED_AER_ONLY).first_error is None


def test_a_driver_xid_in_the_kernel_log_is_a_device_fault() -> None:
    diagnosis = diagnose_text("kern.log", KERNEL_XID)
    assert_reads(diagnosis, "device_fault", first_error="Xid (PCI:0000:b1:00): 79")


def test_no_permission_to_query_is_no_lost_gpu() -> None:
    diagnosis = diagnose_text("nvidia_smi.txt", SMI_NO_PERMISSION)
    assert diagnosis.category != "device_fault"


def test_a_probe_report_wrapped_over_lines_is_a_lost_gpu() -> None:
    diagnosis = diagnose_text("dmesg.txt", PROBE_WRAPPED_OFF_THE_BUS)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="fallen off the bus and is not responding",
        beside=("driver_env",),
    )


def test_an_agent_watching_for_the_words_is_no_lost_gpu() -> None:
    diagnosis = diagnose_text("agent.log", AGENT_WATCHES_FOR_THE_WORDS)
    assert diagnosis.category != "device_fault"


# A rank that stopped printing progress with no error of its own: the job stalled
STALLED_RANK = """\
[2026-03-03 02:10:00] step 1 passed
[2026-03-03 02:12:00] step 2 passed
"""

WATCHDOG_TIMEOUT = """\
[rank1]:[E303 02:44:09.604118233 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=630, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800011 milliseconds before timing out.
"""


def test_a_lost_gpu_alone_offers_the_machine_not_a_hang() -> None:
    diagnosis = diagnose_text("kern.log", KERNEL_XID)
    assert alternative_labels(diagnosis) == ["driver_env"]


def test_a_board_lost_at_probe_time_offers_no_hang() -> None:
    assert "hang" not in alternative_labels(diagnose_text("dmesg.txt", PROBE_WRAPPED_OFF_THE_BUS))


def test_a_lost_gpu_under_a_rank_that_stalled_offers_a_hang() -> None:
    diagnosis = diagnose_files(
        {"kern.log": KERNEL_XID, "rank0.log": STALLED_RANK, "rank1.log": STALLED_RANK}
    )
    assert diagnosis.category == "device_fault"
    assert "hang" in alternative_labels(diagnosis)


def test_a_lost_gpu_beside_a_watchdog_timeout_offers_a_hang() -> None:
    diagnosis = diagnose_files({"kern.log": KERNEL_XID, "rank1.log": WATCHDOG_TIMEOUT})
    assert diagnosis.category == "device_fault"
    assert "hang" in alternative_labels(diagnosis)


def test_a_lost_handle_in_nvidia_smi_under_a_stalled_rank_offers_a_hang() -> None:
    diagnosis = diagnose_files({"nvidia_smi.txt": SMI_GPU_LOST, "rank0.log": STALLED_RANK})
    assert "hang" in alternative_labels(diagnosis)
    assert "hang" not in alternative_labels(diagnose_text("nvidia_smi.txt", SMI_GPU_LOST))


# Any client of NVML can get the library's lost-GPU answer (its return code 15) and print it in
# its own words: Slurm's step daemon accounting a job's GPU usage, a monitoring agent. The
# library's error string after the client's own text is the same report as nvidia-smi's.
SLURM_NVML_LOST = """\
[2026-03-02T10:14:05.221] [4410.0] error: NVML: Failed to get usage(15): GPU is lost
"""

NVML_NOTE_ONLY = """\
# NVML_ERROR_GPU_IS_LOST = 15 means the GPU is lost; see the NVML reference
"""


def test_an_nvml_client_told_the_gpu_is_lost_reads_as_a_lost_gpu() -> None:
    diagnosis = diagnose_text("slurmd.log", SLURM_NVML_LOST)
    assert_reads(diagnosis, "device_fault", first_error="Failed to get usage(15): GPU is lost")
    assert diagnosis.confidence >= 0.5
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_note_that_names_the_nvml_code_is_no_lost_gpu() -> None:
    diagnosis = diagnose_text("notes.txt", NVML_NOTE_ONLY)
    assert "dev.gpu_unreachable" not in rules_of(diagnosis)
    assert diagnosis.confidence < 0.5
