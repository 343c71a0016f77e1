"""A serving engine's kernels meet the machine's CUDA toolchain: the driver, nvcc, the fabric.

docs/labelling.md, "Config, driver_env or weight_load": PTX written by a newer toolkit than the
driver can compile, and a kernel build on first use that finds no CUDA compiler, are the
machine's (`driver_env`, the release chosen beside it). "Operator, installation or platform
limit": nvcc refusing an option the build passes is a toolkit and library that do not fit
(`config`), and its line comes before the build command the engine echoes. "A CUDA feature the
host does not offer NCCL": a symmetric-memory buffer on GPUs without multicast is the host's, and
so is a kernel library's shareable-memory call that the driver answers 800 or 801.
Values are our own, in the engines' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PTX_NEWER_THAN_DRIVER = """\
(EngineCore_DP0 pid=9120) ERROR 03-14 08:21:40 [core.py:842]   File "/opt/venv/lib/python3.12/site-packages/vllm/vllm_flash_attn/flash_attn_interface.py", line 256, in flash_attn_varlen_func
(EngineCore_DP0 pid=9120) ERROR 03-14 08:21:40 [core.py:842]     out, softmax_lse = torch.ops._vllm_fa2_C.varlen_fwd(
(EngineCore_DP0 pid=9120) ERROR 03-14 08:21:40 [core.py:842] torch.AcceleratorError: CUDA error: the provided PTX was compiled with an unsupported toolchain.
(EngineCore_DP0 pid=9120) ERROR 03-14 08:21:40 [core.py:842] Search for `cudaErrorUnsupportedPtxVersion' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.
"""

# Counterexample: a wheel with no kernel for the card is the package set, not the driver.
NO_KERNEL_FOR_CARD = """\
(EngineCore_DP0 pid=9120) ERROR 03-14 08:21:40 [core.py:842] torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device
"""

NVCC_UNKNOWN_OPTION = """\
(EngineCore_0 pid=5120) ERROR 06-07 10:11:12 [core.py:700]     sampler_output = self.sampler(logits=logits,
(EngineCore_0 pid=5120) ERROR 06-07 10:11:12 [core.py:700] [1/3] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile --dependency-output topk/topk.cuda.o.d -isystem /usr/local/cuda/include --expt-relaxed-constexpr -static-global-template-stub=false -c /opt/venv/lib/python3.10/site-packages/kernels/topk.cu -o topk/topk.cuda.o
(EngineCore_0 pid=5120) ERROR 06-07 10:11:12 [core.py:700] nvcc fatal   : Unknown option '-static-global-template-stub=false'
(EngineCore_0 pid=5120) ERROR 06-07 10:11:12 [core.py:700] ninja: build stopped: subcommand failed.
"""

NVCC_NOT_FOUND_BY_LIBRARY = """\
(Worker_TP3 pid=2210) ERROR 11-02 13:14:15 [multiproc_executor.py:694]   File "/opt/venv/lib/python3.12/site-packages/kernels/jit/cpp_ext.py", line 51, in get_cuda_path
(Worker_TP3 pid=2210) ERROR 11-02 13:14:15 [multiproc_executor.py:694] RuntimeError: Could not find nvcc
"""

NVCC_NOT_STARTED = """\
(Worker_TP0 pid=2207) ERROR 11-02 13:14:15 [multiproc_executor.py:671]   File "/opt/venv/lib/python3.12/site-packages/kernels/sampling.py", line 47, in get_sampling_module
(Worker_TP0 pid=2207) ERROR 11-02 13:14:15 [multiproc_executor.py:671] FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'
"""

# Counterexample: a missing file the job named is its own setting, not the toolkit.
JOB_FILE_MISSING = """\
(Worker_TP0 pid=2207) ERROR 11-02 13:14:15 [multiproc_executor.py:671] FileNotFoundError: [Errno 2] No such file or directory: '/models/toy-7b/generation_config.json'
"""

NO_MULTICAST = """\
(Worker_TP0 pid=612) ERROR 04-05 06:07:08 [multiproc_executor.py:863]   File "/opt/venv/lib/python3.12/site-packages/vllm/compilation/decorators.py", line 556, in __call__
(Worker_TP0 pid=612) ERROR 04-05 06:07:08 [multiproc_executor.py:863]     self.aot_compiled_fn = self.aot_compile(*args, **kwargs)
(Worker_TP0 pid=612) ERROR 04-05 06:07:08 [multiproc_executor.py:863] RuntimeError: [SymmDeviceMemory] Device does not support multicasting.
(Worker_TP1 pid=613) ERROR 04-05 06:07:08 [multiproc_executor.py:863] RuntimeError: [SymmDeviceMemory] Device does not support multicasting.
"""

SHARED_MEMORY_REFUSED = """\
[2026-02-03 04:05:06 DP0 TP0] Init torch distributed ends. mem usage=1.21 GB
[2026-02-03 04:05:19 DP1 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sgl/python/sglang/srt/layers/moe/token_dispatcher/deepep.py", line 141, in get_deepep_buffer
    cls._buffer = Buffer(group, num_nvl_bytes, num_rdma_bytes)
RuntimeError: CUDA driver exception (/build/ep/csrc/utils/shared_memory.hpp:64): {answer}
[2026-02-03 04:05:19 DP3 TP3] Scheduler hit an exception: Traceback (most recent call last):
RuntimeError: CUDA driver exception (/build/ep/csrc/utils/shared_memory.hpp:64): {answer}
[2026-02-03 04:05:20] Received sigquit from a child process. It usually means the child failed.
"""

# Counterexample: the library noted the refusal, took another handle type and went on.
SHARED_MEMORY_FALLBACK_NOTE = """\
[2026-02-03 04:05:19 DP1 TP1] INFO ep_buffer.py:77: fabric handles unavailable (cuMemCreate: CUDA_ERROR_NOT_SUPPORTED), using IPC handles
[2026-02-03 04:05:40 DP1 TP1] Capture cuda graph end. Time elapsed: 12.40 s. mem usage=2.03 GB.
"""

# Counterexample: the engine turned the fused path off after the refusal and went on.
MULTICAST_FALLBACK_WARNING = """\
(Worker_TP0 pid=612) WARNING 04-05 06:07:08 [allreduce_rms_fusion.py:120] AllReduce fusion pass is disabled: flashinfer workspace creation failed: [SymmDeviceMemory] Device does not support multicasting.
(Worker_TP0 pid=612) INFO 04-05 06:07:30 [gpu_worker.py:300] Model loading took 14.2 GiB
"""


def test_ptx_from_a_newer_toolkit_than_the_driver_is_the_machines_driver() -> None:
    diagnosis = diagnose_text("serve.log", PTX_NEWER_THAN_DRIVER)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="unsupported toolchain",
        rule="env.cuda_ptx_newer_than_driver",
        beside=("config",),
    )


def test_a_wheel_without_a_kernel_for_the_card_is_not_an_old_driver() -> None:
    diagnosis = diagnose_text("serve.log", NO_KERNEL_FOR_CARD)
    assert "env.cuda_ptx_newer_than_driver" not in rules_of(diagnosis)
    assert diagnosis.category == "config"


def test_nvcc_refusing_an_option_is_the_toolkit_and_library_releases() -> None:
    diagnosis = diagnose_text("serve.log", NVCC_UNKNOWN_OPTION)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown option '-static-global-template-stub=false'",
        rule="cfg.cuda_compiler_unknown_option",
        beside=("driver_env",),
    )


def test_a_library_that_finds_no_cuda_compiler_is_the_machine() -> None:
    diagnosis = diagnose_text("serve.log", NVCC_NOT_FOUND_BY_LIBRARY)
    assert diagnosis.category == "driver_env"
    assert "env.cuda_compiler_missing" in rules_of(diagnosis)


def test_a_cuda_compiler_python_cannot_start_is_the_machine() -> None:
    diagnosis = diagnose_text("serve.log", NVCC_NOT_STARTED)
    assert diagnosis.category == "driver_env"
    assert "env.cuda_compiler_missing" in rules_of(diagnosis)
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_missing_file_the_job_named_is_not_a_missing_compiler() -> None:
    diagnosis = diagnose_text("serve.log", JOB_FILE_MISSING)
    assert "env.cuda_compiler_missing" not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"


def test_gpus_without_multicast_are_the_host_not_the_job() -> None:
    diagnosis = diagnose_text("serve.log", NO_MULTICAST)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="does not support multicasting",
        rule="env.device_multicast_unsupported",
    )


def test_a_fused_path_turned_off_after_the_refusal_is_no_failure() -> None:
    diagnosis = diagnose_text("serve.log", MULTICAST_FALLBACK_WARNING)
    assert "env.device_multicast_unsupported" not in rules_of(diagnosis)


def test_a_kernel_librarys_shareable_memory_refused_by_the_driver_is_the_host() -> None:
    answer = "800 (CUDA_ERROR_NOT_PERMITTED, operation not permitted)"
    diagnosis = diagnose_text("server.log", SHARED_MEMORY_REFUSED.format(answer=answer))
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="CUDA_ERROR_NOT_PERMITTED",
        rule="env.kernel_library_shared_memory_refused",
    )
    assert {"config", "operator"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_same_macro_with_an_illegal_address_stays_a_device_fault() -> None:
    answer = "700 (CUDA_ERROR_ILLEGAL_ADDRESS, an illegal memory access was encountered)"
    diagnosis = diagnose_text("server.log", SHARED_MEMORY_REFUSED.format(answer=answer))
    assert diagnosis.category == "device_fault"
    assert "env.kernel_library_shared_memory_refused" not in rules_of(diagnosis)


def test_a_note_that_the_library_took_another_handle_type_is_no_failure() -> None:
    diagnosis = diagnose_text("server.log", SHARED_MEMORY_FALLBACK_NOTE)
    assert "env.kernel_library_shared_memory_refused" not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"


# docs/labelling.md#a-cuda-feature-the-host-does-not-offer-nccl
# A collective library's Python binding raises the driver's answer as a tuple: the number,
# then the call that failed with its source place and the driver's words.
BINDING_DRIVER_REFUSAL = """\
>>> buf = SymmetricBuffer(256)
Traceback (most recent call last):
  File "<stdin>", line 1, in <module>
  File "/opt/venv/lib/python3.11/site-packages/collective_lib/utils.py", line 141, in __new__
    raw = RawBuffer(count * itemsize)
collective_lib._core.CuError: ({answer}, 'Call to cuMemCreate(&handle, bytes, &prop, 0 ) failed./src/collective_lib/src/gpu_utils.cc:120 (Cu failure: {words})')
"""


def test_a_bindings_tuple_form_of_a_driver_refusal_is_the_host() -> None:
    text = BINDING_DRIVER_REFUSAL.format(answer=800, words="operation not permitted")
    diagnosis = diagnose_text("session.log", text)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Cu failure: operation not permitted",
        rule="env.kernel_library_shared_memory_refused",
        beside=["config"],
    )


def test_the_tuple_form_with_an_out_of_memory_answer_is_not_the_hosts_refusal() -> None:
    text = BINDING_DRIVER_REFUSAL.format(answer=2, words="out of memory")
    diagnosis = diagnose_text("session.log", text)
    assert "env.kernel_library_shared_memory_refused" not in rules_of(diagnosis)
