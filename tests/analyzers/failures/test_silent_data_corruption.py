"""A silent-data-corruption check that stops training on an abnormal feature value.

docs/labelling.md#a-device-reported-as-faulted: CANN's feature-value check (the AI CPU's
silent-check op, switched on by NPU_ASD_ENABLE) and the framework's checksum comparison report a
value that a healthy chip would not compute; the run is stopped so that the device can be
isolated and tested. The label is `device_fault`, with `operator` beside it: the guide of the
check itself says a healthy device means an op overflowed instead. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FEATURE_ABNORMAL = (
    "[ERROR] AICPU(30210,aicpu_scheduler):2026-03-04-05:06:07.100.200 [silent_check_v3.cc:250]"
    "[ComputeL1Error][tid:30222]SilentCheckV3 ComputeL1Error:val = [inf], max = [inf], "
    "avg=[3.1e-07], step=[12], c_thresh_l1 = [1.000000e+06], c_thresh_l2 = [1.000000e+04], "
    "beta1 = [9.900000e-01], npu_asd_detect = [2].\n"
)
GREPPED = "device-5/device-41022_20260304050607100.log:2211:" + FEATURE_ABNORMAL
APP_ALARM = (
    "[ERROR] 2026-03-04-05:06:08 (PID:41022, Device:5, RankID:5) ERR99999 UNKNOWN "
    "accuracy sensitivity feature abnormal detected on device 5\n"
)
CHECKSUM = (
    "[ERROR] DEBUG(41022,fffd1b7fe1e0,python):2026-03-04-05:06:09.000.100 "
    "[mindspore/ccsrc/tools/silent_detect/silent_detector.cc:340] DoCheckSum] "
    "CheckSum detects MatMul error on rank 5\n"
)
NORMAL_CASE = (
    "[INFO] AICPU(30210,aicpu_scheduler):2026-03-04-05:06:07.000.100 [silent_check_v3.cc:240]"
    "[SilentCheck][tid:30222]SilentCheckV3 normal case, val=[2.1e-08], max=[2.1e-08], "
    "avg=[1.0e-09], step=[11], npu_asd_detect=[2].\n"
)
CHECKSUM_CLEAN = (
    "[WARNING] DEBUG(41022,fffd1b7fe1e0,python):2026-03-04-05:06:09.000.100 "
    "[mindspore/ccsrc/tools/silent_detect/silent_detector.cc:316] DoCheckSum] Global CheckSum result is 0\n"
)


def test_an_abnormal_feature_value_is_the_device() -> None:
    diagnosis = diagnose_text("device-5/device-41022_20260304050607100.log", FEATURE_ABNORMAL)
    assert_reads(diagnosis, "device_fault", first_error="ComputeL1Error", beside=("operator",))


def test_the_check_line_as_grep_printed_it_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("grep.log", GREPPED)
    assert diagnosis.category == "device_fault"
    assert diagnosis.first_error is not None


def test_the_application_alarm_and_the_checksum_verdict_are_the_device() -> None:
    assert diagnose_text("train.log", APP_ALARM).category == "device_fault"
    assert diagnose_text("worker_5.log", CHECKSUM).category == "device_fault"


def test_a_normal_check_and_a_clean_checksum_are_no_failure() -> None:
    assert diagnose_text("device-5/device-1.log", NORMAL_CASE).first_error is None
    assert diagnose_text("worker_5.log", CHECKSUM_CLEAN).first_error is None
