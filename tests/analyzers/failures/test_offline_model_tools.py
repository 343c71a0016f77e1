"""The quantizer's calibration under the offline model builder, and models the graph engine
cannot load.

docs/labelling.md#a-model-the-offline-tools-cannot-quantize-or-load: the quantizer (AMCT) writes
`[ERROR] AMCT(<pid>,<program>):<time>[<file>:<line>]<message>` lines and gives up with its own
summaries and ATC's `ATC run failed`; the line that says why is the first error. Values of our
own in the real formats.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CALIBRATION_SIZE = """\
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[utils_acl.cpp:133]input image size[602112] is not equal to model input size[1204224]
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[sample_process.cpp:234]memcpy device buffer failed
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[sample_process.cpp:275]ACL model infer failed.
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[quantize_api.cpp:376]Do Calibration failed.
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:14[inner_graph_calibration.cpp:78]Failed to execute InnerQuantizeGraph.
ATC run failed, Please check the detail log, Try 'atc --help' for more information
"""


def test_calibration_data_of_another_size_than_the_input_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("atc_stdout.txt", CALIBRATION_SIZE)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="is not equal to model input size",
        beside=("config",),
    )


LAYER_NOT_QUANTIZABLE = """\
ATC start working now, please wait for a moment.
[ERROR][ProcessScale][61] Not support scale greater than 1 / FLT_EPSILON.
[ERROR][WtsArqCalibrationCpuKernel][203] ArqQuantCPU scale is illegal.
[ERROR][ArqQuant][317] WtsArqCalibrationCpuKernel of format CO_CI_KH_KW failed.
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[weight_calibration_pass.cpp:185]layer net/block3/conv2/Conv2D run WeightFakeQuantArq failed
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[quantize_api.cpp:363]Generate calibration Graph failed.
"""


def test_a_layer_the_quantizer_cannot_scale_is_skipped_in_the_config() -> None:
    diagnosis = diagnose_text("atc_stdout.txt", LAYER_NOT_QUANTIZABLE)
    assert_reads(
        diagnosis,
        "config",
        first_error="Not support scale greater than 1 / FLT_EPSILON",
        beside=("op_constraint",),
    )


CALIBRATION_STOPPED_BY_A_KERNEL = """\
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:12[model_process.cpp:299]execute model failed, modelId is 1, errorCode is 507011
[ERROR] AMCT(5120,atc.bin):2026-02-03-10:11:13[quantize_api.cpp:378]Do Calibration failed.
"""


def test_a_calibration_run_that_failed_on_the_device_is_no_size_or_layer_refusal() -> None:
    diagnosis = diagnose_text("atc_stdout.txt", CALIBRATION_STOPPED_BY_A_KERNEL)
    assert "shape.quantizer_calibration_input_size" not in rules_of(diagnosis)
    assert "cfg.quantizer_layer_not_quantizable" not in rules_of(diagnosis)


OPP_RELEASE = """\
E19999: Internal Error
E19999 The opp version of the model does not match the current opp run package, Model is [7.1.T2.0.B010], opp run package is [8.0.RC1], try to convert the om again!
"""


def test_a_model_built_with_another_opp_release_is_a_version_mismatch() -> None:
    diagnosis = diagnose_text("stdout.txt", OPP_RELEASE)
    assert_reads(
        diagnosis,
        "config",
        first_error="opp version of the model does not match",
        beside=("driver_env",),
    )


NO_CAPABILITY_GROUP = """\
[INFO][ncx_interface.cpp:41] ncx lib has been init
[ERROR][ncx_interface.cpp:211] nca load model from file failed, ret = 254. please check detail info from device log.
[ERROR] AMCT(5120,acl_test_tool):2026-02-03-10:11:12[sample_process.cpp:378]NCX load model failed.
[ERROR] AMCT(5120,acl_test_tool):2026-02-03-10:11:12[quantize_api.cpp:439]Do Calibration failed.
[ERROR][ncx_interface.cpp:142] nca finalize: amct ncx lib has not been init
"""


def test_a_model_load_with_no_capability_group_is_the_machine_set_up() -> None:
    diagnosis = diagnose_text("stdout.txt", NO_CAPABILITY_GROUP)
    assert_reads(diagnosis, "driver_env", first_error="nca load model from file failed, ret = 254")


OTHER_LOAD_CODE = """\
[ERROR][ncx_interface.cpp:211] nca load model from file failed, ret = 3. please check detail info from device log.
"""


def test_another_load_code_names_no_capability_group() -> None:
    diagnosis = diagnose_text("stdout.txt", OTHER_LOAD_CODE)
    assert "env.nca_model_load_no_capability_group" not in rules_of(diagnosis)


# The offline inference tool (ais_bench) checks each input file's bytes against the size of the
# model input it feeds before it copies anything to the device.
INPUT_FILE_SIZE = """\
python3 -m ais_bench --model ./out/yolo_bs4.om --input ./prep/img_0001.bin
[INFO] try get model batchsize:4
[ERROR] arg0 tensorsize: 4915200 filesize: 1228800 not match
"""


def test_an_input_file_of_another_size_than_the_model_input_is_a_shape_mismatch() -> None:
    diagnosis = diagnose_text("stdout.log", INPUT_FILE_SIZE)
    assert_reads(
        diagnosis,
        "shape_mismatch",
        first_error="arg0 tensorsize: 4915200 filesize: 1228800 not match",
        rule="shape.inference_input_file_size",
        beside=("config",),
    )


def test_an_input_file_of_the_model_input_size_is_no_mismatch() -> None:
    diagnosis = diagnose_text(
        "stdout.log", "[DEBUG] arg0 tensorsize: 4915200 filesize: 4915200 match\n"
    )
    assert "shape.inference_input_file_size" not in rules_of(diagnosis)


# Its outputs are cut back into one file per input along a batch axis; when the axis it cuts
# along does not hold the number of files (the default axis 0 of size 1), it stops.
OUTPUT_SPLIT = """\
[INFO] -----------------Performance Summary------------------
[ERROR] save out files error array shape:(1, 8400, 85) filesinfo:[['prep/a.bin', 'prep/b.bin', 'prep/c.bin', 'prep/d.bin']]  files_count_perbatch:4 ndata.shape0:1
"""


def test_outputs_the_tool_cannot_cut_per_input_file_are_its_option() -> None:
    diagnosis = diagnose_text("stdout.log", OUTPUT_SPLIT)
    assert_reads(
        diagnosis,
        "config",
        first_error="save out files error array shape:(1, 8400, 85)",
        rule="cfg.inference_output_split_failed",
        beside=("shape_mismatch",),
    )


def test_saved_output_files_are_no_failure() -> None:
    diagnosis = diagnose_text(
        "stdout.log", "[INFO] save out files to ./result/2026_01_01-10_00_00\n"
    )
    assert "cfg.inference_output_split_failed" not in rules_of(diagnosis)


# The graph engine's loader meets a memory description of another release in an offline model;
# the asserts after it only say a call did not return success.
LOADER_LAYOUT = """\
[ERROR] GE(4021,python3):2026-05-06-07:08:09.100.100 [model_utils.cc:1313]4021 GetHbmFeatureMapMemInfo: ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert (sub_memory_info.size() == 3U) failed, expect 3 actual 5
[ERROR] GE(4021,python3):2026-05-06-07:08:09.100.200 [davinci_model.cc:686]4021 Init: ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert ((InitRuntimeParams()) == ge::SUCCESS) failed
[ERROR] ASCENDCL(4021,python3):2026-05-06-07:08:09.100.500 [model.cpp:1637]4021 aclmdlLoadFromFile: [LOAD][DEFAULT]Load model from file failed!
"""

LOADER_RESTATED_ONLY = """\
[ERROR] GE(4021,python3):2026-05-06-07:08:09.100.200 [davinci_model.cc:686]4021 Init: ErrorNo: 4294967295(failed) [LOAD][DEFAULT]Assert ((InitRuntimeParams()) == ge::SUCCESS) failed
"""


def test_a_loader_assert_on_the_models_memory_layout_is_a_release_mismatch() -> None:
    diagnosis = diagnose_text("plog/plog-4021_1.log", LOADER_LAYOUT)
    assert_reads(
        diagnosis,
        "config",
        first_error="Assert (sub_memory_info.size() == 3U) failed",
        rule="cfg.offline_model_layout_not_known",
        beside=("driver_env",),
    )
    assert diagnosis.confidence < 0.8


def test_a_loader_assert_that_a_call_succeeded_is_not_the_layout_reading() -> None:
    diagnosis = diagnose_text("plog/plog-4021_1.log", LOADER_RESTATED_ONLY)
    assert "cfg.offline_model_layout_not_known" not in rules_of(diagnosis)
