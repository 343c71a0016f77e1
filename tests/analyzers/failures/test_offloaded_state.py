"""Offloaded state and the host memory behind it.

docs/labelling.md#offloaded-state-and-the-host-memory-behind-it. A full CPU swap space of the
serving engine is `oom` (with `config` beside it), also when a front end quotes it; FSDP's
refusal of offloaded parameters already on the accelerator and a fused GPU optimizer handed
host tensors are `config`. The fixtures are in the shapes the engines print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# An RL rollout worker's engine aborts when its swap space is full; the driver re-raises it.
SWAP_SPACE_FULL = """\
(RolloutWorker pid=40311) WARNING 03-11 08:02:17 scheduler.py:1560] Sequence group req-17 is preempted by PreemptionMode.SWAP mode because there is not enough KV cache space.
(RolloutWorker pid=40311) Traceback (most recent call last):
(RolloutWorker pid=40311)   File "/opt/rl/workers/rollout.py", line 88, in generate
(RolloutWorker pid=40311)     outputs = self.engine.generate(prompts, params)
(RolloutWorker pid=40311)     raise RuntimeError(
(RolloutWorker pid=40311) RuntimeError: Aborted due to the lack of CPU swap space. Please increase the swap space to avoid this error.
"""

# A front end that outlived the engine carries the only copy inside its own exception.
SWAP_SPACE_QUOTED = """\
2025-03-11T08:02:19.204Z ERROR api.stream: request failed.
Traceback (most recent call last):
  File "/srv/api/stream.py", line 41, in relay
    async for chunk in source:
ValueError: engine stream failed: MQEngineDeadError: Engine loop is not running. Inspect the stacktrace to find the original error: RuntimeError('Aborted due to the lack of CPU swap space. Please increase the swap space to avoid this error.').
"""

# Counterexample: preemption by swapping and the swap statistics are no failure.
SWAP_ONLY_REPORTED = """\
WARNING 03-11 08:02:17 scheduler.py:1560] Sequence group req-17 is preempted by PreemptionMode.SWAP mode because there is not enough KV cache space.
INFO 03-11 08:02:20 metrics.py:351] Running: 12 reqs, Swapped: 3 reqs, Pending: 40 reqs, GPU KV cache usage: 99.1%, CPU KV cache usage: 41.0%.
"""

# Two ranks of an FSDP job with parameter offload, each naming its own device.
FSDP_OFFLOAD_ON_DEVICE = """\
[rank0]: RuntimeError: An FSDP-managed module with parameter CPU offloading enabled has parameters on cuda:0. Make sure to not move the module from CPU when offloading parameters.
[rank1]: RuntimeError: An FSDP-managed module with parameter CPU offloading enabled has parameters on cuda:1. Make sure to not move the module from CPU when offloading parameters.
"""

# FSDP2 on NPUs lists the parameters the framework left on the device.
FSDP2_OFFLOAD_ON_NPU = """\
[rank6]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py", line 601, in _validate_cpu_offload_params
[rank6]:     raise RuntimeError(
[rank6]: RuntimeError: FSDP parameters should be materialized on CPU when enabling CPU offloading. For example, load a CPU state dict or call module.to_empty(device="cpu"). Found following parameters on non-CPU device: [('model.norm.weight', device(type='npu', index=6))]
"""

# A ZeRO-3 run whose partial optimizer offload hands host states to the GPU fused optimizer.
FUSED_OPTIMIZER_HOST_STATES = """\
[2024-01-09 10:12:40,118] [INFO] [stage3.py:131:__init__] Reduce bucket size 500000000
[rank0]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/ops/adam/fused_adam.py", line 191, in step
[rank0]:     multi_tensor_applier(self.multi_tensor_adam, self._dummy_overflow_buf, [g_32, p_32, m_32, v_32],
[rank0]: RuntimeError: expected input to be on cuda
[2024-01-09 10:12:44,901] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', '--local_rank=0'] exits with return code = 1
"""

# Counterexample: the CPU Adam build's warning is no failure.
CPU_ADAM_WARNING = """\
 [WARNING]  cpu_adam cuda is missing or is incompatible with installed torch, only cpu ops can be compiled!
Time to load cpu_adam op: 2.71 seconds
"""


def test_a_full_swap_space_is_host_memory_with_the_setting_beside_it() -> None:
    diagnosis = diagnose_text("logs/rollout.log", SWAP_SPACE_FULL)
    assert_reads(diagnosis, "oom", first_error="lack of CPU swap space", beside=("config",))


def test_the_front_ends_quote_of_the_abort_keeps_its_reading() -> None:
    diagnosis = diagnose_text("logs/frontend.log", SWAP_SPACE_QUOTED)
    assert_reads(diagnosis, "oom", first_error="lack of CPU swap space")


def test_swapping_itself_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/serve.log", SWAP_ONLY_REPORTED)
    assert diagnosis.category != "oom", diagnosis.root_cause


def test_fsdp_offload_with_parameters_on_the_device_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/train.log", FSDP_OFFLOAD_ON_DEVICE)
    assert_reads(
        diagnosis, "config", first_error="parameter CPU offloading enabled has parameters on cuda"
    )


def test_fsdp2_offload_with_parameters_left_on_the_npu_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/train.log", FSDP2_OFFLOAD_ON_NPU)
    assert_reads(diagnosis, "config", first_error="should be materialized on CPU")


def test_a_fused_optimizer_handed_host_states_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/train.log", FUSED_OPTIMIZER_HOST_STATES)
    assert_reads(
        diagnosis, "config", first_error="expected input to be on cuda", beside=("operator",)
    )


def test_the_cpu_adam_build_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", CPU_ADAM_WARNING)
    assert diagnosis.category != "config", diagnosis.root_cause


# A tensor-parallel worker's weight offload finds its host copy unpinned.
OFFLOADED_WEIGHTS_UNPINNED = """\
(Worker_TP1 pid=811) ERROR 07-22 16:03:46 [multiproc_executor.py:870]   File "/opt/venv/lib/python3.12/site-packages/vllm/utils/torch_utils.py", line 798, in get_accelerator_view_from_cpu_tensor
(Worker_TP1 pid=811) ERROR 07-22 16:03:46 [multiproc_executor.py:870]     assert cpu_tensor.is_pinned(), "CPU tensor must be pinned"
(Worker_TP1 pid=811) ERROR 07-22 16:03:46 [multiproc_executor.py:870] AssertionError: CPU tensor must be pinned
(EngineCore pid=702) ERROR 07-22 16:03:47 [core.py:1098] EngineCore failed to start.
"""


def test_offloaded_weights_without_pinned_memory_are_the_setting() -> None:
    diagnosis = diagnose_text("logs/serve.log", OFFLOADED_WEIGHTS_UNPINNED)
    assert_reads(
        diagnosis,
        "config",
        first_error="AssertionError: CPU tensor must be pinned",
        beside=("driver_env",),
    )


# ZeRO-3 with optimizer offload: the step unscales the fp32 gradient partition kept in host
# memory by a scale computed on the GPU, and torch refuses the mixed operands. The paste starts
# in the middle of the traceback, so only the frames above the exception say where it was.
ZERO3_OFFLOAD_STEP_MIXED_DEVICES = """\
[rank3]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 2075, in _take_model_step
[rank3]:     self.optimizer.step()
[rank3]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2047, in step
[rank3]:     self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
[rank3]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2117, in unscale_and_clip_grads
[rank3]:     self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)
[rank3]: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:3 and cpu!
"""

# Counterexample: the same words from a model's own forward keep the operator reading.
MODEL_FORWARD_MIXED_DEVICES = """\
Traceback (most recent call last):
  File "/work/tune/train.py", line 61, in <module>
    logits = model(batch)
  File "/opt/venv/lib/python3.10/site-packages/torch/nn/modules/linear.py", line 125, in forward
    return F.linear(input, self.weight, self.bias)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)
"""


def test_a_device_mismatch_in_the_offloaded_zero_step_is_the_setting() -> None:
    diagnosis = diagnose_text("logs/train.log", ZERO3_OFFLOAD_STEP_MIXED_DEVICES)
    assert_reads(
        diagnosis,
        "config",
        first_error="cuda:3 and cpu",
        rule="cfg.zero_offload_step_mixed_devices",
        beside=("other",),
    )


def test_a_device_mismatch_in_a_models_forward_is_not_the_offload_step() -> None:
    diagnosis = diagnose_text("logs/train.log", MODEL_FORWARD_MIXED_DEVICES)
    assert "cfg.zero_offload_step_mixed_devices" not in rules_of(diagnosis)
    assert diagnosis.category == "operator", diagnosis.root_cause
