"""RL post-training on Ray: a worker that Ray reports dead after its own collective watchdog
took it down, the pieces of Ray's report that a terminal wrap leaves on lines of their own
(docs/labelling.md#a-ray-worker-reported-dead); a rollout worker whose NCCL library does not
load (docs/labelling.md#a-collective-library-that-does-not-load); and a trainer that asks the
Ray cluster for more GPUs than it has
(docs/labelling.md#a-ray-cluster-with-fewer-gpus-than-the-job-asks-for), counted by the
trainer itself or refused by Ray as a bundle index past the end of a placement group, or a
trainer whose own deadline for placing its workers passed (Ray Train's worker group start).

The excerpts follow the shapes Ray, torch and vLLM print (`(Actor pid=N, ip=...)` prefixes,
c10d's and the watchdog's lines, a terminal wrapped at a fixed width); the values are ours.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import diagnose_text


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


def alternatives(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


STACK = "".join(
    f"(PolicyWorker pid=7012, ip=10.4.0.9) frame #{n}: <unknown function> + 0x{n:x}f3 "
    "(0x7f00aa in /opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so)\n"
    for n in range(16)
)

WATCHDOG_THEN_DEAD = (
    "(PolicyWorker pid=7012, ip=10.4.0.9) [rank2]:[E1103 08:14:51.207731094 "
    "ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=88, OpType=BROADCAST, NumelIn=1048576, NumelOut=1048576, "
    "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n"
    "(PolicyWorker pid=7012, ip=10.4.0.9) [rank2]:[E1103 08:14:51.207800112 "
    "ProcessGroupNCCL.cpp:695] [Rank 2] To avoid data inconsistency, we are taking the entire "
    "process down.\n"
    + STACK
    + "(raylet) A worker died or was killed while executing a task by an unexpected system "
    "error. To troubleshoot the problem, check the logs for the dead worker. Worker PID: 7012 "
    "Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a "
    "connection error code 2. End of file.\n"
    "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
)


def test_a_worker_reported_dead_after_its_watchdog_timeout_is_that_timeout() -> None:
    """The report comes more than a block's distance below the timeout: it still yields."""
    diagnosis = diagnose_text("driver.log", WATCHDOG_THEN_DEAD)
    assert diagnosis.category == "hccl"
    assert "Watchdog caught collective operation timeout" in first_text(diagnosis)
    assert "device_fault" in alternatives(diagnosis)


DEAD_THEN_WATCHDOG = (
    "(raylet) A worker died or was killed while executing a task by an unexpected system "
    "error. To troubleshoot the problem, check the logs for the dead worker. Worker PID: 7014 "
    "Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a "
    "connection error code 2. End of file.\n"
    + STACK
    + "(PolicyWorker pid=7012, ip=10.4.0.9) [rank2]:[E1103 08:24:51.207731094 "
    "ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=88, OpType=BROADCAST, NumelIn=1048576, NumelOut=1048576, "
    "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n"
)


def test_a_worker_reported_dead_before_any_timeout_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("driver.log", DEAD_THEN_WATCHDOG)
    assert diagnosis.category == "device_fault"
    assert "A worker died or was killed" in first_text(diagnosis)


# The same two lines as a terminal 150 columns wide leaves them: the watchdog's line is cut
# inside the work's parentheses, Ray's advice runs on over lines of their own.
WRAPPED = """\
(TrainerActor pid=4410, ip=10.2.0.7) [E ProcessGroupNCCL.cpp:475] [Rank 5] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=27
1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800219 milliseconds before timing out.
The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection
 error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ra
y stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.
"""


def test_a_wrapped_watchdog_line_and_wrapped_ray_advice_read_as_the_timeout() -> None:
    diagnosis = diagnose_text("driver.log", WRAPPED)
    assert diagnosis.category == "hccl"
    assert "WorkNCCL(SeqNum=27" in first_text(diagnosis)


def test_wrapped_ray_advice_alone_is_no_kill_and_no_segfault() -> None:
    """A paste that starts inside Ray's report keeps only its list of possible reasons:
    that list names SIGKILL and SIGSEGV as what might have happened, not as what did."""
    text = WRAPPED.split("\n", 3)[3]
    assert text.startswith(" error code 2.")
    diagnosis = diagnose_text("driver.log", text)
    assert {e.rule for e in diagnosis.evidence}.isdisjoint({"dev.killed", "dev.segfault"})
    assert "segmentation fault" not in diagnosis.root_cause.lower()


NCCL_NOT_LOADED = """\
INFO:     127.0.0.1:51102 - "POST /init_communicator/ HTTP/1.1" 200 OK
(VllmWorker rank=1 pid=2231) INFO 05-09 10:02:11 [utils.py:1045] Found nccl from environment variable VLLM_NCCL_SO_PATH=/opt/nccl/build/lib/libnccl.so.2.19.3
(VllmWorker rank=1 pid=2231) ERROR 05-09 10:02:11 [pynccl_wrapper.py:229] Failed to load NCCL library from /opt/nccl/build/lib/libnccl.so.2.19.3. It is expected if you are not running on NVIDIA/AMD GPUs.Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform
"""


def test_a_nccl_library_that_does_not_load_is_the_machine() -> None:
    diagnosis = diagnose_text("vllm_serve.log", NCCL_NOT_LOADED)
    assert diagnosis.category == "driver_env"
    assert "Failed to load NCCL library from" in first_text(diagnosis)
    assert alternatives(diagnosis) & {"config", "hccl"}


def test_vllm_finding_its_nccl_is_no_failure() -> None:
    text = NCCL_NOT_LOADED.rsplit("\n", 2)[0] + "\n"
    assert "Failed to load" not in text
    diagnosis = diagnose_text("vllm_serve.log", text)
    assert diagnosis.category != "driver_env"


ASCEND_SERVER_PROBING_NCCL = """\
INFO 07-14 09:30:02 [importing.py:53] Triton module has been replaced with a placeholder.
ERROR 07-14 09:30:05 [pynccl_wrapper.py:196] Failed to load NCCL library from libnccl.so.2 .It is expected if you are not running on NVIDIA/AMD GPUs.Otherwise, the nccl library might not exist, be corrupted or it does not support the current platform Linux-5.10.0-aarch64-with-glibc2.35.
(VllmWorker rank=0 pid=4410) INFO 07-14 09:31:40 [model_runner_v1.py:1840] Loading model weights took 15.2 GB
(VllmWorker rank=0 pid=4410) ERROR 07-14 09:32:12 [multiproc_executor.py:470] RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 57.10 GiB already allocated; 1.80 GiB free)
"""


def test_an_npu_server_logging_its_nccl_probe_reads_past_it() -> None:
    diagnosis = diagnose_text("vllm_serve.log", ASCEND_SERVER_PROBING_NCCL)
    assert diagnosis.category == "oom"
    assert "NPU out of memory" in first_text(diagnosis)


def test_the_same_probe_on_a_gpu_server_is_still_the_first_error() -> None:
    text = ASCEND_SERVER_PROBING_NCCL.replace("NPU out of memory", "CUDA out of memory")
    text = text.replace("NPU 0;", "GPU 0;").replace("model_runner_v1", "gpu_model_runner")
    diagnosis = diagnose_text("vllm_serve.log", text)
    assert "Failed to load NCCL library" in first_text(diagnosis)


SHORT_OF_GPUS = """\
Traceback (most recent call last):
  File "/work/rl/examples/run_grpo.py", line 120, in <module>
    main()
  File "/work/rl/rl/distributed/virtual_cluster.py", line 189, in _init_placement_groups
    raise ValueError(
ValueError: Not enough GPUs available. Requested 32 GPUs, but only 24 are available in the cluster.
"""


def test_a_job_larger_than_the_ray_cluster_is_its_size_settings() -> None:
    diagnosis = diagnose_text("driver.log", SHORT_OF_GPUS)
    assert diagnosis.category == "config"
    assert "Not enough GPUs available" in first_text(diagnosis)
    assert "driver_env" in alternatives(diagnosis)


def test_a_resource_pool_short_of_gpus_reads_the_same() -> None:
    text = (
        "ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=811, ip=10.1.0.3)\n"
        "ValueError: Total available GPUs 8.0 is less than total desired GPUs 16\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "config"
    assert "Total available GPUs 8.0" in first_text(diagnosis)


NODES_SHORT = """\
Traceback (most recent call last):
  File "/work/rl/examples/start_pipeline.py", line 31, in <module>
    main()
  File "/work/rl/rl/distributed/scheduler/resource_manager.py", line 27, in __init__
    assert num_nodes <= ray_num_nodes, (f"The Ray clusters(ray_num_nodes: {ray_num_nodes}) cannot meet the "
AssertionError: The Ray clusters(ray_num_nodes: 1) cannot meet the required number of nodes (`num_nodes`4).
"""


def test_a_trainer_counting_too_few_fitting_nodes_is_its_size_settings() -> None:
    """The trainer's own node count, not an unexplained assertion."""
    diagnosis = diagnose_text("driver.log", NODES_SHORT)
    assert diagnosis.category == "config"
    assert "cannot meet the required number of nodes" in first_text(diagnosis)
    assert "driver_env" in alternatives(diagnosis)


def test_a_bundle_index_past_the_placement_group_is_its_size_settings() -> None:
    text = (
        "(LLMRayActor pid=9120) Creating engine 2 of 2, tensor parallel size 4\n"
        "ValueError: placement group bundle index 9 is invalid. Valid placement group indexes: 0-3\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "config"
    assert "bundle index 9 is invalid" in first_text(diagnosis)


def test_a_placement_line_that_names_a_bundle_in_range_is_no_error() -> None:
    """Counterexample: a bundle index reported in range, beside a real failure later."""
    text = (
        "(LLMRayActor pid=9120) scheduling on placement group bundle index 3 (bundles 0-7)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 3; "
        "79.15 GiB total capacity; 77.80 GiB already allocated; 1.02 GiB free)\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "oom"
    assert "out of memory" in first_text(diagnosis)


TRAIN_CONTROLLER = """\
2026-05-06 07:08:01.010	Attempting to start training worker group of size 16 with the following resources: [{'GPU': 1}] * 16
2026-05-06 07:09:01.050	[FailurePolicy] Decision: FailureDecision.RETRY, Error source: controller, Error count / maximum errors allowed: 1/inf, Error: Training failed due to controller error:
The worker group startup timed out after 60.0 seconds waiting for 16 workers.
2026-05-06 07:09:01.051	[State Transition] SCHEDULING -> RESCHEDULING.
2026-05-06 07:09:01.052	[State Transition] RESCHEDULING -> SCHEDULING.
2026-05-06 07:09:01.060	Attempting to start training worker group of size 16 with the following resources: [{'GPU': 1}] * 16
"""


def test_a_worker_group_that_did_not_start_in_time_is_its_size_or_deadline() -> None:
    """Ray Train's controller gave up waiting for its workers to be placed and retries: the
    job's sizes or start deadline do not fit what the cluster offers in time."""
    diagnosis = diagnose_text("controller.log", TRAIN_CONTROLLER)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "worker group startup timed out" in first_text(diagnosis)
    assert {"hang", "driver_env"} <= alternatives(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_an_older_trainer_whose_placement_group_was_not_ready_reads_the_same() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/work/jobs/train_boosted.py", line 48, in <module>\n'
        "    booster = train(params, dtrain, ray_params=ray_params)\n"
        "TimeoutError: Placement group creation timed out after 100 seconds.\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "config", diagnosis.root_cause
    assert "Placement group creation timed out" in first_text(diagnosis)
    assert "hang" in alternatives(diagnosis)
    assert diagnosis.confidence >= 0.5


def test_a_controller_that_starts_its_worker_group_is_no_error() -> None:
    """Counterexample: the start and the state changes alone, beside a real failure later."""
    text = (
        "2026-05-06 07:08:01.010\tAttempting to start training worker group of size 4 with the "
        "following resources: [{'GPU': 1}] * 4\n"
        "2026-05-06 07:08:09.400\t[State Transition] SCHEDULING -> RUNNING.\n"
        "(RayTrainWorker pid=5120) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
        "2.00 GiB (GPU 0; 79.15 GiB total capacity; 77.80 GiB already allocated; 1.02 GiB free)\n"
    )
    diagnosis = diagnose_text("controller.log", text)
    assert diagnosis.category == "oom"
    assert "out of memory" in first_text(diagnosis)


# A serving engine started by Ray Serve reserves one placement group per data-parallel rank;
# Ray's helper stops when it could place fewer groups than the engine asked for and prints
# the cluster's free resources in the same line.
DP_GROUPS_SHORT = """\
INFO 2026-02-03 04:05:06,120 controller 812 -- Deploying new version of Deployment(name='LLMServer:demo-7b', app='llms') (initial target replicas: 1).
ValueError: Not enough resources to allocate 4 placement groups, only created 3 placement groups. Available resources: {'9f1c': {'CPU': 16.0, 'memory': 68719476736.0, 'object_store_memory': 2147483648.0, 'GPU': 1.0, 'accelerator_type:L4': 1.0}, 'a2e7': {'CPU': 2.0, 'memory': 4294967296.0, 'node:__internal_head__': 1.0}}
INFO 2026-02-03 04:05:07,410 controller 812 -- Stopping Replica(id='k2j4x9', deployment='LLMServer:demo-7b', app='llms') (currently ReplicaState.STARTING).
"""


def test_data_parallel_groups_ray_could_not_place_are_its_size_settings() -> None:
    """The count of groups placed, not the memory figures of the resource table."""
    diagnosis = diagnose_text("serve_controller.log", DP_GROUPS_SHORT)
    assert diagnosis.category == "config"
    assert "Not enough resources to allocate 4 placement groups" in first_text(diagnosis)
    assert "driver_env" in alternatives(diagnosis)


def test_groups_placed_in_full_are_no_shortage() -> None:
    text = (
        "INFO 02-03 04:05:06 [utils.py:420] Created 4 placement groups for the data parallel "
        "ranks; available resources: {'GPU': 0.0, 'memory': 68719476736.0}\n"
        "(EngineCore_DP1 pid=3311) ERROR 02-03 04:05:09 [core.py:708] torch.OutOfMemoryError: "
        "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 22.05 GiB "
        "of which 1.12 GiB is free.\n"
    )
    diagnosis = diagnose_text("vllm_serve.log", text)
    assert diagnosis.category == "oom"
    assert "CUDA out of memory" in first_text(diagnosis)
