"""NCCL's `invalid usage` and `invalid argument` answers, kept only as torch's wrapper.

With NCCL_DEBUG off, a job whose ranks share a GPU (no set_device per local rank, or a script
that spawns a worker per GPU itself while a launcher also starts it once per GPU) often leaves
nothing but torch's `NCCL error in: ..., invalid usage` from the first collective. The line is
still `hccl` and the first error, with `config` offered beside it
(docs/labelling.md#nccl-failures-named-by-the-call); NCCL's own duplicate-GPU warning, when
kept, decides for `config`. A system error names a failed system call and gets no `config`
beside it. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

SPAWNED_TWICE = """\
2024-05-14 10:02:11 | INFO | fairseq.distributed.utils | distributed init (rank 2): env://
Traceback (most recent call last):
  File "/opt/venv/lib/python3.8/site-packages/fairseq/distributed/utils.py", line 274, in distributed_init
    dist.all_reduce(torch.zeros(1).cuda())
  File "/opt/venv/lib/python3.8/site-packages/torch/distributed/distributed_c10d.py", line 1206, in all_reduce
    work = default_pg.allreduce([tensor], opts)
RuntimeError: NCCL error in: /build/torch/lib/c10d/ProcessGroupNCCL.cpp:611, invalid usage, NCCL version 2.7.8
"""

OLD_TORCH = """\
Traceback (most recent call last):
  File "train_asr.py", line 88, in main
    model = DistributedDataParallel(model, device_ids=[args.gpu])
  File "/opt/venv/lib/python3.6/site-packages/torch/nn/parallel/distributed.py", line 285, in __init__
    self.broadcast_bucket_size)
RuntimeError: NCCL error in: /opt/src/torch/lib/c10d/../c10d/NCCLUtils.hpp:64, invalid argument, NCCL version 2.4.2
"""


def test_a_bare_invalid_usage_is_hccl_with_the_placement_beside_it() -> None:
    diagnosis = diagnose_text("worker_2.log", SPAWNED_TWICE)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="invalid usage, NCCL version 2.7.8",
        rule="hccl.nccl_invalid_use",
        beside=("config",),
    )


def test_an_older_invalid_argument_is_read_alike() -> None:
    diagnosis = diagnose_text("rank1.log", OLD_TORCH)
    assert_reads(
        diagnosis, "hccl", first_error="invalid argument, NCCL version 2.4.2", beside=("config",)
    )


def test_the_duplicate_gpu_warning_decides_when_kept() -> None:
    text = (
        "gpu-3:2210:2290 [2] init.cc:512 NCCL WARN Duplicate GPU detected : rank 2 and rank 0 "
        "both on CUDA device 1b000\n" + SPAWNED_TWICE
    )
    diagnosis = diagnose_text("worker_2.log", text)
    assert_reads(diagnosis, "config", first_error="Duplicate GPU detected")


def test_a_system_error_gets_no_placement_beside_it() -> None:
    text = SPAWNED_TWICE.replace("invalid usage", "unhandled system error")
    diagnosis = diagnose_text("worker_2.log", text)
    assert diagnosis.category == "hccl"
    assert "hccl.nccl_invalid_use" not in rules_of(diagnosis)
    assert "config" not in alternative_labels(diagnosis)
