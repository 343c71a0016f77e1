"""MindSpore's msrun reporting how its workers ended.

docs/labelling.md#a-rank-that-exits-without-a-word: msrun's note that a worker exited with
an error, and its list of the nodes whose heartbeat the scheduler lost (`Time out nodes are
['2']`), are read like torchrun's plain exit status: `device_fault` with `other` beside it,
the named worker the culprit, a summary under a worker log that holds its own error. The
scheduler's own exit after it is a bare tail. Values of our own in the shape msrun prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

CONSOLE = """\
[INFO] ME(7301:281470009990001,MainProcess):2025-06-07-08:00:01.000.000 [mindspore/parallel/cluster/process_entity/_api.py:200] Start worker process with rank id:2, log file:./msrun_log/worker_2.log.
[WARNING] ME(7301:281470009990001,MainProcess):2025-06-07-08:09:10.111.000 [mindspore/parallel/cluster/process_entity/_api.py:318] There's worker exits with exception, kill all other workers.
[ERROR] ME(7301:281470009990001,MainProcess):2025-06-07-08:09:40.222.000 [mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 7355 exit with exception.
[WARNING] ME(7301:281470009990001,MainProcess):2025-06-07-08:09:40.223.000 [mindspore/parallel/cluster/process_entity/_api.py:334] Analyzing exception log...
[ERROR] ME(7301:281470009990001,MainProcess):2025-06-07-08:09:40.224.000 [mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['2']
"""

WORKER_PROGRESS = """\
[INFO] ME(7402:281470009990002,MainProcess):2025-06-07-08:01:00.000.000 [train.py:40] epoch 1 step 10 loss 2.31
"""

WORKER_OWN_ERROR = """\
[INFO] ME(7404:281470009990004,MainProcess):2025-06-07-08:01:00.000.000 [train.py:40] epoch 1 step 10 loss 2.31
[ERROR] PRE_ACT(7404,fffd00aa11e0,python):2025-06-07-08:09:05.500.100 [mindspore/ccsrc/backend/common/mem_reuse/mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 31000000000 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 1073741824 is more than total mem size : 31138512896.
"""


def test_the_timed_out_node_names_the_worker_that_went_away() -> None:
    diagnosis = diagnose_text("msrun_log/msrun.log", CONSOLE)
    assert_reads(
        diagnosis, "device_fault", first_error="Time out nodes are ['2']", beside=("other",)
    )


def test_a_silent_worker_named_by_the_timeout_is_the_culprit() -> None:
    diagnosis = diagnose_files(
        {
            "msrun_log/msrun.log": CONSOLE,
            "msrun_log/worker_0.log": WORKER_PROGRESS,
            "msrun_log/worker_1.log": WORKER_PROGRESS,
            "msrun_log/worker_2.log": WORKER_PROGRESS,
        }
    )
    assert_reads(diagnosis, "device_fault", first_error="Time out nodes are")
    assert 2 in diagnosis.culprit_ranks


def test_the_schedulers_exit_is_never_the_first_error() -> None:
    diagnosis = diagnose_text("msrun_log/msrun.log", CONSOLE)
    assert diagnosis.first_error is not None
    assert "Scheduler process" not in diagnosis.first_error.text


def test_a_worker_log_with_its_own_error_leads_the_msrun_lines() -> None:
    diagnosis = diagnose_files(
        {"msrun_log/msrun.log": CONSOLE, "msrun_log/worker_2.log": WORKER_OWN_ERROR}
    )
    assert_reads(diagnosis, "oom", first_error="is more than total mem size")
