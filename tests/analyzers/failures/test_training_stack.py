"""Reports that large training stacks print when a multi-node run stops.

The process group's desync report names the rank that fell out of step on the lines under
the timeout headline; the CUDA runtime words a crashed device as "unknown error" inside a
torchrun worker's abort; Megatron names the rank whose gradient norm went non-finite, and
refuses a resume whose scheduler arguments differ from the checkpoint. A pasted traceback
whose frame lines a terminal wrapped must still end at its exception line.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# Rank 0 waits on a broadcast; the desync report says rank 2 never joined it.
DESYNC = """\
[rank0]:[E0302 11:40:17.552013902 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=57, OpType=BROADCAST, NumelIn=1024, NumelOut=1024, Timeout(ms)=60000) ran for 60021 milliseconds before timing out.
[rank0]: - [0] Timeout at collective: BROADCAST, #57
[rank0]: - To our best knowledge, the lagging/dead/mismatched ranks that caused the desync are:
[rank0]:     [2] finished collective #56, but didn't join collective #57 (count from 1)
"""

# A worker of torchrun aborts from the watchdog thread when its GPU stops answering.
CUDA_UNKNOWN = """\
[default6]:terminate called after throwing an instance of 'c10::CUDAError'
[default6]:  what():  CUDA error: unknown error
[default6]:Exception raised from query at ../aten/src/ATen/cuda/CUDAEvent.h:95 (most recent call first):
[default6]:frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x42 (0x7f11a0c137d2 in /opt/env/lib/python3.10/site-packages/torch/lib/libc10.so)
"""

# Frame lines wrapped by a narrow terminal: their tails sit alone on the next line.
WRAPPED_NAN = """\
Traceback (most recent call last):
File "/work/Megatron-LM/megatron/core/distributed/param_and_grad_buffer.py", line 402, in finish_grad
sync
self.start_grad_sync()
File "/work/Megatron-LM/megatron/core/distributed/param_and_grad_buffer.py", line 371, in start_grad_s
ync
assert not norm.isnan(), (
AssertionError: Rank 9: found NaN in local grad norm in backward pass before data-parallel communication collective. Device: 1, node: trainer-7
"""

RESUME_MISMATCH = (
    "AssertionError: OptimizerParamScheduler: class input value 1e-05 and checkpoint value "
    "3e-05 for minimum learning rate do not match\n"
)


def test_the_desync_report_names_the_lagging_rank() -> None:
    diagnosis = diagnose_text("logs/rank0.log", DESYNC)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert "Watchdog caught collective operation timeout" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]


def test_a_timeout_without_a_desync_report_blames_no_rank_from_it() -> None:
    headline = DESYNC.splitlines()[0] + "\n"
    diagnosis = diagnose_text("logs/rank0.log", headline)
    assert diagnosis.category == "hccl"
    assert 2 not in diagnosis.culprit_ranks


def test_a_cuda_unknown_error_abort_is_a_device_fault() -> None:
    diagnosis = diagnose_text("job/launcher.log", CUDA_UNKNOWN)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None
    assert "CUDA error: unknown error" in diagnosis.first_error.text


def test_a_wrapped_frame_tail_is_not_the_exception() -> None:
    diagnosis = diagnose_text("job/train.log", WRAPPED_NAN)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError: Rank 9: found NaN")
    assert diagnosis.category == "other"
    assert diagnosis.culprit_ranks == [9]


def test_a_scheduler_value_changed_on_resume_is_config() -> None:
    diagnosis = diagnose_text("job/train.log", RESUME_MISMATCH)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "do not match" in diagnosis.first_error.text
