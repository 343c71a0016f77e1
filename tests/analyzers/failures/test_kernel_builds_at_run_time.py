"""Kernels built while the job runs: the compiler's own line decides.

docs/labelling.md#operator-installation-or-platform-limit: a CUDA compiler (nvcc, ptxas) that
does not know the card stops an extension's just-in-time build or a Triton kernel's assembly;
the toolkit release does not fit the GPU (`config`), and the build tool's and Python's lines
after it only report the failed build. A kernel that Triton's front end cannot compile and an
operator whose TBE build fails in the plog are the operator's (`operator`). Values are our own,
in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

NVCC_TOO_OLD_FOR_CARD = """\
Emitting ninja build file /home/ops/.cache/torch_extensions/py311_cu118/fused_lamb/build.ninja...
Building extension module fused_lamb...
[1/2] /usr/local/cuda/bin/nvcc -gencode=arch=compute_90,code=sm_90 -c /opt/ext/csrc/lamb/fused_lamb.cu -o fused_lamb.cuda.o
FAILED: fused_lamb.cuda.o
nvcc fatal   : Unsupported gpu architecture 'compute_90'
ninja: build stopped: subcommand failed.
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2100, in _run_ninja_build
    subprocess.run(
subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.

The above exception was the direct cause of the following exception:

RuntimeError: Error building extension 'fused_lamb'
"""

PTXAS_TOO_OLD_FOR_CARD = """\
torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
RuntimeError: Internal Triton PTX codegen error:
ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'
"""

# Counterexample: nvcc stops for a file it cannot read; the architecture is not the reason.
NVCC_MISSING_SOURCE = """\
[1/2] /usr/local/cuda/bin/nvcc -c /opt/ext/csrc/rope/rope_kernel.cu -o rope_kernel.cuda.o
nvcc fatal   : Could not open input file /opt/ext/csrc/rope/rope_kernel.cu
ninja: build stopped: subcommand failed.
"""

TRITON_FRONT_END_REJECTS_KERNEL = """\
(EngineCore pid=311) ERROR 04-05 06:07:08 [core.py:900]   File "/opt/venv/lib/python3.12/site-packages/triton/compiler/compiler.py", line 300, in compile
(EngineCore pid=311) ERROR 04-05 06:07:08 [core.py:900]     module = src.make_ir(target, options, codegen_fns, module_map, context)
(EngineCore pid=311) ERROR 04-05 06:07:08 [core.py:900] triton.compiler.errors.CompilationError: at 9:16:
(EngineCore pid=311) ERROR 04-05 06:07:08 [core.py:900]     pid = tl.program_id(0)
(EngineCore pid=311) ERROR 04-05 06:07:08 [core.py:900]     offs = pid * BLOCK + tl.arange(0, BLOCK)
"""

TBE_BUILD_FAILS_IN_PLOG = """\
[ERROR] TEFUSION(7310,python):2026-05-06-07:08:09.100.200 [fusion_op.cc:5504]7388 PrintOp Failed to compile node [name ScatterNd, type ScatterNd]. Detailed compilation info is:
[ERROR] TEFUSION(7310,python):2026-05-06-07:08:09.100.260 [fusion_op.cc:5857]7388 GetFinishedCompilationTask Index[0]: taskID[12:3], status[1], kernel[te_scatternd_7], File[/opt/cann/opp/built-in/op_impl/ai_core/tbe/impl/dynamic/scatter_nd.py], result[single op compile failed. kernel[te_scatternd_7] module[impl.dynamic.scatter_nd] func[scatter_nd]], key[], core type[].
"""


def test_nvcc_that_does_not_know_the_card_is_the_toolkit_release() -> None:
    diagnosis = diagnose_text("train.log", NVCC_TOO_OLD_FOR_CARD)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unsupported gpu architecture 'compute_90'",
        rule="cfg.cuda_compiler_unknown_arch",
        beside=("driver_env",),
    )


def test_ptxas_that_does_not_know_the_card_is_the_toolkit_release() -> None:
    diagnosis = diagnose_text("run.log", PTXAS_TOO_OLD_FOR_CARD)
    assert diagnosis.category == "config"
    assert "cfg.cuda_compiler_unknown_arch" in rules_of(diagnosis)


def test_nvcc_stopping_for_another_reason_is_no_architecture_mismatch() -> None:
    diagnosis = diagnose_text("build.log", NVCC_MISSING_SOURCE)
    assert "cfg.cuda_compiler_unknown_arch" not in rules_of(diagnosis)


def test_a_kernel_tritons_front_end_rejects_is_the_operators() -> None:
    diagnosis = diagnose_text("engine.log", TRITON_FRONT_END_REJECTS_KERNEL)
    assert_reads(diagnosis, "operator", first_error="CompilationError: at 9:16")


def test_a_tbe_build_that_fails_in_the_plog_is_the_operators() -> None:
    diagnosis = diagnose_text("plog-7310_20260506070809.log", TBE_BUILD_FAILS_IN_PLOG)
    assert_reads(
        diagnosis,
        "operator",
        first_error="Failed to compile node [name ScatterNd",
        rule="op.single_op_build_failed",
    )


PTXAS_STEP_FAILED_ON_RANKS = """\
[rank2]: Traceback (most recent call last):
[rank2]:   File "/opt/venv/lib/python3.12/site-packages/triton/backends/nvidia/compiler.py", line 670, in make_cubin
[rank2]:     subprocess.run(ptxas_cmd, check=True, close_fds=False, stderr=flog)
[rank2]:   File "/usr/lib/python3.12/subprocess.py", line 571, in run
[rank2]:     raise CalledProcessError(retcode, process.args,
[rank2]: subprocess.CalledProcessError: Command '['/usr/local/cuda/bin/ptxas', '-lineinfo', '-v', '--gpu-name=sm_86', '/tmp/tmp7k2m.ptx', '-o', '/tmp/tmp7k2m.ptx.o']' returned non-zero exit status 255.

[rank2]: During handling of the above exception, another exception occurred:

[rank2]: Traceback (most recent call last):
[rank2]:   File "/srv/kernels/bench_gemm.py", line 90, in <module>
[rank2]:     out = fused_gemm(a, b)
"""


def test_ptxas_failing_for_the_card_with_no_reason_kept_is_the_toolchain_fit() -> None:
    # docs/labelling.md#operator-installation-or-platform-limit
    diagnosis = diagnose_text("rank2.log", PTXAS_STEP_FAILED_ON_RANKS)
    assert_reads(diagnosis, "config", first_error="ptxas", rule="cfg.ptxas_subprocess_failed")
    assert {"operator", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_ptxas_line_that_names_the_unknown_card_still_decides() -> None:
    text = (
        "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'\n"
        "subprocess.CalledProcessError: Command '['/opt/cuda/bin/ptxas', '--gpu-name=sm_120', "
        "'/tmp/k.ptx', '-o', '/tmp/k.ptx.o']' returned non-zero exit status 255.\n"
    )
    diagnosis = diagnose_text("run.log", text)
    assert_reads(diagnosis, "config", first_error="is not defined for option 'gpu-name'")


INDUCTOR_CPP_BUILD_FAILED_ON_RANKS = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/opt/venv/lib/python3.12/site-packages/torch/_inductor/cpp_builder.py", line 340, in _run_compile_cmd
[rank3]:     status = subprocess.check_output(args=cmd, cwd=cwd, stderr=subprocess.STDOUT)
[rank3]:   File "/usr/lib/python3.12/subprocess.py", line 571, in run
[rank3]:     raise CalledProcessError(retcode, process.args,
[rank3]: subprocess.CalledProcessError: Command '['g++', '/tmp/torchinductor_ops/k4/ck4xq2mv.cpp', '-D', 'TORCH_INDUCTOR_CPP_WRAPPER', '-shared', '-fPIC', '-o', '/tmp/torchinductor_ops/k4/ck4xq2mv.so']' returned non-zero exit status 1.
"""

INDUCTOR_CPP_BUILD_WITH_DIAGNOSTIC = """\
/tmp/torchinductor_ops/k4/ck4xq2mv.cpp:41:12: error: 'at::vec::Vectorized<c10::BFloat16>' has no member named 'exp_u20'
torch._inductor.exc.InductorError: CppCompileError: C++ compile error
"""

# Counterexample: the same record for a user's own extension source outside inductor's cache.
USER_EXTENSION_BUILD_FAILED = """\
Traceback (most recent call last):
  File "/srv/ext/setup_ext.py", line 22, in build
    subprocess.check_call(cmd)
subprocess.CalledProcessError: Command '['g++', '/srv/ext/csrc/rope.cpp', '-shared', '-fPIC', '-o', 'rope.so']' returned non-zero exit status 1.
"""


def test_inductor_cpp_build_with_only_the_subprocess_record_is_the_generated_code() -> None:
    # docs/labelling.md#operator-installation-or-platform-limit
    diagnosis = diagnose_text("rank3.log", INDUCTOR_CPP_BUILD_FAILED_ON_RANKS)
    assert_reads(
        diagnosis,
        "operator",
        first_error="CalledProcessError: Command '['g++'",
        rule="op.inductor_cpp_build_failed",
    )
    assert {"driver_env", "config"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_located_diagnostic_of_the_generated_cpp_is_the_first_error() -> None:
    diagnosis = diagnose_text("run.log", INDUCTOR_CPP_BUILD_WITH_DIAGNOSTIC)
    assert_reads(diagnosis, "operator", first_error="has no member named 'exp_u20'")


def test_a_users_own_extension_build_is_not_inductors_generated_code() -> None:
    diagnosis = diagnose_text("build.log", USER_EXTENSION_BUILD_FAILED)
    assert "op.inductor_cpp_build_failed" not in rules_of(diagnosis)


# A rank's paste that kept only the extension builder's report of ninja's exit status: no
# compiler line says why, so the failed build itself is the evidence.
NINJA_EXIT_ONLY = """\
Building extension module fused_lamb...
Allowing ninja to set a default number of workers... (overridable by setting the environment variable MAX_JOBS=N)
[rank2]: Traceback (most recent call last):
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 2100, in _run_ninja_build
[rank2]:     subprocess.run(
[rank2]: subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.
"""

# Counterexample: another program's exit status is no build of the job's extension.
GIT_EXIT_ONLY = """\
Traceback (most recent call last):
  File "/opt/job/version.py", line 12, in describe
    subprocess.run(["git", "rev-parse", "HEAD"], check=True)
subprocess.CalledProcessError: Command '['git', 'rev-parse', 'HEAD']' returned non-zero exit status 128.
"""


def test_a_build_that_left_only_the_build_tools_exit_status_is_the_setup() -> None:
    diagnosis = diagnose_text("rank2.log", NINJA_EXIT_ONLY)
    assert_reads(diagnosis, "config", first_error="Command '['ninja', '-v']'")


def test_another_programs_exit_status_is_no_failed_build() -> None:
    diagnosis = diagnose_text("job.log", GIT_EXIT_ONLY)
    assert diagnosis.category != "config"


# docs/labelling.md#operator-installation-or-platform-limit: a rank whose paste kept only the
# extension builder's report, then the launcher's record of the rank it lost.
BUILD_REPORT_THEN_LAUNCHER = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1909, in _run_ninja_build
    raise RuntimeError(message) from e
RuntimeError: Error building extension 'cpu_lion'
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 3301) of binary: /opt/venv/bin/python
Traceback (most recent call last):
  File "/opt/venv/bin/torchrun", line 8, in <module>
    sys.exit(main())
"""


def test_a_bare_build_report_comes_before_the_launchers_record_of_the_rank() -> None:
    diagnosis = diagnose_text("train.log", BUILD_REPORT_THEN_LAUNCHER)
    assert_reads(diagnosis, "config", first_error="Error building extension 'cpu_lion'")


def test_the_compiler_line_still_comes_before_the_build_report_under_a_launcher() -> None:
    text = (
        NVCC_TOO_OLD_FOR_CARD
        + "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank:"
        " 1 (pid: 3302) of binary: /opt/venv/bin/python\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is not None
    assert "nvcc fatal" in diagnosis.first_error.text


def test_another_programs_exit_status_under_a_launcher_is_no_build() -> None:
    text = (
        "subprocess.CalledProcessError: Command '['git', 'rev-parse', 'HEAD']' returned non-zero"
        " exit status 128.\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0"
        " (pid: 3303) of binary: /opt/venv/bin/python\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.extension_build_report_only" not in rules_of(diagnosis)


# docs/labelling.md#operator-installation-or-platform-limit: one rank builds a just-in-time
# extension and its ninja run fails; the other rank, which waited for it, finds no module in
# the extension folder.
BUILD_FAILED_THEN_MODULE_MISSING = """\
Building extension module cpu_lion...
[rank1]: subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.
[rank1]: RuntimeError: Error building extension 'cpu_lion'
Loading extension module cpu_lion...
[rank0]: ImportError: /home/ops/.cache/torch_extensions/py311_cu121/cpu_lion/cpu_lion.so: cannot open shared object file: No such file or directory
srun: error: node07: task 0: Exited with exit code 1
"""


def test_a_module_the_failed_build_never_wrote_yields_to_the_build() -> None:
    diagnosis = diagnose_text("slurm-4410.out", BUILD_FAILED_THEN_MODULE_MISSING)
    assert_reads(
        diagnosis,
        "config",
        first_error="Command '['ninja', '-v']'",
        rule="cfg.jit_extension_module_missing",
    )


def test_the_missing_module_alone_is_still_the_build() -> None:
    text = BUILD_FAILED_THEN_MODULE_MISSING.splitlines()[4] + "\n"
    diagnosis = diagnose_text("rank0.log", text)
    assert_reads(diagnosis, "config", first_error="cpu_lion.so: cannot open shared object file")


def test_a_runtime_library_the_loader_cannot_find_stays_the_machine() -> None:
    text = (
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "driver_env"
    assert "cfg.jit_extension_module_missing" not in rules_of(diagnosis)
