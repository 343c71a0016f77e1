"""An engine's own all-reduce failing while it shares its buffers between the ranks.

docs/labelling.md, "An engine's own all-reduce that fails a CUDA call": SGLang's just-in-time
kernels report a failed CUDA call with the place first on one line; a place in the all-reduce's
source is the collective's failure (`hccl`), the graph capture failure after it only its tail.
A bare CUDA answer raised under a frame that builds the all-reduce's IPC workspace is weighed
toward the collective too. Values are our own, in the engines' real wordings.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

CHECK_PLACE_FIRST = """\
[2026-07-08 09:10:11 TP1] Capture cuda graph begin. This can take up to several minutes. avail mem=21.40 GB
[2026-07-08 09:10:14 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/opt/sglang/python/sglang/srt/distributed/device_communicators/custom_all_reduce_v2.py", line 211, in share_graph_inputs
    self.obj.register_graph_inputs(handles, offsets)
RuntimeError: Runtime check failed at /opt/sglang/python/sglang/jit_kernel/include/sgl_kernel/distributed/custom_all_reduce.cuh:37: CUDA error: invalid argument
Exception: Capture cuda graph failed
"""

# Counterexample: the same check placed in another kernel's source says nothing about it.
CHECK_PLACE_FIRST_OTHER_KERNEL = """\
[2026-07-08 09:10:14 TP1] Scheduler hit an exception: Traceback (most recent call last):
RuntimeError: Runtime check failed at /opt/sglang/python/sglang/jit_kernel/include/sgl_kernel/moe/moe_align.cuh:58: CUDA error: invalid argument
"""

IPC_WORKSPACE_HANDLE = """\
  File "/opt/sglang/python/sglang/srt/layers/fused_allreduce_norm.py", line 61, in initialize
    comm.create_ipc_workspace_for_all_reduce_fusion(
  File "/opt/venv/lib/python3.12/site-packages/kernels/comm/trtllm_ar.py", line 554, in create_ipc_workspace_for_all_reduce_fusion
    ipc_handles.append(create_shared_buffer(aligned_size, group))
RuntimeError: CUDART error: invalid resource handle
"""

# Counterexample: the same answer raised in a model's own kernel call is no collective.
CUDART_IN_A_MODEL_KERNEL = """\
  File "/opt/venv/lib/python3.12/site-packages/kernels/norm.py", line 88, in rmsnorm
    return get_norm_module().rmsnorm(out, x, weight, eps)
RuntimeError: CUDART error: invalid resource handle
"""


def test_an_allreduce_check_with_its_place_first_is_the_collective() -> None:
    diagnosis = diagnose_text("rank1.log", CHECK_PLACE_FIRST)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="custom_all_reduce.cuh:37: CUDA error: invalid argument",
        rule="hccl.custom_allreduce_check_place_first",
    )


def test_the_same_check_in_another_kernel_is_not_the_collective() -> None:
    diagnosis = diagnose_text("rank1.log", CHECK_PLACE_FIRST_OTHER_KERNEL)
    assert "hccl.custom_allreduce_check_place_first" not in rules_of(diagnosis)
    assert diagnosis.category != "hccl"


def test_a_cuda_answer_while_the_ipc_workspace_is_built_is_the_collective() -> None:
    diagnosis = diagnose_text("serve.log", IPC_WORKSPACE_HANDLE)
    assert diagnosis.category == "hccl"


def test_the_same_cuda_answer_in_a_model_kernel_is_not_the_collective() -> None:
    diagnosis = diagnose_text("serve.log", CUDART_IN_A_MODEL_KERNEL)
    assert diagnosis.category != "hccl"


# A training stack's tensor-parallel communication overlap builds its own communicator at start:
# its NCCL check prints the place in the overlap's bootstrap and an empty reason, on each rank.
TE_OVERLAP_BOOTSTRAP = """\
!!! [UB] Create UbufP2PCommOverlap Communicator
UB_TIMEOUT is set to 120 sec, 252000000000 cycles, freq: 2100000khz
Failed, NCCL error /src/te/transformer_engine/pytorch/csrc/userbuffers/userbuffers-host.cpp:231 ''
Failed, NCCL error /src/te/transformer_engine/pytorch/csrc/userbuffers/userbuffers-host.cpp:231 ''
"""

# The same macro in an inference engine's plugin keeps the generic NCCL reading.
ENGINE_PLUGIN_NCCL = """\
Failed, NCCL error /src/cpp/demo_llm/plugins/ncclPlugin/allreducePlugin.cpp:211 'unhandled system error (run with NCCL_DEBUG=INFO for details)'
"""


def test_an_overlap_communicator_that_cannot_start_is_hccl_with_the_option_beside() -> None:
    """docs/labelling.md#an-engines-own-all-reduce-that-fails-a-cuda-call."""
    diagnosis = diagnose_text("rank0.log", TE_OVERLAP_BOOTSTRAP)
    assert_reads(diagnosis, "hccl", first_error="userbuffers-host.cpp:231")
    alternatives = alternative_labels(diagnosis)
    assert alternatives[:1] == ["config"], alternatives


def test_an_engine_plugins_nccl_check_keeps_the_generic_reading() -> None:
    diagnosis = diagnose_text("rank0.log", ENGINE_PLUGIN_NCCL)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "config" not in {alt.category for alt in diagnosis.alternatives}
