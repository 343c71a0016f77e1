"""A bare KeyError raised where a framework looks a chosen name up in its own table of presets.

docs/labelling.md#a-name-the-frameworks-table-of-choices-does-not-hold: fine-tuning tools keep
module-level tables of the data sets, model types or templates they know and index them with the
name the job was given (`SPECS = DATASET_TABLE[dataset_name]`). A name the table does not hold
ends the job with a KeyError that quotes only the name; the statement under the innermost frame
says it was such a lookup. The launch asked for a choice the release does not have: `config`,
the KeyError the first error. The excerpts are made up in the tools' usual layout.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DATA_SET_NAME = """\
Traceback (most recent call last):
  File "/opt/tune/cli/train.py", line 41, in <module>
    main()
  File "/opt/tune/data/loader.py", line 212, in build_datasets
    spec = DATASET_TABLE[dataset_name]
           ~~~~~~~~~~~~~^^^^^^^^^^^^^^
KeyError: 'alpaca_zh_dem'
"""

MODEL_TYPE = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/rl/launch.py", line 88, in <module>
[rank1]:     policy = build_policy(cfg)
[rank1]:   File "/srv/rl/models/factory.py", line 30, in build_policy
[rank1]:     model_cls = MODEL_REGISTRY[cfg.model_type]
[rank1]: KeyError: 'qwen3-moe'
"""

# Counterexample: a lookup in a plain dictionary of a sample (a data record missing a field)
# names no preset the launch chose; it keeps the unrecognised reading.
SAMPLE_FIELD = """\
Traceback (most recent call last):
  File "/opt/tune/data/collator.py", line 57, in __call__
    ids = example["input_ids"]
KeyError: 'input_ids'
"""

# Counterexample: an upper-case table indexed by a position is no choice by name.
TABLE_BY_POSITION = """\
Traceback (most recent call last):
  File "/opt/tune/sched.py", line 19, in step
    factor = WARMUP_STEPS[epoch]
KeyError: 7
"""


def test_a_data_set_name_the_table_lacks_is_config() -> None:
    diagnosis = diagnose_text("train.log", DATA_SET_NAME)
    assert_reads(diagnosis, "config", first_error="KeyError: 'alpaca_zh_dem'")


def test_a_model_type_the_registry_lacks_is_config() -> None:
    diagnosis = diagnose_text("rank1.log", MODEL_TYPE)
    assert_reads(diagnosis, "config", first_error="KeyError: 'qwen3-moe'")


def test_a_sample_field_lookup_is_not_a_choice() -> None:
    diagnosis = diagnose_text("train.log", SAMPLE_FIELD)
    assert diagnosis.category != "config", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "KeyError: 'input_ids'" in diagnosis.first_error.text


def test_a_table_read_by_position_is_not_a_choice() -> None:
    diagnosis = diagnose_text("train.log", TABLE_BY_POSITION)
    assert diagnosis.category != "config", diagnosis.root_cause
