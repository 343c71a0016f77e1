"""Checks of an engine compiled ahead of time and of the MPI runtime that starts its ranks.

docs/labelling.md#a-prompt-longer-than-the-context-window,
#an-engine-built-by-another-tensorrt-release, #an-mpi-error-raised-through-mpi4py and
#mpi-that-does-not-start-in-a-process. TensorRT-LLM fixes its sequence limits when the engine is
built and refuses longer requests at run time; a plan from another TensorRT release does not
load; its MPI pool spawns workers through mpi4py, whose failures name MPI's error class, and an
Open MPI 5 runtime reports its own failures as PRRTE lines. The fixtures are in the shapes these
programs print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# Under load a request longer than the engine's window reached the batched decoder.
DECODER_LIMIT = """\
[TensorRT-LLM][INFO] TRTGptModel maxSequenceLen: 4096
[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR] Assertion failed: Input length (3500) + max new tokens (1024) + draft tokens (0) must be less than max sequence length (4096). (/src/cpp/tensorrt_llm/runtime/gptDecoderBatched.cpp:431)
1       0x7f00aa001122 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 78
"""

# Triton's backend loading a plan built by a newer TensorRT than the serving image has.
PLAN_FROM_OTHER_RELEASE = """\
[TensorRT-LLM][INFO] Loaded engine size: 15320 MiB
[TensorRT-LLM][ERROR] 1: [stdArchiveReader.cpp::stdArchiveReaderInitCommon::47] Error Code 1: Serialization (Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 226, Serialized Engine Version: 236)
E0110 08:00:02.000200 511 model_lifecycle.cc:630] failed to load 'tensorrt_llm' version 1: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/src/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:80)
"""

# TensorRT's Python logger, whose refusal holds no error word.
PLAN_FOR_OTHER_DEVICE = """\
[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 9.0 got compute 8.6, please rebuild.
"""

# The engine's MPI pool could not spawn its workers in this image.
SPAWN_REFUSED = """\
rank 0 using MpiPoolSession to spawn MPI processes
Exception in thread Thread-2 (_manager_spawn):
Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/mpi4py/futures/_lib.py", line 901, in client_spawn
    comm = MPI.COMM_SELF.Spawn(python_exe, args, max_workers, info)
mpi4py.MPI.Exception: MPI_ERR_SPAWN: could not spawn processes
"""

# Counterexample: a receive smaller than what its peer sent is a call between ranks.
RECV_TRUNCATED = """\
  File "worker.py", line 40, in step
    comm.Recv(buf, source=0)
mpi4py.MPI.Exception: MPI_ERR_TRUNCATE: message truncated
"""

# Open MPI 5's PRRTE runtime refuses the launch the benchmark asked for.
PRRTE_REFUSED = """\
[03/02/2025-08:11:40] [TRT-LLM] [I] Initializing Executor.
[bench-1:60311] PRTE ERROR: Not found in file base/plm_base_launch_support.c at line 1127
[03/02/2025-08:11:41] [TRT-LLM] [I] Executor shutdown.
"""


def test_a_request_over_the_engines_sequence_limit_is_the_jobs_setting() -> None:
    diagnosis = diagnose_text("tritonserver.log", DECODER_LIMIT)
    assert_reads(
        diagnosis, "config", first_error="must be less than max sequence length", beside=("other",)
    )


def test_a_plan_from_another_tensorrt_release_is_the_build_not_the_machine() -> None:
    diagnosis = diagnose_text("tritonserver.log", PLAN_FROM_OTHER_RELEASE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Version tag does not match",
        rule="cfg.engine_plan_from_other_release",
    )


def test_a_plan_for_another_device_is_read_though_its_line_has_no_error_word() -> None:
    diagnosis = diagnose_text("build.log", PLAN_FOR_OTHER_DEVICE)
    assert_reads(diagnosis, "config", first_error="incompatible device")


def test_a_spawn_the_mpi_runtime_refuses_is_the_machines_mpi() -> None:
    diagnosis = diagnose_text("worker.log", SPAWN_REFUSED)
    assert_reads(diagnosis, "driver_env", first_error="MPI_ERR_SPAWN", beside=("hccl",))


def test_a_truncated_receive_through_mpi4py_is_a_call_between_ranks() -> None:
    diagnosis = diagnose_text("worker.log", RECV_TRUNCATED)
    assert diagnosis.category == "hccl", diagnosis.root_cause
    assert "hccl.mpi4py_call_error_class" in rules_of(diagnosis)


def test_a_prrte_error_is_read_as_open_mpis_runtime_layer() -> None:
    diagnosis = diagnose_text("bench.log", PRRTE_REFUSED)
    assert_reads(
        diagnosis, "driver_env", first_error="PRTE ERROR", rule="env.mpi_runtime_layer_error"
    )
