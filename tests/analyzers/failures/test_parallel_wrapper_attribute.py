"""A model attribute read through the data-parallel wrapper a multi-GPU launch put around it.

docs/labelling.md#a-model-attribute-read-through-a-data-parallel-wrapper: torch's
DistributedDataParallel and DataParallel keep the model as `.module` and answer only for
their own attributes, so code that reads the model's own attribute (a text encoder's
submodule, a config) through the wrapper stops with an AttributeError naming the wrapper.
The training code does not fit the launch mode that wrapped the model: `config`, confidently,
with `other` (a bug in the script) beside it. A missing attribute of any other object keeps
the generic reading. Fixtures follow the real layouts with scripts and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# An accelerate launch on two GPUs: rank 1's traceback, rank-prefixed, ends on the wrapper.
DDP_RANK_PREFIXED = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/train/fit_adapter.py", line 412, in <module>
[rank1]:     main(args)
[rank1]:   File "/srv/train/fit_adapter.py", line 287, in main
[rank1]:     hidden = text_encoder.encoder.final_norm(hidden)
[rank1]:              ^^^^^^^^^^^^^^^^^^^^
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1931, in __getattr__
[rank1]:     raise AttributeError(
[rank1]: AttributeError: 'DistributedDataParallel' object has no attribute 'encoder'
"""

# The same reading of the older single-process wrapper, without a rank prefix.
DATA_PARALLEL = """\
Traceback (most recent call last):
  File "/home/dev/sample_frames.py", line 96, in <module>
    steps = model.config.num_steps
AttributeError: 'DataParallel' object has no attribute 'config'
"""

# Counterexamples: a config object of another release keeps the generic reading, below the
# confident band, and the wrapper named in a source line raises nothing.
OTHER_OBJECT = """\
  File "/srv/train/fit_adapter.py", line 118, in build
    theta = cfg.rope_theta
AttributeError: 'DemoVisionConfig' object has no attribute 'rope_theta'
"""

SOURCE_LINE = """\
  File "/srv/train/fit_adapter.py", line 301, in main
    # 'DistributedDataParallel' object has no attribute 'encoder' unless unwrapped first
    hidden = accelerator.unwrap_model(text_encoder).encoder(hidden)
"""


def test_ddp_wrapper_attribute_is_read_confidently() -> None:
    diagnosis = diagnose_text("logs/train.log", DDP_RANK_PREFIXED)
    assert_reads(
        diagnosis,
        "config",
        first_error="'DistributedDataParallel' object has no attribute 'encoder'",
        rule="cfg.parallel_wrapper_attribute",
        beside=("other",),
    )
    assert diagnosis.confidence >= 0.8, diagnosis.confidence


def test_data_parallel_wrapper_attribute_is_read() -> None:
    diagnosis = diagnose_text("logs/sample.log", DATA_PARALLEL)
    assert_reads(
        diagnosis,
        "config",
        first_error="'DataParallel' object has no attribute 'config'",
        rule="cfg.parallel_wrapper_attribute",
    )


def test_other_object_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("logs/train.log", OTHER_OBJECT)
    assert_reads(
        diagnosis,
        "config",
        first_error="'DemoVisionConfig' object has no attribute 'rope_theta'",
        rule="cfg.missing_attribute",
    )
    assert diagnosis.confidence < 0.8, diagnosis.confidence


def test_source_line_naming_the_wrapper_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", SOURCE_LINE)
    assert diagnosis.category != "config" or diagnosis.first_error is None, diagnosis.root_cause
