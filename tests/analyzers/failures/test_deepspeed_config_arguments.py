"""A DeepSpeed config whose stated values disagree with the trainer's own arguments.

docs/labelling.md#a-deepspeed-config-that-disagrees-with-the-trainers-arguments: the Trainer
refuses to start and lists each disagreeing pair; two settings that do not fit, `config`, with
the headline as the first error.

The fixture is written in the shape of a Trainer start-up traceback, with paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MISMATCH = """\
Traceback (most recent call last):
  File "sft/train.py", line 52, in <module>
    trainer.train()
  File "sft/deepspeed_setup.py", line 120, in trainer_config_finalize
    raise ValueError(
ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:
- ds train_micro_batch_size_per_gpu=4 vs hf per_device_train_batch_size=2
The easiest method is to set these DeepSpeed config values to 'auto'.
"""


def test_a_stated_value_the_arguments_contradict_is_config() -> None:
    diagnosis = diagnose_text("sft/stdout.log", MISMATCH)
    assert_reads(diagnosis, "config", first_error="mismatch TrainingArguments values")
    assert diagnosis.confidence >= 0.5
