"""A driver library the job calls into (CUDA's libcuda, NVML's libnvidia-ml, Ascend's
libascend_hal) lacks a function the framework was built to use: the installed driver is older
than the build expects, so the machine is what has to change (`driver_env`), with the package
set beside it. A compiled extension lacking a symbol of the packages it was built against keeps
its own reading, `config` (docs/labelling.md#config-driver_env-or-weight_load).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# torch asks NVML for an NVLink query during a multi-GPU fine-tune and the host's NVML lacks it.
NVML_QUERY = """\
    return F.linear(input, self.weight, self.bias)
RuntimeError: r.nvmlDeviceGetMemoryAffinity_ INTERNAL ASSERT FAILED at "../c10/cuda/driver_api.cpp":33, please report a bug to PyTorch. Can't find nvmlDeviceGetMemoryAffinity: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: undefined symbol: nvmlDeviceGetMemoryAffinity
"""

# The NPU driver's HAL library older than the CANN release that calls into it.
ASCEND_HAL = "ImportError: /usr/local/Ascend/driver/lib64/driver/libascend_hal.so: undefined symbol: halGetDeviceInfoByBuff\n"

# Counterexample: an extension built against another torch release.
EXTENSION = (
    "ImportError: /opt/env/lib/python3.10/site-packages/fused_ops/_C.cpython-310-x86_64-linux-gnu.so: "
    "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev\n"
)


def test_an_nvml_function_the_driver_lacks_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/train.log", NVML_QUERY)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="undefined symbol: nvmlDeviceGetMemoryAffinity",
        beside=("config",),
    )


def test_the_npu_drivers_hal_library_is_read_the_same() -> None:
    diagnosis = diagnose_text("logs/train.log", ASCEND_HAL)
    assert diagnosis.category == "driver_env", diagnosis.root_cause


def test_an_extensions_missing_symbol_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("logs/train.log", EXTENSION)
    assert diagnosis.category == "config", diagnosis.root_cause


# The loader names the library that asked for the symbol, not the one meant to provide it. A
# serving engine's own extension that calls a CUDA driver API function (plain C, `cu` and a
# capital) resolves it from libcuda, so a driver older than the wheel's CUDA leaves it undefined
# there; the engine only warns that its ops did not load.
EXTENSION_NEEDS_DRIVER_CALL = (
    "WARNING 03-14 09:12:40 _custom_ops.py:19] Failed to import from fastserve._C with "
    "ImportError('/srv/env/lib/python3.10/site-packages/fastserve/_C.abi3.so: undefined symbol: "
    "cuLaunchKernelEx')\n"
)
# the same for an NVML function a monitoring extension calls
EXTENSION_NEEDS_NVML_CALL = (
    "OSError: /srv/env/lib/python3.11/site-packages/gpumon/_native.so: undefined symbol: "
    "nvmlDeviceGetGpuFabricInfo\n"
)
# Counterexample: a cuBLAS function (lower case after `cu`) comes from the package set's own
# libraries, not from the driver.
EXTENSION_NEEDS_CUBLAS_CALL = (
    "ImportError: /srv/env/lib/python3.10/site-packages/fastgemm/_C.so: undefined symbol: "
    "cublasLtMatmulAlgoGetHeuristic\n"
)


def test_an_extension_lacking_a_cuda_driver_function_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/serve.log", EXTENSION_NEEDS_DRIVER_CALL)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="undefined symbol: cuLaunchKernelEx",
        rule="env.driver_library_symbol_missing",
        beside=("config",),
    )


def test_an_extension_lacking_an_nvml_function_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/monitor.log", EXTENSION_NEEDS_NVML_CALL)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="nvmlDeviceGetGpuFabricInfo",
        rule="env.driver_library_symbol_missing",
    )


def test_an_extension_lacking_a_library_function_keeps_the_package_reading() -> None:
    diagnosis = diagnose_text("logs/train.log", EXTENSION_NEEDS_CUBLAS_CALL)
    assert diagnosis.category == "config", diagnosis.root_cause
