"""torch's Python package asks its compiled core (`torch._C` and its submodules) for names the
core of that same release defines; when one is missing, the Python files and the binary come
from different builds. An application that catches the import failure may log only the
exception's message inside its own sentence. Fixtures are written here with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

RULE = "cfg.torch_core_name_missing"


def test_an_app_record_quoting_a_missing_core_name_is_a_mixed_torch_install() -> None:
    # docs/labelling.md#torchs-compiled-core-without-a-name-its-python-side-asks-for
    text = (
        "2026-01-05 10:00:01,000 - demo_app - INFO - probing encoders\n"
        "2026-01-05 10:00:02,000 - demo_app - ERROR - encoder probe failed: type object "
        "'torch._C._distributed_c10d.BackendType' has no attribute 'XCCL'\n"
        "Traceback (most recent call last):\n"
        '  File "demo_app\\probe.py", line 12, in probe\n'
        '  File "torch\\__init__.py", line 2100, in <module>\n'
    )
    diagnosis = diagnose_text("app.log", text)
    assert_reads(diagnosis, "config", first_error="has no attribute 'XCCL'")
    assert RULE in rules_of(diagnosis)
    assert "driver_env" in alternative_labels(diagnosis)


def test_the_raised_form_of_a_missing_core_module_name_reads_the_same() -> None:
    text = "AttributeError: module 'torch._C' has no attribute '_demo_set_device'\n"
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "config", first_error="_demo_set_device")
    assert RULE in rules_of(diagnosis)


def test_a_warning_record_with_the_same_words_is_not_read() -> None:
    text = (
        "2026-01-05 10:00:02,000 - demo_app - WARNING - optional backend skipped: type object "
        "'torch._C._distributed_c10d.BackendType' has no attribute 'XCCL'\n"
    )
    assert RULE not in rules_of(diagnosis_of(text))


def test_more_words_after_the_message_are_a_notice() -> None:
    text = (
        "ERROR demo: module 'torch._C' has no attribute '_demo_set_device', "
        "using the portable path\n"
    )
    assert RULE not in rules_of(diagnosis_of(text))


def test_a_missing_name_on_a_model_object_is_not_this_rule() -> None:
    text = "ERROR demo: type object 'DemoConfig' has no attribute 'rope_theta'\n"
    assert RULE not in rules_of(diagnosis_of(text))


def diagnosis_of(text: str):
    return diagnose_text("app.log", text)
