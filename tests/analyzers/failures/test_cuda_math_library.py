"""A GPU math library answering a call with an error status.

docs/labelling.md#operator-installation-or-platform-limit: cuBLAS, cuBLASLt or cuDNN answering
a call with an execution, internal or parameter status is the op failing, `operator`, with
`device_fault` as the alternative, and that line is the first error; the library's allocation
status is the device's memory running out, `oom`. A status that reports success is no failure.

Fixtures are written in the shapes of vLLM's worker log and torch's tracebacks, with pids,
sizes and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

# A serving worker's projection GEMM fails inside cuBLASLt.
GEMM_EXECUTION_FAILED = """\
ERROR 02-11 08:14:03 worker.py:88]   File "/opt/venv/lib/python3.11/site-packages/vllm/model_executor/layers/linear.py", line 410, in forward
ERROR 02-11 08:14:03 worker.py:88]     output = self.quant_method.apply(self, input_, bias)
ERROR 02-11 08:14:03 worker.py:88] RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasLtMatmul with transpose_mat1 t transpose_mat2 n m 5120 n 812 k 5120 mat1_ld 5120 mat2_ld 5120 result_ld 5120
"""

# A convolution in a training step, cuDNN's own wording.
CONV_INTERNAL_ERROR = """\
Traceback (most recent call last):
  File "train_seg.py", line 77, in train_epoch
    loss.backward()
  File "/opt/env/lib/python3.10/site-packages/torch/_tensor.py", line 522, in backward
    torch.autograd.backward(
RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR
"""

# The same library unable to create its handle: the device has no memory left.
HANDLE_ALLOC_FAILED = """\
Traceback (most recent call last):
  File "finetune.py", line 140, in <module>
    loss = model(**batch).loss
RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`
"""

# A debug line that reports the library's success, then a clean end.
STATUS_SUCCESS = """\
2026-02-11 08:14:03,101 INFO gemm probe: cublasLtMatmul returned CUBLAS_STATUS_SUCCESS
2026-02-11 08:14:09,882 INFO model run success
"""


def test_a_math_library_execution_status_is_the_operator() -> None:
    diagnosis = diagnose_text("serve/worker.log", GEMM_EXECUTION_FAILED)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "CUBLAS_STATUS_EXECUTION_FAILED" in diagnosis.first_error.text
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.8


def test_a_cudnn_internal_status_is_the_operator() -> None:
    diagnosis = diagnose_text("seg/rank0.log", CONV_INTERNAL_ERROR)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "CUDNN_STATUS_INTERNAL_ERROR" in diagnosis.first_error.text


def test_a_math_library_allocation_status_is_memory() -> None:
    diagnosis = diagnose_text("train/rank0.log", HANDLE_ALLOC_FAILED)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "CUBLAS_STATUS_ALLOC_FAILED" in diagnosis.first_error.text


def test_a_success_status_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/worker.log", STATUS_SUCCESS)
    assert diagnosis.category != "operator", diagnosis.root_cause
    assert diagnosis.first_error is None
