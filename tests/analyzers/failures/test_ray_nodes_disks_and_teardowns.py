"""Ray jobs that end for reasons Ray reports in its own words.

Six classes. A serving engine that asks Ray for a placement group the cluster cannot fill
says so after its own wait or at once (vLLM's two wordings): the job's sizes do not fit the
cluster, unless another node's record that it never reached the head is in the bundle
(docs/labelling.md#a-ray-cluster-with-fewer-gpus-than-the-job-asks-for). A node whose raylet
stopped answering is marked dead by the control store, whose event log writes one JSON object
a line with its newlines escaped twice (docs/labelling.md#a-ray-worker-reported-dead); an
actor's error says the same when its node died. When Ray adds that the node was preempted, the
job was stopped from outside (docs/labelling.md#a-job-stopped-from-outside). A Ray Tune trial
running Lightning's DDP launcher tears itself down when a child rank exits, and Ray then
reports the trial's worker as dead (docs/labelling.md#a-rank-that-exits-without-a-word).
And an object store that can neither keep nor spill an object because the node's disk is full
(docs/labelling.md#config-driver_env-or-weight_load). And a process that cannot register with
its own node's raylet (docs/labelling.md#a-worker-that-cannot-register-with-the-raylet). And a
Ray process that stops on a failed internal check, whose fatal line comes before the peers'
closed sockets by time though it may be printed after them
(docs/labelling.md#a-ray-process-that-stops-on-its-own-check). The
excerpts follow the tools' shapes with values of our own.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of


def first_text(diagnosis: Diagnosis) -> str:
    assert diagnosis.first_error is not None
    return diagnosis.first_error.text


PLACEMENT_TIMEOUT = (
    "(EngineCore_DP0 pid=41) ERROR 05-06 07:08:09 [core.py:1100] ValueError: Cannot provide a "
    "placement group requiring 8.0 GPUs (placement_group_specs=[{'node:10.3.0.2': 0.001, 'GPU': "
    "1.0}, {'GPU': 1.0}]) within 1800 seconds.\n"
    "(EngineCore_DP0 pid=41) Traceback (most recent call last):\n"
)

PLACEMENT_COUNT = (
    "2026-05-06 07:08:01,100 INFO worker.py:1786 -- Started a local Ray instance.\n"
    "ValueError: The number of required GPUs exceeds the total number of available GPUs in the "
    "placement group.\n"
)

GCS_UNREACHABLE = (
    "[2026-05-06 07:08:00,010 W 51 51] gcs_rpc_client.h:151: Failed to connect to GCS at address "
    "10.3.0.2:6380 within 5 seconds.\n"
)


def test_a_placement_group_the_cluster_cannot_fill_is_a_size_that_does_not_fit() -> None:
    """docs/labelling.md#a-ray-cluster-with-fewer-gpus-than-the-job-asks-for"""
    for text in (PLACEMENT_TIMEOUT, PLACEMENT_COUNT):
        diagnosis = diagnose_text("engine.log", text)
        assert diagnosis.category == "config"
        assert "placement group" in first_text(diagnosis)
        assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_a_node_that_never_joined_comes_before_the_count_it_left_short() -> None:
    """Counterexample: the other node's own failure to reach the head is in the bundle."""
    diagnosis = diagnose_files(
        {"head/engine.log": PLACEMENT_COUNT, "node1/raylet.out": GCS_UNREACHABLE}
    )
    assert diagnosis.category == "hccl"
    assert "Failed to connect to GCS" in first_text(diagnosis)


NODE_REMOVED = (
    '{"custom_fields":{"ip":"10.3.0.7","node_id":"5d1e"},"event_id":"91ab","host_name":"head-0",'
    '"label":"RAY_NODE_REMOVED","message":"The node with node id: 5d1e and address: 10.3.0.7 and '
    "node name: 10.3.0.7 has been marked dead because the detector has missed too many heartbeats "
    "from it. This can happen when a \\t(1) raylet crashes unexpectedly (OOM, etc.) \\\\n\\t(2) "
    'raylet has lagging heartbeats due to slow network or busy workload.","pid":"65",'
    '"severity":"ERROR","source_type":"GCS","timestamp":1780000000}\n'
)


def test_a_node_the_control_store_marked_dead_went_away() -> None:
    """docs/labelling.md#a-ray-worker-reported-dead"""
    diagnosis = diagnose_text("events/event_GCS.log", NODE_REMOVED)
    assert diagnosis.category == "device_fault"
    assert "missed too many heartbeats" in first_text(diagnosis)
    assert {"hccl", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_node_event_that_is_no_failure_is_not_read() -> None:
    """Counterexample: the same event log's record of a node joining."""
    text = (
        '{"label":"RAY_NODE_ADDED","message":"Node 5d1e joined the cluster.",'
        '"severity":"INFO","source_type":"GCS","timestamp":1780000000}\n'
    )
    assert diagnose_text("events/event_GCS.log", text).first_error is None


# The driver's own output: Ray warns that a worker node was marked dead, then the training
# executor reports the actor on that node dead, a millisecond later and at error level.
DRIVER_NODE_DEAD = (
    "(RayTrainWorker pid=4410, ip=10.6.1.5) step 120 loss 1.73\n"
    "2026-03-02 10:11:12,401\tWARNING worker.py:2043 -- The node with node id: 8e2f and ip: "
    "10.6.1.9 has been marked dead because the detector has missed too many heartbeats from "
    "it. This can happen when a raylet crashes unexpectedly or has lagging heartbeats.\n"
    "(BackendExecutor pid=4388, ip=10.6.1.5) 2026-03-02 10:11:12,402\tERROR utils.py:42 -- "
    "The actor died unexpectedly before finishing this task.\n"
    "(BackendExecutor pid=4388, ip=10.6.1.5) \tclass_name: RayTrainWorker\n"
    "(BackendExecutor pid=4388, ip=10.6.1.5) \tip: 10.6.1.9\n"
)


def test_the_drivers_warning_of_a_dead_node_comes_before_the_actor_it_took() -> None:
    """docs/labelling.md#a-ray-worker-reported-dead"""
    diagnosis = diagnose_text("driver.log", DRIVER_NODE_DEAD)
    assert diagnosis.category == "device_fault"
    assert "missed too many heartbeats" in first_text(diagnosis)
    assert {"hccl", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_an_actor_headline_with_no_dead_node_is_still_read() -> None:
    """Counterexample: without the node's record the headline is all the driver says."""
    text = "\n".join(
        line for line in DRIVER_NODE_DEAD.splitlines() if "missed too many" not in line
    )
    diagnosis = diagnose_text("driver.log", text + "\n")
    assert diagnosis.category == "device_fault"
    assert "actor died unexpectedly" in first_text(diagnosis)


# A Ray Train worker whose node went away: the actor's error says so under its headline.
ACTOR_NODE_DIED = (
    "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
    "\tclass_name: RayTrainWorker\n"
    "\tactor_id: 0f9e8d7c6b5a49382716050403000000\n"
    "\tpid: 3120\n"
    "\tip: 10.4.2.17\n"
    "The actor died because its node has died. Node Id: 77aa0e1f2d3c4b5a69788796a5b4c3d2e1f0\n"
    "The above exception was the direct cause of the following exception:\n"
)

# The same death, with Ray's reason that the node was taken back: a stop from outside.
ACTOR_NODE_PREEMPTED = (
    "(TrainController pid=5120) The actor died unexpectedly before finishing this task.\n"
    "(TrainController pid=5120) \tclass_name: RayTrainWorker\n"
    "(TrainController pid=5120) \tip: 10.4.2.18\n"
    "(TrainController pid=5120) The actor died because its node has died. Node Id: 19bc\n"
    "(TrainController pid=5120) \tthe actor's node was preempted: spot capacity reclaimed\n"
)

# Counterexample: Ray's advice lists preemption among possible reasons; it records none.
NODE_ADVICE = (
    "(raylet) Task load_batch failed. There are 2 retries remaining, so the task will be retried."
    " Error: Task failed because the node it was running on is dead or unavailable. Node IP:"
    " 10.4.2.19. This can happen if the node was preempted, had a hardware failure, or its raylet"
    " crashed unexpectedly.\n"
)


def test_an_actor_whose_node_died_is_the_lost_node_not_the_headline() -> None:
    diagnosis = diagnose_text("driver.log", ACTOR_NODE_DIED)
    assert diagnosis.category == "device_fault"
    assert "its node has died" in first_text(diagnosis)
    assert "oom" not in {alt.category for alt in diagnosis.alternatives}


def test_a_node_taken_back_by_preemption_is_a_stop_from_outside() -> None:
    diagnosis = diagnose_text("controller.log", ACTOR_NODE_PREEMPTED)
    assert diagnosis.category == "other"
    assert "node was preempted" in first_text(diagnosis)


def test_rays_advice_that_names_preemption_records_none() -> None:
    diagnosis = diagnose_text("driver.log", NODE_ADVICE)
    assert "ext.ray_node_preempted" not in rules_of(diagnosis)


TUNE_TRIAL = (
    "(_train_tune pid=700) Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/4\n"
    "(_train_tune pid=700) [rank: 2] Child process with PID 731 terminated with code 1. Forcefully "
    "terminating all other processes to avoid zombies\n"
    "(raylet) A worker died or was killed while executing a task by an unexpected system error. "
    "To troubleshoot the problem, check the logs for the dead worker.\n"
)


def test_ray_reports_the_teardown_lightning_began_for_a_child_rank() -> None:
    """docs/labelling.md#a-rank-that-exits-without-a-word"""
    diagnosis = diagnose_text("driver.log", TUNE_TRIAL)
    assert diagnosis.category == "device_fault"
    assert "Child process with PID 731 terminated with code 1" in first_text(diagnosis)


def test_a_dead_worker_with_no_teardown_above_it_keeps_its_own_reading() -> None:
    """Counterexample: Ray's report alone."""
    diagnosis = diagnose_text("driver.log", TUNE_TRIAL.splitlines(keepends=True)[2])
    assert diagnosis.category == "device_fault"
    assert "A worker died or was killed" in first_text(diagnosis)


def test_an_object_store_that_cannot_spill_to_a_full_disk_is_the_host() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        "(raylet) Spilled 6144 MiB, 12 objects, write throughput 1257 MiB/s.\n"
        "ray.exceptions.OutOfDiskError: Local disk is full\n"
        "The object cannot be created because the local object store is full and the local "
        "disk's utilization is over capacity (95% by default).\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert diagnosis.category == "driver_env"
    assert "OutOfDiskError" in first_text(diagnosis)


def test_spilling_alone_is_no_failure() -> None:
    """Counterexample: Ray spilling objects to disk is its normal path."""
    text = "(raylet) Spilled 6144 MiB, 12 objects, write throughput 1257 MiB/s.\n"
    assert diagnose_text("driver.log", text).first_error is None


REGISTER_FAILED = (
    "2026-04-02 09:10:10,100 INFO worker.py:1654 -- Connecting to existing Ray cluster at "
    "address: 10.3.0.2:6379...\n"
    "2026-04-02 09:10:10,112 INFO worker.py:1832 -- Connected to Ray cluster.\n"
    "[2026-04-02 09:10:11,222 E 3101 3101] core_worker.cc:512: Failed to register worker to "
    "Raylet: IOError: [RayletClient] Unable to register worker with raylet. Failed to read data "
    "from the socket: End of file worker_id=02000000ffffffffffffffffffffffffffffffffffffffffffffffff\n"
)


def test_a_worker_the_raylet_will_not_register_is_the_nodes_setup() -> None:
    """docs/labelling.md#a-worker-that-cannot-register-with-the-raylet"""
    diagnosis = diagnose_text("serve.log", REGISTER_FAILED)
    assert diagnosis.category == "driver_env"
    assert "register worker" in first_text(diagnosis)
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_node_that_never_reached_the_head_comes_before_a_failed_registration() -> None:
    """Counterexample: the raylet's own failure to join, earlier in the bundle, comes first."""
    text = (
        "[2026-04-02 09:10:05,010 W 51 51] gcs_rpc_client.h:151: Failed to connect to GCS at "
        "address 10.3.0.2:6380 within 5 seconds.\n"
    ) + REGISTER_FAILED
    diagnosis = diagnose_text("serve.log", text)
    assert "Failed to connect to GCS" in first_text(diagnosis)


_ENGINE = "(EngineCore_DP0 pid=8100) "
RAY_CHECK_FAILED = "\n".join(
    [
        f"{_ENGINE}(RayWorkerWrapper pid=8230) [2026-03-04 05:06:07,131 E 8230 8291] raylet_client.cc:199: "
        "Error pushing mutable object: RpcError: RPC Error message: Socket closed; RPC Error details:  rpc_code: 14",
        f"{_ENGINE}(raylet, ip=192.0.2.44) [2026-03-04 05:06:07,120 C 5150 5150] (raylet) "
        "object_manager.cc:88:  An unexpected system state has occurred. You have likely discovered a bug "
        "in Ray. Please report this issue. Check failed: buffer_->Acquire(id, size) Status not OK: "
        "ChannelError: Channel closed.",
        "",
    ]
)

RAY_SHORT_CHECK = """\
[2026-03-04 05:06:07,120 C 5150 5177] core_worker.cc:412:  Check failed: task_spec.IsActorTask()
*** StackTrace Information ***
"""

OTHER_GLOG_CHECK = """\
F0304 05:06:07.120000 5150 tensor.cc:99] Check failed: dims_ok
[2026-03-04 05:06:07,120 I 5150 5150] (raylet) node_manager.cc:610: New job has started. Job id 02000000
"""


def test_a_ray_process_that_fails_its_own_check_comes_before_its_peers_closed_sockets() -> None:
    diagnosis = diagnose_text("logs/stdout.log", RAY_CHECK_FAILED)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="You have likely discovered a bug in Ray",
        rule="dev.ray_internal_check_failed",
        beside=("other", "hccl"),
    )
    diagnosis = diagnose_text("logs/worker.log", RAY_SHORT_CHECK)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Check failed: task_spec.IsActorTask()",
        rule="dev.ray_internal_check_failed",
    )


def test_another_librarys_check_and_rays_info_lines_are_not_rays_fatal_check() -> None:
    diagnosis = diagnose_text("logs/stdout.log", OTHER_GLOG_CHECK)
    assert "dev.ray_internal_check_failed" not in rules_of(diagnosis)
