"""Which label comes FIRST where two taxonomy labels could be defended.

An outside reader may accept only the primary label, so the analyzer's first choice follows
the corpus labelling rule where it is explicit and otherwise what independently labelled
real reports of the same failure kind chose:

- a call the runtime refuses because its stream is being captured into a graph (a plain
  memcpy, a synchronize) is a stream failure, not a configuration one.

Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

CAPTURED_MEMCPY_PLOG = """\
[ERROR] RUNTIME(4410,):2026-02-11-07:41:03.512.201 [api_impl.cc:2690]4410 MemCopySync:The current capture mode:threadCaptureMode=0, exchangeCaptureMode=0, contextCaptureMode=0
[ERROR] RUNTIME(4410,):2026-02-11-07:41:03.512.207 [api_error.cc:1598]4410 MemCopySync:Memory copy sync failed, cnt=128, kind=1.
[ERROR] RUNTIME(4410,):2026-02-11-07:41:03.512.212 [api_c.cc:1090]4410 rtMemcpy:ErrCode=107030, desc=[the current capture mode does not support this operation], InnerCode=0x703001c
[ERROR] RUNTIME(4410,):2026-02-11-07:41:03.512.216 [error_message_manage.cc:61]4410 FuncErrorReason:rtMemcpy execution failed, reason=the current capture mode does not support this operation
[ERROR] ASCENDCL(4410,):2026-02-11-07:41:03.512.390 [memory.cpp:560]4410 aclrtMemcpyImpl:synchronized memcpy failed, kind = 1, runtime result = 107030
"""

CAPTURED_SYNC_BLOCK = """\
(Worker_TP1 pid=6021) ERROR 02-11 07:50:12 [multiproc_executor.py:700] EE9999: Inner Error!
(Worker_TP1 pid=6021) ERROR 02-11 07:50:12 [multiproc_executor.py:700] EE9999[PID: 6021] 2026-02-11-07:50:12.118.930 (EE9999):  Not allow to synchronize captured stream stream_id=9.[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:884]
(Worker_TP1 pid=6021) ERROR 02-11 07:50:12 [multiproc_executor.py:700]         TraceBack (most recent call last):
(Worker_TP1 pid=6021) ERROR 02-11 07:50:12 [multiproc_executor.py:700]         rtStreamSynchronize execute failed, reason=[stream is captured][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]
(Worker_TP1 pid=6021) ERROR 02-11 07:50:12 [multiproc_executor.py:700]         synchronize stream failed, runtime result = 107027[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]
"""


def test_a_memcpy_refused_during_graph_capture_is_a_stream_failure() -> None:
    diagnosis = diagnose_text("node0/plog/plog-4410_20260211074103.log", CAPTURED_MEMCPY_PLOG)
    assert diagnosis.category == "stream_sync"
    assert diagnosis.first_error is not None
    assert "capture mode" in diagnosis.first_error.text


def test_a_synchronize_refused_on_a_captured_stream_is_a_stream_failure() -> None:
    diagnosis = diagnose_text("serve/worker_1.log", CAPTURED_SYNC_BLOCK)
    assert diagnosis.category == "stream_sync"
    assert diagnosis.first_error is not None
    assert "Not allow to synchronize captured stream" in diagnosis.first_error.text
