"""Multi-node serving on Ray: the cluster the engine runs on, and what Ray prints for a worker.

Two classes. A node that cannot reach the head node's control store (GCS) never joins the
cluster, and the head waits for a placement group it cannot fill: a wait on the peer, read
like a rendezvous store that cannot be reached
(docs/labelling.md#a-rendezvous-host-with-no-address). And Ray's header over a remote call's
exception (`RayTaskError(KeyError): ray::...`), which names only the inner type: the worker's
own exception line under it is the first error, the header alone is a first error with no
class (docs/labelling.md#wrappers). Such pastes often keep vLLM's start-up note that its
compiled CUDA extensions are absent (`Failed to import from vllm._C with
ModuleNotFoundError(...)`, expected on an NPU plugin) without its WARNING header; the note is
no error. An engine's wait for its placement group is read the same whether or not the paste
kept the logger's header (docs/labelling.md#an-engine-that-waits-for-its-devices). The
excerpts follow Ray's real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

HEAD_NODE = """\
2026-02-03 04:05:01,100 INFO worker.py:1654 -- Started a local Ray instance.
No current placement group found. Creating a new placement group.
The number of required NPUs exceeds the total number of available NPUs in the placement group.
Waiting for creating a placement group of specs.
"""

WORKER_NODE = """\
[2026-02-03 04:05:06,789 W 51 51] gcs_rpc_client.h:151: Failed to connect to GCS at address 10.20.0.4:6380 within 5 seconds.
[2026-02-03 04:05:36,790 W 51 51] gcs_client.cc:183: Failed to get cluster ID from GCS server: TimedOut: Timed out while waiting for GCS to become available.
"""


def test_a_node_that_cannot_reach_the_head_is_a_communication_failure() -> None:
    """docs/labelling.md#a-rendezvous-host-with-no-address"""
    diagnosis = diagnose_files({"head/model.log": HEAD_NODE, "node1/model.log": WORKER_NODE})
    assert_reads(
        diagnosis, "hccl", first_error="Failed to connect to GCS at address 10.20.0.4:6380"
    )
    assert {"config", "hang"} <= {alt.category for alt in diagnosis.alternatives}


def test_joining_an_existing_cluster_is_no_error() -> None:
    """docs/labelling.md#a-rendezvous-host-with-no-address"""
    text = (
        "2026-02-03 04:05:06,789 INFO worker.py:1654 -- Connecting to existing Ray cluster at "
        "address: 10.20.0.4:6380...\n"
        "2026-02-03 04:05:07,001 INFO worker.py:1832 -- Connected to Ray cluster.\n"
        "RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 2; 60.97 GiB total "
        "capacity; 57.10 GiB already allocated; 57.10 GiB current active; 1.20 GiB free; "
        "57.30 GiB reserved in total by PyTorch)\n"
    )
    diagnosis = diagnose_text("head/model.log", text)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


RAY_HEADER_ONLY = """\
EngineCore failed to start.
(EngineCore pid=91) ray.exceptions.RayTaskError(KeyError): ray::RayWorkerWrapper.execute_method() (pid=230, ip=10.20.0.5, actor_id=5f4e3d2c1b0a99887766554401000000)
"""

RAY_HEADER_AND_WORKER_EXCEPTION = """\
(EngineCore pid=91) ray.exceptions.RayTaskError(RuntimeError): ray::RayWorkerWrapper.execute_method() (pid=230, ip=10.20.0.5, actor_id=5f4e3d2c1b0a99887766554401000000)
(EngineCore pid=91)   File "/opt/serve/worker.py", line 214, in execute_method
(EngineCore pid=91)     return run(*args, **kwargs)
(EngineCore pid=91) RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.97 GiB total capacity; 58.40 GiB already allocated; 58.40 GiB current active; 0.60 GiB free; 58.50 GiB reserved in total by PyTorch)
"""


def test_rays_header_alone_is_the_first_error_with_no_class() -> None:
    """docs/labelling.md#wrappers"""
    diagnosis = diagnose_text("engine.log", RAY_HEADER_ONLY)
    assert_reads(diagnosis, "other", first_error="RayTaskError(KeyError)")


def test_the_workers_own_exception_under_rays_header_decides() -> None:
    """docs/labelling.md#wrappers"""
    diagnosis = diagnose_text("engine.log", RAY_HEADER_AND_WORKER_EXCEPTION)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_an_unknown_worker_exception_under_rays_header_is_still_the_first_error() -> None:
    """docs/labelling.md#wrappers"""
    text = RAY_HEADER_ONLY + (
        '(EngineCore pid=91)   File "/opt/serve/worker.py", line 214, in execute_method\n'
        "(EngineCore pid=91)     return table[name]\n"
        "(EngineCore pid=91) LookupError: no handler registered for 'mixer_v3'\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.first_error is not None
    assert "no handler registered for 'mixer_v3'" in diagnosis.first_error.text


def test_vllms_note_on_absent_compiled_extensions_is_no_error() -> None:
    """docs/labelling.md#wrappers"""
    text = (
        "Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\").\n"
        + RAY_HEADER_ONLY
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.first_error is not None
    assert "RayTaskError(KeyError)" in diagnosis.first_error.text
    assert diagnosis.category != "driver_env"


def test_a_missing_package_the_job_imports_is_still_an_error() -> None:
    text = "ModuleNotFoundError: No module named 'vllm_plugin_ext'\n"
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.first_error is not None
    assert "vllm_plugin_ext" in diagnosis.first_error.text


PLACEMENT_GROUP_WAIT = """\
0: (EngineCore_DP0 pid=7710) INFO 06-02 11:20:16 [ray_utils.py:240] Waiting for creating a placement group of specs for 10 seconds. specs=[{'node:10.30.0.7': 0.001, 'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}]. Check `ray status` and `ray list nodes` to see if you have enough resources, and make sure the IP addresses used by ray cluster are the same as VLLM_HOST_IP environment variable specified in each node if you are running on a multi-node.
0: (EngineCore_DP0 pid=7710) INFO 06-02 11:20:36 [ray_utils.py:240] Waiting for creating a placement group of specs for 30 seconds. specs=[{'node:10.30.0.7': 0.001, 'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}, {'GPU': 1.0}]. Check `ray status` and `ray list nodes` to see if you have enough resources, and make sure the IP addresses used by ray cluster are the same as VLLM_HOST_IP environment variable specified in each node if you are running on a multi-node.
srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
slurmstepd: error: *** JOB 4401 ON gpu-node-2 CANCELLED AT 2026-06-02T11:20:50 ***
"""


def test_an_engine_that_keeps_waiting_for_its_devices_is_a_hang() -> None:
    """docs/labelling.md#an-engine-that-waits-for-its-devices"""
    diagnosis = diagnose_text("slurm-4401.out", PLACEMENT_GROUP_WAIT)
    assert_reads(diagnosis, "hang", first_error="placement group of specs for 10 seconds")
    assert {"config", "hccl"} <= {alt.category for alt in diagnosis.alternatives}


def test_the_wait_pasted_without_its_logger_header_is_still_the_first_sign() -> None:
    """A paste that kept only the message of the waiting line: no level, no engine tag. The
    phrase that counts at INFO counts here too, so the wait is the first error, not a quiet end.
    """
    text = (
        "Waiting for creating a placement group of specs for 90 seconds. specs=[{'GPU': 1.0, "
        "'node:10.30.0.9': 0.001}, {'GPU': 1.0}]. Check `ray status` to see if you have enough "
        "resources.\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert_reads(diagnosis, "hang", first_error="placement group of specs for 90 seconds")


def test_the_level_less_start_up_note_without_a_duration_stays_no_error() -> None:
    """Counterexample: the note vLLM prints once before any wait is the normal path."""
    text = (
        "Waiting for creating a placement group of specs.\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; "
        "23.65 GiB total capacity; 22.90 GiB already allocated; 0.51 GiB free)\n"
    )
    diagnosis = diagnose_text("engine.log", text)
    assert_reads(diagnosis, "oom", first_error="out of memory")
