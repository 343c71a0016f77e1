"""The device's task daemon cannot load the AI CPU kernel package when a device is opened.

docs/labelling.md#probes-yield-to-their-reason: opening a device has the task daemon unpack
and check the AI CPU kernel package for the process. When the check fails (`load aicpu ops
package failed`, `checksum aicpu package failed`), the daemon's refusal to open the device
(`TsdOpen failed ... tdt error=31`) and the 507033 start failure follow from it. The package
comes from the installed toolkit, so a driver and toolkit that do not match, or the package
paths not set, is what has to change: `driver_env`, with `config` beside it, and the
daemon's reason is the first error over the refusal under it.
Lines of our own in the CANN error block's format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PACKAGE_REFUSED = (
    "----------------------------------------------------\n"
    "- Ascend Error Message:\n"
    "----------------------------------------------------\n"
    "E39999: Inner Error!\n"
    "E39999 tsd client wait response fail, device response code[1]. load aicpu ops package "
    "failed, device[2], host pid[4410], error stack:\n"
    "[TSDaemon] checksum aicpu package failed, ret=103, "
    "[tsd_common.cpp:2242:SaveProcessConfig]11020\n"
    "[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:270]\n"
    "\tTraceBack (most recent call last):\n"
    "\tTsdOpen failed. devId=2, tdt error=31[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2060]\n"
    "\trtSetDevice execute failed, reason=[device retain error][FUNC:FuncErrorReason]"
    "[FILE:error_message_manage.cc][LINE:50]\n"
    "\topen device 2 failed, runtime result = 507033.[FUNC:ReportCallError]"
    "[FILE:log_inner.cpp][LINE:161]\n"
)


def test_a_kernel_package_the_daemon_cannot_load_is_the_reason() -> None:
    diagnosis = diagnose_text("train.log", PACKAGE_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="load aicpu ops package failed",
        rule="env.aicpu_kernel_package_not_loaded",
        beside=["config"],
    )


def test_a_package_that_loaded_leaves_the_refusal_first() -> None:
    text = PACKAGE_REFUSED.replace(
        "load aicpu ops package failed", "load aicpu ops package success"
    ).replace("[TSDaemon] checksum aicpu package failed, ret=103", "[TSDaemon] checksum done")
    diagnosis = diagnose_text("train.log", text)
    assert "env.aicpu_kernel_package_not_loaded" not in rules_of(diagnosis)
    assert_reads(diagnosis, "driver_env", first_error="TsdOpen failed")
