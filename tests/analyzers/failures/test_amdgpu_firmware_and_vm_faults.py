"""The amdgpu kernel driver's own reports of a GPU that stopped answering or faulted.

docs/labelling.md#a-gpu-job-the-kernel-driver-timed-out-and-reset: besides timing out a ring,
amdgpu says so when one of the GPU's own firmware engines stops answering the driver: the
micro-engine scheduler that maps the job's queues (`*ERROR* MES failed to response msg=5`,
newer kernels `MES failed to respond to msg=REMOVE_QUEUE`), after which the driver cannot take
the queues off the GPU (`failed to unmap legacy queue`, `failed to remove hardware queue`), or
the power-management controller (`Failed to send message 0x1c, response 0x0`). The GPU stopped
under the job: `device_fault`, the first such line the first error, `driver_env` beside it
(a kernel, firmware or ROCm release is the usual fix). The driver's message that the firmware
loaded, or a module option naming the engine, reports nothing.

docs/labelling.md#a-gpu-fault-the-rocm-runtime-reports: the driver writes a GPU page fault to
the kernel log as a block headed by the memory hub that caught it (`amdgpu: [mmhub0] no-retry
page fault (src_id:0 ring:25 vmid:6 pasid:32768, for process python3 pid ...)`, `[gfxhub0]
retry page fault`, older kernels `[gfxhub] page fault (src_id:...)`), then the address, the
protection fault status and the faulting client. It is the kernel's record of the illegal
access the runtime reports as a memory access fault: `device_fault`, `operator` beside it, the
headline the first error (the status lines under it are its detail). A line that only notes
suppressed callbacks, or the module option that turns retry faults off, is no fault.
Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MES_NOT_ANSWERING = """\
[ 9112.401220] [drm:mes_v11_0_submit_pkt_and_poll_completion.constprop.0 [amdgpu]] *ERROR* MES failed to response msg=5
[ 9112.401388] [drm:amdgpu_mes_unmap_legacy_queue [amdgpu]] *ERROR* failed to unmap legacy queue
[ 9112.455102] [drm:mes_v11_0_submit_pkt_and_poll_completion.constprop.0 [amdgpu]] *ERROR* MES failed to response msg=5
[ 9112.455260] [drm:amdgpu_mes_unmap_legacy_queue [amdgpu]] *ERROR* failed to unmap legacy queue
"""

MES_NEWER_WORDING = """\
[ 2210.118034] amdgpu 0000:c3:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE
[ 2210.118101] amdgpu 0000:c3:00.0: amdgpu: failed to remove hardware queue from MES, doorbell=0x1002
"""

SMU_NOT_ANSWERING = """\
[ 5120.772301] amdgpu 0000:41:00.0: amdgpu: Failed to send message 0x1c, response 0x0
[ 5120.772355] amdgpu: [powerplay] Failed to set soft min gfxclk !
"""

FIRMWARE_QUIET = """\
[    5.301122] [drm] MES firmware version 0x0000004a loaded
[    5.301180] amdgpu 0000:c3:00.0: amdgpu: SMU is initialized successfully!
[    5.311002] amdgpu: module option amdgpu.mes=1 selects the MES scheduler
"""

VM_PAGE_FAULT = """\
[ 7702.112001] gmc_v9_0_process_interrupt: 3 callbacks suppressed
[ 7702.112019] amdgpu 0000:c1:00.0: amdgpu: [mmhub0] no-retry page fault (src_id:0 ring:25 vmid:6 pasid:32771, for process python3 pid 5120 thread python3 pid 5120)
[ 7702.112040] amdgpu 0000:c1:00.0: amdgpu:   in page starting at address 0x00007f2a10200000 from IH client 0x1b (UTCL2)
[ 7702.112061] amdgpu 0000:c1:00.0: amdgpu: VM_L2_PROTECTION_FAULT_STATUS:0x00301031
[ 7702.112080] amdgpu 0000:c1:00.0: amdgpu:     Faulty UTCL2 client ID: TCP (0x8)
"""

VM_PAGE_FAULT_OLDER = """\
[ 3301.550120] amdgpu 0000:0b:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:153 vmid:8 pasid:32790, for process python3 pid 711 thread python3 pid 711)
[ 3301.550141] amdgpu 0000:0b:00.0: amdgpu:   in page starting at address 0x0000000000002000 from client 10
[ 3301.550152] amdgpu 0000:0b:00.0: amdgpu: GCVM_L2_PROTECTION_FAULT_STATUS:0x00041B52
"""

VM_FAULT_QUIET = """\
[ 7702.112001] gmc_v9_0_process_interrupt: 3 callbacks suppressed
[    4.210233] amdgpu: module parameter noretry=1 disables retry page faults
"""


def test_a_scheduler_firmware_that_stops_answering_is_the_gpu_stopping() -> None:
    diagnosis = diagnose_text("dmesg.txt", MES_NOT_ANSWERING)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="MES failed to response msg=5",
        beside=("driver_env",),
    )


def test_the_newer_spelling_of_the_scheduler_failure_reads_the_same() -> None:
    diagnosis = diagnose_text("dmesg.txt", MES_NEWER_WORDING)
    assert_reads(diagnosis, "device_fault", first_error="MES failed to respond to msg=REMOVE_QUEUE")


def test_a_power_controller_that_does_not_answer_a_message_reads_the_same() -> None:
    diagnosis = diagnose_text("dmesg.txt", SMU_NOT_ANSWERING)
    assert_reads(diagnosis, "device_fault", first_error="Failed to send message 0x1c, response 0x0")


def test_firmware_that_loaded_reports_nothing() -> None:
    diagnosis = diagnose_text("dmesg.txt", FIRMWARE_QUIET)
    assert diagnosis.category != "device_fault"
    assert diagnosis.first_error is None


def test_a_gpu_page_fault_the_driver_logged_is_a_device_fault() -> None:
    diagnosis = diagnose_text("dmesg.txt", VM_PAGE_FAULT)
    assert_reads(
        diagnosis, "device_fault", first_error="[mmhub0] no-retry page fault", beside=("operator",)
    )
    assert diagnosis.confidence >= 0.5


def test_the_older_page_fault_headline_reads_the_same() -> None:
    diagnosis = diagnose_text("dmesg.txt", VM_PAGE_FAULT_OLDER)
    assert_reads(diagnosis, "device_fault", first_error="[gfxhub] page fault (src_id:0")


def test_suppressed_callbacks_and_a_module_option_are_no_fault() -> None:
    diagnosis = diagnose_text("dmesg.txt", VM_FAULT_QUIET)
    assert diagnosis.category != "device_fault"
    assert diagnosis.first_error is None


# docs/labelling.md#a-gpu-the-driver-cannot-bring-up: amdgpu reads each board's table of IP
# blocks while it probes the board; a table it cannot verify stops the probe, and the board is
# never handed to ROCm. Values are our own.
DISCOVERY_TABLE_REFUSED = """\
[   41.118230] [drm] amdgpu kernel modesetting enabled.
[   44.902117] amdgpu 0000:1b:00.0: amdgpu: get invalid ip discovery binary signature
[   49.650338] [drm:amdgpu_discovery_set_ip_blocks [amdgpu]] *ERROR* amdgpu_discovery_init failed
[   49.650702] amdgpu 0000:1b:00.0: amdgpu: Fatal error during GPU init
[   49.651004] amdgpu: probe of 0000:1b:00.0 failed with error -22
"""

CHECKSUM_REFUSED = """\
[   12.772410] amdgpu 0000:02:00.0: amdgpu: invalid ip discovery binary checksum
[   12.772655] amdgpu 0000:02:00.0: amdgpu: Fatal error during GPU init
"""

BOARD_CAME_UP = """\
[   41.210045] [drm] initializing kernel modesetting (IP DISCOVERY 0x1002:0x74A1 0x1002:0x74A5 0x00).
[   41.290112] amdgpu 0000:1b:00.0: amdgpu: Fetched VBIOS from VFCT
[   45.002871] [drm] Initialized amdgpu 3.57.0 20150101 for 0000:1b:00.0 on minor 1
"""

# The management tool's own account of a host where it finds no amdgpu driver to ask.
SMI_FINDS_NO_DRIVER = """\
$ amd-smi list
ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)
ERROR:root:Unable to detect any GPU devices, check amdgpu version and module status (sudo modprobe amdgpu)
"""

OLDER_SMI_FINDS_NO_DRIVER = """\
ERROR:root:Driver not initialized (amdgpu not found in modules)
"""

SMI_LISTS_BOARDS = """\
GPU: 0
    BDF: 0000:1b:00.0
    UUID: 51ff74a1-0000-1000-8011-aa21c3d70b21
# if amd-smi prints "driver not initialized", load the module first
"""


def test_a_board_whose_ip_table_the_driver_refuses_cannot_be_brought_up() -> None:
    diagnosis = diagnose_text("dmesg.txt", DISCOVERY_TABLE_REFUSED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="get invalid ip discovery binary signature",
        rule="dev.amdgpu_init_failed",
        beside=("driver_env",),
    )


def test_a_refused_checksum_reads_the_same() -> None:
    diagnosis = diagnose_text("dmesg.txt", CHECKSUM_REFUSED)
    assert_reads(diagnosis, "device_fault", first_error="invalid ip discovery binary checksum")


def test_a_board_the_driver_initialised_reports_nothing() -> None:
    diagnosis = diagnose_text("dmesg.txt", BOARD_CAME_UP)
    assert diagnosis.first_error is None


def test_a_management_tool_that_finds_no_amdgpu_driver_is_the_host_set_up() -> None:
    diagnosis = diagnose_text("amd-smi.txt", SMI_FINDS_NO_DRIVER)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="driver not initialized (amdgpu not found in modules)",
        rule="env.amd_smi_no_driver",
    )


def test_the_older_tools_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("rocm-smi.txt", OLDER_SMI_FINDS_NO_DRIVER)
    assert_reads(diagnosis, "driver_env", first_error="Driver not initialized (amdgpu not found")


def test_a_tool_that_lists_its_boards_reports_nothing() -> None:
    diagnosis = diagnose_text("amd-smi.txt", SMI_LISTS_BOARDS)
    assert diagnosis.first_error is None
