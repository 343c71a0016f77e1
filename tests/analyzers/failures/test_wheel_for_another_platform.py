"""A wheel that pip refuses for this interpreter or platform.

docs/labelling.md#a-compiled-module-built-for-another-python: pip compares a wheel's tags (the
Python and ABI it was built for, the platform) with the running interpreter before it installs
anything, and refuses a wheel that fits none of them: `ERROR: <name>.whl is not a supported
wheel on this platform.` A package built with another Python than the one that installs it (a
torch_npu built from source under one interpreter and installed under another) is the package
set the job chose: `config`, with `driver_env` beside it, and pip's line is the first error.

The fixtures use our own wheel names.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text


@pytest.mark.parametrize(
    "line",
    [
        "ERROR: npu_ext-1.4.0-cp311-cp311-linux_x86_64.whl is not a supported wheel on this platform.",
        "ERROR: dist/npu_ext-1.4.0-cp38-cp38-linux_aarch64.whl is not a supported wheel on this platform",
    ],
)
def test_a_wheel_for_another_interpreter_is_the_package_set(line: str) -> None:
    diagnosis = diagnose_text("install.log", "Processing ./dist/npu_ext.whl\n" + line + "\n")
    assert_reads(
        diagnosis,
        "config",
        first_error="is not a supported wheel on this platform",
        rule="cfg.wheel_not_supported_here",
        beside=["driver_env"],
    )


def test_a_note_about_supported_wheels_refuses_nothing() -> None:
    text = "INFO the wheels on this page list each platform they are a supported wheel on\n"
    diagnosis = diagnose_text("install.log", text)
    assert "cfg.wheel_not_supported_here" not in {e.rule for e in diagnosis.evidence}
