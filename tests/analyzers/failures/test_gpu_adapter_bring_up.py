"""A GPU the NVIDIA driver cannot bring up, and a driver that takes no board at all.

When the driver loads (at boot, after a reset, when a tool first opens the device) it
initialises each board. A board that does not come up leaves the driver's own account in the
kernel log: the adapter initialisation failed with its status triple (`RmInitAdapter failed!
(0x23:0x65:1481)`, then `rm_init_adapter failed, device minor number N`), or the GPU's firmware
processor could not be booted (`_kgspBootGspRm: unexpected WPR2 already up, cannot proceed with
booting GSP`, the driver adding that the GPU is likely in a bad state and may need a reset, then
`RmInitAdapter: Cannot initialize GSP firmware RM`). The board is unusable: `device_fault`, with
the machine (`driver_env`: a driver release, a BIOS setting such as resizable BAR) beside it.
The earliest such line is the first error, ahead of the retries and of any Xid the firmware
raises later.

A driver module that takes no board at all is the machine's set-up: another driver owns the
boards (`The NVIDIA probe routine was not called for 2 device(s).`) or none was probed (`No
NVIDIA graphics adapter probed!`): `driver_env`. A board that fell off the bus during the probe
keeps its own reading and its line stays first.

docs/labelling.md#a-gpu-the-driver-cannot-bring-up
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

ADAPTER_INIT_FAILED = """\
[Mon Mar  2 09:14:05 2026] NVRM: GPU 0000:3d:00.0: RmInitAdapter failed! (0x23:0x65:1481)
[Mon Mar  2 09:14:05 2026] NVRM: GPU 0000:3d:00.0: rm_init_adapter failed, device minor number 2
[Mon Mar  2 09:14:06 2026] NVRM: GPU 0000:3d:00.0: RmInitAdapter failed! (0x23:0x65:1481)
"""

GSP_BOOT_REFUSED = """\
[  211.402118] NVRM: GPU3 _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP
[  211.402125] NVRM: GPU3 _kgspBootGspRm: (the GPU is likely in a bad state and may need to be reset)
[  211.402160] NVRM: GPU3 RmInitAdapter: Cannot initialize GSP firmware RM
[  211.402801] NVRM: GPU 0000:4e:00.0: RmInitAdapter failed! (0x62:0x40:2170)
[  211.404512] NVRM: GPU 0000:4e:00.0: rm_init_adapter failed, device minor number 3
"""

# The firmware raises an Xid of its own later; the refused boot before it is what happened.
GSP_BOOT_REFUSED_THEN_XID = """\
[   52.110201] NVRM: _kgspBootGspRm: unexpected WPR2 already up, cannot proceed with booting GSP
[   52.110240] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM
[   55.930117] NVRM: Xid (PCI:0000:02:00): 120, GSP task exception: load access page fault (cause:0xd) @ pc:0x1a0c2f0, partition:4#0, task:3
"""

GSP_FMC_BOOT_ERROR = """\
[   19.771830] NVRM: kgspBootstrap_GH100: GSP-FMC reported an error while attempting to boot GSP: 0x2a
[   19.772004] NVRM: RmInitAdapter: Cannot initialize GSP firmware RM
"""

# The module's banner and a board that came up say nothing went wrong.
DRIVER_LOADED_FINE = """\
[    4.201734] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.124.06  Release Build
[    4.305511] nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  570.124.06
[    9.880102] NVRM: GPU 0000:3d:00.0: GSP firmware loaded, RM initialised
"""

NO_BOARD_TAKEN = """\
[ 90211.402210] NVRM: No NVIDIA graphics adapter probed!
[ 90211.402988] nvidia-nvlink: Unregistered the Nvlink Core, major device number 237
[ 90260.118735] NVRM: The NVIDIA probe routine was not called for 2 device(s).
[ 90260.119301] NVRM: This can occur when a driver such as:
NVRM: nouveau, rivafb, nvidiafb or rivatv
NVRM: was loaded and obtained ownership of the NVIDIA device(s).
"""

# A board that dropped off the bus during the probe keeps the device's reading.
PROBE_OFF_THE_BUS_THEN_NONE = """\
[  771.204518] NVRM: The NVIDIA GPU 0000:5e:00.0 (PCI ID: 10de:2330) installed in this system has fallen off the bus and is not responding to commands.
[  771.330114] NVRM: The NVIDIA probe routine failed for 1 device(s).
[  771.330190] NVRM: No NVIDIA graphics adapter probed!
"""


def test_an_adapter_the_driver_cannot_initialise_is_a_device_fault() -> None:
    diagnosis = diagnose_text("dmesg.log", ADAPTER_INIT_FAILED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="RmInitAdapter failed! (0x23:0x65:1481)",
        beside=("driver_env",),
    )


def test_a_refused_firmware_boot_is_the_first_error() -> None:
    diagnosis = diagnose_text("dmesg.log", GSP_BOOT_REFUSED)
    assert_reads(
        diagnosis, "device_fault", first_error="unexpected WPR2 already up", beside=("driver_env",)
    )


def test_the_refused_boot_comes_before_a_later_firmware_xid() -> None:
    diagnosis = diagnose_text("dmesg.log", GSP_BOOT_REFUSED_THEN_XID)
    assert_reads(diagnosis, "device_fault", first_error="unexpected WPR2 already up")


def test_a_firmware_boot_error_of_the_fmc_reads_the_same() -> None:
    diagnosis = diagnose_text("dmesg.log", GSP_FMC_BOOT_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="GSP-FMC reported an error")


def test_a_driver_that_loaded_fine_reports_nothing() -> None:
    diagnosis = diagnose_text("dmesg.log", DRIVER_LOADED_FINE)
    assert diagnosis.first_error is None
    assert diagnosis.category != "device_fault"


def test_a_driver_that_took_no_board_is_the_machine() -> None:
    diagnosis = diagnose_text("dmesg.log", NO_BOARD_TAKEN)
    assert_reads(diagnosis, "driver_env", first_error="No NVIDIA graphics adapter probed!")


def test_a_board_lost_during_the_probe_keeps_its_reading() -> None:
    diagnosis = diagnose_text("dmesg.log", PROBE_OFF_THE_BUS_THEN_NONE)
    assert_reads(diagnosis, "device_fault", first_error="fallen off the bus")
