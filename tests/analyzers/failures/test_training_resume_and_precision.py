"""Training runs on GPUs that go wrong in their numbers, their precision set-up or their resume.

A Megatron-style iteration line whose loss or gradient norm reads NaN is the first error of a
run that kept stepping (docs/labelling.md#numbers-that-went-non-finite); a counter named after
NaN is not. A grad scaler handed fp16 gradients is the precision set-up, not a numerical
failure (same section). A ZeRO checkpoint resumed under another data-parallel size is refused
by the loader (docs/labelling.md#config-driver_env-or-weight_load). FSDP's warning that a
state-dict copy ran out of memory explains the collective that times out after it
(docs/labelling.md#a-warning-that-quotes-a-caught-allocator-failure).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Megatron logs one line per interval; the third one has a NaN loss and gradient norm.
ITERATIONS_NAN = """\
 iteration      200/   20000 | consumed samples:        25600 | elapsed time per iteration (ms): 1503.2 | learning rate: 1.500E-04 | global batch size:   128 | lm loss: 3.412077E+00 | loss scale: 1.0 | grad norm: 1.204 | number of skipped iterations:   0 | number of nan iterations:   0 |
 iteration      210/   20000 | consumed samples:        26880 | elapsed time per iteration (ms): 1498.7 | learning rate: 1.500E-04 | global batch size:   128 | lm loss: 3.398310E+00 | loss scale: 1.0 | grad norm: 1.187 | number of skipped iterations:   0 | number of nan iterations:   0 |
 iteration      220/   20000 | consumed samples:        28160 | elapsed time per iteration (ms): 1501.9 | learning rate: 1.500E-04 | global batch size:   128 | lm loss: NAN | loss scale: 1.0 | grad norm: nan | number of skipped iterations:   0 | number of nan iterations:   0 |
 iteration      230/   20000 | consumed samples:        29440 | elapsed time per iteration (ms): 1499.4 | learning rate: 1.500E-04 | global batch size:   128 | lm loss: NAN | loss scale: 1.0 | grad norm: nan | number of skipped iterations:   0 | number of nan iterations:   0 |
"""

# Counterexample: the same lines with finite numbers; only the counters mention NaN.
ITERATIONS_FINITE = "\n".join(ITERATIONS_NAN.splitlines()[:2]) + "\n"

# A fine-tuning script under accelerate's fp16 option with a model already cast to half.
HALF_PARAMS = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/job/finetune.py", line 210, in <module>
[rank0]:     optimizer.step()
[rank0]:   File "/opt/env/lib/python3.11/site-packages/accelerate/optimizer.py", line 165, in step
[rank0]:     self.scaler.step(self.optimizer, closure)
[rank0]:   File "/opt/env/lib/python3.11/site-packages/torch/amp/grad_scaler.py", line 288, in _unscale_grads_
[rank0]:     raise ValueError("Attempting to unscale FP16 gradients.")
[rank0]: ValueError: Attempting to unscale FP16 gradients.
"""

# Counterexample: apex's scaler reports an overflowed step and carries on.
APEX_OVERFLOW = """\
Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 16384.0
{'loss': 1.311, 'grad_norm': 0.52, 'learning_rate': 1e-05, 'epoch': 0.4}
"""

# A resume on twice the nodes: DeepSpeed refuses the partitioned optimizer state.
ZERO_RESUME = """\
[2026-04-02 08:01:10,114] [INFO] [torch_checkpoint_engine.py:27:load] [Torch] Loading checkpoint from /ckpt/global_step900/mp_rank_00_model_states.pt...
[rank12]: Traceback (most recent call last):
[rank12]:   File "/opt/env/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 2930, in _load_zero_checkpoint
[rank12]:     raise ZeRORuntimeException("The checkpoint being loaded used a DP " \\
[rank12]: deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size of 16 but the current world size is 32. Automatic adjustment of ZeRO's optimizer state partitioning with a new world size is not currently supported.
"""

# Counterexample: the same resume on the original size reads every shard.
ZERO_RESUME_OK = """\
[2026-04-02 08:01:10,114] [INFO] [torch_checkpoint_engine.py:27:load] [Torch] Loading checkpoint from /ckpt/global_step900/mp_rank_00_model_states.pt...
[2026-04-02 08:01:14,530] [INFO] [engine.py:3100:_get_all_zero_checkpoint_state_dicts] successfully read 16 ZeRO state_dicts for rank 12
"""


def test_a_nan_iteration_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", ITERATIONS_NAN)
    assert_reads(diagnosis, "other", first_error="iteration      220/")


def test_nan_counters_on_finite_lines_are_no_error() -> None:
    diagnosis = diagnose_text("logs/train.log", ITERATIONS_FINITE)
    assert diagnosis.first_error is None


def test_a_scaler_given_half_gradients_is_the_precision_setup() -> None:
    diagnosis = diagnose_text("logs/train.log", HALF_PARAMS)
    assert_reads(diagnosis, "config", first_error="unscale FP16 gradients")


def test_an_overflowed_step_that_was_skipped_is_not_the_setup() -> None:
    diagnosis = diagnose_text("logs/train.log", APEX_OVERFLOW)
    assert diagnosis.category != "config"


def test_a_zero_checkpoint_for_another_dp_size_is_refused_by_the_loader() -> None:
    diagnosis = diagnose_text("logs/rank12.log", ZERO_RESUME)
    assert_reads(diagnosis, "weight_load", first_error="DP world size of 16", beside=("config",))


def test_a_zero_checkpoint_read_on_its_own_size_is_fine() -> None:
    diagnosis = diagnose_text("logs/rank12.log", ZERO_RESUME_OK)
    assert diagnosis.first_error is None


# Rank 1's copy of a full state dict runs out of memory (FSDP only warns), rank 0 then waits
# in the state dict's all-gather until the watchdog fires.
CLONE_OOM_THEN_TIMEOUT = """\
/opt/env/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py:312: UserWarning: Failed to clone() tensor with name _fsdp_wrapped_module.layers.11.ffn.w2.weight on rank 1. This may mean that this state_dict entry could point to invalid memory regions after returning from state_dict() call if this parameter is managed by FSDP. Error: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 1; 39.39 GiB total capacity; 38.70 GiB already allocated; 40.19 MiB free; 38.95 GiB reserved in total by PyTorch)
[E ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=911, OpType=_ALLGATHER_BASE, Timeout(ms)=1800000) ran for 1800420 milliseconds before timing out.
"""

# Counterexample: an FSDP warning that quotes no failure leaves the timeout the answer.
ADVICE_THEN_TIMEOUT = """\
/opt/env/lib/python3.10/site-packages/torch/distributed/fsdp/_state_dict_utils.py:450: UserWarning: Gathering a full state dict on every rank uses a lot of memory; consider offload_to_cpu=True
[E ProcessGroupNCCL.cpp:828] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=911, OpType=_ALLGATHER_BASE, Timeout(ms)=1800000) ran for 1800420 milliseconds before timing out.
"""


def test_a_state_dict_copy_out_of_memory_explains_the_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", CLONE_OOM_THEN_TIMEOUT)
    assert_reads(diagnosis, "oom", first_error="Failed to clone() tensor")


def test_a_memory_advice_warning_leaves_the_timeout_the_answer() -> None:
    diagnosis = diagnose_text("logs/train.log", ADVICE_THEN_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")
