"""A serving engine's calls into its workers that do not come back or are refused.

docs/labelling.md#an-engine-that-waits-on-its-workers (the Ray executor's compiled-graph
deadline) and docs/labelling.md#a-worker-method-the-worker-class-lacks. Excerpts in the real
shapes of vLLM's engine-core and worker logs, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

RAY_GRAPH_DEADLINE = """\
(EngineCore_DP0 pid=2871) ERROR 08-21 16:40:03 [core.py:720]   File "/usr/local/lib/python3.12/dist-packages/ray/dag/compiled_dag_node.py", line 2515, in _execute_until
(EngineCore_DP0 pid=2871) ERROR 08-21 16:40:03 [core.py:720]     raise RayChannelTimeoutError(
(EngineCore_DP0 pid=2871) ERROR 08-21 16:40:03 [core.py:720] ray.exceptions.RayChannelTimeoutError: System error: If the execution is expected to take a long time, increase RAY_CGRAPH_get_timeout which is currently 300 seconds. Otherwise, this may indicate that the execution is hanging.
(EngineCore_DP0 pid=2871) INFO 08-21 16:40:03 [ray_distributed_executor.py:127] Shutting down Ray distributed executor.
"""


def test_the_ray_graphs_deadline_is_the_engine_waiting_on_its_workers() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers"""
    diagnosis = diagnose_text("engine.log", RAY_GRAPH_DEADLINE)
    assert_reads(diagnosis, "hang", first_error="RayChannelTimeoutError", beside=("config",))


def test_the_channels_own_wording_is_the_same_wait() -> None:
    line = (
        "ERROR 08-21 16:40:03 [core.py:505] ray.exceptions.RayChannelTimeoutError: System error: "
        "Timed out waiting for object available to read. ObjectID: 7f3c0a91d2e4b5c6a7d8e9f0a1b2c3d4e5f6a7b80100000001e1f505\n"
    )
    diagnosis = diagnose_text("engine.log", line)
    assert diagnosis.category == "hang"


WORKER_METHOD_MISSING = """\
ERROR 04-03 19:07:55 multiproc_worker_utils.py:242] Exception in worker VllmWorkerProcess while processing method initialize_nixl.
(VllmWorkerProcess pid=30418) ERROR 04-03 19:07:55 multiproc_worker_utils.py:242] Traceback (most recent call last):
(VllmWorkerProcess pid=30418) ERROR 04-03 19:07:55 multiproc_worker_utils.py:242]   File "/opt/venv/lib/python3.12/site-packages/vllm/utils.py", line 2216, in run_method
(VllmWorkerProcess pid=30418) ERROR 04-03 19:07:55 multiproc_worker_utils.py:242]     raise NotImplementedError(f"Method {method!r} is not"
(VllmWorkerProcess pid=30418) ERROR 04-03 19:07:55 multiproc_worker_utils.py:242] NotImplementedError: Method 'initialize_nixl' is not implemented.
"""


def test_a_method_the_worker_class_lacks_is_options_that_do_not_go_together() -> None:
    """docs/labelling.md#a-worker-method-the-worker-class-lacks"""
    diagnosis = diagnose_text("worker.log", WORKER_METHOD_MISSING)
    assert_reads(diagnosis, "config", first_error="NotImplementedError: Method 'initialize_nixl'")


def test_an_operators_not_implemented_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text(
        "worker.log", "NotImplementedError: scatter_reduce for sparse tensors is not implemented\n"
    )
    assert diagnosis.category != "config"
