"""Model servers that start Python workers for each model and report how those workers failed.

TorchServe's frontend writes every line a worker prints as a log4j record of its own, at INFO
for stdout and WARN for stderr, under the worker's thread name
(docs/labelling.md#a-model-servers-worker-that-fails-to-start): the worker's words decide, so
an out-of-memory or a device the worker cannot see is read as it would be from the worker's
own stream, and the frontend's `Worker died` afterwards is only its report. Triton's Python
backend logs the exception a model's `initialize()` raised at INFO, from the stub process
that ran it; that exception is why the model did not load. Values of our own in the real
shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKERS_ON_ONE_GPU = """\
2025-02-03 16:40:11,502 [INFO ] W-9002-asr_large_2.1-stdout MODEL_LOG - Loading checkpoint shards onto cuda:0
2025-02-03 16:40:29,874 [INFO ] W-9002-asr_large_2.1-stdout MODEL_LOG - torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 23.65 GiB total capacity; 23.01 GiB already allocated; 41.25 MiB free; 23.12 GiB reserved in total by PyTorch)
2025-02-03 16:40:29,880 [INFO ] epollEventLoopGroup-5-3 org.pytorch.serve.wlm.WorkerThread - 9002 Worker disconnected. WORKER_STARTED
2025-02-03 16:40:29,881 [WARN ] W-9002-asr_large_2.1 org.pytorch.serve.wlm.BatchAggregator - Load model failed: asr_large, error: Worker died.
"""

ORDINAL_ON_STDERR = """\
2025-02-03 17:02:45,310 [WARN ] W-9005-ranker_1.0-stderr MODEL_LOG - Traceback (most recent call last):
2025-02-03 17:02:45,311 [WARN ] W-9005-ranker_1.0-stderr MODEL_LOG -   File "/srv/handlers/ranker.py", line 41, in initialize
2025-02-03 17:02:45,311 [WARN ] W-9005-ranker_1.0-stderr MODEL_LOG -     self.model.to(f"cuda:{gpu_id}")
2025-02-03 17:02:45,312 [WARN ] W-9005-ranker_1.0-stderr MODEL_LOG - RuntimeError: CUDA error: invalid device ordinal
2025-02-03 17:02:45,320 [INFO ] W-9005-ranker_1.0 org.pytorch.serve.wlm.WorkerThread - Retry worker: 9005 in 3 seconds.
"""

RELAYED_PROGRESS_ONLY = """\
2025-02-03 18:15:02,004 [INFO ] W-9000-tagger_1.0-stdout MODEL_LOG - Torch worker started.
2025-02-03 18:15:02,005 [INFO ] W-9000-tagger_1.0-stdout MODEL_LOG - Python runtime: 3.10.14
2025-02-03 18:15:09,442 [INFO ] W-9000-tagger_1.0-stdout MODEL_LOG - model_name: tagger, batchSize: 4
"""

STUB_FAILED = (
    'I0302 07:55:18.004211 1 pb_stub.cc:366] "Failed to initialize Python stub: '
    "RuntimeError: CUDA error: invalid device ordinal\\nCUDA kernel errors might be "
    "asynchronously reported at some other API call, so the stacktrace below might be "
    'incorrect.\\n\\nAt:\\n  /opt/tritonserver/models/reranker/1/model.py(52): initialize\\n"\n'
)

STUB_STARTED = (
    "I0302 07:55:18.004211 1 python_be.cc:2253] TRITONBACKEND_ModelInstanceInitialize: "
    "reranker_0_1 (GPU device 1)\n"
    'I0302 07:55:19.512007 1 pb_stub.cc:255] "Python stub for reranker_0_1 started"\n'
)


def test_a_worker_out_of_memory_relayed_at_info_is_the_first_error() -> None:
    diagnosis = diagnose_text("ts_log.log", WORKERS_ON_ONE_GPU)
    assert_reads(diagnosis, "oom", first_error="Tried to allocate 64.00 MiB (GPU 0")


def test_a_worker_traceback_relayed_from_stderr_is_read_by_its_words() -> None:
    diagnosis = diagnose_text("ts_log.log", ORDINAL_ON_STDERR)
    assert_reads(
        diagnosis, "config", first_error="RuntimeError: CUDA error: invalid device ordinal"
    )


def test_relayed_progress_lines_are_no_failure() -> None:
    diagnosis = diagnose_text("ts_log.log", RELAYED_PROGRESS_ONLY)
    assert diagnosis.first_error is None


def test_a_triton_stub_that_failed_to_initialize_names_the_cause() -> None:
    diagnosis = diagnose_text("tritonserver.log", STUB_FAILED)
    assert_reads(diagnosis, "config", first_error="Failed to initialize Python stub")


def test_a_stub_that_started_is_no_failure() -> None:
    diagnosis = diagnose_text("tritonserver.log", STUB_STARTED)
    assert diagnosis.first_error is None
