"""A TensorRT input profile handed a dimension left dynamic.

docs/labelling.md#an-engine-input-profile-with-a-dimension-left-open: an optimization
profile's min/opt/max shapes must be fixed; a `-1` input dimension fails the profile's own
parameter check, and a delegate built on it names the bound it could not set. The input shape
given to the converter or engine is the fix: `config`, with `op_constraint` and
`shape_mismatch` beside it, and the check is the first error. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

OPEN_DIMENSION = """\
ERROR [mindspore/lite/src/extendrt/delegate/tensorrt/tensorrt_runtime.h:31] log] Parameter check failed at: runtime/common/optimizationProfile.cpp::setDimensions::119, condition: std::all_of(dims.d, dims.d + dims.nbDims, [](int32_t x) noexcept { return x >= 0; })
ERROR [mindspore/lite/src/extendrt/delegate/tensorrt/tensorrt_subgraph.cc:230] ParseInputDimsProfile] setDimensions of kMAX failed for input images
"""


def test_a_profile_with_an_open_dimension_is_the_input_shape_setting() -> None:
    diagnosis = diagnose_text("benchmark.log", OPEN_DIMENSION)
    assert_reads(diagnosis, "config", first_error="optimizationProfile.cpp::setDimensions")
    assert {"op_constraint", "shape_mismatch"} & {alt.category for alt in diagnosis.alternatives}


def test_a_profile_note_that_sets_a_bound_is_no_failure() -> None:
    text = "[TRT] [I] optimizationProfile.cpp::setDimensions: kMIN set to (1, 3, 224, 224)\n"
    diagnosis = diagnose_text("benchmark.log", text)
    assert diagnosis.category != "config"
