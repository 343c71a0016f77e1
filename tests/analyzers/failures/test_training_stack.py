"""Reports that large training stacks print when a multi-node run stops.

The process group's desync report names the rank that fell out of step on the lines under
the timeout headline; the CUDA runtime words a crashed device as "unknown error" inside a
torchrun worker's abort; Megatron names the rank whose gradient norm went non-finite, and
refuses a resume whose scheduler arguments differ from the checkpoint. A pasted traceback
whose frame lines a terminal wrapped must still end at its exception line. A trainer that logs
its metrics as a dict keeps running after the loss goes non-finite: the first NaN dict is the
failure (docs/labelling.md#numbers-that-went-non-finite). So is anomaly mode's refusal of a NaN a
backward function returned. A trainer's lazy import re-raised as a
RuntimeError is still the missing module; an ATB setup refusal printed with no operation name
is still the operator's. A CPU tensor next to an NPU one in torch's device check is a
framework path that never moved it (docs/labelling.md#a-tensor-left-on-the-cpu-of-an-npu-job).
A comparison with a reference that fails its tolerance is a numerical failure too
(docs/labelling.md#results-that-fail-a-tolerance-check).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")
    assert diagnosis.culprit_ranks == [2]


def test_a_timeout_without_a_desync_report_blames_no_rank_from_it() -> None:
    headline = DESYNC.splitlines()[0] + "\n"
    diagnosis = diagnose_text("logs/rank0.log", headline)
    assert diagnosis.category == "hccl"
    assert 2 not in diagnosis.culprit_ranks


def test_a_cuda_unknown_error_abort_is_a_device_fault() -> None:
    diagnosis = diagnose_text("job/launcher.log", CUDA_UNKNOWN)
    assert_reads(diagnosis, "device_fault", first_error="CUDA error: unknown error")


def test_a_wrapped_frame_tail_is_not_the_exception() -> None:
    diagnosis = diagnose_text("job/train.log", WRAPPED_NAN)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("AssertionError: Rank 9: found NaN")
    assert diagnosis.category == "other"
    assert diagnosis.culprit_ranks == [9]


def test_a_scheduler_value_changed_on_resume_is_config() -> None:
    diagnosis = diagnose_text("job/train.log", RESUME_MISMATCH)
    assert_reads(diagnosis, "config", first_error="do not match")


# A transformers-style trainer: the gradient norm turns NaN, then the loss sits at 0.0.
NAN_METRICS = """\
{'loss': 2.1104, 'grad_norm': 0.9316, 'learning_rate': 2.84e-05, 'epoch': 1.21}
{'loss': 2.0871, 'grad_norm': nan, 'learning_rate': 2.83e-05, 'epoch': 1.22}
{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 2.82e-05, 'epoch': 1.22}
{'loss': 0.0, 'grad_norm': nan, 'learning_rate': 2.82e-05, 'epoch': 1.23}
"""

# Counterexample: finite metrics only, and a field that merely has "nan" in its name; the
# log stops with nothing wrong in it.
FINITE_METRICS = """\
{'loss': 2.1104, 'grad_norm': 0.9316, 'learning_rate': 2.84e-05, 'epoch': 1.21}
{'loss': 2.0871, 'grad_norm': 0.8752, 'nan_batches': 0, 'epoch': 1.22}
"""


def test_a_nan_in_the_trainer_metrics_is_the_failure_not_a_stall() -> None:
    diagnosis = diagnose_text("job/train.log", NAN_METRICS)
    assert_reads(diagnosis, "other", first_error="'loss': 2.0871, 'grad_norm': nan")


def test_finite_metrics_are_not_an_error() -> None:
    diagnosis = diagnose_text("job/train.log", FINITE_METRICS)
    assert diagnosis.category != "other"
    assert diagnosis.first_error is None


# A trainer's lazy import wrapper keeps only the message of the failed import.
LAZY_IMPORT = """\
Traceback (most recent call last):
  File "/opt/env/lib/python3.10/site-packages/trainkit/import_utils.py", line 151, in _get_module
    return importlib.import_module("." + module_name, self.__name__)
  File "<frozen importlib._bootstrap>", line 1030, in _gcd_import
RuntimeError:No module named 'trainkit_npu.comm.device_groups'
"""

# Counterexample: the toolkit's own Python package is missing, which is the machine.
TOOLKIT_MODULE = """\
Traceback (most recent call last):
  File "/opt/env/lib/python3.10/site-packages/trainkit/npu.py", line 12, in <module>
    import te_fusion
RuntimeError:No module named 'te_fusion'
"""


def test_a_lazy_import_rewrapped_as_runtime_error_is_config() -> None:
    diagnosis = diagnose_text("job/train.log", LAZY_IMPORT)
    assert_reads(diagnosis, "config", first_error="trainkit_npu.comm.device_groups")


def test_a_missing_toolkit_module_stays_the_machine() -> None:
    diagnosis = diagnose_text("job/train.log", TOOLKIT_MODULE)
    assert diagnosis.category == "driver_env"


# The op-plugin's ATB setup check printed without the operation's name.
ATB_BARE_SETUP = """\
[rank1]:[E0611 07:20:41.118820334 compiler_depend.ts:418] setup failed!
Exception raised from OperationSetup at build/third_party/op-plugin/op_plugin/CMakeFiles/op_plugin_atb.dir/compiler_depend.ts:127 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xb8 (0xffff81a2c908 in /opt/env/lib/python3.10/site-packages/torch/lib/libc10.so)
"""

# Counterexample: a service of the job whose own setup failed is no operator.
SERVICE_SETUP = """\
[2026-06-11 07:20:41,118] [ERROR] [reward.py:88] RuntimeError: reward server setup failed! check the port
"""


def test_an_unnamed_atb_setup_refusal_is_the_operator() -> None:
    diagnosis = diagnose_text("job/rank1.log", ATB_BARE_SETUP)
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("setup failed!")


def test_a_service_setup_failure_is_not_an_atb_refusal() -> None:
    diagnosis = diagnose_text("job/rank1.log", SERVICE_SETUP)
    assert diagnosis.category != "operator"


# A DPO step on NPU whose reference model stayed on the CPU.
NPU_AND_CPU = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/opt/env/lib/python3.11/site-packages/trainkit/trainers/base.py", line 512, in train
[rank2]:     metrics = self.train_step(batch_iter)
[rank2]: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:2 and cpu!
"""

# Counterexample: two accelerators, the op's arguments (the section's first table).
TWO_NPUS = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/opt/env/lib/python3.11/site-packages/trainkit/trainers/base.py", line 512, in train
[rank2]:     metrics = self.train_step(batch_iter)
[rank2]: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:2 and npu:0!
"""


def test_a_tensor_left_on_the_cpu_of_an_npu_job_is_config() -> None:
    diagnosis = diagnose_text("job/rank2.log", NPU_AND_CPU)
    assert_reads(diagnosis, "config", first_error="npu:2 and cpu", beside=("operator",))


def test_tensors_on_two_npus_stay_the_operator() -> None:
    diagnosis = diagnose_text("job/rank2.log", TWO_NPUS)
    assert diagnosis.category == "operator"


# The loss scaler gives up after the gradients overflowed at every scale.
SCALE_AT_FLOOR = """\
[2026-02-01 10:11:12,001] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1
[2026-02-01 10:11:14,220] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[rank0]: Traceback (most recent call last):
[rank0]:   File "/opt/env/lib/python3.10/site-packages/deepspeed/runtime/fp16/loss_scaler.py", line 176, in update_scale
[rank0]:     raise Exception(
[rank0]: Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.
"""

# Counterexample: overflow steps that the scaler absorbed; the run went on and finished.
SCALE_RECOVERED = """\
[2026-02-01 10:11:12,001] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768
{'loss': 1.9021, 'grad_norm': 0.7315, 'learning_rate': 2.1e-05, 'epoch': 2.0}
{'train_runtime': 812.4, 'train_loss': 1.95, 'epoch': 2.0}
"""


def test_a_loss_scaler_at_its_floor_is_a_numerical_failure() -> None:
    diagnosis = diagnose_text("job/train.log", SCALE_AT_FLOOR)
    assert_reads(diagnosis, "other", first_error="loss scale already at minimum")
    assert diagnosis.confidence >= 0.2


def test_an_absorbed_overflow_is_no_failure() -> None:
    diagnosis = diagnose_text("job/train.log", SCALE_RECOVERED)
    assert diagnosis.first_error is None


def test_an_infinite_loss_in_the_metrics_is_the_failure() -> None:
    text = "{'loss': inf, 'grad_norm': 12.31, 'learning_rate': 1e-05, 'epoch': 0.1}\n"
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.category == "other"
    assert diagnosis.first_error is not None


# Anomaly mode's warning with the forward traceback, then the refusal in backward
# (torch 2.13, CPU; the rank's stderr under torchrun).
ANOMALY_NAN = """\
/opt/env/lib/python3.11/site-packages/torch/autograd/graph.py:979: UserWarning: Error detected in LogSoftmaxBackward0. Traceback of forward call that caused the error:
  File "/work/dp/train.py", line 193, in main
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids.reshape(-1))
 (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:122.)
  return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
[rank5]: Traceback (most recent call last):
[rank5]:   File "/work/dp/train.py", line 195, in main
[rank5]:     loss.backward()
[rank5]:   File "/opt/env/lib/python3.11/site-packages/torch/autograd/graph.py", line 979, in _engine_run_backward
[rank5]:     return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
[rank5]: RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.
"""


def test_anomaly_mode_finding_nan_in_backward_is_a_numerical_failure() -> None:
    # docs/labelling.md#numbers-that-went-non-finite: anomaly mode names the backward
    # function whose output held the NaN; the numbers, not an operator, failed.
    diagnosis = diagnose_text("attempt_0/5/stderr.log", ANOMALY_NAN)
    assert_reads(diagnosis, "other", first_error="returned nan values in its 0th output")
    assert any(e.rule == "num.anomaly_nan_in_backward" for e in diagnosis.evidence)
    assert diagnosis.confidence >= 0.2


# A four-rank check of a split attention against its single-device reference; every rank
# printed its difference, and rank 2's comparison exceeded the tolerance (torch_npu, torchrun).
TOLERANCE_FAILED = """\
[Rank#0] split out vs reference: max 0.2871, mean 0.0391
[Rank#1] split out vs reference: max 0.3012, mean 0.0402
[Rank#2] split out vs reference: max 0.4460, mean 0.0417
[Rank#3] split out vs reference: max 0.2954, mean 0.0398
[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/attn-bench/tests/check_split_attn.py", line 211, in <module>
[rank2]:     torch.testing.assert_close(out_split, out_ref, atol=5e-2, rtol=0)
[rank2]:   File "/opt/py/lib/python3.11/site-packages/torch/testing/_comparison.py", line 1530, in assert_close
[rank2]:     raise error_metas[0].to_error(msg)
[rank2]: AssertionError: Tensor-likes are not close!
[rank2]:
[rank2]: Mismatched elements: 1207 / 65536 (1.8%)
[rank2]: Greatest absolute difference: 0.4460 at index (0, 3, 117, 9) (up to 0.05 allowed)
"""

# The same script when the split agrees: the call is quoted and the differences are printed,
# but nothing fails.
TOLERANCE_PASSED = """\
[Rank#0] split out vs reference: max 0.0120, mean 0.0011
[Rank#1] split out vs reference: max 0.0134, mean 0.0012
checking with torch.testing.assert_close(out_split, out_ref, atol=5e-2, rtol=0)
all ranks within tolerance
"""


def test_results_beyond_a_tolerance_are_a_numerical_failure() -> None:
    # docs/labelling.md#results-that-fail-a-tolerance-check: the assertion is the failure,
    # the mismatch details under it and the per-rank differences before it are context.
    diagnosis = diagnose_text("attempt_0/2/stderr.log", TOLERANCE_FAILED)
    assert_reads(diagnosis, "other", first_error="Tensor-likes are not close!")
    assert any(e.rule == "num.tolerance_check_failed" for e in diagnosis.evidence)
    assert diagnosis.confidence >= 0.2


def test_a_quoted_comparison_that_passed_is_no_failure() -> None:
    diagnosis = diagnose_text("attempt_0/0/stderr.log", TOLERANCE_PASSED)
    assert not any(e.rule == "num.tolerance_check_failed" for e in diagnosis.evidence)
