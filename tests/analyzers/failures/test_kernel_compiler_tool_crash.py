"""A kernel DSL's compiler tool that dies, and the reason it printed before it did.

docs/labelling.md#wrappers: Triton-Ascend lowers each kernel by running its MLIR tool as a
child process; when the tool dies on a signal, Python's record of the child
(`CalledProcessError: Command '['.../triton-adapter-opt', ...]' died with <Signals.SIGSEGV:
11>`) is a crash of the compiler on the kernel, `operator`, with `config` (a compiler release
without the bug) and `device_fault` beside it; the launcher's reading of a rank's own
process that died on the same signal does not apply. When the tool printed a located
diagnostic at the kernel's Python source (`kernel.py:119:65: error: ...`) before it died, that
diagnostic says why and is the first error, ahead of the compiler's crash banner.
Paths, lines and values are our own, in the tools' wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TOOL_DIED = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/triton/backends/huawei/compiler.py", line 62, in ttir_to_linalg
    ret = subprocess.run(cmd_list, capture_output=True, check=True)
subprocess.CalledProcessError: Command '['/opt/venv/lib/python3.11/site-packages/triton/backends/huawei/triton-adapter-opt', '/tmp/tmpa1b2/kernel.ttir.mlir', '--triton-to-linalg=global-kernel=false named-ops=True', '-o', '/tmp/tmpa1b2/kernel.ttadapter.mlir']' died with <Signals.SIGSEGV: 11>.

During handling of the above exception, another exception occurred:

triton.triton_patch.compiler.errors.MLIRCompilationError: 
///------------------[ERROR][Triton][BEG]------------------
[ConvertTritonIRToLinalgIR] encounters error:
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
///------------------[ERROR][Triton][END]------------------
"""

LOCATED_BEFORE_THE_CRASH = """\
///------------------[ERROR][Triton][BEG]------------------
[ConvertTritonIRToLinalgIR] encounters error:
<unknown>:0: warning: could not cast operand of type 'f16' to '!tt.ptr<f16>'
/srv/kernels/paged_decode.py:88:41: error: cannot div 0!
        blk = tl.load(table_ptr + start + idx, mask=mask, other=0)
                                        ^
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
///------------------[ERROR][Triton][END]------------------
"""


def test_a_compiler_tool_that_died_on_a_signal_is_the_kernel_compile() -> None:
    diagnosis = diagnose_text("bench.log", TOOL_DIED)
    assert diagnosis.category == "operator"
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_training_process_that_died_on_a_signal_keeps_the_crash_reading() -> None:
    text = (
        "subprocess.CalledProcessError: Command '['/opt/venv/bin/python', '-u', 'train.py', "
        "'--local_rank=3']' died with <Signals.SIGSEGV: 11>.\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert diagnosis.category == "device_fault"


def test_a_located_diagnostic_at_the_kernel_source_comes_before_the_crash_banner() -> None:
    diagnosis = diagnose_text("bench.log", LOCATED_BEFORE_THE_CRASH)
    assert_reads(diagnosis, "operator", first_error="error: cannot div 0!")


def test_a_type_checker_report_on_a_python_file_is_no_kernel_diagnostic() -> None:
    text = (
        "[ConvertTritonIRToLinalgIR] encounters error:\n"
        'src/train.py:12:5: error: Incompatible types in assignment (expression has type "int", '
        'variable has type "str")  [assignment]\n'
        "PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include "
        "the crash backtrace.\n"
    )
    diagnosis = diagnose_text("bench.log", text)
    assert diagnosis.first_error is not None
    assert "Incompatible types" not in diagnosis.first_error.text


BISHENG_DRIVER_DIED = """\
Traceback (most recent call last):
  File "/opt/triton-ascend/python/triton/backends/huawei/compiler.py", line 190, in linalg_to_bin_enable_npu_compile
    ret = subprocess.run(cmd_list, capture_output=True, check=True)
subprocess.CalledProcessError: Command '['/opt/bisheng/compiler/npuc', '/tmp/tmpq7w1/kernel.ttadapter.mlir', '--enable-auto-multi-buffer=True', '-o', '/tmp/tmpq7w1/kernel']' died with <Signals.SIGABRT: 6>.

During handling of the above exception, another exception occurred:

triton.compiler.errors.MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
npuc: /build/llvm/mlir/include/mlir/IR/StorageUniquerSupport.h:181: static ConcreteT mlir::detail::StorageUserBase<mlir::StridedLayoutAttr>::get(mlir::MLIRContext *, Args &&...): Assertion `succeeded(ConcreteT::verify(ctx, args...))' failed.
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
///------------------[ERROR][Triton][END]------------------
"""


def test_the_bisheng_compiler_driver_dying_is_the_kernel_compile_too() -> None:
    # BiSheng's compiler driver (`npuc`) turns the lowered kernel into a binary; its death on a
    # signal is the same crash of a compiler tool, and Python's record of it comes first.
    diagnosis = diagnose_text("bench.log", BISHENG_DRIVER_DIED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="died with <Signals.SIGABRT: 6>",
        rule="op.kernel_compiler_tool_crashed",
        beside=["config"],
    )


def test_a_program_called_like_the_driver_inside_a_word_is_not_the_driver() -> None:
    text = (
        "subprocess.CalledProcessError: Command '['/opt/venv/bin/mynpuc', '--run']' died with "
        "<Signals.SIGSEGV: 11>.\n"
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert "op.kernel_compiler_tool_crashed" not in rules_of(diagnosis)
