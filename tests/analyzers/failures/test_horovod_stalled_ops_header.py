"""Horovod's stall warning cut down to its `Stalled ops:` half.

docs/labelling.md#ranks-that-horovod-saw-submit-only-part-of-a-step: older releases print the
stalled tensors after `Stalled ops:`, each with the ranks that are ready; a paste that keeps
the list from that header on (its sentence dropped, or wrapped onto the line above) says the
same as the whole warning. Tensor names and ranks are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HEADER_LIST = """\
[1,0]<stderr>:Stalled ops: allreduce.decoder.proj.weight [ready ranks: 0, 1, 3],
[1,0]<stderr>:allreduce.decoder.proj.bias [ready ranks: 0, 1, 3],
"""

BARE_HEADER = """\
Stalled ops: DistributedAdam_Allreduce/HorovodAllreduce_grads_embed_0 [ready ranks: 4, 1, 0, 2]
"""

NOTHING_STALLED = """\
stall inspector summary at step 400
Stalled ops: none
"""


def test_the_stalled_ops_header_reads_as_the_stall_warning() -> None:
    diagnosis = diagnose_text("train.log", HEADER_LIST)
    assert_reads(
        diagnosis,
        "hang",
        first_error="Stalled ops: allreduce.decoder.proj.weight",
        rule="hang.horovod_stalled_ops",
        beside=("hccl",),
    )


def test_the_header_without_a_rank_prefix_reads_the_same() -> None:
    diagnosis = diagnose_text("worker-0.log", BARE_HEADER)
    assert_reads(diagnosis, "hang", first_error="Stalled ops:", rule="hang.horovod_stalled_ops")


def test_a_header_that_lists_no_tensor_is_no_stall() -> None:
    diagnosis = diagnose_text("train.log", NOTHING_STALLED)
    assert "hang.horovod_stalled_ops" not in rules_of(diagnosis)
