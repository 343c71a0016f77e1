"""A compiled module built for another Python than the one that loads it.

A C extension carries the interpreter's C API it was compiled against. CPython 3.10 refuses a
module that passes `#` formats without defining PY_SSIZE_T_CLEAN (what older builds never
did), and pybind11 modules check the interpreter version when they are imported. Either way
the package set and the interpreter do not fit: `config`, with the machine's installation as
the alternative, and the refusal is the first error. The deprecation warning CPython 3.8 and
3.9 print for the same construct is no failure.

docs/labelling.md#a-compiled-module-built-for-another-python
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A service on an older toolkit started under a newer interpreter: the toolkit's binding
# passes a `#` format and the interpreter refuses it while the engine opens its model.
SSIZE_REFUSED = """\
[svc] loading detector from /srv/models/det.bin
Traceback (most recent call last):
  File "/srv/app/serve.py", line 21, in <module>
    engine = Engine(cfg)
  File "/srv/app/engine.py", line 58, in __init__
    self.session = backend.open_model(cfg.model_path)
SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats
"""

# The bare sentence, as an issue pastes it.
SSIZE_BARE = "SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats \n"

# pybind11's own check at import names both versions.
PYBIND_MISMATCH = """\
Traceback (most recent call last):
  File "/work/bench/run.py", line 4, in <module>
    import fastkern_ext
ImportError: Python version mismatch: module was compiled for Python 3.8, but the interpreter version is incompatible: 3.10.14.
"""

# Counterexample: 3.9 only warns about the same construct, and the job fails later for a
# reason of its own.
WARNING_THEN_OOM = """\
/srv/app/engine.py:58: DeprecationWarning: PY_SSIZE_T_CLEAN will be required for '#' formats
  self.session = backend.open_model(cfg.model_path)
RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 31.21 GiB total capacity; 29.80 GiB already allocated; 29.80 GiB current active; 512.00 MiB free; 30.10 GiB reserved in total by PyTorch)
"""


def _assert_extension_misfit(text: str, needle: str) -> None:
    diagnosis = diagnose_text("job/console.log", text)
    assert_reads(diagnosis, "config", first_error=needle, beside=("driver_env",))


def test_a_refused_ssize_format_is_a_package_set_that_does_not_fit() -> None:
    _assert_extension_misfit(SSIZE_REFUSED, "PY_SSIZE_T_CLEAN macro must be defined")


def test_the_bare_refusal_reads_the_same() -> None:
    _assert_extension_misfit(SSIZE_BARE, "PY_SSIZE_T_CLEAN macro must be defined")


def test_a_pybind_version_check_reads_the_same() -> None:
    _assert_extension_misfit(PYBIND_MISMATCH, "module was compiled for Python 3.8")


def test_the_deprecation_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("job/console.log", WARNING_THEN_OOM)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")
