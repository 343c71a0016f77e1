"""Quantized or low-precision weights handed to a sharding wrapper that cannot take them.

docs/labelling.md#quantized-weights-a-sharding-wrapper-cannot-take: FSDP refusing to flatten
integer-stored weights, ZeRO-3 finding several dtypes in one gather, torch refusing gradients
on an integer tensor, transformers refusing a model built outside ZeRO-3's initialisation, and
a scale computed over a rank's empty parameter slice are `config` (the quantization or the
precision library and the sharding set-up do not combine), and the refusal is the first error.
Fixtures are written in the real formats with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FSDP_OLD_WORDING = """\
  File "/opt/conda/envs/sft/lib/python3.10/site-packages/torch/distributed/fsdp/flat_param.py", line 435, in _init_flat_param
    raise ValueError("Integer parameters are unsupported")
ValueError: Integer parameters are unsupported
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 1 (pid: 20417) of binary: /opt/conda/envs/sft/bin/python3.10
"""

FSDP_NEW_WORDING = """\
[rank1]:   File "/srv/recipes/finetune.py", line 152, in main
[rank1]:     model = FSDP(
[rank1]: ValueError: Cannot flatten integer dtype tensors
[rank0]: ValueError: Cannot flatten integer dtype tensors
E0412 09:14:03.118000 7711 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 7790) of binary: /usr/bin/python3
"""


def test_fsdp_refusing_integer_weights_is_the_quantization_setting() -> None:
    for text, words in (
        (FSDP_OLD_WORDING, "Integer parameters are unsupported"),
        (FSDP_NEW_WORDING, "Cannot flatten integer dtype tensors"),
    ):
        diagnosis = diagnose_text("train.log", text)
        assert_reads(diagnosis, "config", first_error=words, rule="cfg.fsdp_integer_parameters")


def test_the_source_line_that_raises_it_is_no_refusal() -> None:
    diagnosis = diagnose_text("train.log", FSDP_OLD_WORDING.splitlines()[1] + "\n")
    assert "cfg.fsdp_integer_parameters" not in rules_of(diagnosis)


ZERO3_GATHER = """\
[2026-01-20 08:02:11,514] [INFO] [partition_parameters.py:345:__exit__] finished initializing model - num_params = 291, num_elems = 7.24B
  File "/usr/local/lib/python3.10/dist-packages/deepspeed/runtime/zero/partition_parameters.py", line 1132, in all_gather_coalesced
    dtype=get_only_unique_item(p.dtype
[rank1]: RuntimeError: expected there to be only one unique element in <generator object Init._convert_to_deepspeed_param.<locals>.all_gather_coalesced.<locals>.<genexpr> at 0x7f3c91d2a0b0>
"""


def test_zero3_finding_several_dtypes_in_one_gather_is_config() -> None:
    diagnosis = diagnose_text("rank1.log", ZERO3_GATHER)
    assert_reads(
        diagnosis,
        "config",
        first_error="only one unique element",
        rule="cfg.zero3_gather_mixed_dtypes",
    )


def test_the_same_helper_on_another_generator_is_not_the_gather() -> None:
    text = (
        "RuntimeError: expected there to be only one unique element in <generator object "
        "Batcher.collate.<locals>.<genexpr> at 0x7f3c91d2a0b0>\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.zero3_gather_mixed_dtypes" not in rules_of(diagnosis)


INT8_TRAINABLE = """\
[2026-02-11 13:40:02,118] [INFO] [comm.py:652:init_distributed] cdb=None
Adding LoRA adapters...
Traceback (most recent call last):
  File "/srv/vlm/train/train.py", line 611, in train
    p.requires_grad = True
RuntimeError: only Tensors of floating point and complex dtype can require gradients
"""


def test_gradients_asked_for_on_integer_weights_are_config_with_the_script_beside() -> None:
    diagnosis = diagnose_text("train.log", INT8_TRAINABLE)
    assert_reads(diagnosis, "config", first_error="can require gradients")
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_a_warning_about_inputs_without_gradients_is_no_refusal() -> None:
    text = "UserWarning: None of the inputs have requires_grad=True. Gradients will be None\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.grad_on_integer_tensor" not in rules_of(diagnosis)


EMPTY_SHARD = """\
  File "/opt/venv/lib/python3.11/site-packages/fp8lib/cast.py", line 81, in cast_to_fp8
    meta.amax[0] = input.abs().max()
[rank3]: RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.
[rank2]:     engine = Engine(model, config=ds_config)
"""


def test_a_scale_over_an_empty_parameter_slice_is_config_with_the_library_beside() -> None:
    diagnosis = diagnose_text("train.log", EMPTY_SHARD)
    assert_reads(diagnosis, "config", first_error="Expected reduction dim to be specified")
    assert any(alt.category == "other" for alt in diagnosis.alternatives)


def test_the_reduction_with_a_dimension_given_is_not_this_rule() -> None:
    text = "IndexError: amax(): Expected reduction dim 0 to have non-zero size.\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.empty_shard_reduction" not in rules_of(diagnosis)


ZERO3_INIT = """\
[INFO|trainer.py:641] 2026-03-09 17:02:44,551 >> Using auto half precision backend
ValueError: Model was not initialized with `Zero-3` despite being configured for DeepSpeed Zero-3. Please re-initialize your model via `Model.from_pretrained(...)` or `Model.from_config(...)` after creating your `TrainingArguments`!
"""


def test_a_model_built_outside_zero3_init_is_config() -> None:
    diagnosis = diagnose_text("train.log", ZERO3_INIT)
    assert_reads(
        diagnosis,
        "config",
        first_error="despite being configured for DeepSpeed Zero-3",
        rule="cfg.zero3_init_not_applied",
    )


def test_the_loader_announcing_zero3_init_is_no_failure() -> None:
    text = (
        "[INFO|modeling_utils.py:3426] 2026-03-09 17:02:40,101 >> Detected DeepSpeed ZeRO-3: "
        "activating zero.init() for this model\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.zero3_init_not_applied" not in rules_of(diagnosis)


def test_the_advice_names_the_setting_that_makes_the_pair_work() -> None:
    fsdp = diagnose_text("train.log", FSDP_NEW_WORDING)
    assert any("quant_storage" in action for action in fsdp.next_actions)
    gather = diagnose_text("rank1.log", ZERO3_GATHER)
    assert any("ZeRO-2" in action for action in gather.next_actions)
    trainable = diagnose_text("train.log", INT8_TRAINABLE)
    assert any("LoRA adapters" in action for action in trainable.next_actions)
    empty = diagnose_text("train.log", EMPTY_SHARD)
    assert any("empty shards" in action for action in empty.next_actions)


# A PPO trainer hands a 4-bit policy to DeepSpeed's engine, which moves the module to its
# device while it is built; transformers refuses to move a bitsandbytes-quantized model.
ENGINE_MOVES_QUANTIZED = """\
  File "/srv/venv/lib/python3.11/site-packages/deepspeed/runtime/engine.py", line 1207, in _configure_distributed_model
    self.module.to(self.device)
  File "/srv/venv/lib/python3.11/site-packages/transformers/modeling_utils.py", line 2617, in to
    raise ValueError(
[rank1]: ValueError: `.to` is not supported for `4-bit` or `8-bit` bitsandbytes models. Please use the model as it is, since the model has already been set to the correct devices and casted to the correct `dtype`.
[2026-04-02 11:20:31,551] [ERROR] [launch.py:325:sigkill_handler] ['/srv/venv/bin/python', '-u', 'train_ppo.py'] exits with return code = 1
"""


def test_a_wrapper_moving_a_quantized_model_is_config_with_the_script_beside() -> None:
    diagnosis = diagnose_text("train.log", ENGINE_MOVES_QUANTIZED)
    assert_reads(
        diagnosis,
        "config",
        first_error="is not supported for `4-bit` or `8-bit`",
        rule="cfg.quantized_model_moved",
        beside=("other",),
    )
    assert any("the rank's own GPU" in action for action in diagnosis.next_actions)


def test_a_script_keeping_its_quantized_model_in_place_is_no_refusal() -> None:
    text = "INFO the 4-bit policy stays where the loader placed it; skipping .to(cuda:1)\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.quantized_model_moved" not in rules_of(diagnosis)
