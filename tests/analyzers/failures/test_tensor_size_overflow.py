"""A tensor asked for sizes whose byte count does not fit a 64-bit integer.

Before any allocator is asked, torch multiplies the requested sizes by the element size; when
the product overflows it refuses with `Storage size calculation overflowed with sizes=[...]`.
No device or host ran short and no peer failed: one of the sizes was computed wrong (a garbage
length read back from a gather that received another collective's data, a negative count
reinterpreted, dimensions never set). The refusal is the rank's own failure and leads the
timeouts its peers report afterwards; the label is `other`, with `shape_mismatch` (a size
computed wrong) and `oom` (the allocator's sibling refusal of an impossible size) beside it
(docs/labelling.md#a-tensor-whose-byte-count-overflows).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

# Four ranks of an RL fine-tune pad their rollouts across processes; rank 2 reads a padded length
# that is garbage, refuses to build the tensor, and a peer's all-gather later runs out of time.
OVERFLOW_THEN_PEER_TIMEOUT = """\
  File "/opt/env/lib/python3.11/site-packages/accelerate/utils/operations.py", line 540, in _pad_across_processes
    new_tensor = tensor.new_zeros(tuple(new_size)) + pad_index
RuntimeError: Storage size calculation overflowed with sizes=[64, 5120318842001739264]
[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with exception: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=47, OpType=_ALLGATHER_BASE, NumelIn=2, NumelOut=8, Timeout(ms)=1800000) ran for 1800112 milliseconds before timing out.
"""

# The same refusal with a rank prefix and a negative size.
RANKED_NEGATIVE = (
    "[rank3]: RuntimeError: Storage size calculation overflowed with sizes=[-1, 4096, 128]\n"
)

# Counterexample: a view over a storage too small for it is the wrapper's own defect.
VIEW_TOO_SMALL = (
    "[rank0]: RuntimeError: setStorage: sizes [48, 384], strides [384, 1], storage offset 0, "
    "and itemsize 4 requiring a storage size of 73728 are out of bounds for storage of size 0\n"
)


def test_the_overflowed_size_leads_the_peer_timeout() -> None:
    diagnosis = diagnose_text("logs/train.log", OVERFLOW_THEN_PEER_TIMEOUT)
    assert_reads(
        diagnosis,
        "other",
        first_error="Storage size calculation overflowed with sizes=[64, 5120318842001739264]",
        rule="other.tensor_size_overflow",
        beside=("shape_mismatch",),
    )


def test_a_ranked_refusal_alone_reads_the_same() -> None:
    diagnosis = diagnose_text("logs/rank3.log", RANKED_NEGATIVE)
    assert_reads(diagnosis, "other", first_error="Storage size calculation overflowed")
    assert "oom" in alternative_labels(diagnosis)


def test_a_view_over_a_small_storage_keeps_its_own_rule() -> None:
    diagnosis = diagnose_text("logs/rank0.log", VIEW_TOO_SMALL)
    assert "other.tensor_size_overflow" not in rules_of(diagnosis)
