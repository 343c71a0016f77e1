"""The newer runtime API's own report of a failed call: `rtsXxx:ErrCode=N, desc=[reason]`.

docs/labelling.md#code-only-synchronize-failures: CANN's newer runtime entry points are named
`rts...` (a kernel launch with host arguments, a stream synchronize), and the plog line they
write when a call fails gives the runtime code after `ErrCode=` and the reason in `desc=[...]`,
where older releases wrote `reason=[...]` on the error-manager line that follows. The reason is
read the same in either spelling, and the call's own report comes first in the plog, so it is
the first error; the `FuncErrorReason` line below it restates it. Counterexamples: a report with
`ErrCode=0` is no error, and a `desc=` that names no reason word is read from its code alone.

Fixtures follow the plog line format; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PLOG = "plog/plog-70311_20260402093000000.log"


def _plog(reason_line: str, desc: str, code: str) -> str:
    return (
        "[ERROR] RUNTIME(70311,):2026-04-02-09:30:12.410.101 [api_error.cc:687]70390 "
        "LaunchKernelV2:LaunchKernel failed.\n"
        "[ERROR] RUNTIME(70311,):2026-04-02-09:30:12.410.115 [api_c_kernel.cc:78]70390 "
        f"rtsLaunchKernelWithHostArgs:ErrCode={code}, desc=[{desc}], InnerCode=0x7150061\n"
        "[ERROR] RUNTIME(70311,):2026-04-02-09:30:12.410.121 [error_message_manage.cc:61]70390 "
        f"FuncErrorReason:rtsLaunchKernelWithHostArgs execution failed, reason={reason_line}\n"
        "[ERROR] ASCENDCL(70311,):2026-04-02-09:30:12.410.300 [kernel.cpp:514]70390 "
        "aclrtLaunchKernelWithHostArgsImpl:rtsLaunchKernelWithHostArgs failed, runtime result = "
        f"{code}.\n"
        "[ERROR] OP(70311,):2026-04-02-09:30:12.410.340 [rts_arg.cpp:883][NNOP]"
        "[LaunchKernelFromCache][70390] errno[361001] OpName:[aclnnMul_118_MulAiCore] "
        f"aclrtLaunchKernelWithHostArgs failed: {code}\n"
    )


def test_an_ffts_timeout_reported_by_the_rts_call_is_the_first_error() -> None:
    diagnosis = diagnose_text(PLOG, _plog("fftsplus timeout", "fftsplus timeout", "507048"))
    assert_reads(
        diagnosis,
        "hccl",
        first_error="rtsLaunchKernelWithHostArgs:ErrCode=507048",
        beside=("aicore_timeout",),
    )


def test_an_ai_cpu_exception_in_desc_reads_as_the_device_kernel() -> None:
    diagnosis = diagnose_text(PLOG, _plog("aicpu exception", "aicpu exception", "507018"))
    assert_reads(diagnosis, "aicore_timeout", first_error="ErrCode=507018, desc=[aicpu exception]")


def test_an_ai_core_exception_in_desc_reads_as_the_device_kernel() -> None:
    diagnosis = diagnose_text(PLOG, _plog("aicore exception", "aicore exception", "507015"))
    assert_reads(diagnosis, "aicore_timeout", first_error="ErrCode=507015, desc=[aicore exception]")


def test_a_success_report_of_an_rts_call_is_no_error() -> None:
    text = (
        "[INFO] RUNTIME(70311,):2026-04-02-09:30:12.410.115 [api_c_kernel.cc:78]70390 "
        "rtsLaunchKernelWithHostArgs:ErrCode=0, desc=[success]\n"
    )
    diagnosis = diagnose_text(PLOG, text)
    assert diagnosis.first_error is None
