"""A tensor indexed with more subscripts than it has axes.

`too many indices for tensor of dimension N` (numpy: `too many indices for array`) says the
code expected a tensor of another rank than it holds: `shape_mismatch`, with `config` beside
it, since the tensor most often comes from a library release that returns another layout.
(docs/labelling.md#an-index-with-more-axes-than-the-tensor-has)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A ring-attention unit test started with torchrun on three ranks: each rank slices the
# softmax statistics it got back as if they still had a batch axis.
RING_TEST = """\
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/ringkit/tests/check_varlen.py", line 88, in <module>
[rank0]:     stats = split_stats(lse, cu_lens)
[rank0]:   File "/work/ringkit/tests/check_varlen.py", line 41, in split_stats
[rank0]:     part = lse[b, :, : stop - start]
[rank0]: IndexError: too many indices for tensor of dimension 2
[rank2]: Traceback (most recent call last):
[rank2]:   File "/work/ringkit/tests/check_varlen.py", line 88, in <module>
[rank2]:     stats = split_stats(lse, cu_lens)
[rank2]:   File "/work/ringkit/tests/check_varlen.py", line 41, in split_stats
[rank2]:     part = lse[b, :, : stop - start]
[rank2]: IndexError: too many indices for tensor of dimension 2
"""


def test_too_many_indices_is_a_shape_the_code_did_not_expect() -> None:
    """docs/labelling.md#an-index-with-more-axes-than-the-tensor-has"""
    diagnosis = diagnose_text("torchrun.log", RING_TEST)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="too many indices for tensor of dimension 2",
        beside=("config",),
    )


def test_numpy_form_reads_the_same() -> None:
    """docs/labelling.md#an-index-with-more-axes-than-the-tensor-has"""
    text = (
        '  File "/opt/train/data/pack.py", line 52, in offsets\n'
        "    return bounds[:, 0]\n"
        "IndexError: too many indices for array: array is 1-dimensional, but 2 were indexed\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.category == "shape_mismatch"
    assert "shape.too_many_indices" in rules_of(diagnosis)


def test_a_plan_note_with_the_words_is_no_failure() -> None:
    """docs/labelling.md#an-index-with-more-axes-than-the-tensor-has"""
    text = "DEBUG gather plan: too many indices for one request, splitting it\n"
    diagnosis = diagnose_text("worker.log", text)
    assert "shape.too_many_indices" not in rules_of(diagnosis)
