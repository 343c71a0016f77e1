"""Failures reported by the distributed runtimes of JAX and TensorFlow rather than by torch:
the coordination service that joins a JAX job's processes, XLA's wrapper around NCCL,
TensorFlow's collective executor and a TPU runtime library of another release.
docs/labelling.md#a-coordination-service-that-gives-up-on-its-tasks,
docs/labelling.md#tensorflow-collectives-that-abort,
docs/labelling.md#a-collective-library-that-does-not-load,
docs/labelling.md#a-machine-topology-nccl-cannot-read,
docs/labelling.md#runtimes-of-other-accelerators. Fixtures follow the real formats with
numbers, hosts and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

START_BARRIER = """\
Traceback (most recent call last):
  File "/srv/lm/pretrain.py", line 52, in <module>
    jax.distributed.initialize(coordinator_address="10.4.0.2:7711", num_processes=4, process_id=0)
  File "/opt/env/lib/python3.10/site-packages/jax/_src/distributed.py", line 95, in initialize
    self.client.connect()
jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: PjRT_Client_Connect. Timed out task names:
/job:jax_worker/replica:0/task:2
/job:jax_worker/replica:0/task:3

Additional GRPC error information from remote target unknown_target_for_coordination_leader while calling /tensorflow.CoordinationService/Barrier:
"""

REGISTRATION = """\
Stopping coordination service as cluster registration failed. This may be due to 1) some tasks crashed earlier before connecting, 2) some tasks were never scheduled, or 3) scheduling delays. Consider setting a longer initialization timeout if such delays are expected, the timeout is currently set to: 5m.

Original error: DEADLINE_EXCEEDED: Barrier timed out. Id: [Init]Wait_for_all_tasks_to_register::0. This usually happens because a task triggered the barrier too early or too slowly. Please look at the task logs (both timed out and first task) to debug further.
"""

NAMED_BARRIER = """\
  File "/srv/lm/utils/sync.py", line 61, in broadcast_once
    client.wait_at_barrier(f"share_run_id{counter}", timeout_in_ms=int(timeout * 1000.0))
jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: share_run_id0. Timed out task names:
/job:jax_worker/replica:0/task:1
"""

HEARTBEAT_THEN_BARRIER = """\
I0302 09:10:11.120000 140011 trainer.py:480] Training: step 410
2024-03-02 09:14:52.301112: E external/xla/xla/tsl/distributed_runtime/coordination/coordination_service.cc:912] /job:jax_worker/replica:0/task:5 has been set to ERROR in coordination service: UNAVAILABLE: Task /job:jax_worker/replica:0/task:5 heartbeat timeout. This indicates that the remote task has failed, got preempted, or crashed unexpectedly. [type.googleapis.com/tensorflow.CoordinationServiceError='']
jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: save_step_410. Timed out task names:
/job:jax_worker/replica:0/task:5
"""

PEER_DIED = """\
E0411 07:20:33.101200 88231 coordination_service_agent.cc:332] Polled an error from coordination service (this can be an error from this or another task).
F0411 07:20:33.101300 88231 client.h:77] Terminating process because the JAX distributed service detected fatal errors. This most likely indicates that another task died; see the other task logs for more details. absl::Status: UNAVAILABLE: Failed to send RPC to coordination service.
"""

SHUTDOWN_AFTER_ERROR = """\
Traceback (most recent call last):
  File "/srv/lm/train.py", line 210, in save
    os.replace(tmp_dir, final_dir)
PermissionError: [Errno 13] Permission denied: '/ckpt/shared/step_400'
2024-05-01 10:00:02.000100: E external/tsl/tsl/distributed_runtime/coordination/coordination_service_agent.cc:486] Failed to disconnect from coordination service with status: DEADLINE_EXCEEDED: Deadline Exceeded
Additional GRPC error information from remote target unknown_target_for_coordination_leader:
:{"created":"@1714557602.000001","description":"Error received from peer ipv4:10.4.0.2:7711","grpc_message":"Deadline Exceeded","grpc_status":4}. Proceeding with agent shutdown anyway.
"""

CONNECTED = """\
2024-03-02 09:00:01.000100: I external/xla/xla/tsl/distributed_runtime/coordination/coordination_service.cc:553] /job:jax_worker/replica:0/task:1 has connected to coordination service. Incarnation: 8841203
2024-03-02 09:00:01.100100: I external/xla/xla/pjrt/distributed/client.cc:131] Connected to distributed JAX controller
"""

RING_ABORT = """\
INFO:tensorflow:loss = 3.1102, step = 2200 (41.012 sec)
2020-02-11 08:41:12.300100: E tensorflow/core/common_runtime/ring_reducer.cc:360] Aborting RingReduce with Unavailable: Socket closed
2020-02-11 08:41:12.300200: W tensorflow/core/common_runtime/base_collective_executor.cc:217] BaseCollectiveExecutor::StartAbort Unavailable: Socket closed
"""

GROUP_SIZE = """\
2020-03-01 10:11:12.100200: W tensorflow/core/common_runtime/base_collective_executor.cc:216] BaseCollectiveExecutor::StartAbort Internal: Collective Op  has group_size 6 and group_key3 but that group has size 2
tensorflow.python.framework.errors_impl.InternalError: Collective ops is aborted by: Collective Op  has group_size 6 and group_key3 but that group has size 2
"""

NCCL_MISSING = """\
2024-04-02 11:20:01.100200: W external/xla/xla/service/gpu/runtime/support.cc:58] Intercepted XLA runtime error:
INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:134: NCCL operation ncclGetUniqueId(&id) failed: Unable to load NCCL library. Multi-GPU collectives will not work.. Last NCCL warning(error) log entry (may be unrelated) 'Unable to load NCCL library. Multi-GPU collectives will not work.'.
"""

TOPOLOGY_QUOTED = """\
2024-04-02 11:20:01.100200: W external/xla/xla/service/gpu/runtime/support.cc:58] Intercepted XLA runtime error:
INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: internal error - please report this issue to the NCCL developers. Last NCCL warning(error) log entry (may be unrelated) 'Attribute busid of node net not found'.
"""

TPU_SYMBOL = """\
setup start (pid=4410, ip=10.1.0.9) 2022-02-03 04:05:06.070809: F external/org_tensorflow/tensorflow/core/tpu/tpu_executor_init_fns.inc:104] TpuCompiler_DefaultDeviceShapeRepresentation not available in this library.

2022-02-03 04:15:01,222 WARNING worker.py:1200 -- A worker died or was killed while executing task ffffffffffffffff0011223344556677.
"""


def test_a_start_barrier_that_times_out_is_the_wait_for_tasks_that_never_joined() -> None:
    diagnosis = diagnose_text("logs/train.log", START_BARRIER)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Barrier timed out. Barrier_id: PjRT_Client_Connect",
        beside=("config",),
    )
    assert diagnosis.confidence < 0.8


def test_the_newer_registration_wording_is_the_same_wait() -> None:
    diagnosis = diagnose_text("logs/worker_0.log", REGISTRATION)
    assert_reads(diagnosis, "hccl", first_error="cluster registration failed", beside=("config",))


def test_a_named_barrier_of_the_job_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/host_2.log", NAMED_BARRIER)
    assert_reads(diagnosis, "hccl", first_error="Barrier_id: share_run_id0")


def test_a_task_whose_heartbeat_stopped_is_the_first_error_before_the_barrier() -> None:
    diagnosis = diagnose_text("logs/coordinator.log", HEARTBEAT_THEN_BARRIER)
    assert_reads(
        diagnosis, "device_fault", first_error="task:5 heartbeat timeout", beside=("hccl",)
    )


def test_the_fatal_notice_that_another_task_died_is_a_collective_symptom() -> None:
    diagnosis = diagnose_text("logs/host_3.log", PEER_DIED)
    assert_reads(diagnosis, "hccl", first_error="another task died", beside=("device_fault",))


def test_a_disconnect_timeout_at_exit_stays_behind_the_error_that_ended_the_job() -> None:
    diagnosis = diagnose_text("logs/host_0.log", SHUTDOWN_AFTER_ERROR)
    assert diagnosis.first_error is not None
    assert "Permission denied" in diagnosis.first_error.text
    assert diagnosis.category != "hccl", diagnosis.root_cause


def test_tasks_that_connect_are_no_failure() -> None:
    diagnosis = diagnose_text("logs/host_1.log", CONNECTED)
    assert diagnosis.first_error is None


def test_a_ring_all_reduce_that_aborts_is_the_collective_layer() -> None:
    diagnosis = diagnose_text("logs/worker_3.log", RING_ABORT)
    assert_reads(diagnosis, "hccl", first_error="Aborting RingReduce with Unavailable")


def test_workers_that_disagree_on_a_group_size_are_the_group_setup() -> None:
    diagnosis = diagnose_text("logs/worker_0.log", GROUP_SIZE)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "has group_size 6 and group_key3 but that group has size 2" in (
        diagnosis.first_error.text
    )
    assert "config" in alternative_labels(diagnosis)


def test_xla_finding_no_nccl_library_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/generate.log", NCCL_MISSING)
    assert_reads(
        diagnosis, "driver_env", first_error="Unable to load NCCL library", beside=("config",)
    )


def test_a_topology_warning_xla_quotes_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/generate.log", TOPOLOGY_QUOTED)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="Attribute busid of node net not found",
        beside=("hccl",),
    )


def test_a_tpu_runtime_without_an_entry_point_jaxlib_expects_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("logs/train.log", TPU_SYMBOL)
    assert_reads(
        diagnosis, "config", first_error="not available in this library", beside=("driver_env",)
    )
