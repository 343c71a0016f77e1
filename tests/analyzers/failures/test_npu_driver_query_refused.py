"""An NPU process whose first questions to the driver are refused.

docs/labelling.md#probes-yield-to-their-reason: the driver's error number on a query a CANN
component makes at start-up (`get platform info failed, drvErr=87`) and torch_npu's warning that it could not count the devices through the driver
library (`Can't get ascend_hal device count`) both say the process cannot use the NPUs it was
given: a container without the device nodes or the driver's user-space files, a card held
elsewhere. `driver_env`. They say that the driver refused, not why, so a line that says why
(the device-management library's own failure, DCMI's refusal) stays the first error. Lines of
our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "env.driver_query_refused"

# The log daemon's client that cannot open its channel to the device.
HDC_CLIENT_REFUSED = """\
[ERROR] SLOG(3310,python):2026-02-11-08:12:40.118.204 [drv_client.c:41]3310 create HDC client failed, drvErr=4, strerr=No such device.
"""

# A plog line of the trace component asking for the platform at start-up.
PLOG_PLATFORM_QUERY = """\
[INFO] PROFILING(912,python):2026-02-11-08:10:04.200.100 [prof_atls_plugin.cpp:117] (tid:912) RegisterProfileCallback, callback type is 8
[ERROR] ATRACE(912,python):2026-02-11-08:10:04.231.550 [trace_driver_api.c:56](tid:912) get platform info failed, drvErr=87.
[ERROR] ASCENDCL(912,python):2026-02-11-08:10:04.240.010 [acl.cpp:210]912 aclInit: [Init][Acl]init acl failed, ret = 500000
"""

# torch_npu's warning alone, as a container's paste keeps it.
WARNING_ALONE = """\
/usr/local/lib/python3.11/site-packages/torch_npu/npu/utils.py:63: UserWarning: Can't get ascend_hal device count
  warnings.warn("Can't get ascend_hal device count")
"""

# DCMI's refusal says why and stays first over the driver's number and the warning.
DCMI_FIRST = """\
dcmi model initialized failed, because the device is used. ret is -8020
get platform info failed, drvErr=87.
UserWarning: Can't get ascend_hal device count
"""

ZERO = """\
[INFO] ATRACE(912,python):2026-02-11-08:10:04.231.550 [trace_driver_api.c:60](tid:912) get platform info succeeded, drvErr=0.
"""


def test_a_driver_channel_refused_reads_the_same() -> None:
    diagnosis = diagnose_text("plog-3310_20260211081240.log", HDC_CLIENT_REFUSED)
    assert_reads(
        diagnosis, "driver_env", first_error="create HDC client failed, drvErr=4", rule=RULE
    )


def test_the_platform_query_refused_in_a_plog_reads_the_same() -> None:
    diagnosis = diagnose_text("plog-912_20260211081004.log", PLOG_PLATFORM_QUERY)
    assert_reads(
        diagnosis, "driver_env", first_error="get platform info failed, drvErr=87", rule=RULE
    )


def test_torch_npus_device_count_warning_is_the_probe() -> None:
    diagnosis = diagnose_text("train.log", WARNING_ALONE)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Can't get ascend_hal device count",
        rule="env.device_count_probe_failed",
    )


def test_dcmis_refusal_says_why_and_stays_first() -> None:
    diagnosis = diagnose_text("container_probe.log", DCMI_FIRST)
    assert_reads(diagnosis, "driver_env", first_error="dcmi model initialized failed", rule=RULE)


def test_a_zero_number_is_no_refusal() -> None:
    assert RULE not in rules_of(diagnose_text("plog-912_20260211081004.log", ZERO))
