"""An offline-converted inference toolchain that cannot take the model file it was given.

docs/labelling.md#a-model-file-the-inference-runtime-cannot-take: MindSpore Lite's converter
cannot read the original model (`Read onnx model file failed, model path: ...`), or its
runtime refuses a `.ms` file never converted or converted by another release (`Please enable
runtime convert.`, `The model buffer is invalid and fail to create graph`). `config`, with
`other` beside it; the first such line is the first error, ahead of the build and benchmark
lines that repeat it. Values and paths are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NOT_CONVERTED = """\
ERROR [mindspore/lite/src/litert/lite_session.cc:1602] LoadModelByBuff] Please enable runtime convert.
ERROR [mindspore/lite/src/litert/lite_session.cc:1661] LoadModelAndCompileByPath] Read model file failed
ERROR [mindspore/lite/src/litert/cxx_api/model/model_impl.cc:101] Build] Init session failed
ERROR [mindspore/lite/tools/benchmark/benchmark_unified_api.cc:902] RunBenchmark] ms_model_.Build failed while running
"""

UNREADABLE = """\
[ERROR] LITE(2231,7f0a1b2c3d40,converter_lite):2026-01-05-10:11:12.131.415 [mindspore/lite/tools/converter/parser/onnx/onnx_model_parser.cc:3080] InitOriginModel] Read onnx model file failed, model path: ./models/detector_v2.onnx
[ERROR] LITE(2231,7f0a1b2c3d40,converter_lite):2026-01-05-10:11:12.131.430 [mindspore/lite/tools/converter/converter.cc:140] Convert] Parser/Import model return nullptr
CONVERT RESULT FAILED:-1 Common error code.
"""


def test_a_model_file_not_converted_for_this_runtime_is_the_set_up() -> None:
    diagnosis = diagnose_text("benchmark.log", NOT_CONVERTED)
    assert_reads(
        diagnosis, "config", first_error="Please enable runtime convert", beside=("other",)
    )


def test_an_original_model_the_converter_cannot_read_reads_the_same() -> None:
    diagnosis = diagnose_text("converter_lite.log", UNREADABLE)
    assert_reads(diagnosis, "config", first_error="Read onnx model file failed")


def test_a_model_read_record_is_no_failure() -> None:
    text = (
        "[INFO] LITE(2231,7f0a1b2c3d40,converter_lite):2026-01-05-10:11:12.131.415 "
        "[onnx_model_parser.cc:3070] InitOriginModel] Read onnx model file succeeded\n"
    )
    diagnosis = diagnose_text("converter_lite.log", text)
    assert diagnosis.category != "config"
