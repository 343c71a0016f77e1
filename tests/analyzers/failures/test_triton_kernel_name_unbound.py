"""A Triton kernel whose source uses a name that nothing binds inside the kernel.

docs/labelling.md#a-name-a-triton-kernels-source-uses-and-never-binds: Triton's front end
reports the name as the reason of its `CompilationError`, as the repr of a NameError under
the caret that points into the kernel's source. The kernel's source does not compile:
`operator`, with `other` (a code generator that wrote the kernel) and `config` (the compile
mode) beside it, and the reason line is the first error. Fixtures follow the real layouts
with kernels and names of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# A kernel that inductor generated under dynamic shapes, raised through the compile worker
# on one rank: the template reads a stride kept as a size symbol it never received.
GENERATED = """\
[rank2]: torch._inductor.compile_worker.subproc_pool.SubprocException: An exception occurred in a subprocess:

[rank2]: triton.compiler.errors.CompilationError: at 41:30:
[rank2]:     row = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
[rank2]:     col = tl.arange(0, BLOCK_N)
[rank2]:     bias = tl.load(in_ptr3 + row[:, None]*s7 + col[None, :])
[rank2]:                                           ^
[rank2]: NameError('s7 is not defined')

[rank2]: The above exception was the direct cause of the following exception:

[rank2]: triton.compiler.errors.CompilationError: at 12:8:
"""

# A hand-written kernel with the same refusal, without a rank prefix.
HAND_WRITTEN = """\
triton.compiler.errors.CompilationError: at 6:16:
def scale_rows(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * row_stride + offs, mask=offs < n_cols)
                              ^
NameError('row_stride is not defined')
"""

# Counterexamples: Python's own NameError (its colon form) keeps its reading, and a source
# line that builds the exception is no failure.
PYTHON_NAME_ERROR = """\
  File "/srv/app/ops/dispatch.py", line 88, in pick_kernel
    return fused_ops.scale_rows
NameError: name 'fused_ops' is not defined
"""

SOURCE_LINE = """\
  File "/opt/venv/lib/python3.11/site-packages/kernels/frontend.py", line 214, in lookup
    raise NameError(f'{name} is not defined')
"""


def test_generated_kernel_reason_is_read() -> None:
    diagnosis = diagnose_text("logs/rank2.log", GENERATED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="NameError('s7 is not defined')",
        rule="op.triton_kernel_name_unbound",
        beside=("other",),
    )
    assert diagnosis.confidence >= 0.6, diagnosis.confidence


def test_hand_written_kernel_reason_is_read() -> None:
    diagnosis = diagnose_text("logs/run.log", HAND_WRITTEN)
    assert_reads(
        diagnosis,
        "operator",
        first_error="NameError('row_stride is not defined')",
        rule="op.triton_kernel_name_unbound",
    )


def test_python_name_error_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("logs/app.log", PYTHON_NAME_ERROR)
    assert diagnosis.category != "operator", diagnosis.root_cause


def test_source_line_building_the_error_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/trace.log", SOURCE_LINE)
    assert diagnosis.category != "operator", diagnosis.root_cause
