"""Triton's code generator refusing Python it does not translate into a kernel.

docs/labelling.md#a-language-construct-tritons-front-end-does-not-support: the
`UnsupportedLanguageConstruct` error, printed as a raised exception (`...: at L:C:` with the
kernel's source under it) or as the repr a library logs after catching it, is the kernel's
source that this Triton release cannot compile: `operator`, with `config` beside it. Fixtures
follow the real formats with kernels and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A kernel library's wrapper caught the error and printed its arguments: the caret block of
# the call site, then the repr with the source, the AST node and the message.
CAUGHT_REPR = """\
# scale
y0 = clamp_scaled(x0, lo0)
     ^
UnsupportedLanguageConstruct('def clamp_scaled(x, lo):\\n    if x.dtype.is_fp16() or x.dtype.is_bf16() or x.dtype.is_fp32():\\n        return tl.maximum(x, lo)\\n    return x\\n', <ast.BoolOp object at 0xffff8a31c2d0>, 'chained boolean operators (A or B or C) are not supported; use parentheses to split the chain.')
"""

# The raised form, behind a serving engine's prefix, with the kernel source after the headline.
RAISED = """\
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702]   File "/opt/venv/lib/python3.11/site-packages/triton/compiler/code_generator.py", line 1301, in visit
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702]     raise self._unsupported(node, "simultaneous multiple assignment is not supported.")
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702] triton.compiler.errors.UnsupportedLanguageConstruct: at 9:4:
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702]     offs = pid * BLOCK + tl.arange(0, BLOCK)
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702]     a, b = b, a
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702]     ^
(EngineCore pid=412) ERROR 07-01 10:11:12 [core.py:702] simultaneous multiple assignment is not supported.
"""

# Counterexample: source lines that name the class are not the refusal.
SOURCE_LINES = """\
  File "/opt/venv/lib/python3.11/site-packages/triton/compiler/code_generator.py", line 88, in _unsupported
    return UnsupportedLanguageConstruct(None, node, msg)
class UnsupportedLanguageConstruct(CompilationError):
"""


def test_caught_repr_is_the_kernel_source() -> None:
    diagnosis = diagnose_text("logs/repro.log", CAUGHT_REPR)
    assert_reads(
        diagnosis, "operator", first_error="are not supported; use parentheses", beside=("config",)
    )


def test_raised_form_is_read_from_its_headline() -> None:
    diagnosis = diagnose_text("logs/engine.log", RAISED)
    assert_reads(diagnosis, "operator", first_error="UnsupportedLanguageConstruct: at 9:4")


def test_source_lines_naming_the_class_are_not_the_refusal() -> None:
    diagnosis = diagnose_text("logs/trace.log", SOURCE_LINES)
    assert diagnosis.category != "operator", diagnosis.root_cause
    assert "construct in the kernel's source" not in diagnosis.root_cause
