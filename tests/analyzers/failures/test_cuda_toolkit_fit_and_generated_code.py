"""A CUDA toolkit that does not fit the card or itself, nvcc's own host code that the host
compiler rejects, a package with no build for the host's platform, a managed-memory hint the
host refuses.

docs/labelling.md#a-cuda-toolkit-that-does-not-fit-the-card-or-itself: a kernel library's probe
that the toolkit is too old for the card, and compiler parts from two releases, are `config`,
with the machine's toolkit beside them, and the probe comes before the library's later refusal.
docs/labelling.md#host-code-the-cuda-compiler-wrote-that-the-host-compiler-rejects: an error in
nvcc's intermediate file or on a name nvcc made up is `config`, ahead of make's exit lines.
docs/labelling.md#a-system-library-older-than-a-binary-needs: an installer that finds no wheel
for the host's platform tag is the host's C library, `driver_env`.
docs/labelling.md#a-cuda-feature-the-host-does-not-offer-nccl: a managed-memory hint the runtime
refuses is the host, `driver_env`.
Values are our own, in the tools' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

TOOLKIT_TOO_OLD_FOR_CARD = """\
(APIServer pid=3310) INFO 09-14 10:00:01 [model_runner.py:1210] Loading weights took 14.20 GiB
(EngineCore_DP0 pid=3402) WARNING 09-14 10:00:05 [capability.py:41] Failed to get device capability: SM 10.x requires CUDA >= 12.8.
(EngineCore_DP0 pid=3402) ERROR 09-14 10:00:05 [core.py:708]   File "/srv/venv/lib/python3.12/site-packages/attnkit/jit/core.py", line 88, in check_cuda_arch
(EngineCore_DP0 pid=3402) ERROR 09-14 10:00:05 [core.py:708] RuntimeError: attnkit requires GPUs with sm75 or higher
"""

# Counterexample: the library's refusal alone names a limit, not a toolkit release.
LIBRARY_REFUSES_CARD_ALONE = """\
(EngineCore_DP0 pid=3402) ERROR 09-14 10:00:05 [core.py:708] RuntimeError: attnkit requires GPUs with sm75 or higher
"""

HEADERS_OF_ANOTHER_RELEASE = """\
[1/6] /srv/venv/lib/python3.12/site-packages/nvidia/cu13/bin/nvcc -c /srv/cache/attnkit/decode.cu -o decode.cuda.o
/srv/venv/lib/python3.12/site-packages/nvidia/cu13/include/crt/host_config.h(58): error: #error "CUDA compiler and CUDA toolkit headers are incompatible, please check your include paths"
ninja: build stopped: subcommand failed.
RuntimeError: Ninja build failed.
"""

ASSEMBLER_OLDER_THAN_PTX = """\
[3/6] /srv/venv/lib/python3.12/site-packages/nvidia/cu13/bin/nvcc -c /srv/cache/attnkit/prefill.cu -o prefill.cuda.o
ptxas fatal   : Unsupported .version 8.7; current version is '8.5'
ninja: build stopped: subcommand failed.
"""

# Counterexample: ptxas refusing the card's architecture keeps its own rule.
ASSEMBLER_UNKNOWN_ARCH = """\
ptxas fatal   : Value 'sm_110' is not defined for option 'gpu-name'
"""

GENERATED_NAME_UNDECLARED = """\
[ 60%] Building CUDA object CMakeFiles/reduce.dir/src/reduce.cu.o
/build/proj/src/reduce.cu: In function 'void apply(vec_t&, fn_t)':
/build/proj/src/reduce.cu:41:96: error: '__T52' was not declared in this scope
make[2]: *** [CMakeFiles/reduce.dir/build.make:76: CMakeFiles/reduce.dir/src/reduce.cu.o] Error 1
make[1]: *** [CMakeFiles/Makefile2:137: CMakeFiles/reduce.dir/all] Error 2
make: *** [Makefile:146: all] Error 2
"""

GENERATED_NAME_UNDECLARED_MSVC = """\
C:\\ci\\proj\\src\\reduce.cu(41): error C2065: '__T52': undeclared identifier [C:\\ci\\proj\\build\\reduce.vcxproj]
C:\\ci\\proj\\src\\reduce.cu(41): error C2440: 'specialization': cannot convert from 'overloaded-function' to 'void (__cdecl *)(vec_t &,fn_t)' [C:\\ci\\proj\\build\\reduce.vcxproj]
"""

STUB_FILE_REJECTED = """\
/tmp/tmpxft_00002b10_00000000-5_table.cudafe1.stub.c: In function 'void __nv_cudaEntityRegisterCallback(void**)':
/tmp/tmpxft_00002b10_00000000-5_table.cudafe1.stub.c:1:377: error: wrong number of template arguments (1, should be 2)
make[3]: *** [CMakeFiles/table.dir/table.cu.o] Error 1
make: *** [table] Error 2
"""

# Counterexample: a name the project itself left undeclared is its own code, not nvcc's.
PROJECT_NAME_UNDECLARED = """\
/build/proj/src/reduce.cu:41:12: error: 'blockSum' was not declared in this scope
make[2]: *** [CMakeFiles/reduce.dir/build.make:76: CMakeFiles/reduce.dir/src/reduce.cu.o] Error 1
"""

NO_WHEEL_FOR_PLATFORM = """\
=> Step 2: RUN uv pip install --system arrays-cuda==2.1.0
Using Python 3.11.4 environment at: /usr/local
  x No solution found when resolving dependencies:
  `-> Because arrays-cuda==2.1.0 has no wheels with a matching platform tag (e.g.,
      `manylinux_2_28_x86_64`) and you require arrays-cuda==2.1.0, we can conclude
      that your requirements are unsatisfiable.
Terminating task due to error: failed to run builder command "uv pip install --system arrays-cuda==2.1.0": container exit status: 1
"""

# Counterexample: a wheel for another Python is the interpreter chosen, not the host's C library.
NO_WHEEL_FOR_PYTHON = """\
  `-> Because arrays-cuda==2.1.0 has no wheels with a matching Python ABI tag (e.g., `cp38`) and you require arrays-cuda==2.1.0, we can conclude that your requirements are unsatisfiable.
"""

MANAGED_HINT_REFUSED = """\
NVIDIA L4, 8.9
Stopping app - local entrypoint completed.
Exception ignored in atexit callback: <nanobind.nb_func object at 0x7f00aa10>
RuntimeError: cudaMemAdvise(pool_, pool_bytes, cudaMemAdviseSetReadMostly, 0) failed: invalid argument
"""

# Counterexample: the same call running out of memory is memory.
MANAGED_HINT_OUT_OF_MEMORY = """\
RuntimeError: cudaMemAdvise(pool_, pool_bytes, cudaMemAdviseSetReadMostly, 0) failed: out of memory
"""


def test_a_toolkit_too_old_for_the_card_comes_before_the_librarys_refusal() -> None:
    diagnosis = diagnose_text("serve.log", TOOLKIT_TOO_OLD_FOR_CARD)
    assert_reads(
        diagnosis,
        "config",
        first_error="SM 10.x requires CUDA >= 12.8",
        rule="cfg.cuda_toolkit_too_old_for_arch",
    )
    assert "driver_env" in alternative_labels(diagnosis)
    assert diagnosis.confidence < 0.8


def test_the_librarys_refusal_alone_is_no_toolkit_probe() -> None:
    diagnosis = diagnose_text("serve.log", LIBRARY_REFUSES_CARD_ALONE)
    assert "cfg.cuda_toolkit_too_old_for_arch" not in rules_of(diagnosis)


def test_compiler_and_headers_of_two_releases_are_the_packages_resolved() -> None:
    diagnosis = diagnose_text("build.log", HEADERS_OF_ANOTHER_RELEASE)
    assert_reads(
        diagnosis,
        "config",
        first_error="headers are incompatible",
        rule="cfg.cuda_toolkit_parts_mismatch",
    )
    assert "driver_env" in alternative_labels(diagnosis)


def test_an_assembler_older_than_the_ptx_it_is_given_is_the_packages_resolved() -> None:
    diagnosis = diagnose_text("build.log", ASSEMBLER_OLDER_THAN_PTX)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unsupported .version 8.7",
        rule="cfg.cuda_toolkit_parts_mismatch",
    )


def test_ptxas_refusing_the_architecture_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("build.log", ASSEMBLER_UNKNOWN_ARCH)
    assert "cfg.cuda_toolkit_parts_mismatch" not in rules_of(diagnosis)
    assert "cfg.cuda_compiler_unknown_arch" in rules_of(diagnosis)


def test_a_name_nvcc_made_up_is_the_first_error_ahead_of_makes_lines() -> None:
    diagnosis = diagnose_text("build.log", GENERATED_NAME_UNDECLARED)
    assert_reads(
        diagnosis,
        "config",
        first_error="'__T52' was not declared in this scope",
        rule="cfg.cuda_generated_host_code_rejected",
    )
    assert {"driver_env", "operator"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_msvc_wording_of_the_made_up_name_reads_the_same() -> None:
    diagnosis = diagnose_text("build.log", GENERATED_NAME_UNDECLARED_MSVC)
    assert_reads(
        diagnosis,
        "config",
        first_error="error C2065: '__T52'",
        rule="cfg.cuda_generated_host_code_rejected",
    )


def test_an_error_in_nvccs_stub_file_is_the_first_error() -> None:
    diagnosis = diagnose_text("build.log", STUB_FILE_REJECTED)
    assert_reads(
        diagnosis,
        "config",
        first_error="cudafe1.stub.c:1:377: error",
        rule="cfg.cuda_generated_host_code_rejected",
    )


def test_a_name_the_project_left_undeclared_is_not_nvccs() -> None:
    diagnosis = diagnose_text("build.log", PROJECT_NAME_UNDECLARED)
    assert "cfg.cuda_generated_host_code_rejected" not in rules_of(diagnosis)


def test_no_wheel_for_the_hosts_platform_tag_is_the_hosts_c_library() -> None:
    diagnosis = diagnose_text("image_build.log", NO_WHEEL_FOR_PLATFORM)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="has no wheels with a matching platform tag",
        rule="env.wheel_platform_tag_unmatched",
    )
    assert "config" in alternative_labels(diagnosis)


def test_no_wheel_for_the_python_abi_is_not_the_platform_rule() -> None:
    diagnosis = diagnose_text("image_build.log", NO_WHEEL_FOR_PYTHON)
    assert "env.wheel_platform_tag_unmatched" not in rules_of(diagnosis)


def test_a_refused_managed_memory_hint_is_the_host() -> None:
    diagnosis = diagnose_text("run.log", MANAGED_HINT_REFUSED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="cudaMemAdvise(",
        rule="env.cuda_managed_memory_hint_refused",
    )
    assert {"operator", "config"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.8


def test_the_same_hint_out_of_memory_is_memory() -> None:
    diagnosis = diagnose_text("run.log", MANAGED_HINT_OUT_OF_MEMORY)
    assert "env.cuda_managed_memory_hint_refused" not in rules_of(diagnosis)
    assert diagnosis.category == "oom"
