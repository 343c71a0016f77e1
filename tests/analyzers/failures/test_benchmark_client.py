"""A service benchmark that reports only that its requests to the endpoint failed.

The excerpts follow the shapes AISBench's ``ais_bench`` prints (its ``[ais_bench] [LEVEL]``
and ``AISBench - LEVEL -`` headers, the runtime error that stops a task after the warm-up,
the client's error for a request out of retries) with values and wording of our own.
docs/labelling.md#a-benchmark-client-whose-requests-fail
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

WARMUP_STOPPED = """\
[2026-02-03 11:20:40,118] [ais_bench] [INFO] Warmup finished Total Count: 2 Success Count: 0 Failed Count: 2
Traceback (most recent call last):
  File "/opt/ais_bench/benchmark/tasks/openicl_api_infer.py", line 480, in warm_up
    raise AISBenchRuntimeError(
ais_bench.benchmark.utils.logging.exceptions.AISBenchRuntimeError: [TINFER-RUNTIME-001]warmup failed. Exit task because all warmup requests failed, failed reasons: {'Bad Request': 2}
[2026-02-03 11:20:41,502] [ais_bench] [INFO] Inference tasks completed.
"""

RETRIES_USED_UP = """\
02/03 11:20:45 - AISBench - INFO - Process 0 using precomputed sleep offsets with 8 requests
02/03 11:20:55 - AISBench - ERROR - /opt/ais_bench/benchmark/clients/base_client.py - raise_error - 35 - [AisBenchClientException] Request failed: Exceeded maximum retry attempts (3).
"""


def test_a_stopped_warm_up_is_the_first_error_with_the_request_settings_beside_it() -> None:
    diagnosis = diagnose_text("bench/ais_bench.log", WARMUP_STOPPED)
    assert_reads(diagnosis, "other", first_error="all warmup requests failed", beside=("config",))


def test_a_request_out_of_retries_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("bench/ais_bench.log", RETRIES_USED_UP)
    assert_reads(diagnosis, "other", first_error="[AisBenchClientException]", beside=("config",))


def test_the_endpoints_own_error_comes_before_the_clients() -> None:
    server = (
        "(EngineCore_DP0 pid=7301) ERROR 02-03 11:20:39 [core.py:700] RuntimeError: NPU out of"
        " memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 58.10 GiB already"
        " allocated; 58.10 GiB current active; 0.91 GiB free; 59.02 GiB reserved in total by"
        " PyTorch)\n"
    )
    diagnosis = diagnose_files({"server/serve.log": server, "bench/ais_bench.log": WARMUP_STOPPED})
    assert_reads(diagnosis, "oom", first_error="NPU out of memory")


def test_a_warm_up_that_succeeded_reports_nothing() -> None:
    text = (
        "[2026-02-03 11:20:40,118] [ais_bench] [INFO] Warmup finished Total Count: 1 Success"
        " Count: 1 Failed Count: 0\n"
    )
    diagnosis = diagnose_text("bench/ais_bench.log", text)
    assert diagnosis.first_error is None
