"""NCCL's refusal of an FP8 collective on a card older than Hopper.

NCCL runs collectives on FP8 data only on cards of compute capability 9.0 or newer; on an
older card it refuses the call with its reason (`FP8 reduction support begins with sm90 capable
devices.`), and torch raises `invalid argument` with the reason under `Last error:`. The card
and the precision the job hands the collective do not fit: `config`, with the collective layer
that refused (`hccl`) and the machine (`driver_env`) beside it, and the reason is the first
error ahead of torch's headline (docs/labelling.md#a-precision-the-device-does-not-offer).
Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TORCH_HEADLINE_THEN_REASON = """\
[rank1]:   File "/srv/app/dist/shard_loader.py", line 88, in load_shards
[rank1]:     dist.broadcast(weight, src=0)
[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3412, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.27.3
[rank1]: ncclInvalidArgument: Invalid value for an argument.
[rank1]: Last error:
[rank1]: FP8 reduction support begins with sm90 capable devices.
"""

NCCL_WARN_FORM = """\
node-4:2290:2290 [1] NCCL INFO comm 0x55d3a1c0 rank 1 nranks 2 cudaDev 1 - Init COMPLETE
node-4:2290:2290 [1] enqueue.cc:2051 NCCL WARN FP8 reduction support begins with sm90 capable devices.
node-4:2290:2290 [1] NCCL INFO enqueue.cc:2301 -> 4
"""

HEADLINE_ALONE = """\
[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3412, invalid argument (run with NCCL_DEBUG=WARN for details), NCCL version 2.27.3
[rank1]: ncclInvalidArgument: Invalid value for an argument.
"""


def test_the_fp8_reason_under_torchs_headline_is_a_precision_the_card_lacks() -> None:
    diagnosis = diagnose_text("rank1.log", TORCH_HEADLINE_THEN_REASON)
    assert_reads(
        diagnosis,
        "config",
        first_error="FP8 reduction support begins with sm90",
        rule="cfg.nccl_fp8_needs_newer_gpu",
        beside=("hccl",),
    )


def test_nccls_own_warning_of_the_fp8_limit_reads_the_same() -> None:
    diagnosis = diagnose_text("rank1.log", NCCL_WARN_FORM)
    assert_reads(
        diagnosis,
        "config",
        first_error="FP8 reduction support begins with sm90",
        rule="cfg.nccl_fp8_needs_newer_gpu",
    )


def test_the_invalid_argument_headline_alone_stays_the_collective_layers() -> None:
    """Counterexample: without the reason, torch's headline names no precision."""
    diagnosis = diagnose_text("rank1.log", HEADLINE_ALONE)
    assert diagnosis.category == "hccl"
    assert "cfg.nccl_fp8_needs_newer_gpu" not in rules_of(diagnosis)
