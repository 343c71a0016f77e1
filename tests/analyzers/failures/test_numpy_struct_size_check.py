"""A compiled module whose NumPy structure sizes differ from the NumPy installed.

docs/labelling.md#the-operator-compilers-environment-does-not-start: a Cython-built module
checks, when it is imported, that NumPy's structures have the sizes its C headers had at build
time, and raises `ValueError: numpy.ndarray size changed, may indicate binary incompatibility`
when they do not. The wheel was built against another NumPy than the one installed: the package
set, `config`, with `driver_env` beside it, and the line is the first error. The same words as
a warning are a note that the import went on. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RAISED = """\
Traceback (most recent call last):
  File "/srv/nlp/prepare_vocab.py", line 4, in <module>
    import wordvec
  File "/opt/py310/lib/python3.10/site-packages/wordvec/__init__.py", line 7, in <module>
    from wordvec._fastmath import cosine_table
  File "wordvec/_fastmath.pyx", line 1, in init wordvec._fastmath
ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject
"""


def test_a_module_built_against_another_numpy_is_the_package_set() -> None:
    diagnosis = diagnose_text("prepare_vocab.log", RAISED)
    assert_reads(
        diagnosis,
        "config",
        first_error="size changed, may indicate binary incompatibility",
        beside=("driver_env",),
    )


def test_the_same_words_as_a_warning_are_no_failure() -> None:
    text = (
        "/opt/py310/lib/python3.10/importlib/_bootstrap.py:241: RuntimeWarning: numpy.ndarray "
        "size changed, may indicate binary incompatibility. Expected 16 from C header, got 96 "
        "from PyObject\nvocab built: 52000 entries\n"
    )
    diagnosis = diagnose_text("prepare_vocab.log", text)
    assert diagnosis.category != "config" or diagnosis.confidence < 0.5
