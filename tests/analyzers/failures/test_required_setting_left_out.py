"""A framework's own check that a setting the job must give was not given.

docs/labelling.md#a-required-setting-the-job-left-out: `AssertionError: Tokenizer path must be
specified.`, `ValueError: --data-path must be provided ...`: the framework names a path, a file
or an option the run needs and did not receive. The job's arguments (or a recipe written for
another release of the framework) must change: `config`, the line the first error. A tensor a
call needs (`attention_mask must be provided`) names no setting and is not this. Fixtures are in
torchrun's `[defaultN]:[rankN]:` shape and a plain traceback, with names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TOKENIZER_PATH_ASSERT = """\
[default1]:[rank1]:   File "/opt/lm/training/tokenizer/build.py", line 44, in build_tokenizer
[default1]:[rank1]:     assert tokenizer_path, "Tokenizer path must be specified."
[default1]:[rank1]:            ^^^^^^^^^^^^^^
[default1]:[rank1]: AssertionError: Tokenizer path must be specified.
"""

DATA_PATH_VALUE_ERROR = """\
Traceback (most recent call last):
  File "/srv/lm/pretrain.py", line 61, in <module>
    args = parse_args()
  File "/srv/lm/arguments.py", line 318, in validate
    raise ValueError("--data-path must be provided unless --mock-data is set")
ValueError: --data-path must be provided unless --mock-data is set
"""

# Counterexample: a model input, not a setting of the job.
MODEL_INPUT_REQUIRED = """\
Traceback (most recent call last):
  File "/srv/model/attn.py", line 88, in forward
    raise ValueError("attention_mask must be provided for padded batches")
ValueError: attention_mask must be provided for padded batches
"""


def test_a_missing_tokenizer_path_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("logs/launcher.log", TOKENIZER_PATH_ASSERT)
    assert_reads(diagnosis, "config", first_error="Tokenizer path must be specified")
    assert diagnosis.confidence >= 0.5


def test_an_option_named_by_its_flag_reads_alike() -> None:
    diagnosis = diagnose_text("logs/train.log", DATA_PATH_VALUE_ERROR)
    assert_reads(diagnosis, "config", first_error="--data-path must be provided")


def test_a_model_input_that_must_be_given_is_not_a_setting() -> None:
    diagnosis = diagnose_text("logs/train.log", MODEL_INPUT_REQUIRED)
    assert not any(e.rule == "cfg.required_setting_not_given" for e in diagnosis.evidence)
