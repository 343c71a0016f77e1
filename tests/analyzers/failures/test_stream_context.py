"""A stream touched while another device's context is current (107003).

The runtime refuses a call on a stream created on another device; a backend that frees its
per-device streams without selecting each device first fails so on the second device. The
code's own reading is the set-up (`config`); the refused call is a stream call, so the stream
layer (`stream_sync`) is offered beside it and the answer stays below the confident band.
docs/labelling.md#a-stream-touched-from-another-devices-context. Fixtures are written in the
real shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STREAM_DESTROYED_FROM_ANOTHER_CONTEXT = """\
CANN error: EE9999: Inner Error!
EE9999: [PID: 61220] 2026-04-02-10:11:12.131.415 Stream destroy failed, stream is not in current ctx, stream_id=3.[FUNC:StreamDestroy][FILE:api_impl.cc][LINE:1032]
        TraceBack (most recent call last):
       rtStreamDestroy execute failed, reason=[stream not in current context][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
       destroy stream failed, runtime result = 107003[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]

  current device: 1, in function ~backend_context at /src/backend/cann/context.h:118
  aclrtDestroyStream(streams[i])
/src/backend/cann/backend.cpp:90: CANN error
"""


def test_the_refusal_is_the_set_up_with_the_stream_layer_beside_it() -> None:
    diagnosis = diagnose_text("server.log", STREAM_DESTROYED_FROM_ANOTHER_CONTEXT)
    assert_reads(
        diagnosis,
        "config",
        first_error="Stream destroy failed, stream is not in current ctx",
        beside=("stream_sync",),
    )
    assert diagnosis.confidence < 0.8
