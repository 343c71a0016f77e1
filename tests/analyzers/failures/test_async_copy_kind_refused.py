"""An asynchronous copy the runtime refuses because its kind does not fit its buffers.

docs/labelling.md#config-driver_env-or-weight_load: the runtime checks a copy's direction
against where its source and destination live before queueing it, and an `EE1001` whose reason
is `Memory async failed, src loc type=.., dst loc type=.., kind=.. is invalid!` (with `Memory
async failed, check kind and loc` and `MemcpyAsync check src or dst location failed` in its
trace) is a copy that the issuing code built wrongly: `operator`, with `config` and
`driver_env` beside it and below the confident band, the headline's reason first. An earlier
reading had no rule for it and guessed `config` from the bare code. Counterexamples: a copy the
device ran and reported failed (`PrintErrorInfo:Memory async copy failed, ...`) and another
`EE1001` reason.

Fixtures follow vLLM's V0 worker log with torch_npu's error text; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PREFIX = "ERROR 03-14 09:10:12 worker_base.py:581] "


def _worker(*lines: str) -> str:
    return "".join(f"{PREFIX}{line}\n" for line in lines)


REFUSED = _worker(
    "[ERROR] 2026-03-14-09:10:12 (PID:40211, Device:3, RankID:-1) ERR00100 PTA call acl api failed.",
    "EE1001: [PID: 40211] 2026-03-14-09:10:11.120.334 The argument is invalid.Reason: Memory "
    "async failed, src loc type=2, dst loc type=2, kind=3 is invalid!",
    "        Solution: 1.Check the input parameter range of the function. 2.Check the function "
    "invocation relationship.",
    "        TraceBack (most recent call last):",
    "        Memory async failed, check kind and loc, retCode=0x7110001[FUNC:MemcpyAsyncCkeckLocation]"
    "[FILE:api_error.cc][LINE:1801]",
    "        MemcpyAsync check src or dst location failed, stream_id=5.[FUNC:MemcpyAsync]"
    "[FILE:api_error.cc][LINE:1512]",
)

DEVICE_COPY_FAILED = (
    "[ERROR] RUNTIME(3301,python):2026-03-02-10:20:31.115.402 [task.cc:1582]3301 "
    "PrintErrorInfo:Memory async copy failed, device_id=2, stream_id=5, task_id=17, flip_num=0, "
    "copy_type=2, memcpy_type=0, copy_data_type=0, length=8192.\n"
)


def test_a_copy_refused_for_its_kind_is_the_issuing_codes_copy() -> None:
    diagnosis = diagnose_text("worker.log", REFUSED)
    assert_reads(
        diagnosis, "operator", first_error="src loc type=2, dst loc type=2, kind=3 is invalid"
    )
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_copy_the_device_ran_and_reported_failed_keeps_the_device_reading() -> None:
    diagnosis = diagnose_text("plog/plog-3301_20260302102000000.log", DEVICE_COPY_FAILED)
    assert_reads(diagnosis, "device_fault", first_error="PrintErrorInfo:Memory async copy failed")


def test_another_reason_under_the_same_code_is_not_a_refused_copy() -> None:
    diagnosis = diagnose_text(
        "worker.log",
        _worker(
            "EE1001: [PID: 40211] 2026-03-14-09:10:11.120.334 The argument is invalid.Reason: "
            "rtGetDevMsg execute failed, reason=[context pointer null]"
        ),
    )
    assert diagnosis.category != "operator"
