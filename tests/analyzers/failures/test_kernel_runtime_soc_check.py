"""Ascend C's kernel runtime finding no entry for the chip it runs on.

docs/labelling.md#operator-installation-or-platform-limit: before it launches a kernel of the
installed operator packages, the Ascend C runtime looks the current SoC up in what the
packages were built for (`AscendCheckSoCVersion:cur soc version <chip> not found.`). A chip
the installed release was not built for is a platform limit, `config`, with `driver_env` (the
toolkit installed for the machine) beside it, and the line is the first error. Values are our
own, in the plog's real shape.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CHIP_NOT_IN_PACKAGES = """\
[INFO] TBE(7702,python3):2026-06-11-09:12:40.118.204 [ascendc_runtime.cpp:180] 7702 start to load kernel binary
[ERROR] TBE(7702,python3):2026-06-11-09:12:40.120.918 [ascendc_runtime.cpp:228]  7702 AscendCheckSoCVersion:cur soc version ascend910_9392 not found.
[ERROR] OP(7702,python3):2026-06-11-09:12:40.121.031 [engine.cc:755]7790 Execute op failed. op type = GroupedMatmul
"""

# Counterexample: the runtime's INFO record of the chip it found says nothing failed.
CHIP_FOUND = """\
[INFO] TBE(7702,python3):2026-06-11-09:12:40.120.918 [ascendc_runtime.cpp:221] 7702 AscendCheckSoCVersion:cur soc version ascend910b2, found in kernel meta.
"""


def test_a_chip_the_packages_were_not_built_for_is_the_platform() -> None:
    diagnosis = diagnose_text("plog/plog-7702_20260611091240.log", CHIP_NOT_IN_PACKAGES)
    assert_reads(
        diagnosis,
        "config",
        first_error="cur soc version ascend910_9392 not found",
        rule="cfg.kernel_runtime_soc_not_found",
        beside=("driver_env",),
    )


def test_a_chip_found_is_no_error() -> None:
    diagnosis = diagnose_text("plog/plog-7702_20260611091240.log", CHIP_FOUND)
    assert "cfg.kernel_runtime_soc_not_found" not in rules_of(diagnosis)
