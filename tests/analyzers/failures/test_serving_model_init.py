"""A serving backend that could not build its model says so before its workers are stopped.

MindIE's backend runs the model through a Python wrapper; when the wrapper cannot build the
model (weights, model code, memory: the line does not say which), each worker logs that the
Python model failed to initialise, or the engine says it could not initialise its models, and
then the workers' IPC teardown, the endpoint's headline and the stop signals follow. That
sentence is the first error; with no reason in it the label is `other` at low confidence.
Counterexamples: the wrapper's success note and the engine's own start note are no errors.
vLLM's start-up summary (`Engine core initialization failed`, `WorkerProc initialization
failed`) is read the same way when it is all that was kept, with the start-up causes beside it.

docs/labelling.md#a-serving-backend-that-could-not-build-its-model
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

WORKERS_TORN_DOWN = """\
2025-03-04 09:10:11.100200 52001 error LLMModelExecutorPython.cpp:56] LLMPythonModel initializes fail: modelWrapper return status is error
2025-03-04 09:10:11.100300 52001 error slave_IPC_communicator.cpp:317] [SlaveIPCCommunicator::ProcessBroadcastRecvMessage]Executor failed to init model
2025-03-04 09:10:11.100400 52001 error slave_IPC_communicator.cpp:446] [HandleRcvMsg]slave communicator notify connector to terminate
2025-03-04 09:10:11.100500 52001 warning main.cpp:24] [Backend connector]Signal 15 received, exiting the process
"""

ENGINE_CONSOLE = """\
$ ./bin/mindieservice_daemon
LLMInferEngine failed to init LLMInferModels
ERR: Failed to init endpoint! Please check the service log or console output.
Killed
"""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (WORKERS_TORN_DOWN, "LLMPythonModel initializes fail"),
        (ENGINE_CONSOLE, "LLMInferEngine failed to init LLMInferModels"),
    ],
    ids=["python wrapper on each worker", "engine on the console"],
)
def test_a_model_the_backend_could_not_build_leads(text: str, says: str) -> None:
    diagnosis = diagnose_text("mindie/mindservice.log", text)
    assert_reads(diagnosis, "other", first_error=says)


@pytest.mark.parametrize(
    "line",
    [
        "2025-03-04 09:10:11.100200 52001 info LLMModelExecutorPython.cpp:60] LLMPythonModel initializes successfully\n",
        "LLMInferEngine init LLMInferModels start\n",
    ],
    ids=["wrapper success note", "engine start note"],
)
def test_the_model_init_named_without_a_failure_is_no_error(line: str) -> None:
    assert diagnose_text("mindie/mindservice.log", line).first_error is None


# A serving engine that could not start says so in one summary on the console, and its own
# reason is in the worker's traceback above it; pasted without that traceback, the summary
# names no reason, the label stays `other` and the usual start-up causes are offered beside it.
ENGINE_START_SUMMARIES = {
    "engine core": (
        '  File "/opt/venv/lib/python3.11/site-packages/vllm/v1/engine/core_client.py", '
        "line 484, in _wait_for_engine_startup\n"
        '    raise RuntimeError("Engine core initialization failed. "\n'
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {}\n"
        "[ERROR] 2026-02-11-09:30:15 (PID:5120, Device:-1, RankID:-1) ERR99999 UNKNOWN "
        "applicaiton exception\n"
    ),
    "worker procs": (
        '  File "/opt/vllm/vllm/v1/executor/multiproc_executor.py", line 422, in wait_for_ready\n'
        "    raise e from None\n"
        "Exception: WorkerProc initialization failed due to an exception in a background "
        "process. See stack trace for root cause.\n"
    ),
}


@pytest.mark.parametrize("name", sorted(ENGINE_START_SUMMARIES))
def test_an_engine_start_summary_alone_offers_the_start_up_causes(name: str) -> None:
    diagnosis = diagnose_text("serve/console.log", ENGINE_START_SUMMARIES[name])
    assert_reads(
        diagnosis,
        "other",
        first_error="initialization failed",
        rule="other.serving_engine_start_failed",
        beside=("config", "oom"),
    )


def test_a_reason_kept_above_the_engine_start_summary_leads() -> None:
    text = (
        "(EngineCore_DP0 pid=880) ERROR 02-11 09:30:14 [core.py:700] RuntimeError: NPU out of "
        "memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 58.10 GiB already "
        "allocated; 58.10 GiB current active; 1.02 GiB free; 59.20 GiB reserved in total by "
        "PyTorch)\n" + ENGINE_START_SUMMARIES["engine core"]
    )
    diagnosis = diagnose_text("serve/console.log", text)
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_an_engine_core_killed_by_a_signal_stays_a_crash() -> None:
    text = (
        "RuntimeError: Engine core initialization failed. See root cause above. "
        "Failed core proc(s): {'EngineCore': -11}\n"
    )
    assert diagnose_text("serve/console.log", text).category == "device_fault"
