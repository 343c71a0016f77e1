"""A failed event-status query, and the error manager's bare headline printed under it.

docs/labelling.md#code-only-synchronize-failures: torch_npu checks whether a work item has
finished by querying its event (`acl::AclQueryEventRecordedStatus(event_, &currStatus)`); a
query that returns a code is a wait on that event, read by the code, `stream_sync` when the code
names no label. The error manager's headline in the same block that says only `The argument is
invalid.` is the message recorded for that call, not a failure of its own: it yields to the
query or to the runtime's wait record nearby. Counterexamples: the same bare headline with no
synchronize beside it keeps its reading, and a headline that gives a reason keeps its own.

Fixtures follow the torch_npu, vLLM worker and CANN error-manager formats; values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WAIT_RECORD = (
    "(Worker_TP2_EP2 pid=4410) ERROR 02-03 11:12:13 [multiproc_executor.py:951]        wait "
    "event to be complete failed, runtime result = 507011[FUNC:ReportCallError]"
    "[FILE:log_inner.cpp][LINE:148]\n"
    "(Worker_TP2_EP2 pid=4410) ERROR 02-03 11:12:13 [multiproc_executor.py:951]\n"
)
EVENT_QUERY = (
    "[4410] [2026-02-03 11:12:13:402] torch.distributed: [ERROR] [4502] Find exception when "
    "finishedNPUExecutionInternal, query:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:61 "
    "NPU function error: acl::AclQueryEventRecordedStatus(event_, &currStatus), error code is "
    "507011\n"
    "[ERROR] 2026-02-03-11:12:13 (PID:4410, Device:2, RankID:-1) ERR00100 PTA call acl api "
    "failed\n"
    "[Error]: Model execution failed.\n"
    "        Rectify the fault based on the error information in the ascend log.\n"
)
BARE_HEADLINE = (
    "[PID: 4410] 2026-02-03-11:12:13.395.118 Invalid_Argument(EL0003): The argument is invalid.\n"
)


def test_a_bare_headline_under_an_event_query_yields_to_the_query() -> None:
    diagnosis = diagnose_text("worker.log", EVENT_QUERY + BARE_HEADLINE)
    assert_reads(diagnosis, "stream_sync", first_error="AclQueryEventRecordedStatus")


def test_the_runtime_wait_record_above_the_query_is_read_first() -> None:
    diagnosis = diagnose_text("worker.log", WAIT_RECORD + EVENT_QUERY + BARE_HEADLINE)
    assert_reads(diagnosis, "stream_sync", first_error="wait event to be complete failed")


def test_an_event_query_whose_code_names_a_label_is_read_by_the_code() -> None:
    text = EVENT_QUERY.replace("error code is 507011", "error code is 507048") + BARE_HEADLINE
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, "hccl", first_error="AclQueryEventRecordedStatus")


def test_the_bare_headline_alone_keeps_its_reading() -> None:
    text = (
        "[ERROR] 2026-02-03-11:12:13 (PID:4410, Device:2, RankID:-1) ERR00100 PTA call acl api "
        "failed\n" + BARE_HEADLINE
    )
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, "operator", first_error="Invalid_Argument(EL0003)")


def test_a_headline_that_gives_a_reason_keeps_its_own_reading() -> None:
    headline = (
        "[PID: 4410] 2026-02-03-11:12:13.395.118 Invalid_Argument(EE1001): The argument is "
        "invalid.Reason: stream is not in the current context\n"
    )
    diagnosis = diagnose_text("worker.log", EVENT_QUERY + headline)
    assert diagnosis.first_error is not None
    assert "stream is not in the current context" in diagnosis.first_error.text
