"""An engine refusing a combination of its own features.

docs/labelling.md#engine-features-that-do-not-combine: a serving or training engine (or the
attention backend a device plugin gives it) that raises "<feature> and <feature> are currently
not supported" or "<feature> is not supported with <feature>" is refusing the job's options:
`config`, and the refusal is the first error. A warning that switches a feature off and
carries on is no failure, and an op binding's refusal keeps its operator reading.

Fixtures follow the shapes a trainer driving an offline engine prints (a bare traceback, then
the rank-prefixed one) with wording and values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

BACKEND_REFUSES_PAIR = """\
  File "/opt/py3.10/lib/python3.10/site-packages/vllm/attention/layer.py", line 201, in forward
    return self.impl.forward(self, query, key, value, kv_cache, attn_metadata)
  File "/opt/py3.10/lib/python3.10/site-packages/demo_npu_plugin/attention.py", line 512, in forward
    raise RuntimeError(
RuntimeError: Speculative decoding and chunked prefill are currently not supported.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/rl/train.py", line 12, in <module>
[rank0]:     main()
"""

ENGINE_REFUSES_WITH = """\
(VllmWorkerProcess pid=7311) ERROR 04-02 10:11:12 multiproc_worker_utils.py:242] Traceback (most recent call last):
(VllmWorkerProcess pid=7311) ERROR 04-02 10:11:12 multiproc_worker_utils.py:242]   File "/opt/serve/engine.py", line 88, in init
(VllmWorkerProcess pid=7311) ERROR 04-02 10:11:12 multiproc_worker_utils.py:242]     raise NotImplementedError(msg)
(VllmWorkerProcess pid=7311) ERROR 04-02 10:11:12 multiproc_worker_utils.py:242] NotImplementedError: Multi-step scheduling is not supported with LoRA adapters
"""

FEATURE_SWITCHED_OFF = """\
WARNING 04-02 10:11:12 config.py:611] Chunked prefill is not supported with sliding window; turning chunked prefill off.
INFO 04-02 10:11:20 llm_engine.py:431] init engine took 7.91 seconds
"""

OP_BINDING_REFUSES = """\
Traceback (most recent call last):
  File "/opt/serve/attn.py", line 40, in forward
    out = torch_npu.npu_demo_attention(q, k, v, layout="BSND")
RuntimeError: npu_demo_attention: head_dim 80 is not supported with layout BSND
"""


def test_a_backend_refusing_two_features_is_config() -> None:
    diagnosis = diagnose_text("rank0.log", BACKEND_REFUSES_PAIR)
    assert_reads(diagnosis, "config", first_error="are currently not supported")


def test_an_engine_refusing_a_feature_with_another_is_config() -> None:
    diagnosis = diagnose_text("worker.log", ENGINE_REFUSES_WITH)
    assert_reads(diagnosis, "config", first_error="is not supported with LoRA")


def test_a_warning_that_turns_a_feature_off_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", FEATURE_SWITCHED_OFF)
    assert diagnosis.category != "config" or diagnosis.first_error is None


def test_an_op_binding_refusal_keeps_its_operator_reading() -> None:
    diagnosis = diagnose_text("attn.log", OP_BINDING_REFUSES)
    assert diagnosis.category == "operator", diagnosis.root_cause


# A training engine's own assertion that two of its features cannot run together, in the
# "<feature> is incompatible with <feature>" wording (gradient accumulation's skipped syncs
# under a sharded optimizer stage, here), printed first for one rank and then with the
# other rank's traceback.
TRAINER_FEATURES_INCOMPATIBLE = """\
[rank0]: AssertionError: deferred gradient sync is incompatible with sharded gradient buckets of optimizer stage 2
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/ft/train.py", line 311, in <module>
[rank1]:     main()
[rank1]:   File "/srv/ft/train.py", line 270, in main
[rank1]:     engine.train_step(batch)
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/demo_engine/runtime/engine.py", line 1840, in no_sync
[rank1]:     assert not self.partitions_gradients(), \\
[rank1]: AssertionError: deferred gradient sync is incompatible with sharded gradient buckets of optimizer stage 2
"""

# Counterexample: a model that says an input's shape does not fit uses the same word about
# tensors, not features; it is not this reading.
SHAPE_INCOMPATIBLE = """\
Traceback (most recent call last):
  File "/srv/ft/model.py", line 88, in forward
    raise ValueError(f"Input shape {tuple(x.shape)} is incompatible with the expected shape {expected}")
ValueError: Input shape (4, 128) is incompatible with the expected shape (4, 256)
"""


def test_features_an_engine_calls_incompatible_are_config() -> None:
    diagnosis = diagnose_text("rank0.log", TRAINER_FEATURES_INCOMPATIBLE)
    assert_reads(diagnosis, "config", first_error="is incompatible with sharded gradient buckets")


def test_a_shape_called_incompatible_is_not_a_feature_pair() -> None:
    diagnosis = diagnose_text("rank0.log", SHAPE_INCOMPATIBLE)
    rules = rules_of(diagnosis)
    assert "cfg.engine_feature_combination" not in rules
    assert diagnosis.category != "config", diagnosis.root_cause


# ZeRO-3's pre-forward hook meets a parameter that is still partitioned: a reward model the
# trainer ran outside the engine. Two ranks print the assertion and their frames interleave.
ZERO3_PARAM_NOT_GATHERED = """\
[rank1]: AssertionError: {'id': 57, 'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': 0, 'shape': (0,), 'ds_shape': (0,), 'requires_grad': False, 'grad_shape': None, 'persist': True, 'active_sub_modules': {9}, 'ds_tensor.shape': torch.Size([0])}
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/parameter_offload.py", line 402, in _pre_forward_module_hook
[rank0]:     self.pre_sub_module_forward_function(module)
[rank0]: AssertionError: {'id': 57, 'status': 'NOT_AVAILABLE', 'numel': 0, 'ds_numel': 0, 'shape': (0,), 'ds_shape': (0,), 'requires_grad': False, 'grad_shape': None, 'persist': True, 'active_sub_modules': {9}, 'ds_tensor.shape': torch.Size([0])}
"""

# Counterexample: a scheduler that quotes a state dict of its own in an assertion; no ZeRO-3
# parameter summary (no id, no numel) and not this reading.
REQUEST_STATE_ASSERTION = """\
Traceback (most recent call last):
  File "/srv/sched/queue.py", line 54, in pop
    assert state in VALID, f"{state} is not a valid request state"
AssertionError: {'status': 'NOT_AVAILABLE'} is not a valid request state
"""


def test_a_zero3_parameter_used_before_its_gather_is_config() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_PARAM_NOT_GATHERED)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.zero3_param_not_gathered" in rules
    assert diagnosis.first_error is not None
    assert "'status': 'NOT_AVAILABLE'" in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_state_dict_quoted_by_another_assertion_is_not_zero3() -> None:
    diagnosis = diagnose_text("sched.log", REQUEST_STATE_ASSERTION)
    rules = rules_of(diagnosis)
    assert "cfg.zero3_param_not_gathered" not in rules


# ZeRO-3 partitions a parameter again around a save and finds a module still using it: a
# trainer that saved while its own gather for generation was open. One rank's frames, cut above.
ZERO3_RELEASED_IN_USE = """\
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py", line 1561, in _partition_param
[rank0]:     free_param(param)
[rank0]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partition_parameters.py", line 281, in free_param
[rank0]:     assert not param.ds_active_sub_modules, param.ds_summary()
[rank0]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]: AssertionError: {'id': 3, 'status': 'AVAILABLE', 'numel': 8388608, 'ds_numel': 8388608, 'shape': (32768, 256), 'ds_shape': (32768, 256), 'requires_grad': True, 'grad_shape': None, 'persist': False, 'active_sub_modules': {44}, 'ds_tensor.shape': torch.Size([1048576])}
"""

# Counterexample: a gathered parameter no module uses, printed by another check.
ZERO3_AVAILABLE_UNUSED = """\
[rank0]: AssertionError: {'id': 3, 'status': 'AVAILABLE', 'numel': 8388608, 'ds_numel': 8388608, 'shape': (32768, 256), 'ds_shape': (32768, 256), 'requires_grad': True, 'grad_shape': None, 'persist': False, 'active_sub_modules': set(), 'ds_tensor.shape': torch.Size([1048576])}
"""


def test_a_zero3_parameter_released_while_in_use_is_config() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_RELEASED_IN_USE)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.zero3_param_released_in_use" in rules
    assert diagnosis.first_error is not None
    assert "'status': 'AVAILABLE'" in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_gathered_parameter_no_module_uses_is_not_the_release_check() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_AVAILABLE_UNUSED)
    rules = rules_of(diagnosis)
    assert "cfg.zero3_param_released_in_use" not in rules


# ZeRO-3's coordinator at the end of a forward still holds prefetched parameters that no module
# used: a vision tower the model runs only for samples that carry an image. One rank's frames.
ZERO3_INFLIGHT_AT_STEP_END = """\
[rank3]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/parameter_offload.py", line 344, in _end_of_forward_hook
[rank3]:     self.get_param_coordinator().reset_step()
[rank3]:   File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 207, in reset_step
[rank3]:     raise RuntimeError(f"still have inflight params "
[rank3]: RuntimeError: still have inflight params [{'id': 412, 'status': 'INFLIGHT', 'numel': 0, 'ds_numel': 2359296, 'shape': (0,), 'ds_shape': (1536, 1536), 'requires_grad': True, 'grad_shape': None, 'persist': False, 'active_sub_modules': set(), 'ds_tensor.shape': torch.Size([294912])}]
"""

# Older releases print each parameter's bound summary method, and two ranks writing one stderr
# can leave the exception's class at the end of the source line, the message on the next.
ZERO3_INFLIGHT_GLUED = """\
  File "/usr/lib/python3.9/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 190, in reset_step
    raise RuntimeError(f"still have inflight params "RuntimeError:
still have inflight params [<bound method Init._convert_to_deepspeed_param.<locals>.ds_summary of Parameter containing:
"""

# Counterexample: the raising statement alone is source, not the check's message.
ZERO3_INFLIGHT_SOURCE_ONLY = """\
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 207, in reset_step
    raise RuntimeError(f"still have inflight params "
"""


def test_zero3_parameters_still_in_flight_at_the_step_end_are_config() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_INFLIGHT_AT_STEP_END)
    assert_reads(
        diagnosis,
        "config",
        first_error="still have inflight params [{'id': 412",
        rule="cfg.zero3_params_inflight_at_step_end",
        beside=("other",),
    )


def test_the_inflight_message_under_a_glued_source_line_is_the_same_check() -> None:
    diagnosis = diagnose_text("step3_training.log", ZERO3_INFLIGHT_GLUED)
    assert_reads(
        diagnosis,
        "config",
        first_error="still have inflight params [<bound method",
        rule="cfg.zero3_params_inflight_at_step_end",
    )


def test_the_raising_statement_alone_is_not_the_inflight_check() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_INFLIGHT_SOURCE_ONLY)
    assert "cfg.zero3_params_inflight_at_step_end" not in rules_of(diagnosis)


# The same gap seen from the embedding: a prompt encoder run outside the engine under ZeRO-3
# looks its tokens up in a table each rank holds only a slice of, and torch refuses the table.
SHARDED_EMBEDDING_WEIGHT = """\
[rank3]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py", line 2551, in embedding
[rank3]:     return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
[rank3]: RuntimeError: 'weight' must be 2-D
"""

# Counterexample: a kernel's own input rule naming several allowed ranks.
KERNEL_WEIGHT_RANK_RULE = """\
Traceback (most recent call last):
  File "/srv/ops/fused.py", line 40, in forward
    raise ValueError(msg)
ValueError: 'weight' must be 2-D or 3-D for this kernel, got 4-D
"""


def test_an_embedding_on_a_weight_zero3_never_gathered_is_config() -> None:
    diagnosis = diagnose_text("train.log", SHARDED_EMBEDDING_WEIGHT)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.sharded_embedding_weight" in rules
    assert diagnosis.first_error is not None
    assert "'weight' must be 2-D" in diagnosis.first_error.text
    assert "other" in {alt.category for alt in diagnosis.alternatives}


def test_a_kernel_rule_on_the_weight_rank_is_not_a_sharded_embedding() -> None:
    diagnosis = diagnose_text("ops.log", KERNEL_WEIGHT_RANK_RULE)
    rules = rules_of(diagnosis)
    assert "cfg.sharded_embedding_weight" not in rules


# vLLM's engine process logs the exception's repr on its first line, and the refusal here
# names the mode the feature cannot run in ("... is not supported in <mode>").
ENGINE_REPR_REFUSES_IN_MODE = """\
INFO 06-11 14:02:08 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Running: 1 reqs, Pending: 0 reqs
ERROR 06-11 14:02:09 engine.py:160] AssertionError('Guided decoding is not supported in speculative decoding')
ERROR 06-11 14:02:09 engine.py:160] Traceback (most recent call last):
ERROR 06-11 14:02:09 engine.py:160]   File "/opt/serve/engine/mq_engine.py", line 158, in start
ERROR 06-11 14:02:09 engine.py:160]     self.run_engine_loop()
"""

# Counterexample: the same words in a warning that turns the feature off and carries on.
MODE_WARNING_ONLY = """\
WARNING 06-11 14:02:09 arg_utils.py:930] Prefix caching is not supported in multi-step mode; disabling it.
INFO 06-11 14:02:20 llm_engine.py:431] init engine took 6.02 seconds
"""


def test_an_engine_repr_refusing_a_mode_is_config() -> None:
    diagnosis = diagnose_text("serve.log", ENGINE_REPR_REFUSES_IN_MODE)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.engine_feature_combination" in rules
    assert diagnosis.first_error is not None
    assert "is not supported in speculative decoding" in diagnosis.first_error.text


def test_a_warning_naming_an_unsupported_mode_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", MODE_WARNING_ONLY)
    assert diagnosis.category != "config" or diagnosis.first_error is None


# A chip family's own code path in the device plugin refusing the run option the job set,
# naming the chip and the option with its value.
CHIP_REFUSES_RUN_OPTION = """\
(EngineCore pid=812) ERROR 03-02 10:11:12 [core.py:866]   File "/opt/serve/npu_plugin/_310p/attention/attention_mask.py", line 93, in get_attention_mask
(EngineCore pid=812) ERROR 03-02 10:11:12 [core.py:866]     raise NotImplementedError("310P does not support runner_type='pooling'")
(EngineCore pid=812) ERROR 03-02 10:11:12 [core.py:866] NotImplementedError: 310P does not support runner_type='pooling'
"""

# Counterexample: a process-group backend lacking a collective names no option and value.
BACKEND_LACKS_COLLECTIVE = """\
[rank1]:   File "/opt/py3.10/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 4111, in reduce_scatter_tensor
[rank1]:     work = group._reduce_scatter_base(output, input, opts)
[rank1]: NotImplementedError: backend gloo does not support reduce_scatter
"""


def test_a_chip_refusing_the_run_option_is_config() -> None:
    diagnosis = diagnose_text("serve.log", CHIP_REFUSES_RUN_OPTION)
    assert diagnosis.category == "config", diagnosis.root_cause
    rules = rules_of(diagnosis)
    assert "cfg.platform_mode_unsupported" in rules
    assert diagnosis.first_error is not None
    assert "does not support runner_type='pooling'" in diagnosis.first_error.text


def test_a_backend_lacking_a_collective_is_not_a_platform_option() -> None:
    diagnosis = diagnose_text("rank1.log", BACKEND_LACKS_COLLECTIVE)
    rules = rules_of(diagnosis)
    assert "cfg.platform_mode_unsupported" not in rules


LOADER_REFUSES_OPTION_UNDER_SHARDED_STAGE = """\
Traceback (most recent call last):
  File "/work/sft/models/decoder.py", line 120, in __init__
    model = AutoModelForCausalLM.from_pretrained(
  File "/opt/py3.9/site-packages/transformers/models/auto/auto_factory.py", line 558, in from_pretrained
    return model_class.from_pretrained(
  File "/opt/py3.9/site-packages/transformers/modeling_utils.py", line 2445, in from_pretrained
    raise ValueError(
ValueError: ZeRO stage 3 is not compatible with `offload_buffers=True` or with passing a `max_memory` map.
"""

SHAPE_NOT_COMPATIBLE = """\
Traceback (most recent call last):
  File "/work/train.py", line 50, in step
    y = head(x)
ValueError: Input shape (4, 128) is not compatible with the expected shape (4, 256)
"""


def test_a_loader_refusing_an_option_under_a_sharded_stage_is_config() -> None:
    # The refusal is raised inside from_pretrained, but no weight was read: the two options
    # of the job do not combine.
    diagnosis = diagnose_text("stdout.log", LOADER_REFUSES_OPTION_UNDER_SHARDED_STAGE)
    assert_reads(diagnosis, "config", first_error="is not compatible with `offload_buffers=True`")


def test_shapes_that_are_not_compatible_are_not_a_feature_pair() -> None:
    diagnosis = diagnose_text("stdout.log", SHAPE_NOT_COMPATIBLE)
    assert diagnosis.category != "config", diagnosis.root_cause


# A quantized checkpoint format refused under a parallel layout, inside the loader's frames.
QUANT_FORMAT_WITH_PARALLEL_LAYOUT = """\
  File "/srv/venv/lib/python3.12/site-packages/vllm/model_executor/model_loader/loader.py", line 1154, in load_model
    self._load_weights(model_config, model)
  File "/srv/venv/lib/python3.12/site-packages/vllm/model_executor/model_loader/loader.py", line 1058, in _load_weights
    raise ValueError(
ValueError: Prequantized 4-bit checkpoints with tensor parallelism are not supported. Try pipeline parallelism instead.
"""

# The same phrase naming a shape: no feature pair.
INPUT_RANK_NOT_SUPPORTED = """\
Traceback (most recent call last):
  File "/work/vision/patchify.py", line 40, in forward
    raise ValueError("Inputs with 5 dimensions are not supported")
ValueError: Inputs with 5 dimensions are not supported
"""


def test_a_quantized_format_refused_under_a_parallel_layout_is_config() -> None:
    # Raised inside the loader, but no weight was read: the quantization and the layout do not
    # combine in this release.
    diagnosis = diagnose_text("serve/worker_0.log", QUANT_FORMAT_WITH_PARALLEL_LAYOUT)
    assert_reads(diagnosis, "config", first_error="with tensor parallelism are not supported")
    assert diagnosis.confidence >= 0.5


def test_a_shape_named_with_the_same_phrase_is_not_a_feature_pair() -> None:
    # No rule reads it: whatever the fallback guesses from the words stays far below the rule.
    diagnosis = diagnose_text("stdout.log", INPUT_RANK_NOT_SUPPORTED)
    assert diagnosis.confidence < 0.3, diagnosis.root_cause


# A checkpoint converter's worker validating the arguments it built for the model, the option
# named by its command-line flag.
CONVERTER_REFUSES_FLAG = """\
using torch.bfloat16 for parameters ...
Process Process-1:
Traceback (most recent call last):
  File "/opt/megatron/tools/checkpoint/saver_demo.py", line 212, in save_checkpoint
    validate_args(margs)
  File "/opt/megatron/megatron/training/arguments.py", line 431, in validate_args
    raise RuntimeError('--overlap-param-gather is not supported in the legacy model path')
RuntimeError: --overlap-param-gather is not supported in the legacy model path
"""


def test_an_option_refused_by_its_flag_is_config() -> None:
    diagnosis = diagnose_text("logs/convert.log", CONVERTER_REFUSES_FLAG)
    assert_reads(diagnosis, "config", first_error="--overlap-param-gather is not supported")
    assert diagnosis.confidence >= 0.5


# docs/labelling.md#engine-features-that-do-not-combine: an engine that has not implemented a
# feature for a mode of another says so with the mode after `for` and a "yet / at the moment".
# An expert-statistics recorder (kept for expert rebalancing) asserting on the routing of a
# prefill server with speculative multi-token prediction puts the symptom it checked first and
# the explanation after it, in one message; the explanation decides.
RECORDER_REFUSES_MTP = """\
[2026-03-02 10:11:12 DP2 TP2] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/srv/serving/moe/stats_recorder.py", line 377, in on_routed
    assert self._buf[layer, :].shape == routed_ids.shape, (
AssertionError: Shape mismatch between buffer and routed_ids.Recording routing is not supported for multi-token drafting at the moment.
"""

RECORDER_REFUSES_MTP_RANKED = """\
[rank5]: Traceback (most recent call last):
[rank5]:   File "/opt/srv/serving/moe/stats_recorder.py", line 377, in on_routed
[rank5]: NotImplementedError: Expert load recording is not yet supported for speculative decoding
"""

# Counterexamples: a shape assertion with no such explanation keeps its shape reading, and
# a platform after `for` is not a feature pair.
PLAIN_SHAPE_ASSERTION = """\
  File "/opt/srv/serving/moe/stats_recorder.py", line 377, in on_routed
    assert self._buf[layer, :].shape == routed_ids.shape
AssertionError: Shape mismatch between buffer and routed_ids
"""

FEATURE_NOT_ON_DEVICE = """\
  File "/opt/srv/serving/moe/stats_recorder.py", line 90, in __init__
RuntimeError: Recording routing is not supported for this device at the moment
"""


def test_a_feature_not_yet_done_for_a_mode_outweighs_the_shape_words() -> None:
    diagnosis = diagnose_text("prefill.log", RECORDER_REFUSES_MTP)
    assert_reads(
        diagnosis,
        "config",
        first_error="is not supported for multi-token drafting",
        beside=("shape_mismatch",),
    )


def test_a_feature_not_yet_supported_for_a_mode_is_config() -> None:
    diagnosis = diagnose_text("rank5.log", RECORDER_REFUSES_MTP_RANKED)
    assert_reads(diagnosis, "config", first_error="not yet supported for speculative decoding")


def test_a_shape_assertion_without_the_explanation_stays_a_shape() -> None:
    diagnosis = diagnose_text("prefill.log", PLAIN_SHAPE_ASSERTION)
    assert diagnosis.category == "shape_mismatch", diagnosis.root_cause


def test_a_device_after_for_is_not_a_mode() -> None:
    diagnosis = diagnose_text("prefill.log", FEATURE_NOT_ON_DEVICE)
    rules = rules_of(diagnosis)
    assert "cfg.feature_not_yet_supported_for_mode" not in rules


# The same coordinator, at the start of the next forward, rebuilds its parameter order from the
# modules it recorded and pops for each one the step it was fetched in; a module the recorded
# pass ran that this pass did not fetch (generation or a reference model run through the
# sharded model outside the engine's forward) leaves that queue empty. One rank's frames.
ZERO3_TRACE_QUEUE_EMPTY = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/rl/train_policy.py", line 88, in <module>
[rank1]:     trainer.train()
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/parameter_offload.py", line 236, in _start_of_forward_hook
[rank1]:     self.get_param_coordinator().reset_step()
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 240, in reset_step
[rank1]:     self.construct_parameter_trace_from_module_trace()
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 224, in construct_parameter_trace_from_module_trace
[rank1]:     self.record_parameters(sub_module)
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py", line 216, in record_parameters
[rank1]:     step_id = self.__step_id_module_fetched_for[sub_module.ds_id].popleft()
[rank1]: IndexError: pop from an empty deque
"""

# Counterexample: the same Python words from a job's own queue name no ZeRO-3 step.
OWN_QUEUE_EMPTY = """\
Traceback (most recent call last):
  File "/work/rl/rollout_buffer.py", line 57, in next_batch
    item = self._pending.popleft()
IndexError: pop from an empty deque
"""


def test_zero3_popping_an_empty_module_trace_is_config() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_TRACE_QUEUE_EMPTY)
    assert_reads(
        diagnosis,
        "config",
        first_error="IndexError: pop from an empty deque",
        rule="cfg.zero3_module_trace_queue_empty",
        beside=("other",),
    )


def test_an_empty_deque_in_the_jobs_own_code_is_not_the_zero3_trace() -> None:
    diagnosis = diagnose_text("train.log", OWN_QUEUE_EMPTY)
    assert "cfg.zero3_module_trace_queue_empty" not in rules_of(diagnosis)
