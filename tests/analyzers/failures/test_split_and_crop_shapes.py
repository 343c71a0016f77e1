"""A shard strategy that does not divide a dimension, and a crop larger than its sample.

docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group and
docs/labelling.md#a-crop-larger-than-the-sample-it-cuts: both are `shape_mismatch` with
`config` beside it. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

CROP = """\
------------------------------------------------------------------
- Dataset Pipeline Error Message:
------------------------------------------------------------------
[ERROR] map operation: [RandomCrop] failed. RandomCrop: Crop width dimension: 64 exceeds image width: 48.

------------------------------------------------------------------
- C++ Call Stack: (For framework developers)
------------------------------------------------------------------
mindspore/ccsrc/minddata/dataset/kernels/image/random_crop_op.cc(71).
"""


def test_a_strategy_that_does_not_divide_the_shape_is_a_split_mismatch() -> None:
    text = "[ERROR] The strategy is ((4, 2)), shape 6 can not be divisible by strategy value 4\n"
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "shape_mismatch"
    assert "config" in {alt.category for alt in diagnosis.alternatives}


def test_a_strategy_that_divides_is_no_failure() -> None:
    text = "[INFO] strategy ((4, 1)) checked: shape 8 is divisible by strategy value 4\n"
    assert diagnose_text("train.log", text).first_error is None


def test_a_crop_larger_than_the_image_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("train.log", CROP)
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.first_error is not None
    assert "exceeds image width: 48" in diagnosis.first_error.text
    assert "config" in {alt.category for alt in diagnosis.alternatives}
