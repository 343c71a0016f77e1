"""Serving set-ups that fail before or while the engine starts: a cluster node without an
accelerator resource, graph capture running out of streams, and a logger that prints only the
quoted key of a KeyError as the headline of a weight-loading traceback.

The fixtures follow the shapes vLLM-on-Ascend prints (process-name prefixes, the v0 engine's
``ERROR <date> <time> [file:line]`` prefix, tracebacks under it) with values and wording of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text


def test_a_cluster_node_without_npu_resource_is_a_set_up_error() -> None:
    prefix = "(EngineCore_DP0 pid=5120) "
    text = (
        prefix
        + "ERROR 03-02 10:11:12 [core.py:700] EngineCore failed to start.\n"
        + prefix
        + "ERROR 03-02 10:11:12 [core.py:700] ValueError: Current node has no NPU available. "
        "current_node_resource={'CPU': 64.0, 'GPU': 8.0, 'memory': 1.0e12}. vLLM engine cannot "
        "start without NPU.\n"
        + prefix
        + "Process EngineCore_DP0:\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/v1/engine/core.py", line 690, in run_engine_core\n'
        + prefix
        + "    raise e\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "has no NPU available" in diagnosis.first_error.text


def test_graph_capture_out_of_streams_is_a_capture_size_problem() -> None:
    prefix = "(Worker_TP3 pid=7001) ERROR 11-04 08:00:01 [model_runner_v1.py:3400] "
    text = (
        "(EngineCore_DP0 pid=6900) INFO 11-04 07:59:01 [shm_broadcast.py:466] No available "
        "shared memory broadcast block found in 60 seconds.\n"
        + prefix
        + "NPUGraph sizes capture fail: RuntimeError:\n"
        + prefix
        + "NPUGraph has insufficient available streams to capture the configured "
        "number of sizes. Reduce the number of capture sizes.\n" + prefix + "\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "capture" in diagnosis.first_error.text
    assert "shm_broadcast" not in diagnosis.first_error.text


def test_a_quoted_weight_name_heading_a_traceback_is_a_missing_weight() -> None:
    prefix = "ERROR 02-17 09:30:41 [engine.py:410] "
    text = (
        prefix
        + "'model.layers.3.self_attn.o_proj.weight'\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/engine/multiprocessing/engine.py", line 400, in run\n'
        + prefix
        + "    engine = MQLLMEngine.from_vllm_config(\n"
        + prefix
        + '  File "/opt/vllm/vllm/executor/executor_base.py", line 52, in __init__\n'
        + prefix
        + "    self._init_executor()\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category == "weight_load"
    assert diagnosis.first_error is not None
    assert "'model.layers.3.self_attn.o_proj.weight'" in diagnosis.first_error.text


def test_a_quoted_config_key_alone_is_not_read_as_a_weight() -> None:
    prefix = "ERROR 02-17 09:30:41 [engine.py:410] "
    text = (
        prefix
        + "'rope_scaling'\n"
        + prefix
        + "Traceback (most recent call last):\n"
        + prefix
        + '  File "/opt/vllm/vllm/config.py", line 300, in __init__\n'
    )
    assert diagnose_text("issue/serve.log", text).category != "weight_load"


def test_a_missing_device_context_left_alone_points_at_the_device_set_up() -> None:
    prefix = "(Worker_TP1 pid=2201) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
    text = (
        prefix + "        The argument is invalid.Reason: rtGetDevMsg execute failed, "
        "reason=[context pointer null]\n"
        + prefix
        + "\n"
        + "(Worker_TP2 pid=2202) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
        "WorkerProc failed to start.\n"
        + "(Worker_TP2 pid=2202) ERROR 04-09 12:00:05 [multiproc_executor.py:500] "
        "Traceback (most recent call last):\n"
    )
    diagnosis = diagnose_text("issue/serve.log", text)
    assert diagnosis.category == "driver_env"
    assert diagnosis.first_error is not None
    assert "context pointer null" in diagnosis.first_error.text
