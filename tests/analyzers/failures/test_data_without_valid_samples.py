"""A fine-tuning run whose data loading kept no sample of the data set it was given.

docs/labelling.md#a-rank-handed-no-data-files: a trainer that converts a data set to its own
format before training refuses to go on when nothing is left (LLaMA-Factory says it cannot find
valid samples and points at its data-format notes), and torch's random sampler refuses a data
set of length zero (`num_samples should be a positive integer value, but got num_samples=0`).
The data or the options that name and describe it have to change: `config`, with `other`
beside it, and the refusal is the first error. Counterexample: a progress line that counts
the samples kept is no failure. The excerpts follow the real shapes with paths and names of
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NO_VALID_SAMPLES = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/tune/src/llamafactory/launcher.py", line 23, in <module>
[rank0]:     launch()
[rank0]:   File "/srv/tune/src/llamafactory/data/loader.py", line 301, in get_dataset
[rank0]:     dataset = _get_preprocessed_dataset(
[rank0]:   File "/srv/tune/src/llamafactory/data/loader.py", line 260, in _get_preprocessed_dataset
[rank0]:     raise RuntimeError("Cannot find valid samples, check `data/README.md` for the data format.")
[rank0]: RuntimeError: Cannot find valid samples, check `data/README.md` for the data format.
"""

EMPTY_SAMPLER = """\
Traceback (most recent call last):
  File "/work/ft/train.py", line 140, in <module>
    trainer.train()
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/sampler.py", line 143, in __init__
    raise ValueError(
ValueError: num_samples should be a positive integer value, but got num_samples=0
"""

SAMPLES_COUNTED = """\
[INFO] kept 1200 valid samples of 1250 after format conversion
[INFO] sampler ready: num_samples=1200
"""


def test_a_data_set_with_no_valid_sample_is_the_data_the_run_was_given() -> None:
    diagnosis = diagnose_text("train.log", NO_VALID_SAMPLES)
    assert_reads(
        diagnosis,
        "config",
        first_error="RuntimeError: Cannot find valid samples",
        rule="cfg.dataset_without_valid_samples",
        beside=("other",),
    )


def test_a_sampler_refusing_an_empty_data_set_reads_the_same() -> None:
    diagnosis = diagnose_text("train.log", EMPTY_SAMPLER)
    assert_reads(
        diagnosis,
        "config",
        first_error="num_samples should be a positive integer value, but got num_samples=0",
        rule="cfg.dataset_without_valid_samples",
        beside=("other",),
    )


def test_a_count_of_kept_samples_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", SAMPLES_COUNTED)
    assert "cfg.dataset_without_valid_samples" not in rules_of(diagnosis)
