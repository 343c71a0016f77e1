"""A shard strategy that does not divide a dimension, and a crop larger than its sample.

docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group and
docs/labelling.md#a-crop-larger-than-the-sample-it-cuts: both are `shape_mismatch` with
`config` beside it. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

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
    assert_reads(
        diagnosis, "shape_mismatch", first_error="exceeds image width: 48", beside=("config",)
    )


# docs/labelling.md#an-activation-split-that-does-not-divide-over-the-group: MindSpore's
# parameter slicer and an op's output check word the same uneven cut as "can not be split by
# strategy", with or without the shapes; the bare sentence is all an FAQ or a short paste keeps.
BARE_STRATEGY_SPLIT = "ValueError: np_tensor can not be split by strategy!\n"
OUTPUT_STRATEGY_SPLIT = (
    "[ERROR] PARALLEL(5120,ffff8a2b1020,python):2026-03-04-05:06:07.100.200 "
    "[mindspore/ccsrc/frontend/parallel/ops_info/operator_info.cc:812] InferSliceShape] "
    "MatMul-op3: The output can not be split by strategy. The shape of output is [6, 512], "
    "but the strategy of output is [4, 1]\n"
)


def test_a_tensor_the_strategy_cannot_split_is_a_split_mismatch() -> None:
    diagnosis = diagnose_text("train.log", BARE_STRATEGY_SPLIT)
    assert_reads(
        diagnosis, "shape_mismatch", first_error="can not be split by strategy", beside=("config",)
    )


def test_an_output_the_strategy_cannot_split_is_a_split_mismatch() -> None:
    diagnosis = diagnose_text("worker_0.log", OUTPUT_STRATEGY_SPLIT)
    assert_reads(diagnosis, "shape_mismatch", first_error="The output can not be split by strategy")


def test_a_strategy_that_splits_the_tensor_is_no_failure() -> None:
    text = "[INFO] PARALLEL parameter weight split by strategy (4, 1) into slices of [2, 512]\n"
    assert diagnose_text("train.log", text).first_error is None


def test_the_bare_strategy_sentence_with_no_exception_class_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("train.log", "np_tensor can not be split by strategy!\n")
    assert diagnosis.category == "shape_mismatch"
    assert diagnosis.first_error is not None
