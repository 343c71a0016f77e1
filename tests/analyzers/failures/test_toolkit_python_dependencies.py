"""A Python dependency of the CANN toolkit that the toolkit's own code cannot import.

docs/labelling.md#the-operator-compilers-environment-does-not-start. The toolkit's Python
packages (the TBE compiler and its helpers) import third-party modules that its installation
guide asks to be installed first; when the import fails inside the toolkit's own files, the
machine is not set up: `driver_env`, with `config` beside it. The same missing module imported
by the job's own code stays the package-set reading (`config`). Excerpts are ours.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TOOLKIT_IMPORT = """\
[ RUN      ] CannEpTest.Conv
Traceback (most recent call last):
  File "/usr/local/Ascend/ascend-toolkit/7.0.0/python/site-packages/tbe/common/utils/shape_util.py", line 21, in <module>
    import sympy
ModuleNotFoundError: No module named 'sympy'
"""

TOOLKIT_IMPORT_CANN_PREFIX = """\
Traceback (most recent call last):
  File "/opt/cann-8.1.0/python/site-packages/te_fusion/parallel_compilation.py", line 30, in <module>
    import psutil
ModuleNotFoundError: No module named 'psutil'
"""

# Counterexample: the job's own script imports the module; nothing of the toolkit is involved.
JOB_IMPORT = """\
Traceback (most recent call last):
  File "/home/user/app/infer.py", line 3, in <module>
    import sympy
ModuleNotFoundError: No module named 'sympy'
"""


def test_toolkit_dependency_missing_is_driver_env() -> None:
    diagnosis = diagnose_text("test.log", TOOLKIT_IMPORT)
    assert_reads(diagnosis, "driver_env", first_error="No module named 'sympy'", beside=("config",))


def test_toolkit_under_a_versioned_cann_folder() -> None:
    diagnosis = diagnose_text("test.log", TOOLKIT_IMPORT_CANN_PREFIX)
    assert diagnosis.category == "driver_env"


def test_job_import_stays_config() -> None:
    diagnosis = diagnose_text("test.log", JOB_IMPORT)
    assert diagnosis.category == "config"
