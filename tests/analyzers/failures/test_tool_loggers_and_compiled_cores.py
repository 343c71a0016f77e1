"""Two small readings that kernel libraries on torch_npu need.

A package whose Python files import but whose compiled core (`pkg._C`) is missing was
resolved to a folder without the built library, most often a source checkout on the path: the
job's setup, `config`, with the machine as the alternative. A whole package that is missing
keeps the machine reading.

Operator test and profiling tools log with the level in brackets and the Python file after it
(`[ERROR] collector.py: ...`); their ERROR lines are failures the report can cite, where free
text in the same brackets is not a logger header.

docs/labelling.md#a-packages-compiled-core-that-is-not-there
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A check run from inside a source checkout: the package folder is found, its library is not.
CORE_MISSING = """\
Traceback (most recent call last):
  File "/home/dev/src/npu_kernels/npu_kernels/__init__.py", line 9, in <module>
    from . import _C
ModuleNotFoundError: No module named 'npu_kernels._C'
"""

# Counterexample: the package itself is absent, the toolkit reading stays.
PACKAGE_MISSING = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 3, in <module>
    import torch_npu
ModuleNotFoundError: No module named 'torch_npu'
"""

TOOL_LOGGER = """\
[INFO] runner.py: case 17 of 40 started
[WARNING] collector.py: results are late, retrying
[ERROR] collector.py: results table is empty
"""

# The same brackets before free text, no file named: the level is still the writer's.
FREE_TEXT = """\
[INFO] case 17 of 40 started
[ERROR] the results table is empty
"""


def test_a_missing_compiled_core_is_the_job_setup() -> None:
    diagnosis = diagnose_text("job/console.log", CORE_MISSING)
    assert_reads(diagnosis, "config", first_error="npu_kernels._C", beside=("driver_env",))


def test_a_missing_package_is_not_a_missing_core() -> None:
    diagnosis = diagnose_text("job/console.log", PACKAGE_MISSING)
    assert diagnosis.category == "driver_env"


def test_a_tool_logger_error_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/tool.log", TOOL_LOGGER)
    assert diagnosis.first_error is not None
    assert "results table is empty" in diagnosis.first_error.text


def test_a_bracketed_level_before_free_text_is_read_as_the_writers_level() -> None:
    diagnosis = diagnose_text("job/tool.log", FREE_TEXT)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "[ERROR] the results table is empty"
