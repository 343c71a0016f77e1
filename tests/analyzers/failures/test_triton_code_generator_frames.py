"""A kernel that Triton's code generator cannot lower, with a plain Python error.

docs/labelling.md#a-compiler-backend-that-fails-inside-tritons-own-modules: when the error is
raised in Triton's code generator or the language core it calls (`triton/compiler.py`,
`triton/compiler/code_generator.py`, `triton/language/core.py`), the kernel was written
against another Triton release than the one installed: `config`, and the plain error is the
first error, ahead of the serving loop's chained traceback. The language's semantic checks
(`triton/language/semantic.py`) are the kernel's own mistakes and are not read this way.

Fixtures follow a serving router whose model workers compile a kernel on the first request,
with paths and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CODE_GENERATOR_FAILS = """\
  File "/srv/venvs/serve/lib/python3.9/site-packages/triton/compiler.py", line 861, in visit
    return super().visit(node)
  File "/usr/lib/python3.9/ast.py", line 409, in visit
    return visitor(node)
  File "/srv/venvs/serve/lib/python3.9/site-packages/triton/compiler.py", line 268, in visit_FunctionDef
    fn.reset_type(self.prototype.to_ir(self.builder))
  File "/srv/venvs/serve/lib/python3.9/site-packages/triton/language/core.py", line 301, in <listcomp>
    ret_types = [ret_type.to_ir(builder) for ret_type in self.ret_types]
AttributeError: 'NoneType' object has no attribute 'to_ir'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/app/lightserve/router/manager.py", line 91, in loop_for_fwd
    await self._step()
"""

SEMANTIC_CHECK_FAILS = """\
  File "/srv/venvs/serve/lib/python3.9/site-packages/triton/language/core.py", line 1120, in add
    return semantic.add(input, other, _builder)
  File "/srv/venvs/serve/lib/python3.9/site-packages/triton/language/semantic.py", line 212, in add
    input, other = binary_op_type_checking_impl(input, other, builder, True, True)
TypeError: 'NoneType' object is not subscriptable

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/app/lightserve/router/manager.py", line 91, in loop_for_fwd
    await self._step()
"""


def test_a_plain_error_in_tritons_code_generator_is_the_release_gap() -> None:
    diagnosis = diagnose_text("router.log", CODE_GENERATOR_FAILS)
    assert_reads(diagnosis, "config", first_error="has no attribute 'to_ir'")


def test_a_plain_error_in_the_languages_semantic_checks_is_not() -> None:
    diagnosis = diagnose_text("router.log", SEMANTIC_CHECK_FAILS)
    assert diagnosis.category != "config", diagnosis.root_cause


# Triton's C++ back end (its MLIR passes, built under the wheel's `lib/` tree) checks its own
# invariants while it lowers a kernel on the first request, and a failed C assertion stops the
# server process with the pass's function and condition on one line.
BACKEND_ASSERTION = """\
INFO:     Application startup complete.
python: /src/triton/lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp:212: mlir::LogicalResult lowerDistributedToShared(mlir::triton::gpu::ConvertLayoutOp): Assertion `srcEncoding && "unexpected layout"' failed.
"""

BACKEND_ASSERTION_ANALYSIS = """\
  python: /build/lib/Analysis/Utility.cpp:88: unsigned int mlir::triton::getScratchSize(mlir::triton::gpu::ConvertLayoutOp): Assertion `!(srcMma && dstMma) && "layout pair not handled"' failed.
"""

# Counterexample: a device-side assertion of a CUDA kernel is the device's report, not the
# compiler's; a C++ standard library assertion names no Triton pass.
DEVICE_ASSERTION = """\
/opt/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [3,0,0], thread: [5,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.
"""

STL_ASSERTION = """\
python: /usr/include/c++/11/bits/stl_vector.h:1123: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, _Alloc>::operator[](size_type): Assertion `__n < this->size()' failed.
"""


def test_an_assertion_in_tritons_backend_passes_is_the_release_gap() -> None:
    for text in (BACKEND_ASSERTION, BACKEND_ASSERTION_ANALYSIS):
        diagnosis = diagnose_text("router.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error="Assertion `",
            rule="cfg.triton_backend_assertion",
            beside=("operator",),
        )


def test_a_device_or_library_assertion_is_not_tritons_backend() -> None:
    for text in (DEVICE_ASSERTION, STL_ASSERTION):
        diagnosis = diagnose_text("router.log", text)
        assert "cfg.triton_backend_assertion" not in rules_of(diagnosis), diagnosis.root_cause


# A reporter who quotes the abort in an issue often sets the pass's place in code quotes and
# drops the program's name before it; the function and condition still name Triton's pass.
BACKEND_ASSERTION_QUOTED_PLACE = """\
`Allocation.cpp:51:` std::pair<unsigned, unsigned> mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion `!(srcMma && dstMma) && "layout pair needs a newer card"' failed. Aborted (core dumped)
"""


def test_a_backend_assertion_whose_place_is_set_in_code_quotes_is_still_tritons() -> None:
    diagnosis = diagnose_text("worker.err", BACKEND_ASSERTION_QUOTED_PLACE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Assertion `",
        rule="cfg.triton_backend_assertion",
        beside=("operator",),
    )


def test_a_quoted_place_before_a_library_assertion_is_not_tritons() -> None:
    text = "`stl_vector.h:1123:` std::vector<int>::operator[](size_type): Assertion `__n < this->size()' failed.\n"
    diagnosis = diagnose_text("worker.err", text)
    assert "cfg.triton_backend_assertion" not in rules_of(diagnosis)
