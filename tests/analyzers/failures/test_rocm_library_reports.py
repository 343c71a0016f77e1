"""Failures that the ROCm stack under a PyTorch job reports in its own words.

docs/labelling.md#operator-installation-or-platform-limit: a code object missing for the
card's ISA (the runtime's own error lines before torch's `invalid device function`) and a
kernel that asserts another GPU generation are builds or back ends that do not fit the card
(`config`); a library file the runtime cannot find is the installation (`driver_env`); the
math libraries' status words in ROCm's spelling read as cuBLAS's do.
docs/labelling.md#a-warning-that-quotes-a-caught-allocator-failure: a warning written for code
read from no file (`<stdin>`, `<string>`) is a warning like one from a `.py` file.

Fixtures are written in the shape of the runtime's debug log, vLLM worker lines and a piped
script's output, with paths and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

MISSING_CODE_OBJECT = """\
:3:rocdevice.cpp            :468 : 7730012201 us: [pid:9001 tid:0x7f52aa0c1740] Initializing HSA stack.
:1:hip_fatbin.cpp           :117 : 7730019044 us: [pid:9001 tid:0x7f52aa0c1740] Missing CO for these ISAs - 
:1:hip_fatbin.cpp           :120 : 7730019050 us: [pid:9001 tid:0x7f52aa0c1740]      amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-
:3:hip_platform.cpp         :715 : 7730019057 us: [pid:9001 tid:0x7f52aa0c1740] init: Returned hipErrorNoBinaryForGpu : continue parsing remaining modules
:1:hip_fatbin.cpp           :276 : 7730061300 us: [pid:9001 tid:0x7f52aa0c1740] Cannot find CO in the bundle /opt/venv/lib/libconvops.so for ISA: amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-
Traceback (most recent call last):
  File "/srv/job/probe.py", line 3, in <module>
    x = torch.ones(4, device="cuda") * 2
RuntimeError: HIP error: invalid device function
HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing AMD_SERIALIZE_KERNEL=3
"""


def test_the_runtimes_missing_code_object_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("probe.log", MISSING_CODE_OBJECT)
    assert_reads(diagnosis, "config", first_error="Missing CO for these ISAs")


OTHER_GENERATION = """\
(Worker_TP2 pid=40412) ERROR 03-09 10:11:12 [multiproc_executor.py:700]   File "/opt/venv/lib/python3.12/site-packages/srvkit/attention/decode.py", line 91, in forward
(Worker_TP2 pid=40412) ERROR 03-09 10:11:12 [multiproc_executor.py:700]     out = paged_decode(q, kv, meta)
(Worker_TP2 pid=40412) ERROR 03-09 10:11:12 [multiproc_executor.py:700] AssertionError: paged_decode requires gfx950 (CDNA4), got gfx942
"""


def test_a_kernel_that_asserts_another_gpu_generation_is_the_platform_limit() -> None:
    diagnosis = diagnose_text("serve.log", OTHER_GENERATION)
    assert_reads(diagnosis, "config", first_error="requires gfx950", beside=("op_constraint",))


def test_a_fallback_notice_naming_an_architecture_is_no_failure() -> None:
    text = "WARNING 03-09 10:11:12 [fp8.py:40] fp8 kv cache requires gfx942 or newer; falling back to bf16\n"
    diagnosis = diagnose_text("serve.log", text)
    assert diagnosis.first_error is None or "requires gfx942" not in diagnosis.first_error.text


PIPED_SCRIPT = """\
<stdin>:5: UserWarning: bgemm_internal_cublaslt error: HIPBLAS_STATUS_INTERNAL_ERROR when calling hipblasLtMatmul with transpose_mat1 n transpose_mat2 n m 256 n 256 k 256. Will attempt to recover by calling cublas instead. (Triggered internally at /src/aten/src/ATen/hip/HIPBlas.cpp:575.)
Traceback (most recent call last):
  File "<stdin>", line 5, in <module>
torch.AcceleratorError: CUDA error: file not found
"""


def test_a_library_file_the_runtime_cannot_find_is_the_installation() -> None:
    diagnosis = diagnose_text("check.log", PIPED_SCRIPT)
    assert_reads(diagnosis, "driver_env", first_error="file not found")


def test_a_warning_from_code_read_from_no_file_stays_a_warning() -> None:
    text = "<string>:1: UserWarning: Failed to initialize the accelerator, falling back to CPU\nrun ok\n"
    diagnosis = diagnose_text("run.log", text)
    assert diagnosis.first_error is None


def test_rocms_math_library_status_reads_as_the_operator() -> None:
    text = (
        "[rank1]: RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_SUPPORTED when calling"
        " `hipblasLtMatmul with transpose_mat1 n transpose_mat2 t m 64 n 8 k 512`\n"
    )
    diagnosis = diagnose_text("rank1.log", text)
    assert diagnosis.category == "operator", diagnosis.root_cause


def test_the_advice_names_the_back_end_and_the_installation() -> None:
    generation = diagnose_text("serve.log", OTHER_GENERATION)
    assert "another GPU generation" in generation.next_actions[0]
    missing = diagnose_text("check.log", PIPED_SCRIPT)
    assert "library file the GPU runtime had to load" in missing.next_actions[0]


LAUNCH_REFUSED = """\
[OPLIB] import [module_attn_fwd] under /opt/oplib/jit/module_attn_fwd.so
[OPLIB] /opt/oplib/jit/build/module_attn_fwd/blob/attn_fwd_gfx942.cpp:97 fail to call hipModuleLaunchKernel(kernel_func, gdx, gdy, gdz, bdx, 1, 1, 0, s.stream_id_, NULL, reinterpret_cast<void**>(&config)) ---> [HIP error](invalid resource handle)
"""


def test_a_kernel_librarys_refused_launch_is_the_operator() -> None:
    # docs/labelling.md#a-kernel-librarys-runtime-call-that-fails
    diagnosis = diagnose_text("test_attn.log", LAUNCH_REFUSED)
    assert_reads(diagnosis, "operator", first_error="fail to call hipModuleLaunchKernel")
    assert diagnosis.confidence >= 0.5
    assert "config" in alternative_labels(diagnosis)


def test_a_refused_launch_that_names_a_device_fault_is_not_read_here() -> None:
    text = LAUNCH_REFUSED.replace(
        "invalid resource handle", "an illegal memory access was encountered"
    )
    diagnosis = diagnose_text("test_attn.log", text)
    assert diagnosis.category == "device_fault", diagnosis.root_cause


RCCL_KERNEL_FILE = """\
ws-7:51230:51230 [0] NCCL INFO Bootstrap : Using enp5s0:10.8.0.21<0>
ws-7:51230:51230 [0] NCCL INFO NET/Plugin : Plugin load (librccl-net.so) returned 0 : librccl-net.so: cannot open shared object file: No such file or directory
RCCL version 2.18.3+hip6.0 HEAD:2a2f1d0+

ws-7:51230:51244 [1] /build/rccl/hipify/src/enqueue.cc:66 NCCL WARN Cuda failure 'invalid kernel file'
ws-7:51230:51244 [1] NCCL INFO /build/rccl/hipify/src/init.cc:1491 -> 1
ws-7:51230:51244 [1] NCCL INFO /build/rccl/hipify/src/group.cc:68 -> 1 [Async thread]
"""


def test_rccl_that_cannot_load_its_kernels_for_a_card_is_the_build() -> None:
    """docs/labelling.md#operator-installation-or-platform-limit: HIP's `invalid kernel file`."""
    diagnosis = diagnose_text("job/train.log", RCCL_KERNEL_FILE)
    assert_reads(diagnosis, "config", first_error="'invalid kernel file'")
    assert {"driver_env", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_another_hip_answer_inside_rccl_keeps_the_collective_reading() -> None:
    text = RCCL_KERNEL_FILE.replace("'invalid kernel file'", "'invalid argument'")
    diagnosis = diagnose_text("job/train.log", text)
    assert diagnosis.category == "hccl", diagnosis.root_cause


# docs/labelling.md#a-rocm-sdk-package-set-that-lacks-a-library: torch wheels built on ROCm's
# Python SDK packages preload ROCm's libraries through the SDK when torch is imported; a library
# the installed SDK packages do not provide stops the import. Paths and names are our own.
SDK_LOOKUP_KEYERROR = """\
Traceback (most recent call last):
  File "/work/env/lib/python3.12/site-packages/rocm_sdk/__init__.py", line 34, in find_libraries
    lib_entry = _dist_info.ALL_LIBRARIES[shortname]
                ~~~~~~~~~~~~~~~~~~~~~~~~^^^^^^^^^^^
KeyError: 'rocprofiler-sdk'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/work/train.py", line 2, in <module>
    import torch
  File "/work/env/lib/python3.12/site-packages/torch/__init__.py", line 151, in <module>
    _rocm_init.initialize()
  File "/work/env/lib/python3.12/site-packages/rocm_sdk/__init__.py", line 97, in preload_libraries
    paths = find_libraries(*shortnames)
"""

SDK_LOOKUP_NEWER = """\
  File "/work/env/lib/python3.12/site-packages/rocm_sdk/__init__.py", line 40, in find_libraries
    raise ModuleNotFoundError(f"Unknown rocm library '{shortname}'")
ModuleNotFoundError: Unknown rocm library 'hipblaslt'
"""

SDK_FILE_MISSING = """\
FileNotFoundError: Could not find rocm library 'amdhip64' at path '/work/env/lib/python3.12/site-packages/_rocm_sdk_core/lib,' no match for pattern 'libamdhip64.so*'
"""

OTHER_KEYERROR = """\
Traceback (most recent call last):
  File "/work/train.py", line 40, in <module>
    lr = config["learning_rate"]
KeyError: 'learning_rate'
"""


def test_a_library_the_sdk_packages_do_not_list_is_the_installation() -> None:
    diagnosis = diagnose_text("stdout.log", SDK_LOOKUP_KEYERROR)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="KeyError: 'rocprofiler-sdk'",
        rule="env.rocm_sdk_library_unlisted",
        beside=("config",),
    )


def test_the_sdks_own_wordings_read_the_same() -> None:
    assert_reads(
        diagnose_text("stdout.log", SDK_LOOKUP_NEWER),
        "driver_env",
        first_error="Unknown rocm library 'hipblaslt'",
    )
    assert_reads(
        diagnose_text("stdout.log", SDK_FILE_MISSING),
        "driver_env",
        first_error="Could not find rocm library 'amdhip64'",
    )


def test_a_key_error_of_the_jobs_own_code_is_not_the_sdk() -> None:
    diagnosis = diagnose_text("stdout.log", OTHER_KEYERROR)
    assert diagnosis.category != "driver_env"
