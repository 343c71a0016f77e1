"""A video-analytics pipeline on Ascend's media unit that stops on its own error tag.

docs/labelling.md#a-video-analytics-pipeline-that-stops-on-its-own-error: inference apps built
on the MindX SDK's stream framework print their errors as `[<code or domain>][<reason>]` or
`[DVPP: <reason>]` before a sentence of their own. The media unit (DVPP) refusing a size
outside its documented range is `op_constraint`; its decode or crop failing otherwise is
`operator`; a pipeline stream that could not be started, and a video source that cannot be
reached, are the job's set-up (`config`). An OpenCV check that refuses a call's arguments in the
application's own image code is `other`, with `config` beside it. Lines of our own in the
tools' shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text


def test_a_crop_outside_the_media_units_range_is_its_documented_limit() -> None:
    text = (
        "I20260412 10:02:11.310000 812 MxsmStream.cpp:711] Stream(detection) start.\n"
        "[DVPP: image height out of range] The resize height of image No.[3] is out of range"
        " [6,4096]\n"
    )
    diagnosis = diagnose_text("logs/run.log", text)
    assert_reads(
        diagnosis,
        "op_constraint",
        first_error="out of range [6,4096]",
        rule="opc.media_size_out_of_range",
        beside=("config",),
    )


def test_a_decode_failure_of_the_media_unit_is_the_operator() -> None:
    text = (
        "[Error code unknown] Failed to send frame.\n"
        "[DVPP: decode H264 or H265 fail] Decode video failed.\n"
        "Failed to destroy vdec channel.\n"
    )
    diagnosis = diagnose_text("logs/stdout.log", text)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "op.media_unit_failed" in {e.rule for e in diagnosis.evidence}


def test_a_pipeline_stream_that_could_not_start_is_its_set_up() -> None:
    text = "[6003][stream change state fail] create stream(faceDetect) failed.\n"
    diagnosis = diagnose_text("logs/app.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="create stream(faceDetect) failed",
        rule="cfg.pipeline_stream_not_started",
        beside=("other",),
    )


def test_a_video_source_that_cannot_be_reached_is_the_inputs_set_up() -> None:
    for line in (
        "connect stream failed.",
        "Please check the rtspUrl of the video is correct or the video exists",
    ):
        diagnosis = diagnose_text("logs/stdout.log", line + "\n")
        assert_reads(
            diagnosis, "config", first_error=line[:20], rule="cfg.video_source_unreachable"
        )
        assert "other" in alternative_labels(diagnosis)


def test_an_opencv_check_in_the_apps_image_code_is_other() -> None:
    text = (
        "cv2.error: OpenCV(4.8.0) /io/opencv/modules/imgproc/src/color.cpp:182: error:"
        " (-215:Assertion failed) !_src.empty() in function 'cvtColor'\n"
    )
    diagnosis = diagnose_text("logs/stdout.log", text)
    assert_reads(
        diagnosis,
        "other",
        first_error="(-215:Assertion failed) !_src.empty()",
        rule="other.opencv_check_failed",
        beside=("config",),
    )


def test_a_stream_that_started_is_no_failure() -> None:
    text = (
        "I20260412 10:02:11.310000 812 MxsmStream.cpp:711] Stream(detection) start.\n"
        "create stream(detection) success.\n"
    )
    diagnosis = diagnose_text("logs/stdout.log", text)
    assert diagnosis.category != "config"
