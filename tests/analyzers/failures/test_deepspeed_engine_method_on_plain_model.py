"""A DeepSpeed engine method asked of a model that no DeepSpeed engine wraps.

docs/labelling.md#a-deepspeed-engine-method-called-on-a-model-that-is-no-engine: the
Trainer's checkpoint save calls `save_checkpoint` on its wrapped model when DeepSpeed is
switched on; when the switch is on but the model was never handed to the engine (an
environment flag left set, a PEFT wrapper built around it instead), the call lands on a plain
model and torch's `__getattr__` answers with an AttributeError. The launch and the model do
not fit: `config`, confident, with `other` beside it, and the first AttributeError of a chain
is the first error. Reports that retype the message (a misspelt `object`, a space for the
underscore) are the same failure.

The fixtures are written in the shape of a fine-tuning run's stderr, with paths and model
names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CHAINED_WRAPPERS = """\
  File "/opt/venv/lib/python3.11/site-packages/peft/peft_model.py", line 801, in __getattr__
    return super().__getattr__(name)
  File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1940, in __getattr__
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
AttributeError: 'PeftModelForSeq2SeqLM' object has no attribute 'save_checkpoint'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/peft/tuners/lora/model.py", line 377, in __getattr__
    return super().__getattr__(name)
AttributeError: 'LoraModel' object has no attribute 'save_checkpoint'
"""


def test_a_save_checkpoint_call_on_a_peft_model_is_the_launch_setup() -> None:
    diagnosis = diagnose_text("train.log", CHAINED_WRAPPERS)
    assert_reads(
        diagnosis,
        "config",
        first_error="'PeftModelForSeq2SeqLM' object has no attribute 'save_checkpoint'",
    )
    assert diagnosis.confidence >= 0.8, diagnosis.confidence


def test_a_retyped_report_of_the_same_message_is_the_same_failure() -> None:
    text = "报错：AttributeError: DemoForCausalLM'obiect has no attribute 'save checkpoint'\n"
    diagnosis = diagnose_text("report.txt", text)
    assert_reads(diagnosis, "config", first_error="has no attribute 'save checkpoint'")
    assert diagnosis.confidence >= 0.8, diagnosis.confidence


def test_an_unset_value_asked_for_save_checkpoint_keeps_its_own_reading() -> None:
    text = "AttributeError: 'NoneType' object has no attribute 'save_checkpoint'\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.confidence < 0.8 or diagnosis.category != "config"


def test_a_progress_line_about_saving_a_checkpoint_is_no_failure() -> None:
    text = "INFO saving checkpoint to /ckpt/step_500 (save_checkpoint called on engine)\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
