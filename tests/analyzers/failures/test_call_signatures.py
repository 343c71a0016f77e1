"""A call that does not fit the signature of the function it reached.

Across a traceback this is two packages of different releases: a platform plugin or a
trainer calls its host framework's function whose parameters changed. Python says so in
a few fixed forms, all read as the package set not fitting (`config`, a plain bug `other`
as the alternative): too many positional arguments, a missing one, or one passed both by
position and by name (`got multiple values for argument`).
(docs/labelling.md#config-driver_env-or-weight_load)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

GIVEN_TWICE = """\
(RayWorkerWrapper pid=412, ip=10.30.0.8) ERROR 05-06 07:08:09 [worker_base.py:620]   File "/opt/plugin/worker/model_runner.py", line 311, in _pick_attention
(RayWorkerWrapper pid=412, ip=10.30.0.8) ERROR 05-06 07:08:09 [worker_base.py:620]     backend = select_backend(head_size, dtype, block_size, use_sparse=True)
(RayWorkerWrapper pid=412, ip=10.30.0.8) ERROR 05-06 07:08:09 [worker_base.py:620] TypeError: select_backend() got multiple values for argument 'use_sparse'
"""


def test_an_argument_given_twice_is_a_package_set_that_does_not_fit() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("worker.log", GIVEN_TWICE)
    assert_reads(
        diagnosis,
        "config",
        first_error="got multiple values for argument 'use_sparse'",
        beside=("other",),
    )


def test_a_type_error_about_operands_is_not_a_signature_mismatch() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        '  File "/opt/plugin/worker/model_runner.py", line 311, in _pick_attention\n'
        "    size = head_size + suffix\n"
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.first_error is not None
    assert "unsupported operand" in diagnosis.first_error.text
    assert "cfg.call_signature_mismatch" not in rules_of(diagnosis)


def test_an_unexpected_keyword_quoted_without_its_type_error_is_read() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a FAQ or an issue title keeps the
    message and drops `TypeError:`; the refusal is the same."""
    text = "WorkerPool.spawn_child() got an unexpected keyword argument 'start_mode'\n"
    assert_reads(
        diagnose_text("server.log", text),
        "config",
        first_error="got an unexpected keyword argument 'start_mode'",
        rule="cfg.import_mismatch",
    )


def test_a_positional_count_quoted_without_its_type_error_is_an_error_line() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = "Scheduler.add_request() takes 3 positional arguments but 4 were given\n"
    assert_reads(
        diagnose_text("server.log", text),
        "config",
        first_error="takes 3 positional arguments but 4 were given",
        rule="cfg.call_signature_mismatch",
        beside=("other",),
    )


def test_an_argument_list_heading_is_no_error_line() -> None:
    text = "positional arguments:\n  model       the model to serve\n"
    assert diagnose_text("usage.txt", text).first_error is None
