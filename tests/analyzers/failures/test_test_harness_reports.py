"""What a distributed test suite's harness reports about its ranks (torch's test base, pytest-timeout).

CI logs of distributed tests often hold only the harness's report of how the ranks ended: a
rank's exit code, a rank it stopped waiting for, a test stopped by pytest-timeout. A negative
exit code of SIGSEGV/SIGBUS/SIGILL is a crash (`device_fault`); a rank the harness gave up on
and a test stopped at its limit made no progress (`hang`). pytest's section banners are never
the first error. Fixtures are written in the real shapes with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

HARNESS_SIGNAL = """\
Mar 03 11:20:41 ======================================================================
Mar 03 11:20:41 FAIL [3.104s]: test_all_gather_cuda (__main__.TestDistBackendWithSpawn)
Mar 03 11:20:41 ----------------------------------------------------------------------
Mar 03 11:20:41 Traceback (most recent call last):
Mar 03 11:20:41   File "/opt/conda/lib/python3.10/site-packages/torch/testing/_internal/common_distributed.py", line 612, in _check_return_codes
Mar 03 11:20:41     self.assertEqual(
Mar 03 11:20:41 AssertionError: -7 != 0 : Expected zero exit code but got -7 for pid: 28811
"""

HARNESS_EXIT_ONE = """\
Mar 03 11:20:41 Traceback (most recent call last):
Mar 03 11:20:41   File "/opt/conda/lib/python3.10/site-packages/torch/testing/_internal/common_distributed.py", line 612, in _check_return_codes
Mar 03 11:20:41 AssertionError: 1 != 0 : Expected zero exit code but got 1 for pid: 28811
"""

HARNESS_GAVE_UP = """\
14:02:10 ERROR: test_reduce_scatter_nccl (__main__.ProcessGroupNCCLTest)
14:02:10 ----------------------------------------------------------------------
14:02:10 Traceback (most recent call last):
14:02:10   File "/var/lib/ci/torch/testing/_internal/common_distributed.py", line 255, in _join_processes
14:02:10     self._check_return_codes(elapsed_time)
14:02:10 RuntimeError: Process 2 terminated or timed out after 300.0412 seconds
"""

RANK_ERROR_THEN_GAVE_UP = """\
14:01:02 Process 1 raised: RuntimeError: CUDA error: an illegal memory access was encountered
14:02:10 RuntimeError: Process 2 terminated or timed out after 300.0412 seconds
"""

PYTEST_TIMEOUT = """\
=================================== FAILURES ===================================
__________________________ TestPipeline.test_two_stages ___________________________

    def test_two_stages(self):
        engine = build_engine(stages=2)
>       engine.train_batch()
=========================== short test summary info ============================
FAILED tests/unit/test_pipe.py::TestPipeline::test_two_stages - Failed: Timeout >600.0s
"""


def test_a_rank_ended_by_a_crash_signal_is_a_device_fault() -> None:
    diagnosis = diagnose_text("ci/job.log", HARNESS_SIGNAL)
    assert_reads(diagnosis, "device_fault", first_error="Expected zero exit code but got -7")


def test_a_rank_that_raised_is_not_read_from_its_exit_code() -> None:
    diagnosis = diagnose_text("ci/job.log", HARNESS_EXIT_ONE)
    assert diagnosis.category != "device_fault"


def test_a_rank_the_harness_gave_up_on_is_a_hang() -> None:
    diagnosis = diagnose_text("ci/console.txt", HARNESS_GAVE_UP)
    assert_reads(diagnosis, "hang", first_error="terminated or timed out after")


def test_an_error_a_rank_printed_before_leads_the_harness_timeout() -> None:
    diagnosis = diagnose_text("ci/console.txt", RANK_ERROR_THEN_GAVE_UP)
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")


def test_a_test_stopped_by_pytest_timeout_is_a_hang_and_the_banner_is_no_error() -> None:
    diagnosis = diagnose_text("ci/pytest.log", PYTEST_TIMEOUT)
    assert_reads(diagnosis, "hang", first_error="Failed: Timeout >600.0s")


HARNESS_SIGKILL = """\
test/distributed/fsdp/test_offload.py::TestOffload::test_state_dict FAILED
AssertionError: Scalars are not equal!

Expected 0 but got -9.
Absolute difference: 9
Relative difference: inf
Expected zero exit code but got -9 for pid: 40117
"""

HARNESS_QUOTES_EXCEPTION = """\
Traceback (most recent call last):
  File "/opt/ci/torch/testing/_internal/common_distributed.py", line 702, in wrapper
    self._join_processes(fn)
  File "/opt/ci/torch/testing/_internal/common_distributed.py", line 951, in _check_return_codes
    raise RuntimeError(error)
RuntimeError: Process 1 exited with error code 10 and exception:
Traceback (most recent call last):
  File "/opt/ci/torch/testing/_internal/common_distributed.py", line 830, in run_test
    getattr(self, test_name)()
  File "/opt/ci/test/distributed/test_sharded_ops.py", line 88, in test_gather
    out = gathered.view(4, 6)
RuntimeError: shape '[4, 6]' is invalid for input of size 18
"""

HARNESS_EXIT_THEN_TIMEOUT = """\
RuntimeError: Processes 1 exited with error code 10

======================================================================
ERROR [60.112s]: test_send_recv_gpu (__main__.RpcCudaTest)
----------------------------------------------------------------------
RuntimeError: Process 0 terminated or timed out after 60.08 seconds
"""


def test_a_rank_killed_by_sigkill_reads_like_the_launchers_exit_nine() -> None:
    diagnosis = diagnose_text("ci/pytest.log", HARNESS_SIGKILL)
    assert_reads(
        diagnosis, "device_fault", first_error="Expected zero exit code but got -9", beside=("oom",)
    )


def test_the_exception_a_harness_quotes_leads_its_headline() -> None:
    diagnosis = diagnose_text("ci/pytest.log", HARNESS_QUOTES_EXCEPTION)
    assert_reads(diagnosis, "shape_mismatch", first_error="is invalid for input of size 18")


def test_a_rank_that_exited_with_an_error_status_leads_a_later_harness_timeout() -> None:
    diagnosis = diagnose_text("ci/console.txt", HARNESS_EXIT_THEN_TIMEOUT)
    assert_reads(diagnosis, "other", first_error="Processes 1 exited with error code 10")


THREADED_HARNESS_GAVE_UP = """\
2024-06-11T02:14:09.4470011Z ______________ TestShardedOpsCPU.test_sharded_add_cpu_float32 ______________
2024-06-11T02:14:09.4470522Z Traceback (most recent call last):
2024-06-11T02:14:09.4470901Z   File "/opt/ci/torch/testing/_internal/common_distributed.py", line 1190, in _join_threads
2024-06-11T02:14:09.4471002Z     cls._check_return_codes(failed_ranks, timeout, fn)
2024-06-11T02:14:09.4471203Z RuntimeError: Thread 3 terminated or timed out after 120 seconds
"""

THREAD_THAT_RAISED = """\
Thread 2 terminated with exception: RuntimeError: shape '[4, 6]' is invalid for input of size 18
"""

SKIP_STATUS_AS_FAILURE = """\
  File "/opt/ci/torch/testing/_internal/common_distributed.py", line 211, in wrapper
    sys.exit(TEST_SKIPS[f"multi-gpu-{x}"].exit_code)
SystemExit: 80
=========================== short test summary info ============================
FAILED [0.0031s] distributed/test_c10d_gloo.py::ProcessGroupGlooTest::test_allreduce_multigpu - SystemExit: 80
"""

SCRIPT_EXIT_STATUS = """\
FAILED tests/test_cli.py::test_main_rejects_bad_flag - SystemExit: 2
"""

CI_SILENCE = """\
Mar 02 03:01:40   test_broadcast_coalesced_nccl (__main__.DistributedDataParallelTest) ... ok (4.120s)
Mar 02 03:01:41   test_allreduce_coalesced_nccl (__main__.DistributedDataParallelTest) ...
Too long with no output (exceeded 1h0m0s): context deadline exceeded
"""

CI_SILENCE_AFTER_ERROR = """\
Mar 02 03:01:41 RuntimeError: CUDA error: an illegal memory access was encountered
Too long with no output (exceeded 1h0m0s): context deadline exceeded
"""


def test_the_threaded_harness_giving_up_on_a_rank_is_a_hang() -> None:
    diagnosis = diagnose_text("ci/job.log", THREADED_HARNESS_GAVE_UP)
    assert_reads(diagnosis, "hang", first_error="Thread 3 terminated or timed out")


def test_a_thread_that_raised_is_not_a_harness_time_out() -> None:
    diagnosis = diagnose_text("ci/job.log", THREAD_THAT_RAISED)
    assert diagnosis.category != "hang"


def test_a_skip_status_counted_as_a_failure_is_a_runner_without_the_devices() -> None:
    diagnosis = diagnose_text("ci/pytest.log", SKIP_STATUS_AS_FAILURE)
    assert_reads(diagnosis, "config", first_error="SystemExit: 80", beside=("driver_env",))


def test_a_scripts_own_exit_status_is_no_skip() -> None:
    diagnosis = diagnose_text("ci/pytest.log", SCRIPT_EXIT_STATUS)
    assert diagnosis.category != "config"


def test_a_job_the_ci_service_stopped_for_silence_is_a_hang() -> None:
    diagnosis = diagnose_text("ci/console.txt", CI_SILENCE)
    assert_reads(diagnosis, "hang", first_error="Too long with no output")


def test_an_error_before_the_silence_leads_the_ci_services_stop() -> None:
    diagnosis = diagnose_text("ci/console.txt", CI_SILENCE_AFTER_ERROR)
    assert_reads(diagnosis, "device_fault", first_error="illegal memory access")
