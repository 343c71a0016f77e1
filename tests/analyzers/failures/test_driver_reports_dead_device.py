"""The host's NPU kernel driver reports a device it had brought up as no longer working.

dmesg then shows the driver's own words for a card that has stopped (`device(0) is not
working.`), the failed core lookup that follows (`ret(-6)`), and the device-management
module's state for it (`udis device state is not ready. (udevid=0; state=5)`). Unlike a
device the driver has not brought up yet (`is not initialized`, the machine's set-up), the
card itself is gone: `device_fault`, with `driver_env` beside, since a driver reload or a
reset is what is tried first.

docs/labelling.md#probes-yield-to-their-reason
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DMESG_DEAD_DEVICE = """\
[  301.220104] [ascend] [devdrv] [ERROR] device(3) is not working.
[  301.220131] [ascend] [devdrv] [ERROR] devdrv_manager_get_core failed, ret(-6), dev_id(3).
[  301.220150] [ascend] [ascend_udis] [ERROR] udis_check_ucb 80] udis device state is not ready. (udevid=3; state=5)
"""

# Counterexamples: the driver's notice that a device is working again, and a device it has not
# brought up yet, which stays the machine's.
DMESG_WORKING_AGAIN = """\
[  301.220104] [ascend] [devdrv] [INFO] device(3) is working, state=1
"""

DMESG_NOT_INITIALIZED = """\
[  112.402113] [ascend] [devdrv] [ERROR] [devdrv_manager_get_devinfo 1050] <npu-smi:2210,2210> device(2) is not initialized
"""


def test_a_device_the_driver_reports_not_working_is_a_device_fault() -> None:
    diagnosis = diagnose_text("host/dmesg.txt", DMESG_DEAD_DEVICE)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="device(3) is not working.",
        rule="dev.driver_device_not_working",
        beside=("driver_env",),
    )


def test_a_device_working_again_is_no_fault() -> None:
    diagnosis = diagnose_text("host/dmesg.txt", DMESG_WORKING_AGAIN)
    assert diagnosis.category != "device_fault"


def test_a_device_not_brought_up_stays_the_machines() -> None:
    diagnosis = diagnose_text("host/dmesg.txt", DMESG_NOT_INITIALIZED)
    assert diagnosis.category == "driver_env"
