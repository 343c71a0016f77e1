"""CUDA kernel libraries that cannot set themselves up inside a training job.

Op libraries compiled on first use, prebuilt quantization binaries, attention kernels with a
fixed head size and the NVSHMEM layer under expert parallelism each stop in their own words
before any step runs. Values and paths are our own, in the libraries' real wordings.

docs/labelling.md#config-driver_env-or-weight_load: a build that finds no CUDA toolkit root is
the machine's. docs/labelling.md#an-extension-built-against-headers-that-do-not-fit: torch's
extension builder refusing a toolkit of another CUDA than torch's is the package set.
docs/labelling.md#operator-installation-or-platform-limit: nvcc refusing the architecture the
build handed it, even a malformed one, and a kernel naming the head sizes it takes.
docs/labelling.md#a-quantization-librarys-cuda-binary-that-does-not-load: no binary for this
CUDA, or none loaded and the first call into it fails on a `None` handle.
docs/labelling.md#a-quantization-librarys-optimizer-kernel-with-no-launch-shape: the library's
own launch check under a sharding wrapper.
docs/labelling.md#a-quantization-librarys-cuda-check-that-the-host-does-not-support: the same
check answered "operation not supported" (paged memory on a host without it).
docs/labelling.md#network-links-that-fail-under-a-collective: NVSHMEM that cannot reach a peer
node.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

MALFORMED_ARCH = """\
[2026-02-11 09:14:03,220] [INFO] [logging.py:128:log_dist] [Rank 0] DeepSpeed info: version=0.16.0
[rank1]:W0211 09:14:05.118204 7310 site-packages/torch/utils/cpp_extension.py:2425] TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included for compilation.
[1/3] /usr/local/cuda/bin/nvcc --generate-dependencies-with-compile --dependency-output multi_tensor_adam.cuda.o.d -DTORCH_EXTENSION_NAME=fused_adam -c /opt/venv/lib/python3.10/site-packages/deepspeed/ops/csrc/adam/multi_tensor_adam.cu -o multi_tensor_adam.cuda.o
nvcc fatal   : Unsupported gpu architecture 'compute_1.'
ninja: build stopped: subcommand failed.
"""

# Counterexample: nvcc failing on a file, not an architecture, is not the toolkit-vs-card rule.
NVCC_INPUT_MISSING = """\
[1/3] /usr/local/cuda/bin/nvcc -c /tmp/ext/rope_kernel.cu -o rope_kernel.cuda.o
nvcc fatal   : Could not open input file /tmp/ext/rope_kernel.cu
"""

NO_TOOLKIT_ROOT_UNDER_LAZY_IMPORT = """\
[2026-03-02 14:20:11,507] [INFO] [real_accelerator.py:222:get_accelerator] Setting ds_accelerator to cuda (auto detect)
Traceback (most recent call last):
  File "/opt/venv/lib/python3.11/site-packages/trl/import_utils.py", line 180, in _get_module
    return importlib.import_module("." + module_name, self.__name__)
    raise RuntimeError(
RuntimeError: Failed to import trl.trainer.kto_trainer because of the following error (look up to see its traceback): CUDA_HOME does not exist, unable to compile CUDA op(s)
"""

# Counterexample: the same headline over a missing module is the package set.
LAZY_IMPORT_OF_A_MISSING_MODULE = """\
RuntimeError: Failed to import trl.trainer.kto_trainer because of the following error (look up to see its traceback): No module named 'demo_kernels'
"""

TOOLKIT_VS_TORCH_CUDA = """\
  File "/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 413, in _check_cuda_version
    raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))
RuntimeError:
The detected CUDA version (11.7) mismatches the version that was used to compile
PyTorch (12.1). Please make sure to use the same CUDA versions.
"""

# Counterexample: the minor-version notice is a warning, and the build goes on.
MINOR_VERSION_NOTICE = """\
/opt/venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:424: UserWarning: The detected CUDA version (12.2) has a minor version mismatch with the version that was used to compile PyTorch (12.4). Most likely this shouldn't be a problem.
building 'demo_ops._C' extension
"""

QUANT_BINARY_NOT_LOADED = """\
CUDA SETUP: CUDA detection failed! Possible reasons:
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/bitsandbytes/cextension.py", line 20, in <module>
    raise RuntimeError('''
RuntimeError:
        CUDA Setup failed despite GPU being available. Please run the following command to get more information:

        python -m bitsandbytes
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4410) of binary: /opt/venv/bin/python
"""

# Counterexample: the library's report of what it found is no failure.
QUANT_SETUP_REPORT = """\
CUDA SETUP: Detected CUDA version 121
CUDA SETUP: Loading binary /opt/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cuda121.so...
"""

HEAD_DIM_ONE_VALUE = """\
  File "/opt/venv/lib/python3.9/site-packages/demo_attn/interface.py", line 22, in _forward
    out, lse = demo_attn_cuda.fwd(
RuntimeError: this kernel only supports head dimension 64, others are planned
"""

HEAD_DIM_BOUND = """\
[rank2]: RuntimeError: CK only supports head dimension at most 256
"""

# Counterexample: the library notes the limit and takes another path.
HEAD_DIM_FALLBACK_NOTICE = """\
WARNING the fused kernel only supports head dimension 128; using sdpa for head dimension 80
step 1 loss 2.31
"""

NVSHMEM_PEER_UNREACHABLE = """\
/opt/nvshmem/install/include/host/nvshmemx_api.h:63: non-zero status: 7: Connection timed out, exiting...
aborting due to error in nvshmemi_init_thread
"""

# Counterexample: a failed step of NVSHMEM's own keeps the queue-pair reading.
NVSHMEM_SETUP_STEP = """\
/opt/nvshmem/src/host/init/init.cu:990: non-zero status: 7 nvshmem setup connections failed
"""


def test_nvcc_refusing_a_malformed_architecture_is_the_build_setting() -> None:
    diagnosis = diagnose_text("train.log", MALFORMED_ARCH)
    assert_reads(
        diagnosis, "config", first_error="compute_1.", rule="cfg.cuda_compiler_unknown_arch"
    )


def test_nvcc_failing_on_an_input_file_is_not_the_architecture_rule() -> None:
    diagnosis = diagnose_text("train.log", NVCC_INPUT_MISSING)
    assert "cfg.cuda_compiler_unknown_arch" not in rules_of(diagnosis)


def test_no_toolkit_root_behind_a_lazy_import_is_the_machine() -> None:
    diagnosis = diagnose_text("train.log", NO_TOOLKIT_ROOT_UNDER_LAZY_IMPORT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="CUDA_HOME does not exist",
        rule="env.cuda_compiler_missing",
        beside=("config",),
    )


def test_a_lazy_import_of_a_missing_module_stays_the_package_set() -> None:
    diagnosis = diagnose_text("train.log", LAZY_IMPORT_OF_A_MISSING_MODULE)
    assert diagnosis.category == "config"
    assert "env.cuda_compiler_missing" not in rules_of(diagnosis)


def test_torch_extension_builder_refusing_another_cuda_is_the_package_set() -> None:
    diagnosis = diagnose_text("build.log", TOOLKIT_VS_TORCH_CUDA)
    assert_reads(
        diagnosis,
        "config",
        first_error="mismatches the version",
        rule="cfg.extension_cuda_toolkit_mismatch",
        beside=("driver_env",),
    )


def test_the_minor_version_notice_is_no_toolkit_mismatch() -> None:
    diagnosis = diagnose_text("build.log", MINOR_VERSION_NOTICE)
    assert "cfg.extension_cuda_toolkit_mismatch" not in rules_of(diagnosis)


def test_a_quantization_library_without_a_loadable_binary_is_the_package_set() -> None:
    diagnosis = diagnose_text("train.log", QUANT_BINARY_NOT_LOADED)
    assert diagnosis.category == "config"
    assert "cfg.quant_library_cuda_binary_not_loaded" in rules_of(diagnosis)
    assert diagnosis.first_error is not None
    assert "CUDA detection failed" in diagnosis.first_error.text or (
        "CUDA Setup failed" in diagnosis.first_error.text
    )
    assert "driver_env" in alternative_labels(diagnosis)


def test_the_quantization_library_report_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", QUANT_SETUP_REPORT)
    assert "cfg.quant_library_cuda_binary_not_loaded" not in rules_of(diagnosis)


def test_a_kernel_naming_the_head_dimension_it_takes_is_a_constraint() -> None:
    for text in (HEAD_DIM_ONE_VALUE, HEAD_DIM_BOUND):
        diagnosis = diagnose_text("train.log", text)
        assert diagnosis.category == "op_constraint", text
        assert "opc.head_dim_supported_values" in rules_of(diagnosis)
        assert diagnosis.first_error is not None
        assert "head dimension" in diagnosis.first_error.text


def test_a_head_dimension_notice_with_a_fallback_is_no_constraint() -> None:
    diagnosis = diagnose_text("train.log", HEAD_DIM_FALLBACK_NOTICE)
    assert "opc.head_dim_supported_values" not in rules_of(diagnosis)


def test_nvshmem_that_cannot_reach_a_peer_node_is_the_communication_layer() -> None:
    diagnosis = diagnose_text("node0.log", NVSHMEM_PEER_UNREACHABLE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Connection timed out",
        rule="hccl.nvshmem_bootstrap_unreachable",
    )
    assert diagnosis.confidence >= 0.5


def test_a_failed_nvshmem_step_keeps_the_queue_pair_reading() -> None:
    diagnosis = diagnose_text("node0.log", NVSHMEM_SETUP_STEP)
    assert diagnosis.category == "hccl"
    assert "hccl.nvshmem_bootstrap_unreachable" not in rules_of(diagnosis)
    assert "hccl.nvshmem_connect_failed" in rules_of(diagnosis)


# Two ranks of one DeepSpeed job step a paged 8-bit optimizer whose binary never loaded; their
# stderr shares one stream, so the frames come twice.
PAGED_STATE_WITHOUT_BINARY = """\
[2026-05-14 08:02:11,904] [INFO] [engine.py:1130:_configure_optimizer] Using client Optimizer as basic optimizer
  File "/opt/venv/lib/python3.11/site-packages/bitsandbytes/optim/optimizer.py", line 470, in init_state
  File "/opt/venv/lib/python3.11/site-packages/bitsandbytes/optim/optimizer.py", line 470, in init_state
    state["state1"] = self.get_state_buffer(p, dtype=torch.uint8)
  File "/opt/venv/lib/python3.11/site-packages/bitsandbytes/functional.py", line 188, in get_paged
    cuda_ptr = lib.cget_managed_ptr(ct.c_size_t(num_bytes))
AttributeError: 'NoneType' object has no attribute 'cget_managed_ptr'
AttributeError: 'NoneType' object has no attribute 'cget_managed_ptr'
[2026-05-14 08:02:14,330] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 5120) of binary: /opt/venv/bin/python
"""

# Counterexample: a script that calls `.cuda()` on a model it never built.
NONE_MODEL_MOVED = """\
  File "/work/train_demo.py", line 41, in main
    model = model.cuda()
AttributeError: 'NoneType' object has no attribute 'cuda'
"""

# An 8-bit optimizer stepped under ZeRO-3; the library's own launch check prints on each rank
# before the launcher reports the exit.
OPTIMIZER_LAUNCH_UNDER_ZERO = """\
[default0]:[2026-05-14 09:11:02,118] [INFO] [stage3.py:1872:step] step 0 start
[default0]:Error invalid configuration argument at line 211 in file /build/bnb/csrc/ops.cu
[default1]:Error invalid configuration argument at line 211 in file /build/bnb/csrc/ops.cu
[2026-05-14 09:11:04,502] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 0 (pid: 7301) of binary: /opt/venv/bin/python
"""

# Counterexample: the same print with a missing kernel image is a build for other cards.
LAUNCH_CHECK_NO_KERNEL_IMAGE = """\
Error no kernel image is available for execution on the device at line 167 in file /build/bnb/csrc/ops.cu
"""


def test_a_quantization_library_call_on_a_missing_binary_is_the_package_set() -> None:
    diagnosis = diagnose_text("train.log", PAGED_STATE_WITHOUT_BINARY)
    assert_reads(
        diagnosis,
        "config",
        first_error="cget_managed_ptr",
        rule="cfg.quant_library_binary_handle_missing",
        beside=("driver_env",),
    )
    assert diagnosis.confidence >= 0.5


def test_another_attribute_of_none_is_not_the_missing_binary() -> None:
    diagnosis = diagnose_text("train.log", NONE_MODEL_MOVED)
    assert "cfg.quant_library_binary_handle_missing" not in rules_of(diagnosis)


def test_the_quantization_librarys_launch_check_under_zero_is_the_combination() -> None:
    diagnosis = diagnose_text("launcher.log", OPTIMIZER_LAUNCH_UNDER_ZERO)
    assert_reads(
        diagnosis,
        "config",
        first_error="invalid configuration argument at line 211",
        rule="cfg.quant_optimizer_kernel_launch_config",
        beside=("operator",),
    )


def test_the_launch_check_with_a_missing_kernel_image_keeps_its_reading() -> None:
    diagnosis = diagnose_text("train.log", LAUNCH_CHECK_NO_KERNEL_IMAGE)
    assert "cfg.quant_optimizer_kernel_launch_config" not in rules_of(diagnosis)
    assert diagnosis.category == "config"


# The same print with the runtime's "not supported" answer: the library's paged (managed)
# memory on a host that does not offer it. The rank exits 1 and the launcher reports it.
PAGED_CHECK_NOT_SUPPORTED = """\
Error operation not supported at line 402 in file /opt/build/bitsandbytes/csrc/pythonInterface.c
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 20417) of binary: /opt/envs/ft/bin/python
Traceback (most recent call last):
  File "/opt/envs/ft/bin/torchrun", line 8, in <module>
    sys.exit(main())
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
"""

# Counterexample: torch's own answer names no library's check and keeps its reading.
TORCH_NOT_SUPPORTED = """\
RuntimeError: CUDA error: operation not supported
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""


def test_the_library_check_answered_not_supported_is_the_host() -> None:
    diagnosis = diagnose_text("train.log", PAGED_CHECK_NOT_SUPPORTED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Error operation not supported at line 402",
        rule="env.quant_library_cuda_check_not_supported",
        beside=("config",),
    )


def test_torchs_own_not_supported_is_not_the_librarys_check() -> None:
    diagnosis = diagnose_text("train.log", TORCH_NOT_SUPPORTED)
    assert "env.quant_library_cuda_check_not_supported" not in rules_of(diagnosis)


# A trainer whose bitsandbytes fell back to its CPU-only build: every process that imports it
# prints the missing GPU entry point and the no-GPU-support warning, and the job goes on until
# the launcher reports a rank killed by SIGKILL. The import-time lines are a probe's answer;
# the kill is the failure.
CPU_BUILD_PROBE_THEN_KILL = """\
/srv/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32
/srv/venv/lib/python3.10/site-packages/bitsandbytes/cextension.py:34: UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU quantization are unavailable.
  warn("The installed version of bitsandbytes was compiled without GPU support. "
/srv/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32
[2026-05-14 10:40:12,220] [INFO] [real_accelerator.py:158:get_accelerator] Setting ds_accelerator to cuda (auto detect)
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 2 (pid: 8812) of binary: /srv/venv/bin/python
"""

# Counterexample: a compiled extension of another package missing a symbol is a real mismatch.
EXTENSION_SYMBOL_MISSING = """\
ImportError: /srv/venv/lib/python3.10/site-packages/fused_ops/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda20CUDACachingAllocator9allocatorE
"""


def test_the_quantization_librarys_cpu_build_probe_is_no_failure() -> None:
    diagnosis = diagnose_text("train.log", CPU_BUILD_PROBE_THEN_KILL)
    assert_reads(diagnosis, "device_fault", first_error="exitcode: -9")
    assert "cfg.extension_symbol_mismatch" not in rules_of(diagnosis)


def test_another_extensions_missing_symbol_keeps_the_mismatch_reading() -> None:
    diagnosis = diagnose_text("train.log", EXTENSION_SYMBOL_MISSING)
    assert diagnosis.category == "config"
    assert "cfg.extension_symbol_mismatch" in rules_of(diagnosis)
