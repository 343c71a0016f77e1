"""Quantized and speculative serving under tensor parallelism, in wordings the rules missed.

Each test holds a few lines in the real shape (values, names and paths of our own) and checks
the label and the line read first: a block-quantized layer's per-rank slice named
`output_partition_size`, a speculative config refused in pydantic's `Value error, ...` detail, an
architecture name transformers' module lookup does not hold, a runtime with no layout for a
low-precision type, a device assertion retyped with straight quotes and wrapped, and None met
where an integer is needed on a speculative path.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

# A block-quantized (FP8) checkpoint served with a tensor-parallel size that cuts a narrow
# projection below one quantization block.
BLOCK_SLICE = """\
python3 -m demo_server.launch --model-path /models/demo-moe-fp8 --tensor-parallel-size 8
[2026-03-02 10:11:12 TP5] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/demo_server/layers/quantization/fp8.py", line 410, in validate_block_quant_shapes
    raise ValueError(
ValueError: Weight output_partition_size = 16 is not divisible by weight quantization block_n = 128.
"""


def test_a_block_quantized_slice_named_output_partition_size_is_weight_load() -> None:
    diagnosis = diagnose_files({"server.log": BLOCK_SLICE})
    assert_reads(
        diagnosis,
        "weight_load",
        first_error="output_partition_size = 16 is not divisible",
        rule="wl.quantized_partition_misaligned",
        beside=("config",),
    )


def test_a_partition_size_reported_in_passing_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", "INFO fp8 linear: output_partition_size = 256\n")
    assert "wl.quantized_partition_misaligned" not in rules_of(diagnosis)


# docs/labelling.md#a-feature-written-for-some-model-types-only
PYDANTIC_MODEL_TYPE = """\
(APIServer pid=4120) Traceback (most recent call last):
(APIServer pid=4120)   File "/srv/engine/engine/arg_utils.py", line 1210, in create_speculative_config
(APIServer pid=4120)     return SpeculativeConfig(**self.speculative_config)
pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig
  Value error, Draft heads of this kind are only supported for Llama models. Got model_type='mistral' [type=value_error, input_value=ArgsKwargs((), {'method': 'demo'}), input_type=ArgsKwargs]
"""


def test_a_model_type_limit_in_pydantic_detail_form_is_config() -> None:
    diagnosis = diagnose_files({"api_server.log": PYDANTIC_MODEL_TYPE})
    assert diagnosis.category == "config"
    assert "cfg.feature_limited_to_model_types" in rules_of(diagnosis)


def test_a_bare_model_type_limit_in_pydantic_detail_form_is_config() -> None:
    line = (
        "Value error, Draft heads of this kind are only supported for Llama models. "
        "Got model_type='qwen9' [type=value_error, input_value=ArgsKwargs((), {}), "
        "input_type=ArgsKwargs]\n"
    )
    diagnosis = diagnose_text("error.txt", line)
    assert_reads(diagnosis, "config", first_error="only supported for Llama models")
    assert diagnosis.confidence > 0.5


def test_another_pydantic_detail_is_not_a_model_type_limit() -> None:
    line = (
        "  Value error, num_speculative_tokens must be provided with speculative model "
        "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
    )
    diagnosis = diagnose_text("error.txt", line)
    assert "cfg.feature_limited_to_model_types" not in rules_of(diagnosis)


UNREGISTERED_ARCH = (
    "ValueError: Cannot find model module. 'DemoDraftForCausalLMHead2' is not a registered "
    "model in the Transformers library (only relevant if the model is meant to be in "
    "Transformers) and 'AutoModel' is not present in the model config's 'auto_map' (relevant "
    "if the model is custom).\n"
)


def test_an_architecture_transformers_does_not_hold_is_config() -> None:
    diagnosis = diagnose_text("error.txt", UNREGISTERED_ARCH)
    assert diagnosis.category == "config"
    assert "cfg.unknown_model" in rules_of(diagnosis)
    assert diagnosis.confidence >= 0.7


def test_an_engine_note_before_its_transformers_fallback_is_no_failure() -> None:
    line = "INFO 'DemoForCausalLM' is not a registered model in vLLM; trying the Transformers backend\n"
    diagnosis = diagnose_text("server.log", line)
    assert "cfg.unknown_model" not in rules_of(diagnosis)


# docs/labelling.md#a-low-precision-type-the-runtime-cannot-lay-out
FP4_LAYOUT = """\
[RT][INFO] [MemUsageChange] Allocated 4.10 GB GPU memory for runtime buffers.
terminate called after throwing an instance of 'runtime::common::RuntimeException'
  what():  Cannot determine size of FP4 data type (/src/cpp/include/runtime/common/dataType.h:40)
1       0x7f00aa001d33 /opt/venv/lib/python3.12/site-packages/runtime/libs/libruntime.so(+0xa1dd33) [0x7f00aa001d33]
"""


def test_a_runtime_without_a_layout_for_fp4_is_config() -> None:
    diagnosis = diagnose_files({"serve.log": FP4_LAYOUT})
    assert_reads(
        diagnosis,
        "config",
        first_error="Cannot determine size of FP4 data type",
        rule="cfg.runtime_lacks_quantized_dtype",
        beside=("operator",),
    )


def test_a_size_undetermined_for_a_tensor_is_not_a_data_type() -> None:
    diagnosis = diagnose_text(
        "serve.log", "RuntimeError: Cannot determine size of the output tensor\n"
    )
    assert "cfg.runtime_lacks_quantized_dtype" not in rules_of(diagnosis)


# A device assertion retyped from a screenshot: straight quotes, the condition wrapped so that
# `failed.` stands alone on the next line.
RETYPED_ASSERTION = """\
/torch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [5,0,0], thread: [31,0,0] Assertion '-sizes[i] <= index && index < sizes[i] &&
"index out of bounds"' failed.
[2026-03-02 10:11:12] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/demo_server/speculative/draft_graph_runner.py", line 124, in __init__
    self.capture()
"""


def test_a_wrapped_straight_quoted_kernel_assertion_is_the_device_failure() -> None:
    diagnosis = diagnose_files({"server.log": RETYPED_ASSERTION})
    assert_reads(
        diagnosis, "device_fault", first_error="IndexKernel.cu:92", rule="dev.kernel_assertion"
    )


def test_a_note_about_compiled_out_assertions_is_no_kernel_assertion() -> None:
    line = "note: kernel.cu:12: block: [0,0,0], thread: [0,0,0] Assertion checks are compiled out\n"
    diagnosis = diagnose_text("build.log", line)
    assert "dev.kernel_assertion" not in rules_of(diagnosis)


# docs/labelling.md#a-local-variable-read-before-any-branch-set-it
NONE_SLOT = """\
[2026-03-02 10:11:09] Decode batch, #running-req: 1, accept len: 2.61, cuda graph: True
[2026-03-02 10:11:12] Scheduler hit an exception: Traceback (most recent call last):
  File "/srv/demo_server/managers/scheduler.py", line 4062, in run_scheduler_process
    scheduler.run_event_loop()
  File "/srv/demo_server/managers/schedule_batch.py", line 1466, in set_track_indices
    torch.tensor(
TypeError: 'NoneType' object cannot be interpreted as an integer
"""


def test_none_where_an_integer_is_needed_is_a_code_bug() -> None:
    diagnosis = diagnose_files({"server.log": NONE_SLOT})
    assert_reads(
        diagnosis,
        "other",
        first_error="'NoneType' object cannot be interpreted as an integer",
        rule="framework.none_where_integer_needed",
        beside=("config",),
    )


def test_a_float_where_an_integer_is_needed_is_not_this_rule() -> None:
    line = "TypeError: 'float' object cannot be interpreted as an integer\n"
    diagnosis = diagnose_text("train.log", line)
    assert "framework.none_where_integer_needed" not in rules_of(diagnosis)


# docs/labelling.md#a-local-variable-read-before-any-branch-set-it
# A pipeline stage that holds no loss returns None and the logging path asks it for a value.
NONE_LOSS_ON_FIRST_STAGE = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/pretrain/run_train.py", line 88, in <module>
[rank0]:     trainer.train(dataloader)
[rank0]:   File "/srv/pretrain/trainer.py", line 512, in train_step_logs
[rank0]:     lm_loss = loss_avg.item()
[rank0]: AttributeError: 'NoneType' object has no attribute 'item'
"""


def test_an_attribute_of_none_is_a_code_bug_not_a_release_mismatch() -> None:
    diagnosis = diagnose_files({"train.log": NONE_LOSS_ON_FIRST_STAGE})
    assert_reads(
        diagnosis,
        "other",
        first_error="'NoneType' object has no attribute 'item'",
        rule="framework.none_value_used",
        beside=("config",),
    )


def test_an_unpacked_none_is_the_same_code_bug() -> None:
    line = "[rank2]: TypeError: cannot unpack non-iterable NoneType object\n"
    diagnosis = diagnose_text("sampler.log", line)
    assert diagnosis.category == "other"
    assert "framework.none_value_used" in rules_of(diagnosis)


def test_an_attribute_missing_on_a_real_object_keeps_the_release_reading() -> None:
    line = "AttributeError: 'DemoConfig' object has no attribute 'rope_scaling'\n"
    diagnosis = diagnose_text("train.log", line)
    assert diagnosis.category == "config"
    assert "framework.none_value_used" not in rules_of(diagnosis)


def test_a_quantization_entry_point_of_none_keeps_its_own_reading() -> None:
    line = "AttributeError: 'NoneType' object has no attribute 'cadam32bit_grad_fp32'\n"
    diagnosis = diagnose_text("train.log", line)
    assert diagnosis.category == "config"
    assert "cfg.quant_library_binary_handle_missing" in rules_of(diagnosis)
