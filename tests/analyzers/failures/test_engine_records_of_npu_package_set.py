"""Serving engines on Ascend often say what went wrong with the NPU package set in their own
record rather than in Python's exception line: the engine's logger records a caught
exception's message alone (no `AttributeError:` in front) before the traceback, and the NPU
platform plugin prints a one-line notice when torch_npu cannot be imported. Both must read as
the exception they stand for. Fixtures are written here in those shapes with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def _rules(diagnosis) -> set[str | None]:
    return {item.rule for item in diagnosis.evidence}


def test_an_engine_record_of_a_missing_module_attribute_is_the_release_mismatch() -> None:
    # docs/labelling.md#an-engine-record-that-carries-the-exceptions-message-alone
    text = (
        "INFO 05-11 09:14:01 [loader.py:40] Loading weights took 1.20 seconds\n"
        "ERROR 05-11 09:14:02 [engine.py:409] module 'torch_npu' has no attribute 'npu_demo_rope'\n"
        "ERROR 05-11 09:14:02 [engine.py:409] Traceback (most recent call last):\n"
        'ERROR 05-11 09:14:02 [engine.py:409]   File "/env/lib/demo/engine.py", line 12, in run\n'
    )
    diagnosis = diagnose_text("server.log", text)
    assert_reads(diagnosis, "config", first_error="npu_demo_rope")


def test_the_same_message_at_warning_level_yields_to_the_error_after_it() -> None:
    # a fallback notice logs the same words at WARNING and goes on; what fails later decides
    text = (
        "WARNING 05-11 09:14:02 [ops.py:77] module 'torch_npu' has no attribute 'npu_demo_rope'\n"
        "INFO 05-11 09:14:03 [ops.py:78] using the eager rotary path instead\n"
        "ERROR 05-11 09:15:40 [engine.py:409] NPU out of memory. Tried to allocate 2.00 GiB\n"
    )
    diagnosis = diagnose_text("server.log", text)
    assert_reads(diagnosis, "oom", first_error="out of memory")


def test_an_engine_record_with_more_words_after_the_message_is_not_read() -> None:
    text = (
        "ERROR 05-11 09:14:02 [engine.py:409] module 'torch_npu' has no attribute "
        "'npu_demo_rope', retrying on the eager path\n"
    )
    diagnosis = diagnose_text("server.log", text)
    assert "cfg.missing_attribute" not in _rules(diagnosis)


def test_the_plugins_notice_that_torch_npu_did_not_import_is_the_machine() -> None:
    # docs/labelling.md#an-engine-record-that-carries-the-exceptions-message-alone
    text = (
        "INFO 07-02 10:00:01 [__init__.py:198] Platform plugin ascend is activated\n"
        "Failed to import torch_npu.\n"
        "Traceback (most recent call last):\n"
        '  File "/env/bin/demo-serve", line 8, in <module>\n'
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert diagnosis.category == "driver_env"
    assert "config" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("Failed to import torch_npu")


def test_the_notice_yields_to_the_import_error_that_says_why() -> None:
    text = (
        "Failed to import torch_npu.\n"
        "ImportError: /env/lib/python3.10/site-packages/torch_npu/lib/libtorch_npu.so: "
        "undefined symbol: _ZN3atb4Demo9ParamE\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert_reads(diagnosis, "config", first_error="undefined symbol")
