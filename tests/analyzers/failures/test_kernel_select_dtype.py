"""A graph compiler that has kernels for an op but none for the inputs' data types.

docs/labelling.md#operator-installation-or-platform-limit: MindSpore's CPU backend names the
op and the dtypes it was handed when kernel selection finds nothing that takes them
(`KernelNotSupportException] Operator[X] input(...) output(...) is not support`), its GPU
backend says `Select GPU kernel op[X] fail! Incompatible data type!`. The op has no kernel
for those inputs: `operator`, with `other` (the model's code chose the dtype) and `config`
beside it, and the line is the first error. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

CPU_REFUSAL = """\
Traceback (most recent call last):
  File "train_mask.py", line 41, in <module>
    loss = train_step(images, masks)
  File "/opt/py39/lib/python3.9/site-packages/mindspore/common/api.py", line 620, in staging_specialize
    out = _MindsporeFunctionExecutor(func, hash_obj, input_signature, process_obj, jit_config)(*args)
TypeError: mindspore/ccsrc/runtime/device/cpu/kernel_select_cpu.cc:241 KernelNotSupportException] Operator[ReduceMax]  input(kNumberTypeBool) output(kNumberTypeBool) is not support. This error means the current input type is not supported, please refer to the MindSpore doc for supported types.
"""

GPU_REFUSAL = (
    "RuntimeError: [mindspore/ccsrc/plugin/device/gpu/hal/device/kernel_info_setter.cc:498] "
    "SetKernelInfo] Select GPU kernel op[Erfinv] fail! Incompatible data type!\n"
)


def test_a_cpu_kernel_selection_that_refuses_the_dtypes_is_the_operator() -> None:
    diagnosis = diagnose_text("train_mask.log", CPU_REFUSAL)
    assert_reads(diagnosis, "operator", first_error="Operator[ReduceMax]", beside=("other",))


def test_the_gpu_backend_refusal_reads_the_same() -> None:
    diagnosis = diagnose_text("train_mask.log", GPU_REFUSAL)
    assert diagnosis.category == "operator"


def test_a_selection_that_chose_a_kernel_is_no_failure() -> None:
    text = (
        "[INFO] KERNEL(811,7f3e2a1b0740,python):2026-02-03-04:05:06.070.809 "
        "[kernel_select_cpu.cc:240] SetKernelInfo] Operator[ReduceMax] input(kNumberTypeFloat32) "
        "output(kNumberTypeFloat32) selected\nepoch 1 done\n"
    )
    diagnosis = diagnose_text("train_mask.log", text)
    assert diagnosis.category != "operator"
