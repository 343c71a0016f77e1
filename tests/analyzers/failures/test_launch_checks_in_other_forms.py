"""Start-up checks of multi-GPU inference that already have a reading, met in another form.

Three classes: a parallel split checked by a bare `assert` statement instead of a worded
message (docs/labelling.md#a-bare-divisibility-assertion); the TensorRT-LLM runtime's
world-size condition cut off from its `Assertion failed:` head, as Triton's model table wraps
its status column (docs/labelling.md#an-engine-built-for-more-ranks-than-were-started); and a
Ray worker that cannot load an object the driver sent because a module is missing in its
environment (docs/labelling.md#a-ray-actor-class-that-does-not-import-on-its-worker).
Excerpts follow the real shapes with paths, numbers and names of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

BARE_HEADS_OVER_CP = """\
Traceback (most recent call last):
  File "/opt/video/dit/blocks.py", line 412, in forward
    assert self.num_heads % cp_size == 0
AssertionError
"""

BARE_EXPERTS_OVER_EP = """\
  File "/srv/moe/layer.py", line 88, in __init__
    assert num_experts % self.ep_size == 0
AssertionError
"""


@pytest.mark.parametrize("text", [BARE_HEADS_OVER_CP, BARE_EXPERTS_OVER_EP])
def test_a_bare_split_check_against_a_parallel_size_is_the_launch_setting(text: str) -> None:
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="AssertionError",
        rule="cfg.parallel_size_divisible",
    )


def test_a_bare_split_check_between_two_model_sizes_is_not_a_parallel_setting() -> None:
    text = """\
  File "/opt/video/dit/blocks.py", line 40, in __init__
    assert hidden_size % num_heads == 0
AssertionError
"""
    assert "cfg.parallel_size_divisible" not in rules_of(diagnose_text("worker.log", text))


TRITON_TABLE_CUT = """\
+----------------+---------+------------------------------------------------------------------------------------------------+
| Model          | Version | Status                                                                                         |
+----------------+---------+------------------------------------------------------------------------------------------------+
| preprocessing  | 1       | READY                                                                                          |
| llm            | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] |
|                |         | Assertion failed: mpiSize == tp * pp (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.c |
|                |         | pp:91)                                                                                         |
+----------------+---------+------------------------------------------------------------------------------------------------+
"""

TRITON_TABLE_HEAD_CUT = """\
| llm            | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed:  |
|                |         | mpiSize == tp * pp (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:91)                                 |
|                |         | 1       0x7f00aa11bb22 /opt/tritonserver/backends/tensorrtllm/libtriton_tensorrtllm.so(+0x17645) [0x7f00aa11bb22]     |
"""


@pytest.mark.parametrize("text", [TRITON_TABLE_CUT, TRITON_TABLE_HEAD_CUT])
def test_the_world_size_condition_cut_by_the_model_table_is_still_read(text: str) -> None:
    diagnosis = diagnose_text("tritonserver.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="mpiSize == tp * pp",
        rule="cfg.engine_ranks_not_launched",
    )
    assert diagnosis.confidence >= 0.8


def test_the_runtimes_report_of_its_mpi_size_is_no_check() -> None:
    text = "[TensorRT-LLM][INFO] MPI size: 2, rank: 0 (tp 2 * pp 1)\n"
    assert "cfg.engine_ranks_not_launched" not in rules_of(diagnose_text("server.log", text))


RAY_ARGUMENT_MODULE = """\
E0311 09:12:40.118822 2210 model.py:480] "[vllm] Error generating stream: ray::RayWorkerWrapper.execute_method() (pid=512, ip=10.0.3.4, actor_id=aa11, repr=<vllm.executor.ray_utils.RayWorkerWrapper object at 0x7f11>)\\n  At least one of the input arguments for this task could not be computed:\\nray.exceptions.RaySystemError: System error: No module named 'helpers'"
"""

RAY_RETURN_MODULE = """\
(RolloutWorker pid=7781) Traceback (most recent call last):
ray.exceptions.RaySystemError: System error: No module named 'reward_fns.math'
traceback: Traceback (most recent call last):
ModuleNotFoundError: No module named 'reward_fns'
"""


@pytest.mark.parametrize("text", [RAY_ARGUMENT_MODULE, RAY_RETURN_MODULE])
def test_a_ray_object_whose_module_the_worker_lacks_is_the_worker_environment(text: str) -> None:
    diagnosis = diagnose_text("server.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="No module named",
        rule="cfg.ray_object_module_missing",
        beside=("driver_env",),
    )


def test_another_ray_system_error_is_not_a_missing_module() -> None:
    text = "ray.exceptions.RaySystemError: System error: Failed to unpickle serialized exception\n"
    assert "cfg.ray_object_module_missing" not in rules_of(diagnose_text("driver.log", text))
