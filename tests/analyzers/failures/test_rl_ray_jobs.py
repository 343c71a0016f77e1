"""Failures of RL post-training jobs run on Ray (trainer actors, rollout engines).

Four classes: Ray's report of a worker process that went away, whose advice lists SIGSEGV
and the OOM killer as possible senders (docs/labelling.md#a-ray-worker-reported-dead); Ray's
memory monitor killing workers when the node's host memory passes its threshold (same
section); NCCL
failing to bring up an IB queue pair to the peer it broadcasts weights to
(docs/labelling.md#network-links-that-fail-under-a-collective); and torch's deferred CUDA
start-up refusing a device index beyond the GPUs a Ray actor sees
(docs/labelling.md#a-ranks-device-placement). The excerpts follow the real shapes (Ray's
`(Actor pid=N)` prefixes, the raylet's one-line report, NCCL's WARN lines) with values of our
own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

ACTOR_DIED = """\
  File "/opt/rl/trainer/fit.py", line 88, in step
    out = ray.get(refs)
ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.
        class_name: create_colocated_worker_cls.<locals>.WorkerDict
        pid: 40112
        ip: 10.3.0.7
The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. Possible causes: the OOM killer, ray stop --force, or a SIGSEGV inside the worker.
"""


def test_a_dead_ray_worker_is_not_read_as_the_segfault_its_advice_names() -> None:
    diagnosis = diagnose_text("driver.log", ACTOR_DIED)
    assert_reads(diagnosis, "device_fault", first_error="The actor died unexpectedly")
    assert "segmentation fault" not in diagnosis.root_cause.lower()
    assert "oom" in {alt.category for alt in diagnosis.alternatives}


def test_a_real_segfault_line_keeps_its_own_reading() -> None:
    text = "(WorkerDict pid=40112) Fatal Python error: Segmentation fault\n"
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "device_fault"
    assert "dev.segfault" in rules_of(diagnosis)
    assert "dev.ray_worker_died" not in rules_of(diagnosis)


WEIGHT_SYNC_QP = """\
(RolloutActor pid=3310, ip=10.4.0.12) syncing weight: lm_head.weight, dtype: torch.bfloat16
(RolloutActor pid=3310, ip=10.4.0.12) trainer-2:3310:3391 [0] misc/ibvwrap.cc:160 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out
(RolloutActor pid=3310, ip=10.4.0.12) ERROR 02-11 08:30:41 worker_base.py:145] Error executing method update_weight. This might cause deadlock in distributed execution.
"""


def test_a_queue_pair_that_never_came_up_is_the_link_not_the_wrapper() -> None:
    diagnosis = diagnose_text("rollout.log", WEIGHT_SYNC_QP)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="ibv_modify_qp failed",
        rule="hccl.nccl_ib_queue_pair_setup",
        beside=("driver_env",),
    )


def test_a_memory_registration_refusal_is_not_a_queue_pair_failure() -> None:
    text = "gpu-12:3301:3390 [5] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
    diagnosis = diagnose_text("rank5.log", text)
    assert "hccl.nccl_ib_queue_pair_setup" not in rules_of(diagnosis)


def test_a_deferred_cuda_index_check_is_the_actor_placement() -> None:
    text = (
        "(EngineActor pid=5120) torch.cuda.DeferredCudaCallError: CUDA call failed lazily at "
        "initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
        '"../aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. device=2, num_gpus=1\n'
    )
    diagnosis = diagnose_text("engine.log", text)
    assert diagnosis.category == "config"
    assert "cfg.rank_device_placement" in rules_of(diagnosis)
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_another_internal_assertion_is_not_a_placement() -> None:
    text = 'RuntimeError: t.numel() > 0 INTERNAL ASSERT FAILED at "../aten/src/ATen/native/Copy.cpp":12, please report a bug to PyTorch.\n'
    diagnosis = diagnose_text("rank0.log", text)
    assert "cfg.rank_device_placement" not in rules_of(diagnosis)


# The raylet's summary as a terminal shows it: wrapped at the window's width, blank-padded,
# with Ray's advice on the following lines.
RAYLET_OOM_SUMMARY = """\
(raylet) [2026-02-17 04:31:55,902 E 61877 61877] (raylet) node_manager.cc:3277: 4 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at 
node (ID: 3fd1c08a7b6e, IP: 10.7.5.23) over the last time period. To see more information about the Workers killed on this node, use `ray log
s raylet.out -ip 10.7.5.23`                                                                                    
(raylet)                                                                                                       
(raylet) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory 
on this node or reducing task parallelism by requesting more CPUs per task. To adjust the kill threshold, set the environment variable `RAY_memory_usage_threshold` when starting Ray. To di
"""


def test_the_memory_monitors_kill_summary_is_the_first_error_not_its_advice() -> None:
    diagnosis = diagnose_text("trainer.log", RAYLET_OOM_SUMMARY)
    assert_reads(
        diagnosis,
        "oom",
        first_error="killed due to memory pressure (OOM)",
        rule="oom.ray_memory_monitor_kill",
        beside=("device_fault",),
    )


def test_the_callers_out_of_memory_error_names_the_monitors_kill() -> None:
    text = (
        '  File "/opt/rl/trainer/fit.py", line 131, in fit\n'
        "    batch = ray.get(rollout_refs)\n"
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
        "Memory on the node (IP: 10.7.5.23, ID: 3fd1c08a7b6e) where the task (actor ID: 5be0, "
        "name=RolloutWorker.generate, pid=70214, memory used=42.80GB) was running was "
        "241.55GB / 251.90GB (0.958912), which exceeds the memory usage threshold of 0.95. Ray "
        "killed this worker (ID: 81c4) because it was the most recently scheduled task\n"
    )
    diagnosis = diagnose_text("driver.log", text)
    assert_reads(
        diagnosis, "oom", first_error="running low on memory", rule="oom.ray_memory_monitor_kill"
    )


def test_a_dead_worker_next_to_the_monitors_kill_is_that_kill() -> None:
    text = ACTOR_DIED + RAYLET_OOM_SUMMARY
    diagnosis = diagnose_text("driver.log", text)
    assert_reads(diagnosis, "oom", first_error="killed due to memory pressure (OOM)")


def test_a_summary_that_counts_no_memory_kill_is_not_one() -> None:
    text = (
        "(raylet) [2026-02-17 04:31:55,902 E 61877 61877] (raylet) node_manager.cc:3277: 0 Workers "
        "(tasks / actors) killed due to memory pressure (OOM), 2 Workers crashed due to other "
        "reasons at node (ID: 3fd1c08a7b6e, IP: 10.7.5.23) over the last time period.\n"
    )
    diagnosis = diagnose_text("trainer.log", text)
    assert "oom.ray_memory_monitor_kill" not in rules_of(diagnosis)
    assert diagnosis.category != "oom", diagnosis.root_cause


def test_the_monitors_kill_record_in_the_raylet_log_leads_its_advice() -> None:
    # raylet.out's own record of a kill: the task, its retry budget, how many workers went and
    # the node's memory, then the object-store dump, the kill list and the advice.
    text = (
        "Task embed_shard failed due to oom. There are 3 oom retries remaining, so the task will "
        "be retried. Error: 1 worker(s) were killed due to the node running low on memory. "
        "Memory on the node (IP: 10.7.5.23, ID: 3fd1c08a7b6e) was 60.12GB / 63.90GB (0.940845)\n"
        "OOM kill reason: user cgroup memory upper bound was met or exceeded\n"
        "Ray killed 1 worker(s) based on the killing policy\n"
        "Selected to kill: (Task: job ID=02000000, task name=embed_shard, pid=81230, "
        "actual memory used=18.40GB)\n"
        "Refer to the documentation on how to address the out of memory issue: "
        "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider "
        "provisioning more memory on this node or reducing task parallelism.\n"
    )
    diagnosis = diagnose_text("raylet.out", text)
    assert_reads(
        diagnosis,
        "oom",
        first_error="worker(s) were killed due to the node running low on memory",
        rule="oom.ray_memory_monitor_kill",
    )


def test_a_task_that_finished_after_an_oom_retry_is_no_kill() -> None:
    text = "Task embed_shard finished after 1 oom retry; 0 worker(s) were killed since.\n"
    diagnosis = diagnose_text("driver.log", text)
    assert "oom.ray_memory_monitor_kill" not in rules_of(diagnosis)


# docs/labelling.md#a-ray-worker-reported-dead
# The driver's log reports the colocated worker dead; the worker's own stderr, kept in a file
# of its own, ends on the abort of Triton's back end while it lowered a kernel for an older
# card. The worker's own record says why it went away, whichever file holds it.
DRIVER_REPORT = """\
ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.
        class_name: create_colocated_worker_cls.<locals>.WorkerDict
        pid: 52210
The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.
"""

WORKER_TRITON_ABORT = """\
python: /src/triton/lib/Analysis/Allocation.cpp:51: std::pair<unsigned, unsigned> mlir::triton::getCvtOrder(mlir::Attribute, mlir::Attribute): Assertion `!(srcMma && dstMma) && "layout pair needs a newer card"' failed.
Aborted (core dumped)
"""


def test_a_dead_workers_own_abort_in_another_file_is_the_reason() -> None:
    diagnosis = diagnose_files(
        {"driver.log": DRIVER_REPORT, "worker-52210.err": WORKER_TRITON_ABORT}
    )
    assert_reads(
        diagnosis, "config", first_error="Assertion `", rule="cfg.triton_backend_assertion"
    )


def test_the_abort_printed_below_the_report_in_one_log_is_the_reason() -> None:
    diagnosis = diagnose_text(
        "driver.log", DRIVER_REPORT + "(WorkerDict pid=52210) " + WORKER_TRITON_ABORT
    )
    assert_reads(
        diagnosis, "config", first_error="Assertion `", rule="cfg.triton_backend_assertion"
    )


def test_a_file_that_says_nothing_of_a_crash_leaves_the_report_first() -> None:
    worker = "(WorkerDict pid=52210) step 3: loss 0.41\n"
    diagnosis = diagnose_files({"driver.log": DRIVER_REPORT, "worker-52210.out": worker})
    assert_reads(diagnosis, "device_fault", first_error="The actor died unexpectedly")


# docs/labelling.md#a-ray-actor-class-that-does-not-import-on-its-worker
# Ray pickles an actor's class by reference and imports it again in the worker process; when
# that import fails it says so in its own words before the actor dies in its creation task.
ACTOR_IMPORT = """\
ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, ray::RefWorker.__init__() (pid=7101, ip=10.2.0.5, actor_id=aa01, repr=<TemporaryActor object at 0x7f00>)
RuntimeError: The actor with name RefWorker failed to import on the worker. This may be because needed library dependencies are not installed in the worker environment:
"""


def test_an_actor_class_that_does_not_import_on_its_worker_is_the_environment() -> None:
    for text in (
        ACTOR_IMPORT,
        "RuntimeError: This function was not imported properly.\n",
    ):
        diagnosis = diagnose_text("driver.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error="import",
            rule="cfg.ray_worker_import_failed",
            beside=("driver_env",),
        )


def test_a_note_about_imports_on_workers_is_no_failure() -> None:
    text = "INFO worker.py:1888 -- Imported 12 modules on the worker in 0.4s\n"
    diagnosis = diagnose_text("driver.log", text)
    assert "cfg.ray_worker_import_failed" not in rules_of(diagnosis)


# docs/labelling.md#a-front-end-that-waits-for-its-engines
# An RL trainer's client for a remote rollout server polls the server's address until it
# answers, and gives up with a sentence of its own when its deadline passes first.
ROLLOUT_WAIT = """\
  File "/opt/rl/engine/remote_rollout.py", line 67, in _wait_for_server
    raise RuntimeError("server launch failed")
RuntimeError: server launch failed
"""


def test_a_rollout_client_that_gives_up_on_its_server_is_a_start_up_stall() -> None:
    diagnosis = diagnose_text("trainer.log", ROLLOUT_WAIT)
    assert_reads(
        diagnosis,
        "hang",
        first_error="RuntimeError: server launch failed",
        rule="hang.rollout_server_launch_wait",
        beside=("config",),
    )


def test_the_servers_own_error_comes_before_the_clients_wait() -> None:
    text = (
        "[2025-08-13 10:01:02] Scheduler hit an exception: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
        + ROLLOUT_WAIT
    )
    diagnosis = diagnose_text("trainer.log", text)
    assert diagnosis.category == "oom"
    assert diagnosis.first_error is not None
    assert "out of memory" in diagnosis.first_error.text


# docs/labelling.md#a-ray-call-handed-something-that-is-not-an-object-reference
# A trainer's loop hands ray.get the future of a step it never scheduled (None after the last
# round); Ray refuses the argument before it waits on anything.
RAY_GET_NONE = """\
  File "/opt/rl/train_async.py", line 95, in train
    data_ref = ray.get(next_rollout_future)
  File "/opt/venv/lib/python3.12/site-packages/ray/_private/worker.py", line 2877, in get
    raise ValueError(
ValueError: Invalid type of object refs, <class 'NoneType'>, is given. 'object_refs' must either be an ObjectRef or a list of ObjectRefs.
"""


def test_ray_get_handed_no_object_reference_is_the_callers_code() -> None:
    diagnosis = diagnose_text("driver.log", RAY_GET_NONE)
    assert_reads(
        diagnosis,
        "other",
        first_error="Invalid type of object refs",
        rule="other.ray_get_not_object_ref",
        beside=("config",),
    )


def test_a_list_of_object_refs_in_a_log_line_is_no_refusal() -> None:
    text = "INFO trainer.py:88 -- waiting on 8 object refs of type ObjectRef\n"
    diagnosis = diagnose_text("driver.log", text)
    assert "other.ray_get_not_object_ref" not in rules_of(diagnosis)
