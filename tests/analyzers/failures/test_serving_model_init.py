"""A serving backend that could not build its model says so before its workers are stopped.

MindIE's backend runs the model through a Python wrapper; when the wrapper cannot build the
model (weights, model code, memory: the line does not say which), each worker logs that the
Python model failed to initialise, or the engine says it could not initialise its models, and
then the workers' IPC teardown, the endpoint's headline and the stop signals follow. That
sentence is the first error; with no reason in it the label is `other` at low confidence.
Counterexamples: the wrapper's success note and the engine's own start note are no errors.

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
