"""Stalls and device-side logs: a watchdog that stops making progress, the device task
scheduler's AI Core timeout, driver-module errors with nothing else around them.

The excerpts follow the real shapes (torch `[rankN]:[Emmdd ...]` prefixes, CANN
`[LEVEL] MODULE(pid,name):timestamp` lines of a device log and a host plog) with values and
wording of our own; each test checks the label and the line to read first.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_files


def stuck_line(rank: int, stamp: str, secs: int) -> str:
    return (
        f"[rank{rank}]:[E1103 {stamp} ProcessGroupNCCL.cpp:1748] [PG ID 0 PG GUID 0(default_pg) "
        f"Rank {rank}] ProcessGroupNCCL's watchdog got stuck for {secs} seconds without making "
        "progress in monitoring enqueued collectives. Please attempt to debug the hang.\n"
    )


def test_a_stuck_watchdog_on_two_ranks_reads_as_a_hang() -> None:
    """No collective failed: the watchdog itself stopped, so the job stalled (not a crash)."""
    diagnosis = diagnose_files(
        {
            "job/rank0.log": "step 41 loss 2.113\n" + stuck_line(0, "21:07:15.402118771", 600),
            "job/rank1.log": "step 41 loss 2.087\n" + stuck_line(1, "21:07:15.402907112", 600),
        }
    )
    assert_reads(diagnosis, "hang", first_error="watchdog got stuck for 600 seconds")


def test_a_stuck_watchdog_offers_a_collective_as_the_alternative() -> None:
    """docs/labelling.md#a-watchdog-that-is-itself-stuck: hang first, hccl beside it."""
    diagnosis = diagnose_files(
        {
            "job/rank1.log": stuck_line(1, "08:15:02.663017420", 480),
            "job/rank2.log": stuck_line(2, "08:15:02.663094118", 480),
        }
    )
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert "hccl" in alternative_labels(diagnosis)


def test_a_collective_that_ran_out_of_time_is_not_a_stuck_watchdog() -> None:
    """docs/labelling.md#a-watchdog-that-is-itself-stuck: the collective watchdog's own
    timeout names the collective, and is hccl with hang as the alternative."""
    line = (
        "[rank1]:[E1103 08:15:02.663017420 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=12, OpType=BROADCAST, NumelIn=4, "
        "NumelOut=4, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.\n"
    )
    diagnosis = diagnose_files({"job/rank1.log": "step 3 loss 1.92\n" + line})
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "hang" in alternative_labels(diagnosis)


def timeout_line(rank: int, stamp: str, seq: int) -> str:
    return (
        f"[rank{rank}]:[E1103 {stamp} ProcessGroupNCCL.cpp:632] [Rank {rank}] Watchdog caught "
        f"collective operation timeout: WorkNCCL(SeqNum={seq}, OpType=_REDUCE_SCATTER_BASE, "
        "NumelIn=8192, NumelOut=1024, Timeout(ms)=1800000) ran for 1800042 milliseconds before "
        "timing out.\n"
    )


def test_a_stuck_watchdog_pasted_above_a_collective_timeout_yields_to_it() -> None:
    """docs/labelling.md#a-watchdog-that-is-itself-stuck: the monitor's lines come first in
    the paste, but another rank's collective timeout eight minutes earlier is what stalled."""
    text = (
        stuck_line(6, "04:22:51.118204551", 480)
        + timeout_line(3, "04:14:47.020331870", 5521)
        + stuck_line(4, "04:22:51.118925006", 480)
    )
    diagnosis = diagnose_files({"job/train.log": text})
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Watchdog caught collective operation timeout",
        beside=("hang",),
    )


def test_a_stuck_watchdog_far_from_any_collective_timeout_stays_a_hang() -> None:
    """Counterexample: a timeout line of another block of the file, far below, is not the
    monitor's neighbour; the stuck watchdog is the first error and the label stays hang."""
    filler = "".join(f"step {n} loss 1.{n:03d}\n" for n in range(40))
    text = (
        stuck_line(6, "04:22:51.118204551", 480)
        + filler
        + timeout_line(3, "04:31:02.507115230", 17)
    )
    diagnosis = diagnose_files({"job/train.log": text})
    assert_reads(diagnosis, "hang", first_error="watchdog got stuck")


def test_heartbeat_monitor_timeout_is_a_hang_not_a_device_fault() -> None:
    text = (
        "[rank2]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 2] Heartbeat monitor timed out! "
        "Process will be terminated after dumping debug info. workMetaList_.size()=7\n"
        "[rank2]:[E ProcessGroupNCCL.cpp:1153] [PG 0 Rank 2] ProcessGroupNCCL preparing to dump "
        "debug info.\n"
    )
    diagnosis = diagnose_files({"job/train.log": text})
    assert_reads(diagnosis, "hang", first_error="Heartbeat monitor timed out")


def test_task_scheduler_timeout_in_the_device_log_is_an_aicore_timeout() -> None:
    device = (
        "[INFO] TSCH(-1,null):2022-08-17-03:12:40.118.204 19 (cpuid:0) ai_core_dispatcher.c:530 "
        "dispatch slot_id=2 task_id=33\n"
        "[ERROR] TSCH(-1,null):2022-08-17-03:13:48.771.530 19 (cpuid:0) ai_core_dispatcher.c:1009 "
        "bs_done_exception_proc_timeout: slot_id=2,TS_ctrl=0x4,exception_core_list=0x0,"
        "current core usage=0x1,AI_CORES_COUNT=4, fault_task=33\n"
    )
    plog = (
        "[EVENT] RUNTIME(9120,infer_demo):2022-08-17-03:12:40.116.772 [logger.cc:1014]9123 "
        "TaskLaunched:device_id=0, stream_id=7, sq_id=7, task_id=33, kernel_name=net/Resize_tvmbin, "
        "task_type=AiCoreKernel, task_launched_num=5\n"
    )
    diagnosis = diagnose_files(
        {"job/device-0/device-0.log": device, "job/plog/plog-9120.log": plog}
    )
    assert_reads(diagnosis, "aicore_timeout", first_error="bs_done_exception_proc_timeout")


def test_driver_module_errors_alone_point_at_the_machine() -> None:
    """Only the driver (DRV, tsdrv) complains: the installed driver does not fit the stack."""
    line = (
        "[ERROR] DRV(5310,aicpu_scheduler):2026-01-04-09:40:12.{ms} [trs_sqcq.c:1071][tsdrv] "
        "[trsSqCqQueryUio 1071] Invalid para. (devId=1; tsId=0; type=0; sqId=3)\n"
    )
    text = "".join(line.format(ms=ms) for ms in ("310.118", "310.142", "310.167"))
    diagnosis = diagnose_files({"node/device-1/aicpu.log": text})
    assert_reads(diagnosis, "driver_env", first_error="310.118")


ENGINE_WAIT_NEWER_RELEASE = """\
(EngineCore_DP0 pid=3301) ERROR 02-11 08:15:44 [core.py:902] EngineCore encountered a fatal error.
(EngineCore_DP0 pid=3301) Traceback (most recent call last):
(EngineCore_DP0 pid=3301)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 388, in get_response
(EngineCore_DP0 pid=3301)     status, result = mq.dequeue(timeout=dequeue_timeout)
(EngineCore_DP0 pid=3301)   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/shm_broadcast.py", line 741, in dequeue
(EngineCore_DP0 pid=3301)     with self.acquire_read(timeout, indefinite) as buf:
(EngineCore_DP0 pid=3301)   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/shm_broadcast.py", line 660, in acquire_read
(EngineCore_DP0 pid=3301)     self._spin_condition.wait(timeout_ms=read_timeout.timeout_ms())
(EngineCore_DP0 pid=3301)   File "/opt/venv/lib/python3.12/site-packages/vllm/distributed/device_communicators/shm_broadcast.py", line 622, in timeout_ms
(EngineCore_DP0 pid=3301)     raise TimeoutError
(EngineCore_DP0 pid=3301) TimeoutError
"""


def test_an_engine_that_timed_out_waiting_on_its_workers_is_a_hang() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers: the newer deadline-helper frame."""
    diagnosis = diagnose_files({"engine/stdout.log": ENGINE_WAIT_NEWER_RELEASE})
    assert_reads(diagnosis, "hang", first_error="shm_broadcast.py")


QUEUE_TAG = "(EngineCore_DP1 pid=7702)"
ENGINE_WAIT_CUT_AT_QUEUE = "".join(
    f"{QUEUE_TAG} ERROR 03-14 22:40:05 [core.py:866] {line}\n"
    for line in (
        "EngineCore encountered a fatal error.",
        "Traceback (most recent call last):",
        '  File "/srv/py/lib/python3.11/site-packages/vllm/v1/executor/multiproc_executor.py", '
        "line 271, in collective_rpc",
        "    result = get_response(w, dequeue_timeout,",
        '  File "/srv/py/lib/python3.11/site-packages/vllm/v1/executor/multiproc_executor.py", '
        "line 250, in get_response",
        "    status, result = w.worker_response_mq.dequeue(",
        '  File "/srv/py/lib/python3.11/site-packages/vllm/distributed/device_communicators/'
        'shm_broadcast.py", line 528, in dequeue',
    )
)


def test_an_engine_traceback_cut_at_the_queue_is_the_wait_on_its_workers() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers: a paste that stops in the queue's
    `dequeue` frame lost the reader's frames, not the wait; the frame, not the headline."""
    diagnosis = diagnose_files({"engine/serve.log": ENGINE_WAIT_CUT_AT_QUEUE})
    assert_reads(diagnosis, "hang", first_error="in dequeue", beside=("hccl",))


def test_the_queue_frame_steps_aside_for_the_reader_frame_below_it() -> None:
    """With the deeper frame kept, the reader's own frame is cited, not the queue's entry."""
    diagnosis = diagnose_files({"engine/stdout.log": ENGINE_WAIT_NEWER_RELEASE})
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert "in dequeue" not in diagnosis.first_error.text


def test_building_the_queue_is_not_the_engine_wait() -> None:
    """Counterexample: a traceback cut in the queue's constructor is no wait on the workers."""
    text = ENGINE_WAIT_CUT_AT_QUEUE.replace(
        "line 528, in dequeue", "line 240, in __init__"
    ).replace("collective_rpc", "_init_executor")
    diagnosis = diagnose_files({"engine/serve.log": text})
    assert diagnosis.category != "hang", diagnosis.root_cause


def test_a_timeout_raised_elsewhere_is_not_the_engine_wait() -> None:
    """A TimeoutError out of a socket helper is not the shared-memory wait."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/urllib3/util/timeout.py", line 140, '
        "in timeout_ms\n"
        "    raise TimeoutError\n"
        "TimeoutError\n"
    )
    diagnosis = diagnose_files({"engine/stdout.log": text})
    assert diagnosis.category != "hang", diagnosis.root_cause


ENGINE_TAG = "(EngineCore_DP0 pid=4410)"
ENGINE_WAIT_FRAMES_CUT = "".join(
    f"{ENGINE_TAG} ERROR 05-21 03:12:50 [core.py:1011] {line}\n"
    for line in (
        "    raise TimeoutError",
        "TimeoutError",
        "",
        "The above exception was the direct cause of the following exception:",
        "",
        "Traceback (most recent call last):",
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 977, '
        "in run_engine_core",
        "    engine_core.run_busy_loop()",
        '  File "/srv/venv/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 1004, '
        "in run_busy_loop",
        "    self._process_engine_step()",
    )
)
ENGINE_WAIT_ANNOUNCED = (
    f"{ENGINE_TAG} INFO 05-21 03:11:50 [shm_broadcast.py:560] No available shared memory "
    "broadcast block found in 60 seconds. This typically happens when some processes are "
    "hanging or doing some time-consuming work (e.g. compilation).\n"
)


def test_a_bare_timeout_after_the_engine_announced_its_wait_is_that_wait() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers: the paste lost the reader's
    frames, but the same log said a minute earlier that the engine found no free block."""
    diagnosis = diagnose_files({"ci/engine.log": ENGINE_WAIT_ANNOUNCED + ENGINE_WAIT_FRAMES_CUT})
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("TimeoutError")


def test_a_bare_timeout_with_no_announced_wait_is_not_read_as_the_engine_wait() -> None:
    """Counterexample: the same cut traceback with no broadcast-block line before it."""
    diagnosis = diagnose_files({"ci/engine.log": ENGINE_WAIT_FRAMES_CUT})
    assert diagnosis.category != "hang", diagnosis.root_cause


def test_a_server_start_up_stall_in_one_shared_log_blames_no_silent_rank() -> None:
    """docs/labelling.md: a shared server log's rank stated by one worker is that worker's, so
    the other worker is not read as a rank that left no log (device_fault); the stall is a hang."""
    waits = "".join(
        f"(APIServer pid=1) DEBUG 03-02 10:4{m}:{s}0 [v1/engine/utils.py:1262] Waiting for 1 local,"
        " 0 remote core engine proc(s) to start.\n"
        for m in (1, 2)
        for s in range(6)
    )
    text = (
        "DEBUG 03-02 10:41:07 [tokenizers/registry.py:73] Loading tokenizer for mode='hf'\n"
        "(Worker pid=3301) INFO 03-02 10:41:08 [distributed/parallel_state.py:1607] world_size=2"
        " rank=1 local_rank=1 distributed_init_method=tcp://127.0.0.1:50611 backend=nccl\n"
        "(Worker pid=3177) DEBUG 03-02 10:41:08 [distributed/parallel_state.py:1689] Detected 1"
        " nodes in the distributed environment\n" + waits
    )
    diagnosis = diagnose_files({"serve/server.log": text})
    assert diagnosis.category == "hang", diagnosis.root_cause
    assert diagnosis.culprit_ranks == []


def test_a_server_log_of_one_worker_that_states_its_rank_still_blames_the_silent_rank() -> None:
    """Counterexample: every line is one tagged worker's, which states rank 1 of two: the file
    is rank 1's, and rank 0 left no log."""
    text = (
        "(Worker pid=3301) INFO 03-02 10:41:08 [distributed/parallel_state.py:1607] world_size=2"
        " rank=1 local_rank=1 distributed_init_method=tcp://127.0.0.1:50611 backend=nccl\n"
        "(Worker pid=3301) DEBUG 03-02 10:41:08 [distributed/parallel_state.py:1689] Detected 1"
        " nodes in the distributed environment\n"
    )
    diagnosis = diagnose_files({"serve/worker1.log": text})
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.culprit_ranks == [0]


def terminating_line(rank: int, stamp: str) -> str:
    return (
        f"[rank{rank}]:[F1109 {stamp} ProcessGroupNCCL.cpp:1614] [PG ID 9 PG GUID 61"
        f"(EXPERT_DATA_GROUP) Rank {rank}] Terminating the process after attempting to dump debug "
        "info, due to ProcessGroupNCCL watchdog hang.\n"
    )


def test_a_watchdog_hang_that_ends_the_process_is_a_hang_not_its_abort() -> None:
    """docs/labelling.md#a-watchdog-that-is-itself-stuck: newer torch words the monitor's end
    as a fatal line; it, not the launcher's -6 for the same rank, is the first error."""
    text = (
        "[INFO:trainer] End time of running main: 2026-11-09 06:58:10\n"
        + terminating_line(4, "07:16:31.550183207")
        + "E1109 07:16:36.101000 811 torch/distributed/elastic/multiprocessing/api.py:874] "
        "failed (exitcode: -6) local_rank: 4 (pid: 902) of binary: /usr/bin/python\n"
    )
    diagnosis = diagnose_files({"job/train.log": text})
    assert_reads(diagnosis, "hang", first_error="watchdog hang", beside=("hccl",))


def test_a_setting_that_names_the_watchdog_hang_is_not_one() -> None:
    """Counterexample: a line that only talks about the detection reports no stall (the log
    ending without a success line may still read as a hang, but not from this line)."""
    text = (
        "[rank0]:[W1109 07:00:01.000000000 ProcessGroupNCCL.cpp:990] Set "
        "TORCH_NCCL_ENABLE_MONITORING=0 to disable the watchdog hang detection\n"
        "step 5 loss 1.02\n"
    )
    diagnosis = diagnose_files({"job/train.log": text})
    assert diagnosis.first_error is None, diagnosis.first_error


# The engine's paste of the same wait cut one frame higher, inside the executor's own frame,
# the next frame's path cut by the paste's character limit; vLLM's state record above it.
EXECUTOR_TAG = "(EngineCore_DP0 pid=4410)"
ENGINE_WAIT_CUT_AT_EXECUTOR = (
    f"{EXECUTOR_TAG} ERROR 02-11 09:14:52 [dump_input.py:72] Dumping input data for V1 LLM "
    "engine (v0.11.1) with config: model='/models/demo-moe', speculative_config=None\n"
    f"{EXECUTOR_TAG} ERROR 02-11 09:14:52 [dump_input.py:81] Dumping scheduler stats: "
    "SchedulerStats(num_running_reqs=3, num_waiting_reqs=0, kv_cache_usage=0.02)\n"
    + "".join(
        f"{EXECUTOR_TAG} ERROR 02-11 09:14:53 [core.py:845] {line}\n"
        for line in (
            "EngineCore encountered a fatal error.",
            "Traceback (most recent call last):",
            '  File "/srv/py/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", '
            "line 312, in get_response",
            "    status, result = mq.dequeue(timeout=dequeue_timeout)",
            "                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "/srv/py/lib/python3.12/site-pack',
        )
    )
)


def test_an_engine_traceback_cut_at_the_executor_is_the_wait_on_its_workers() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers: the executor frame whose statement
    calls the message queue is the wait; the state records above are not errors."""
    diagnosis = diagnose_files({"engine/serve.log": ENGINE_WAIT_CUT_AT_EXECUTOR})
    assert_reads(diagnosis, "hang", first_error="mq.dequeue(", beside=("hccl",))


def test_an_executor_frame_that_raises_a_workers_error_is_not_the_wait() -> None:
    """Counterexample: the same frame raising what a worker answered is no wait on the queue."""
    text = ENGINE_WAIT_CUT_AT_EXECUTOR.replace(
        "status, result = mq.dequeue(timeout=dequeue_timeout)",
        'raise RuntimeError(f"Worker failed with error {result!r}")',
    )
    diagnosis = diagnose_files({"engine/serve.log": text})
    assert diagnosis.category != "hang", diagnosis.root_cause


def test_the_engines_state_record_is_never_the_first_error() -> None:
    """The engine's `Dumping ...` records restate its state at ERROR level; alone in a paste
    they are no failure, while the traceback under them is read."""
    records = "".join(ENGINE_WAIT_CUT_AT_EXECUTOR.splitlines(keepends=True)[:2])
    diagnosis = diagnose_files({"engine/serve.log": records})
    assert diagnosis.first_error is None, diagnosis.first_error


def _engine_notices(engines: int) -> str:
    """The once-a-minute notice of several data-parallel engines, as vLLM writes it at INFO."""
    return "".join(
        f"(EngineCore_DP{dp} pid={4100 + dp}) INFO 02-14 08:30:05 [shm_broadcast.py:712] No "
        "available shared memory broadcast block found in 60 seconds. This typically happens "
        "when some processes are hanging or doing some time-consuming work (e.g. compilation, "
        "weight/kv cache quantization).\n"
        for dp in range(engines)
    )


def test_engine_notices_alone_offer_a_collective_beside_the_hang() -> None:
    """docs/labelling.md#an-engine-that-waits-on-its-workers: the notice is the wait on the
    workers, `hang` with `hccl` beside it; the words of its own advice ("shared memory",
    "hanging") do not add memory exhaustion as a reading."""
    diagnosis = diagnose_files({"serve/engine_core.log": _engine_notices(4)})
    assert diagnosis.category == "hang", diagnosis.root_cause
    offered = alternative_labels(diagnosis)
    assert "hccl" in offered
    assert "oom" not in offered, diagnosis.alternatives


def test_an_engine_out_of_shared_memory_is_not_the_wait_on_its_workers() -> None:
    """Counterexample: a process that could not get shared memory at all says so in other
    words, and is no notice of a wait."""
    text = (
        "(EngineCore_DP0 pid=4100) ERROR 02-14 08:30:05 [core.py:700] RuntimeError: unable to "
        "allocate shared memory(shm) for file </torch_4100_771_0>: No space left on device (28)\n"
    )
    diagnosis = diagnose_files({"serve/engine_core.log": text})
    assert diagnosis.category != "hang", diagnosis.root_cause
