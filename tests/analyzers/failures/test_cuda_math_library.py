"""A GPU math library answering a call with an error status.

docs/labelling.md#operator-installation-or-platform-limit: cuBLAS, cuBLASLt or cuDNN answering
a call with an execution, internal or parameter status is the op failing, `operator`, with
`device_fault` as the alternative, and that line is the first error; the library's allocation
status is the device's memory running out, `oom`. A status that reports success is no failure.

Fixtures are written in the shapes of vLLM's worker log and torch's tracebacks, with pids,
sizes and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
    assert_reads(
        diagnosis,
        "operator",
        first_error="CUBLAS_STATUS_EXECUTION_FAILED",
        beside=("device_fault",),
    )
    assert diagnosis.confidence < 0.8


def test_a_cudnn_internal_status_is_the_operator() -> None:
    diagnosis = diagnose_text("seg/rank0.log", CONV_INTERNAL_ERROR)
    assert_reads(diagnosis, "operator", first_error="CUDNN_STATUS_INTERNAL_ERROR")


def test_a_math_library_allocation_status_is_memory() -> None:
    diagnosis = diagnose_text("train/rank0.log", HANDLE_ALLOC_FAILED)
    assert_reads(diagnosis, "oom", first_error="CUBLAS_STATUS_ALLOC_FAILED")


def test_a_success_status_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/worker.log", STATUS_SUCCESS)
    assert diagnosis.category != "operator", diagnosis.root_cause
    assert diagnosis.first_error is None


# The library cannot even create its handle: the first GEMM of a run, torch's wording.
HANDLE_NOT_INITIALIZED = """\
Traceback (most recent call last):
  File "eval_lm.py", line 58, in <module>
    logits = model(input_ids).logits
  File "/opt/env/lib/python3.10/site-packages/torch/nn/modules/linear.py", line 117, in forward
    return F.linear(input, self.weight, self.bias)
RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`
"""

# cuDNN's twin of it, on a rank's log.
CUDNN_NOT_INITIALIZED = """\
[rank1]:   File "/srv/seg/model.py", line 31, in forward
[rank1]:     x = self.stem(x)
[rank1]: RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED
"""

# The device already said it was full before the library gave up.
OOM_THEN_NOT_INITIALIZED = """\
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 9.06 MiB is free.
RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`
"""


def test_a_math_library_that_cannot_start_is_memory_with_the_setup_as_neighbour() -> None:
    """docs/labelling.md#operator-installation-or-platform-limit: creating the handle takes
    device memory, so `oom`, with a CUDA set-up the library cannot start on beside it."""
    diagnosis = diagnose_text("eval/rank0.log", HANDLE_NOT_INITIALIZED)
    assert_reads(
        diagnosis, "oom", first_error="CUBLAS_STATUS_NOT_INITIALIZED", beside=("driver_env",)
    )
    assert diagnosis.confidence < 0.8


def test_cudnn_that_cannot_start_is_read_alike() -> None:
    diagnosis = diagnose_text("seg/rank1.log", CUDNN_NOT_INITIALIZED)
    assert_reads(diagnosis, "oom", first_error="CUDNN_STATUS_NOT_INITIALIZED")


def test_an_out_of_memory_line_before_it_is_the_first_error() -> None:
    diagnosis = diagnose_text("eval/rank0.log", OOM_THEN_NOT_INITIALIZED)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_an_execution_status_is_not_read_as_a_library_that_cannot_start() -> None:
    """Counterexample: a status from a call that ran stays the operator's."""
    diagnosis = diagnose_text("serve/worker.log", GEMM_EXECUTION_FAILED)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


# A training library that checks cuBLAS on its own prints the status as cuBLAS's sentence for
# it, not the enum name: a GEMM in a tensor-parallel layer, TransformerEngine's wording.
TE_GEMM_STATUS_IN_WORDS = """\
[rank5]:   File "/opt/venv/lib/python3.12/site-packages/transformer_engine/pytorch/module/linear.py", line 288, in forward
[rank5]:     out, *_ = general_gemm(
[rank5]: RuntimeError: /opt/te/transformer_engine/common/gemm/cublaslt_gemm.cu:702 in function cublas_gemm: cuBLAS Error: the function failed to launch on the GPU
"""

# The same prefix with the allocation sentence: the device's memory, not the op.
TE_GEMM_ALLOCATION_IN_WORDS = """\
[rank5]:   File "/opt/venv/lib/python3.12/site-packages/transformer_engine/pytorch/module/linear.py", line 288, in forward
[rank5]: RuntimeError: /opt/te/transformer_engine/common/gemm/cublaslt_gemm.cu:702 in function cublas_gemm: cuBLAS Error: the resource allocation failed
"""


def test_a_status_given_in_cublas_words_is_the_operator() -> None:
    diagnosis = diagnose_text("train/rank5.log", TE_GEMM_STATUS_IN_WORDS)
    assert_reads(
        diagnosis, "operator", first_error="failed to launch on the GPU", beside=("device_fault",)
    )


def test_the_allocation_sentence_is_not_read_as_the_operator() -> None:
    diagnosis = diagnose_text("train/rank5.log", TE_GEMM_ALLOCATION_IN_WORDS)
    assert diagnosis.category != "operator", diagnosis.root_cause


# cuDNN 9 opens its sub-libraries when a graph first needs them; a piece that is missing or of
# another release fails the fused-attention graph TransformerEngine builds. A training
# framework catches the exception and logs it at WARNING with the caught traceback as a list.
CUDNN_PART_NOT_LOADED = """\
WARNING:demo.core.utils:/src/te/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:402 in function operator(): cuDNN Error: CUDNN_BACKEND_TENSOR_DESCRIPTOR cudnnFinalize failed cudnn_status: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED. For more information, enable cuDNN error logging by setting CUDNN_LOGERR_DBG=1 and CUDNN_LOGDEST_DBG=stderr in the environment.
['Traceback (most recent call last):\\n', '  File "/srv/train/pretrain.py", line 140, in forward_step\\n    output = model(\\n']
[rank2]:   File "/srv/train/demo/core/transformer/module.py", line 250, in forward
[rank2]:     outputs = self.module(*inputs, **kwargs)
"""

# Startup notes that list the parts cuDNN loaded are no failure.
CUDNN_PARTS_LISTED = """\
INFO cudnn sub-libraries loaded: engines_precompiled, engines_runtime_compiled, graph, ops
INFO cudnn version 90800, status CUDNN_STATUS_SUCCESS
"""


def test_a_cudnn_that_cannot_load_its_own_parts_is_the_installation() -> None:
    """docs/labelling.md#a-cudnn-whose-parts-do-not-load: the installation, not the op, even
    when the line is logged at WARNING and frames follow it."""
    diagnosis = diagnose_text("train/rank2.log", CUDNN_PART_NOT_LOADED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED",
        beside=("config",),
    )


def test_a_cudnn_listing_its_loaded_parts_is_no_failure() -> None:
    diagnosis = diagnose_text("train/rank2.log", CUDNN_PARTS_LISTED)
    assert diagnosis.category != "driver_env", diagnosis.root_cause


# A training library's own GEMM wrapper (DeepSpeed's fused transformer kernels) checks cuBLAS's
# answer itself and prints it as cuBLAS's status number beside the GEMM's sizes, once per
# failed GEMM, before the Python traceback: 13 is the execution status, the name above.
GEMM_WRAPPER_STATUS_NUMBER = """\
!!!! kernel execution error. (m: 1024, n: 2048, k: 4096, error: 13)
!!!! kernel execution error. (m: 3072, n: 2048, k: 1024, error: 13)
!!!! kernel execution error. (batch: 16, m: 128, n: 128, k: 64, error: 13)
Traceback (most recent call last):
  File "finetune_qa.py", line 612, in main
    loss = model(input_ids, segment_ids, input_mask, start_positions, end_positions)
  File "/opt/env/lib/python3.8/site-packages/torch/nn/modules/module.py", line 889, in _call_impl
    result = self.forward(*input, **kwargs)
"""

# The strided-batched form of the same printout, with the internal-error status, on a rank.
BATCHED_GEMM_STATUS_NUMBER = """\
[2026-03-02 11:20:41,507] [INFO] [engine.py:140:__init__] Place model to device: 1
!!!! kernel execution error. (batch: 12, m: 64, n: 10, k: 10, error: 14)
"""

# The wrapper's allocation status (3) is the device's memory, not the op's call.
GEMM_WRAPPER_ALLOCATION_NUMBER = """\
!!!! kernel execution error. (m: 1024, n: 2048, k: 4096, error: 3)
"""

# A progress note that prints a GEMM's sizes with no error is no failure.
GEMM_SIZES_NOTED = """\
2026-03-02 11:20:41,507 INFO tuned gemm (m: 1024, n: 2048, k: 4096) in 0.31 ms
2026-03-02 11:20:48,114 INFO model run success
"""


def test_a_gemm_wrapper_status_number_is_the_operator() -> None:
    """docs/labelling.md#a-gemm-wrapper-that-prints-the-status-as-a-number: the status as a
    number in a GEMM wrapper's own printout is read as the status by name: `operator`, with
    `device_fault` and `config` beside it, the first printout the first error, below the
    confident band however many printouts agree."""
    diagnosis = diagnose_text("squad/rank0.log", GEMM_WRAPPER_STATUS_NUMBER)
    assert_reads(diagnosis, "operator", first_error="(m: 1024, n: 2048, k: 4096, error: 13)")
    assert {"device_fault", "config"} <= {alt.category for alt in diagnosis.alternatives}
    assert 0.3 < diagnosis.confidence < 0.8


def test_a_batched_gemm_wrapper_status_is_read_alike() -> None:
    diagnosis = diagnose_text("infer/rank1.log", BATCHED_GEMM_STATUS_NUMBER)
    assert_reads(diagnosis, "operator", first_error="error: 14")
    assert diagnosis.confidence > 0.3


def test_the_wrapper_allocation_number_is_not_the_operator_rule() -> None:
    """Counterexample: status 3 is the allocation status; the operator rule does not read it."""
    diagnosis = diagnose_text("squad/rank0.log", GEMM_WRAPPER_ALLOCATION_NUMBER)
    assert diagnosis.confidence < 0.3 or diagnosis.category != "operator", diagnosis.root_cause


def test_gemm_sizes_without_an_error_are_no_failure() -> None:
    diagnosis = diagnose_text("squad/rank0.log", GEMM_SIZES_NOTED)
    assert diagnosis.first_error is None, diagnosis.first_error
