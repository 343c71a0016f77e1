"""torch's CUDA generator refusing a call while a graph is captured, naming the C++ method.

A serving engine that captures CUDA graphs with a compiled attention backend can read the
random seed from inside the captured region; torch's generator refuses that and names the
method it refused (`Cannot call CUDAGeneratorImpl::current_seed during CUDA graph capture`),
and TorchDynamo may wrap the sentence in an exception of its own. It is a call refused during
graph capture: `stream_sync`, with `config` (the backend or the capture option) beside it, the
refusal the first error. Counterexample: a debug line that reads the seed through the same
method before any capture refuses nothing. Fixtures are written here in the real shapes with
their own values.

docs/labelling.md#calls-refused-during-graph-capture
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SEED_READ_UNDER_CAPTURE = """\
[2026-04-02 08:11:40 TP1] Capture cuda graph begin. This can take up to several minutes. avail mem=30.12 GB
torch._dynamo.exc.InternalTorchDynamoError: RuntimeError: Cannot call CUDAGeneratorImpl::philox_offset_per_thread during CUDA graph capture. If you need this call to be captured, please file an issue. Current cudaStreamCaptureStatus: cudaStreamCaptureStatusActive

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/engine/managers/scheduler.py", line 880, in run_scheduler_process
    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank)
  File "/srv/engine/model_executor/model_runner.py", line 214, in __init__
    self.init_cuda_graphs()
"""

SEED_READ_BEFORE_CAPTURE = """\
[2026-04-02 08:11:39 TP1] DEBUG sampler seed read through CUDAGeneratorImpl::current_seed before capture: 1234
[2026-04-02 08:11:40 TP1] RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 1 has a total capacity of 79.25 GiB of which 301.00 MiB is free.
"""


def test_a_generator_call_refused_under_capture_is_a_stream_state_refusal() -> None:
    diagnosis = diagnose_text("serve/tp1.log", SEED_READ_UNDER_CAPTURE)
    assert_reads(
        diagnosis,
        "stream_sync",
        first_error="Cannot call CUDAGeneratorImpl::philox_offset_per_thread during CUDA graph",
        beside=("config",),
    )


def test_a_seed_read_before_any_capture_is_no_refusal() -> None:
    diagnosis = diagnose_text("serve/tp1.log", SEED_READ_BEFORE_CAPTURE)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")
