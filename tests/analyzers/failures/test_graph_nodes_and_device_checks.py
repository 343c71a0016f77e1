"""A graph runner's restated ATB refusal, and torch_npu's device check failing mid-run.

Each case is a rule of docs/labelling.md, with an example and a counterexample:

- #an-operator-name-decides-nothing: a model runner that drives a graph of ATB operations
  (MindIE's model wrapper) reports a node whose shape inference failed (`<Graph> nodes[N]
  infershape fail`); the op refused its inputs, `operator`, with `shape_mismatch` offered. The
  graph engine's own InferShape pass lines are not this rule's;
- #a-device-check-that-fails-while-the-job-runs: torch_npu's memory-error (UCE) check after a
  failed task returning 507899 is the device failing under the running job, `device_fault`
  with `driver_env` offered, and so is the caching allocator failing to unmap memory it
  cached; a start-up probe returning the same code keeps `driver_env`.

Fixtures follow the shapes MindIE, vLLM workers and torch_npu print; values are made up.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

GRAPH_NODE_REFUSED = """\
[2026-02-03 10:11:12.345+0000] [4410] [281470001112345] [batchscheduler] [ERROR] [standard_model.py:190] : [Model]\t>>> global rank-0 Execute type:1, Exception:InternVL_VIT_graph nodes[3] infershape  fail, enable log: export ASDOPS_LOG_LEVEL=ERROR, export ASDOPS_LOG_TO_STDOUT=1
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/dist-packages/model_wrapper/standard_model.py", line 181, in execute
    return self._prefill(requests)
           ^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.11/dist-packages/mindie_llm/text_generator/generator.py", line 320, in generate_token
    raise e
"""

GRAPH_NODE_PASSED = """\
[2026-02-03 10:11:12.345+0000] [4410] [281470001112345] [batchscheduler] [INFO] [standard_model.py:170] : [Model]\t>>> global rank-0 InternVL_VIT_graph nodes[3] infershape success
"""

WORKER = "(Worker_DP0_TP2 pid=6120) ERROR 05-06 07:08:09 [multiproc_executor.py:702] "

UCE_CHECK_FAILED = "".join(
    f"{WORKER}{line}\n"
    for line in (
        "WorkerProc hit an exception.",
        "Traceback (most recent call last):",
        '  File "/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py", line 697, in worker_busy_loop',
        "RuntimeError: checkUceErrAndRepair:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 NPU error, error code is 507899",
        "[ERROR] 2026-05-06-07:08:09 (PID:6120, Device:2, RankID:-1) ERR00100 PTA call acl api failed",
        "[Error]: An internal error occurs in the Driver module.",
    )
)

START_PROBE_FAILED = """\
Traceback (most recent call last):
  File "/usr/local/python3.11/site-packages/torch_npu/npu/utils.py", line 60, in device_count
RuntimeError: c10_npu::GetDeviceCount:torch_npu/csrc/core/npu/NPUFunctions.cpp:40 NPU function error: aclrtGetDeviceCount(&count), error code is 507899
[ERROR] 2026-05-06-07:08:09 (PID:6120, Device:-1, RankID:-1) ERR00100 PTA call acl api failed
"""


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_graph_node_failing_shape_inference_is_the_op_refusing_its_inputs() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", GRAPH_NODE_REFUSED)
    assert_reads(
        diagnosis, "operator", first_error="nodes[3] infershape  fail", beside=("shape_mismatch",)
    )


def test_a_graph_node_whose_shape_inference_passed_is_no_failure() -> None:
    diagnosis = diagnose_text("mindie/log/debug/mindie-llm.log", GRAPH_NODE_PASSED)
    assert diagnosis.first_error is None


def test_the_device_check_failing_under_a_running_job_is_a_device_fault() -> None:
    diagnosis = diagnose_text("run/worker.log", UCE_CHECK_FAILED)
    assert_reads(
        diagnosis, "device_fault", first_error="checkUceErrAndRepair", beside=("driver_env",)
    )


def test_a_start_up_probe_with_the_same_code_keeps_the_machine_reading() -> None:
    diagnosis = diagnose_text("run/worker.log", START_PROBE_FAILED)
    assert_reads(diagnosis, "driver_env", first_error="aclrtGetDeviceCount")


ALLOCATOR_RELEASE_FAILED = "".join(
    f"{WORKER}{line}\n"
    for line in (
        '  File "/usr/local/python3.11/site-packages/torch_npu/npu/memory.py", line 180, in empty_cache',
        "    torch_npu._C._npu_emptyCache()",
        "RuntimeError: unmapHandles:../torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:611 NPU function error: "
        "c10_npu::acl::AclrtUnmapMem((char *)ptr_ + segment_size_ * i, getHcclComm()), error code is 507899",
        "[ERROR] 2026-05-06-07:08:09 (PID:6120, Device:2, RankID:-1) ERR00100 PTA call acl api failed",
        "[Error]: An internal error occurs in the Driver module.",
    )
)


def test_the_allocator_failing_to_release_memory_mid_run_is_a_device_fault() -> None:
    diagnosis = diagnose_text("run/worker.log", ALLOCATOR_RELEASE_FAILED)
    assert_reads(diagnosis, "device_fault", first_error="AclrtUnmapMem", beside=("driver_env",))
