"""The caching allocator's own pool assertions, and c10's check of a capture status.

docs/labelling.md#an-allocator-that-refuses-its-settings-or-fails-its-own-checks: an
`INTERNAL ASSERT FAILED` in CUDACachingAllocator.cpp about its pools or blocks (a CUDA-graph
private pool's use count, a segment head's pool), or in CUDAGraphsC10Utils.h about a capture
status it does not know, is torch's bookkeeping going wrong under graph capture: `other`, with
`stream_sync` and `config` beside it, the assertion the first error. No memory ran out, so the
allocator's name does not make it `oom`. The NVML query's assertion keeps `oom` and the settings
tokenizer's keeps `config`. The blank torch leaves after `please report a bug to PyTorch.` does
not join the launcher's dated record below to the message. Fixtures are a serving loop, a
torchrun job and a model-parallel worker with paths, numbers and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "other.allocator_bookkeeping_assert"

GENERATION_LOOP = """\
2026-03-02 10:11:12,345 - BatchServer - INFO - capturing 3 decode graphs on rank 0
2026-03-02 10:11:30,901 - BatchServer - ERROR - Error in decode loop: it->second->use_count > 0 INTERNAL ASSERT FAILED at "/opt/build/pytorch/c10/cuda/CUDACachingAllocator.cpp":2875, please report a bug to PyTorch.
Traceback (most recent call last):
  File "/srv/batch/server.py", line 410, in _loop
    self._step()
  File "/srv/batch/runner.py", line 188, in _step
    self.runner.run(batch)
"""

TORCHRUN = """\
  File "/env/lib/python3.11/site-packages/torch/_inductor/cudagraph_trees.py", line 1120, in _record
    self._add_first_outputs(outputs, static_ptrs)
RuntimeError: head->prev == nullptr && head->pool != nullptr INTERNAL ASSERT FAILED at "/src/torch/c10/cuda/CUDACachingAllocator.cpp":812, please report a bug to PyTorch.
[2026-03-02 10:20:01,100] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 7301 closing signal SIGTERM
[2026-03-02 10:20:02,200] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 1 (pid: 7302) of binary: /env/bin/python
"""

CAPTURE_STATUS = """\
[1,5]<stdout>:[2026-03-02 10:30:00.001: C mp/worker.py:90] [5] Hit an exception on thread 2: false INTERNAL ASSERT FAILED at "../c10/cuda/CUDAGraphsC10Utils.h":74, please report a bug to PyTorch. Unknown CUDA graph CaptureStatus4096
[1,5]<stdout>:  File "/env/lib/python3.9/site-packages/mp/worker.py", line 300, in thread_compute
"""

NVML = """\
[rank1]: RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":995, please report a bug to PyTorch.
"""

SETTINGS = """\
terminate called after throwing an instance of 'c10::Error'
  what():  i < config_.size() INTERNAL ASSERT FAILED at "/build/c10/core/AllocatorConfig.h":131, please report a bug to PyTorch. Index out of bounds in ConfigTokenizer
"""


def test_a_pool_assertion_in_a_generation_loop_is_torchs_bookkeeping_not_memory() -> None:
    diagnosis = diagnose_text("rank0.log", GENERATION_LOOP)
    assert_reads(
        diagnosis,
        "other",
        first_error="use_count > 0 INTERNAL ASSERT FAILED",
        rule=RULE,
        beside=("stream_sync", "config"),
    )


def test_the_assertion_not_the_launcher_record_is_the_first_error() -> None:
    diagnosis = diagnose_text("console.log", TORCHRUN)
    assert_reads(
        diagnosis,
        "other",
        first_error="head->prev == nullptr && head->pool != nullptr INTERNAL ASSERT FAILED",
        rule=RULE,
    )
    # the assertion ends in torch's blank; the launcher's dated record below is its own line
    assert diagnosis.first_error is not None
    assert "closing signal" not in diagnosis.first_error.text


def test_an_unknown_capture_status_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("stdout.log", CAPTURE_STATUS)
    assert_reads(diagnosis, "other", first_error="Unknown CUDA graph CaptureStatus", rule=RULE)


def test_the_nvml_and_settings_assertions_keep_their_own_readings() -> None:
    nvml = diagnose_text("rank1.log", NVML)
    assert nvml.category == "oom", nvml.root_cause
    assert RULE not in rules_of(nvml)
    settings = diagnose_text("rank0.log", SETTINGS)
    assert settings.category == "config", settings.root_cause
    assert RULE not in rules_of(settings)
