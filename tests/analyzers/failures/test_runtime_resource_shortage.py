"""The runtime's EE1023: the device had none left of a scheduling resource the job asked for.

Streams, notifies and events are drawn from fixed pools on the device. When one runs out the
runtime names the resource and a reason (`Alloc Stream resource failed. Reason: Too many
streams are created.`), under the error manager's EE1023 headline or in the plog. The job's own
settings decided how many it asked for (graph capture sizes, concurrent graphs, streams it never
destroyed), so the label is `config`, with the stream layer beside it
(docs/labelling.md#device-streams-run-out). The graph-capture form of the queue refusal
(`sq cq res alloc failed`) is the same shortage as the stream set-up's `Alloc sq cq fail`.

Fixtures in the shapes the runtime prints, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files, diagnose_text

CAPTURE_STREAMS_PRINTED = """\
Resource_Error(EE1023): Alloc Stream resource failed. Reason: Too many streams are captured to the ACL graph (model_id=7).
        Solution: For details about the troubleshooting method, search for the keyword "EE1023" on the documentation site.
TraceBack (most recent call last):
        Build SQ/CQ failed, stream_id=31, model_id=7, retCode=0x7020023.[FUNC:PrepareModelExecute][FILE:capture_model.cc][LINE:352]
        rtModelExecute execution failed, reason=driver error:resource alloc fail[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]
"""

CAPTURE_STREAMS_PLOG = """\
[ERROR] RUNTIME(60210,serve):2026-09-20-04:10:02.110.301 [capture_model.cc:1078]60210 AllocSqCqProc:sq cq res alloc failed, model_id=7, alloc num=1, total res num=0, retCode=0x7020023.
[ERROR] RUNTIME(60210,serve):2026-09-20-04:10:02.110.309 [capture_model.cc:1802]60210 AllocSqCqAndBindInternal:Alloc Stream resource failed. Reason: Too many streams are captured to the ACL Graph. ErrorCode=EE1023.
[ERROR] RUNTIME(60210,serve):2026-09-20-04:10:02.110.360 [api_c.cc:1713]60210 rtModelExecute:ErrCode=207005, desc=[driver error:resource alloc fail], InnerCode=0x7020023
[ERROR] RUNTIME(60210,serve):2026-09-20-04:10:02.110.366 [error_message_manage.cc:69]60210 FuncErrorReason:rtModelExecute execution failed, reason=driver error:resource alloc fail
"""

TOO_MANY_NOTIFIES = """\
Resource_Error(EE1023): Alloc Notify resource failed. Reason: Too many Notify objects are created.
        Solution: For details about the troubleshooting method, search for the keyword "EE1023" on the documentation site.
TraceBack (most recent call last):
        rtNotifyCreateWithFlag execution failed, reason=driver error:no notify resource[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]
"""

STREAM_CREATED_AT_INFO = """\
[INFO] RUNTIME(60210,serve):2026-09-20-04:09:58.000.120 [stream.cc:728]60210 Setup:Alloc Stream resource success, stream_id=12, sq_id=12.
"""


def test_a_capture_with_too_many_streams_is_the_settings() -> None:
    diagnosis = diagnose_text("stdout.txt", CAPTURE_STREAMS_PRINTED)
    assert_reads(
        diagnosis, "config", first_error="Alloc Stream resource failed", beside=("stream_sync",)
    )
    assert "device_fault" not in alternative_labels(diagnosis)


def test_the_plog_of_the_same_capture_names_the_queue_refusal_first() -> None:
    diagnosis = diagnose_text("plog/plog-60210_20260920041002.log", CAPTURE_STREAMS_PLOG)
    assert_reads(diagnosis, "config", first_error="sq cq res alloc failed")


def test_printed_block_and_plog_together_stay_the_settings() -> None:
    diagnosis = diagnose_files(
        {
            "stdout.txt": CAPTURE_STREAMS_PRINTED,
            "plog/plog-60210_20260920041002.log": CAPTURE_STREAMS_PLOG,
        }
    )
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    text = diagnosis.first_error.text
    assert "Alloc Stream resource failed" in text or "sq cq res alloc failed" in text


def test_too_many_notifies_is_the_same_shortage() -> None:
    diagnosis = diagnose_text("stdout.txt", TOO_MANY_NOTIFIES)
    assert_reads(diagnosis, "config", first_error="Alloc Notify resource failed")


def test_a_stream_the_runtime_gave_is_no_shortage() -> None:
    diagnosis = diagnose_text("plog/plog-60210_20260920040958.log", STREAM_CREATED_AT_INFO)
    assert diagnosis.category != "config"
