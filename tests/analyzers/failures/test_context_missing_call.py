"""A runtime call made while no context is current (107002).

A backend that asks the runtime about each device before selecting any is refused: no context
is current in the calling thread. The code's own reading is the program's call order
(`config`); a device that could not be opened leaves no context either, so the machine
(`driver_env`) is offered beside it and the answer stays below the confident band.
docs/labelling.md#a-runtime-call-with-no-current-context. Fixtures are written in the real
shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

MEMORY_QUERY_WITHOUT_CONTEXT = """\
./bin/tool --version
CANN error: EE1001: [PID: 40712] 2026-03-04-05:06:07.080.910 The argument is invalid.Reason: rtMemGetInfoEx execute failed, reason=[context pointer null]
        Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.
        TraceBack (most recent call last):
        Check param failed, curCtx can not be null.[FUNC:MemGetInfoEx][FILE:api_impl.cc][LINE:2301]
        get memory information failed, runtime result = 107002[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""

STREAM_FROM_ANOTHER_CONTEXT = """\
CANN error: EE9999: Inner Error!
EE9999: [PID: 40713] 2026-03-04-05:06:08.010.203 Stream destroy failed, stream is not in current ctx, stream_id=2.[FUNC:StreamDestroy][FILE:api_impl.cc][LINE:1032]
        TraceBack (most recent call last):
       rtStreamDestroy execute failed, reason=[stream not in current context][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
       destroy stream failed, runtime result = 107003[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""


def test_a_call_without_context_is_the_call_order_with_the_machine_beside_it() -> None:
    diagnosis = diagnose_text("cli.log", MEMORY_QUERY_WITHOUT_CONTEXT)
    assert_reads(
        diagnosis, "config", first_error="rtMemGetInfoEx execute failed", beside=("driver_env",)
    )
    assert diagnosis.confidence < 0.8


def test_a_stream_of_another_context_keeps_the_stream_layer_not_the_machine() -> None:
    diagnosis = diagnose_text("server.log", STREAM_FROM_ANOTHER_CONTEXT)
    assert diagnosis.category == "config"
    alternatives = alternative_labels(diagnosis)
    assert "stream_sync" in alternatives
    assert "driver_env" not in alternatives
