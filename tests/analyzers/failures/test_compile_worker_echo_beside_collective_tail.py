"""Operator-compiler workers that outlive their process, beside the ranks' own failure.

docs/labelling.md#a-compiler-worker-that-outlives-its-process: the worker's `main process
disappeared` is an echo of its process's end. When the ranks logged their own failure (here
torch_npu's inner-error tail naming a collective), that failure is the first error, and the
echoes that follow do not count as a competing reading. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TAILS_THEN_ECHOES = """\
    work.wait()
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is HcclAllreduce.
Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.
[ERROR] 2026-03-02-10:11:12 (PID:4121, Device:1, RankID:1) ERR00100 PTA call acl api failed
    work.wait()
RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current working operator name is HcclAllreduce.
Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.
[ERROR] 2026-03-02-10:11:12 (PID:4122, Device:2, RankID:2) ERR00100 PTA call acl api failed
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
"""

ECHOES_ALONE = """\
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
[ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared!
"""


def test_the_collective_tail_keeps_its_figure_beside_the_workers_echoes() -> None:
    diagnosis = diagnose_text("inference.log", TAILS_THEN_ECHOES)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="current working operator name is HcclAllreduce",
        rule="hccl.inner_error_collective_op",
    )
    assert diagnosis.confidence >= 0.1


def test_the_echo_alone_is_still_the_first_error() -> None:
    diagnosis = diagnose_text("inference.log", ECHOES_ALONE)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="main process disappeared",
        rule="dev.compile_worker_parent_gone",
    )
