"""A serving engine's step that outran the engine's own deadline, and an engine traceback cut
in the executor's frames that wait for the workers' answers.

The excerpts follow the real shapes (vLLM's `LEVEL MM-DD HH:MM:SS [file:line]` records, Ray
Serve's `(ServeReplica:...)` prefix, torch's watchdog lines) with values and wording of our
own; each test checks the label and the line to read first.
docs/labelling.md#an-engine-step-that-outran-its-deadline and
docs/labelling.md#an-engine-that-waits-on-its-workers.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

HEADLINE = (
    "INFO 04-02 16:10:03 metrics.py:449] Avg prompt throughput: 0.0 tokens/s, Avg generation "
    "throughput: 0.0 tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs\n"
    "ERROR 04-02 16:10:09 async_llm_engine.py:870] Engine iteration timed out. This should never "
    "happen!\n"
)


def test_the_engines_iteration_deadline_is_a_stall() -> None:
    """The step did not come back within the engine's own deadline: a stall, with the deadline
    setting and a collective beside it."""
    diagnosis = diagnose_text("serve/api_server.log", HEADLINE)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Engine iteration timed out",
        rule="hang.engine_iteration_timeout",
        beside=("config", "hccl"),
    )


def test_a_workers_collective_timeout_says_what_the_step_waited_on() -> None:
    """Counterexample: a worker's watchdog timeout in the bundle decides, however much later
    its longer limit fired."""
    worker = (
        "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 1] Process group watchdog thread "
        "terminated with exception: [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=88231, OpType=ALLREDUCE, NumelIn=8192, NumelOut=8192, "
        "Timeout(ms)=600000) ran for 600114 milliseconds before timing out.\n"
    )
    diagnosis = diagnose_files({"serve/api_server.log": HEADLINE, "serve/worker_1.log": worker})
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


OLDER_RELEASE = """\
Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/vllm/engine/async_llm_engine.py", line 36, in _raise_exception_on_finish
    task.result()
  File "/srv/venv/lib/python3.11/site-packages/vllm/engine/async_llm_engine.py", line 467, in run_engine_loop
    has_requests_in_progress = await asyncio.wait_for(
  File "/usr/lib/python3.11/asyncio/tasks.py", line 492, in wait_for
    raise exceptions.TimeoutError() from exc
TimeoutError

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/venv/lib/python3.11/site-packages/vllm/engine/async_llm_engine.py", line 43, in _raise_exception_on_finish
    raise AsyncEngineDeadError(
vllm.engine.async_llm_engine.AsyncEngineDeadError: Task finished unexpectedly. This should never happen! Please open an issue on Github. See stack trace above for the actual cause.
"""


def test_an_older_releases_bare_timeout_in_the_step_loop_is_the_same_deadline() -> None:
    """The paste kept the deadline's end without its headline: a bare `TimeoutError` whose
    innermost package frame is the engine's step loop; the engine's death after it restates it."""
    diagnosis = diagnose_text("serve/api_server.log", OLDER_RELEASE)
    assert_reads(
        diagnosis,
        "hang",
        first_error="TimeoutError",
        rule="hang.engine_iteration_deadline",
        beside=("config",),
    )
    assert "AsyncEngineDeadError" not in diagnosis.first_error.text


def test_a_bare_timeout_raised_elsewhere_is_not_the_engines_deadline() -> None:
    """Counterexample: the same bare exception raised under a download client's frames."""
    text = OLDER_RELEASE.replace(
        'vllm/engine/async_llm_engine.py", line 467, in run_engine_loop',
        'huggingface_hub/file_download.py", line 467, in http_get',
    )
    diagnosis = diagnose_text("serve/api_server.log", text)
    assert "hang.engine_iteration_deadline" not in rules_of(diagnosis)


REPLICA = "(ServeReplica:default:chat_llm pid=731)"
CANCELLED_STEP = "".join(
    f"{REPLICA} {line}\n"
    for line in (
        "ERROR:__main__:Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/engine/async_llm_engine.py", '
        "line 842, in run_engine_loop",
        "    done, _ = await asyncio.wait(",
        '  File "/usr/lib/python3.10/asyncio/tasks.py", line 384, in wait',
        "    return await _wait(fs, timeout, return_when, loop)",
        '  File "/usr/lib/python3.10/asyncio/tasks.py", line 491, in _wait',
        "    await waiter",
        "asyncio.exceptions.CancelledError",
    )
)


def test_the_cancelled_step_under_the_engines_loop_is_the_same_deadline() -> None:
    """A Ray Serve replica's paste that begins below the headline: the step the deadline
    cancelled, raised in the engine's step loop."""
    diagnosis = diagnose_text("serve/replica.log", CANCELLED_STEP)
    assert_reads(diagnosis, "hang", first_error="CancelledError")
    assert "hccl" in alternative_labels(diagnosis)


def test_the_deadline_setting_in_a_launch_script_is_no_stall() -> None:
    """Counterexample: raising the deadline is a setting, not a failure."""
    text = (
        "export VLLM_ENGINE_ITERATION_TIMEOUT_S=600  # engine iteration timeout for long prompts\n"
    )
    diagnosis = diagnose_text("serve/launch.log", text)
    assert "hang.engine_iteration_timeout" not in rules_of(diagnosis)


EXECUTOR_TAG = "(EngineCore_DP0 pid=5120)"
CUT_AT_COLLECTIVE_RPC = (
    f"{EXECUTOR_TAG} ERROR 05-20 10:02:11 [dump_input.py:79] Dumping scheduler output for model "
    "execution:\n"
    f"{EXECUTOR_TAG} ERROR 05-20 10:02:11 [dump_input.py:80] SchedulerOutput(scheduled_new_reqs=[]"
    ", total_num_scheduled_tokens=1, finished_req_ids=[])\n"
    f"{EXECUTOR_TAG} ERROR 05-20 10:02:11 [dump_input.py:82] SchedulerStats(num_running_reqs=1, "
    "num_waiting_reqs=0, gpu_cache_usage=0.0004)\n"
    + "".join(
        f"{EXECUTOR_TAG} ERROR 05-20 10:02:11 [core.py:520] {line}\n"
        for line in (
            "EngineCore encountered a fatal error.",
            "Traceback (most recent call last):",
            '  File "/opt/py/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", '
            "line 224, in collective_rpc",
            "    result = get_response(w, dequeue_timeout)",
        )
    )
)


def test_a_traceback_cut_where_the_executor_calls_its_reader_is_the_wait() -> None:
    """The executor's frame that called its own reader of the workers' answers is the wait on
    the workers; the state records logged beside it at ERROR are no error lines."""
    diagnosis = diagnose_files({"engine/serve.log": CUT_AT_COLLECTIVE_RPC})
    assert_reads(
        diagnosis, "hang", first_error="get_response(w, dequeue_timeout)", beside=("hccl",)
    )


CUT_AT_BATCH_QUEUE_FUTURE = """\
Traceback (most recent call last):
  File "/opt/vllm/vllm/v1/engine/core.py", line 1088, in run_engine_core
    engine_core.run_busy_loop()
  File "/opt/vllm/vllm/v1/engine/core.py", line 490, in step_with_batch_queue
    model_output = future.result()
                   ^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/concurrent/futures/_base.py", line 401, in __get_result
    raise self._exception
  File "/opt/vllm/vllm/v1/executor/multiproc_executor.py", line 86, in wait_for_response
    response = self.aggregate(get_response())
                              ^^^^^^^^^^^^^^
"""


def test_a_traceback_cut_at_a_batch_queue_futures_wait_is_the_wait() -> None:
    """Engines that run steps in a batch queue wait for the answers in a future: cut there, the
    paste lost the reader's frames, not the wait."""
    diagnosis = diagnose_files({"decode/engine.log": CUT_AT_BATCH_QUEUE_FUTURE})
    assert_reads(diagnosis, "hang", first_error="in wait_for_response", beside=("hccl",))
