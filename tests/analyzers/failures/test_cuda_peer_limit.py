"""A GPU asked to map more peer devices than its table holds.

docs/labelling.md#a-process-that-maps-more-peers-than-a-gpu-allows: CUDA's `peer mapping
resources exhausted` says one process enabled peer access across more devices than a GPU can
map; the job's layout changes, so `config`, with `driver_env` beside it. A driver refusing one
pair of devices stays `driver_env`.

Fixtures are written in the shapes of torch's tracebacks and NCCL's WARN lines, with paths and
hosts of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

TRACE = """\
Traceback (most recent call last):
  File "finetune/train.py", line 88, in <module>
    trainer.train()
  File "finetune/train.py", line 61, in train
    model.to(device)
RuntimeError: CUDA error: peer mapping resources exhausted
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
"""


def test_too_many_peers_is_the_jobs_layout() -> None:
    diagnosis = diagnose_text("finetune/stdout.log", TRACE)
    assert_reads(
        diagnosis, "config", first_error="peer mapping resources exhausted", beside=("driver_env",)
    )


def test_nccl_reporting_the_same_limit_is_read_alike() -> None:
    text = (
        "node-7:4410:4477 [9] include/alloc.h:125 NCCL WARN Cuda failure"
        " 'peer mapping resources exhausted'\n"
        "node-7:4410:4477 [9] NCCL INFO transport/p2p.cc:201 -> 1\n"
    )
    diagnosis = diagnose_text("finetune/rank9.log", text)
    assert_reads(diagnosis, "config", first_error="peer mapping resources exhausted")


def test_a_refused_pair_stays_the_machines() -> None:
    text = TRACE.replace(
        "peer mapping resources exhausted",
        "peer access is not supported between these two devices",
    )
    diagnosis = diagnose_text("finetune/stdout.log", text)
    assert diagnosis.category == "driver_env", diagnosis.root_cause
