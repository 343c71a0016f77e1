"""Options of the job that the device or the model does not take.

docs/labelling.md#a-precision-the-device-does-not-offer: a trainer that refuses the precision
the job asked for because the card (or the accelerator it detected) lacks it is `config`, with
`driver_env` beside it. docs/labelling.md#a-context-length-over-the-models-own: vLLM refusing
a max_model_len longer than the model's config allows is `config`. A config object asked for a
field it lacks is `config` even when the pasted message lost its closing quote.

Fixtures follow the shapes of a rank-prefixed DeepSpeed traceback, a notebook traceback, a
serving layer's relayed ValueError and a one-line paste, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

ENGINE_REFUSES_FP16 = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/work/pretrain/run.py", line 64, in main
[rank1]:     engine, _, _, _ = deepspeed.initialize(model=model,
[rank1]:   File "/opt/py3.10/dist-packages/deepspeed/runtime/engine.py", line 1080, in _do_sanity_check
[rank1]:     raise ValueError("Type fp16 is not supported.")
[rank1]: ValueError: Type fp16 is not supported.
"""

TRAINING_ARGS_REFUSE_BF16 = """\
  File "/opt/py3.9/site-packages/transformers/training_args.py", line 1098, in __post_init__
    raise ValueError(
ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere GPU with cuda>=11.0
"""

PRECISION_WARNING_ONLY = """\
[WARNING] bf16 is not supported on this device; falling back to fp16
step 10 loss 2.31
"""

CONTEXT_LONGER_THAN_MODEL = """\
ValueError: [address=10.0.0.3:4000, pid=812] User-specified max_model_len (8192) is greater than the derived max_model_len (seq_length=4096 or model_max_length=None in model's config.json). This may lead to incorrect model outputs or CUDA errors. Make sure the value is correct and within the model context size.
2024-06-25 10:11:12,100 serve.api 4121 ERROR    [address=10.0.0.3:4000, pid=812] User-specified max_model_len (8192) is greater than the derived max_model_len (seq_length=4096 or model_max_length=None in model's config.json).
Traceback (most recent call last):
  File "/srv/serve/api.py", line 770, in launch_model
    model_uid = await supervisor.launch_builtin_model(
"""

CONFIG_FIELD_CUT_PASTE = """\
AttributeError: 'DemoVLConfig' object has no attribute 'num_attention_heads
"""


def test_an_engine_refusing_fp16_on_the_card_is_config() -> None:
    diagnosis = diagnose_text("stdout.log", ENGINE_REFUSES_FP16)
    assert_reads(diagnosis, "config", first_error="Type fp16 is not supported.")
    assert diagnosis.confidence >= 0.5


def test_training_arguments_refusing_bf16_is_config() -> None:
    diagnosis = diagnose_text("driver.log", TRAINING_ARGS_REFUSE_BF16)
    assert_reads(diagnosis, "config", first_error="doesn't support bf16/gpu")
    assert diagnosis.confidence >= 0.5


def test_a_precision_fallback_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", PRECISION_WARNING_ONLY)
    assert diagnosis.category != "config" or diagnosis.confidence < 0.5


def test_a_context_length_over_the_model_is_config() -> None:
    diagnosis = diagnose_text("serve.log", CONTEXT_LONGER_THAN_MODEL)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("ValueError: [address=")
    assert diagnosis.confidence >= 0.5


def test_a_config_field_missing_in_a_cut_paste_is_config() -> None:
    diagnosis = diagnose_text("prefill.log", CONFIG_FIELD_CUT_PASTE)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence >= 0.5


# A 3D-parallel trainer's config dataclass checks the file it was given, under torchrun.
CONFIG_FILE_REQUIREMENT = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/pretrain/launch_train.py", line 88, in <module>
[rank1]:     trainer = Trainer(config_path)
[rank1]:   File "/srv/pretrain/src/core/config.py", line 214, in __post_init__
[rank1]:     assert any(s.start_step == 1 for s in self.stages), (
[rank1]: AssertionError: There must be exactly one stage beginning at step 1 in the config's stages
"""


def test_a_trainer_refusing_its_config_file_is_config() -> None:
    """A requirement the framework states of its config file is the file's, `config`."""
    diagnosis = diagnose_text("issue/log.txt", CONFIG_FILE_REQUIREMENT)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert diagnosis.confidence >= 0.6
    assert diagnosis.first_error is not None
    assert "in the config's stages" in diagnosis.first_error.text
    assert "cfg.config_file_requirement" in rules_of(diagnosis)


def test_a_requirement_naming_no_config_is_not_the_files() -> None:
    """Counterexample: a tensor's device requirement is no config-file refusal."""
    text = "AssertionError: Tensors must be on the same device, got cuda:0 and cuda:1\n"
    diagnosis = diagnose_text("issue/log.txt", text)
    assert "cfg.config_file_requirement" not in rules_of(diagnosis)
