"""Autograd refusing an in-place change to a view it tracks.

Autograd forbids changing in place a view that a custom Function returned (or one created in
no-grad mode, or a view of a leaf that requires grad): the change would bypass the Function's
own backward. It says so in its own words (`Output 0 of SqueezeBackward1 is a view and is being
modified inplace. This view was created inside a custom Function ...`). The model code has to
change (an out-of-place op or a clone), as when a tensor saved for the backward pass was
modified: `other`, and the refusal is the first error. A line that only mentions an in-place
op is no failure.

The fixtures are written in the shape of a trainer's stderr, with our own paths.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def test_a_view_of_a_custom_function_changed_in_place_is_the_model_code() -> None:
    text = (
        "RuntimeError: Output 0 of UnsqueezeBackward0 is a view and is being modified inplace. "
        "This view was created inside a custom Function (or because an input was returned as-is) "
        "and the autograd logic to handle view+inplace would override the custom backward "
        "associated with the custom Function, leading to incorrect gradients. This behavior is "
        "forbidden. You can fix this by cloning the output of the custom Function.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error="is a view and is being modified inplace",
        rule="num.autograd_inplace_modified",
    )


def test_a_view_of_a_leaf_used_in_place_reads_the_same() -> None:
    text = (
        "[rank0]: RuntimeError: a view of a leaf Variable that requires grad is being used in "
        "an in-place operation.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error="a view of a leaf Variable that requires grad",
        rule="num.autograd_inplace_modified",
    )


def test_a_note_about_in_place_ops_is_no_failure() -> None:
    text = "INFO replaced logits.div_(temperature) with an out-of-place division\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.first_error is None
