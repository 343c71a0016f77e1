"""HCCL's one-sided service (BatchGet / BatchPut, which moves KV blocks between the engines of a
disaggregated deployment) logs its failure through HCCL's exception handler, and the transfer
library's channel restates it under GE's module code 103900. The handler's line is the first
error: the channel's failure, `hccl`, with the host set-up and the device beside it.

Fixtures follow the plog layout (`[ERROR] HCCL(pid,):<time> [file:line] [tid]...`); pids, tids
and times are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HANDLER = (
    "[ERROR] HCCL(52110,):2026-08-03-11:20:05.100.200 [exception_handler.cc:23] [52731]HcclBatchPut: "
    "HcclException, what: hccl_one_sided_service.cc:602,BatchPut, Error: hccl special error, ret=1 "
    "[BatchPut] AICPU launch failed, code: 1\n"
)
GE_RESTATED = (
    "[ERROR] GE(52110,):2026-08-03-11:20:05.100.410 [channel.cc:314]52731 operator(): ErrorNo: "
    "103900() [GE][MODULE]Failed to invoke HcclBatchPut, ret = 1\n"
)


def test_the_handlers_line_leads_the_ge_restatement() -> None:
    diagnosis = diagnose_text("plog/plog-52110_20260803110000100.log", HANDLER + GE_RESTATED)
    assert_reads(diagnosis, "hccl", first_error="HcclBatchPut: HcclException")
    assert {alt.category for alt in diagnosis.alternatives} >= {"driver_env", "device_fault"}
    assert diagnosis.confidence >= 0.5


def test_the_ge_restatement_alone_is_the_channels_failure() -> None:
    diagnosis = diagnose_text("plog/plog-52110_20260803110000100.log", GE_RESTATED)
    assert diagnosis.category == "hccl"
    assert diagnosis.confidence >= 0.5


def test_the_handlers_line_for_a_collective_is_not_a_one_sided_transfer() -> None:
    line = (
        "[ERROR] HCCL(52110,):2026-08-03-11:20:05.100.200 [exception_handler.cc:23] [52731]HcclAllReduce: "
        "HcclException, what: hccl_communicator.cc:88, Error: hccl special error, ret=1\n"
    )
    diagnosis = diagnose_text("plog/plog-52110_20260803110000100.log", line)
    assert not any("one-sided" in alt.evidence for alt in diagnosis.alternatives)
    assert diagnosis.confidence < 0.5


def test_the_handler_names_the_exception_type_it_caught() -> None:
    # The handler prints the caught exception's own kind before `what:`, not always
    # HcclException: a logic error the one-sided connection raised reads the same way.
    line = (
        "[ERROR] HCCL(52110,python3):2026-08-03-11:20:05.100.200 [exception_handler.cc:28] [52731]"
        "HcclBatchGet: Logic error, what: hccl_one_sided_conn.cc:280,BatchRead, Error: Logic error, "
        "ret=4 no registered buffer matches the peer's key\n"
    )
    diagnosis = diagnose_text("plog/plog-52110_20260803110000100.log", line)
    assert_reads(diagnosis, "hccl", first_error="HcclBatchGet: Logic error")
    assert diagnosis.confidence >= 0.5


def test_a_logic_error_outside_the_one_sided_service_is_not_a_transfer() -> None:
    line = (
        "[ERROR] HCCL(52110,python3):2026-08-03-11:20:05.100.200 [exception_handler.cc:28] [52731]"
        "HcclAllGather: Logic error, what: hccl_communicator.cc:120, Error: Logic error, ret=4\n"
    )
    diagnosis = diagnose_text("plog/plog-52110_20260803110000100.log", line)
    assert not any("one-sided" in alt.evidence for alt in diagnosis.alternatives)
    assert diagnosis.confidence < 0.5


# HCCL tags a refused argument with its stage and `[InvalidArgument]`, naming the parameter
# and the value it was handed (a memory handle the one-sided service does not know, when the
# transfer library deregisters memory); its call trace and the transfer library's GE lines
# restate the refusal one by one. The stage line is the first error: hccl, with the caller's
# settings beside it. docs/labelling.md#an-hccl-stage-line-that-refuses-an-argument
PARAM_REFUSED = (
    "[ERROR] HCCL(61020,):2026-07-01-09:10:11.200.300 [one_sided_service_adapt.cc:484] [61020]"
    "[TaskExecStage][InvalidArgument] The parameter memHandle[0xfffd00112233] is invalid.\n"
    "[ERROR] HCCL(61020,):2026-07-01-09:10:11.200.320 [one_sided_service_adapt.cc:526] [61020]"
    "[HcclDeregisterGlobalMem]call trace: hcclRet -> 1\n"
    "[ERROR] GE(61020,):2026-07-01-09:10:11.200.360 [channel_msg_handler.cc:283]61020 DeregisterMem: "
    "ErrorNo: 103900() [GE][MODULE]Call hccl api failed, ret: 0x1\n"
)

# Counterexample: a line that only reports a parameter's value refuses nothing.
PARAM_REPORTED = (
    "[INFO] HCCL(61020,):2026-07-01-09:10:11.100.300 [one_sided_service_adapt.cc:470] [61020]"
    "[TaskExecStage] The parameter memHandle[0xfffd00112233] is registered.\n"
)


def test_hccls_refused_argument_leads_its_call_trace() -> None:
    diagnosis = diagnose_text("plog/plog-61020_20260701091000100.log", PARAM_REFUSED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="[InvalidArgument] The parameter memHandle[",
        rule="hccl.stage_invalid_argument",
        beside=("config",),
    )


def test_a_reported_parameter_is_no_refusal() -> None:
    diagnosis = diagnose_text("plog/plog-61020_20260701091000100.log", PARAM_REPORTED)
    assert "hccl.stage_invalid_argument" not in rules_of(diagnosis)
