"""A multimodal framework that could not build the model's processor.

docs/labelling.md#a-processor-the-model-folder-could-not-build: a training framework for
vision-language models builds the model's processor (tokenizer plus image or video processor)
from the model folder and, when that fails, raises its own sentence that asks the user to check
the model files. The files are usually complete: what is missing is a package the processor
needs (the image library its fast processor relies on, announced earlier by the library's own
warning that it falls back). The installed package set does not fit the job: `config`, with
`weight_load` (a folder that really lacks the processor's files) and `driver_env` beside it, and
the framework's sentence is the first error.

The fixtures are written in the shape of a mock run's console, with our own paths.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

PROCESSOR_NOT_FOUND = """\
iteration config loaded from /work/run/configs/vl_mock.yaml
Using `use_fast=True` but `torchvision` is not available. Falling back to the slow image processor.
ValueError: Processor was not found, please check and update your model file.
"""


def test_a_processor_that_was_not_built_is_the_package_set() -> None:
    diagnosis = diagnose_text("mock_run.log", PROCESSOR_NOT_FOUND)
    assert_reads(
        diagnosis,
        "config",
        first_error="Processor was not found",
        rule="cfg.processor_not_built",
        beside=["weight_load", "driver_env"],
    )


def test_the_sentence_under_a_rank_prefix_reads_the_same() -> None:
    text = (
        "[rank1]: ValueError: Processor was not found, please check and update your model file.\n"
    )
    diagnosis = diagnose_text("stderr.log", text)
    assert_reads(diagnosis, "config", first_error="Processor was not found")


def test_a_processor_that_was_loaded_is_no_failure() -> None:
    text = "INFO processor was found in /work/models/vl-2b and loaded (Qwen2VLProcessor)\n"
    diagnosis = diagnose_text("mock_run.log", text)
    assert diagnosis.first_error is None
