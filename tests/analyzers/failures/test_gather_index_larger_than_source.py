"""A gather or scatter whose index tensor is larger than the tensor it reads or writes.

torch checks, before a gather or scatter runs, that every dimension of the index tensor but the
one it indexes along fits inside the source (`Expected index [4, 1, 96, 96] to be smaller than
self [4, 2, 12, 12] apart from dimension 1`, older releases `Size does not match at dimension 2
expected index ...`; a scatter adds `and to be smaller size than src [...]`). Two tensors handed
to one op disagree in shape: `shape_mismatch`, with `config` beside it, as the index usually
comes from data prepared for another setting.
(docs/labelling.md#a-gather-or-scatter-index-larger-than-its-source)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A segmentation trainer's loss gathers per-voxel targets prepared for another patch size.
TRAIN = """\
epoch 0 step 3 loss 0.91
Traceback (most recent call last):
  File "/work/seg/train.py", line 210, in <module>
    trainer.run()
  File "/work/seg/losses.py", line 57, in forward
    picked = torch.gather(logits, 1, target)
RuntimeError: Expected index [4, 1, 96, 96, 96] to be smaller than self [4, 2, 12, 12, 12] apart from dimension 1
"""


def test_index_larger_than_self_is_a_shape_mismatch() -> None:
    """docs/labelling.md#a-gather-or-scatter-index-larger-than-its-source"""
    diagnosis = diagnose_text("train.log", TRAIN)
    assert_reads(diagnosis, "shape_mismatch", first_error="Expected index [4, 1, 96, 96, 96]")
    assert "shape.gather_index_exceeds_source" in rules_of(diagnosis)
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_the_scatter_and_older_forms_read_the_same() -> None:
    """docs/labelling.md#a-gather-or-scatter-index-larger-than-its-source"""
    for line in (
        "RuntimeError: Expected index [8, 33] to be smaller than self [8, 32] apart from "
        "dimension 1 and to be smaller size than src [8, 16]",
        "RuntimeError: Size does not match at dimension 0 expected index [6, 1] to be smaller "
        "than self [5, 7] apart from dimension 1",
    ):
        diagnosis = diagnose_text("worker.log", line + "\n")
        assert diagnosis.category == "shape_mismatch", line
        assert "shape.gather_index_exceeds_source" in rules_of(diagnosis)


def test_an_index_value_past_the_size_is_not_this_check() -> None:
    """An index whose value is too large is the bound check, not two shapes that disagree."""
    diagnosis = diagnose_text(
        "worker.log", "IndexError: index 12 is out of bounds for dimension 0 with size 8\n"
    )
    assert "shape.gather_index_exceeds_source" not in rules_of(diagnosis)
