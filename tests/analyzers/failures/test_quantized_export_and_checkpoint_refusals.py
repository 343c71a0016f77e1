"""Refusals of what a quantization or export tool wrote, before anything runs.

docs/labelling.md#a-checkpoint-quantized-in-a-format-the-library-does-not-know: transformers
refuses a checkpoint whose `quantization_config` names a method its release lacks: `config`,
with `weight_load` beside it.
docs/labelling.md#an-exported-graph-whose-nodes-the-runtime-schema-refuses: ONNX Runtime's
schema check refuses a node attribute or input type the model's opset does not have: `config`,
with `operator` beside it.
docs/labelling.md#a-toolkit-file-owned-by-another-user: the Ascend toolkit's scripts refuse a
path that does not belong to the user who runs them: `driver_env`, with `config` beside it.

Fixtures are in the libraries' formats with our own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text, rules_of

CHECKPOINT_LOAD = """\
Loading checkpoint from /data/models/demo-moe-fp8
Traceback (most recent call last):
  File "/srv/quant/calibrate.py", line 88, in <module>
    model = AutoModelForCausalLM.from_pretrained(args.model, device_map="auto")
  File "/opt/venv/lib/python3.10/site-packages/transformers/quantizers/auto.py", line 101, in from_dict
    raise ValueError(
ValueError: Unknown quantization type, got mxfp6 - supported types are: ['awq', 'bitsandbytes_4bit', 'gptq', 'hqq']
"""


def test_a_quantization_method_the_release_lacks_is_the_config() -> None:
    """docs/labelling.md#a-checkpoint-quantized-in-a-format-the-library-does-not-know"""
    diagnosis = diagnose_text("calib.log", CHECKPOINT_LOAD)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown quantization type, got mxfp6",
        rule="cfg.checkpoint_quantization_type_unknown",
        beside=("weight_load",),
    )


def test_the_bare_sentence_with_a_full_width_comma_reads_the_same() -> None:
    """docs/labelling.md#a-checkpoint-quantized-in-a-format-the-library-does-not-know"""
    text = "Unknown quantization type，got nvfp4 - supported types are: ['awq', 'gptq']\n"
    diagnosis = diagnose_text("stdout.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown quantization type",
        rule="cfg.checkpoint_quantization_type_unknown",
    )


def test_a_warning_that_loads_unquantized_is_no_failure() -> None:
    """docs/labelling.md#a-checkpoint-quantized-in-a-format-the-library-does-not-know"""
    text = (
        "WARNING Unknown quantization type, got fp8 - supported types are listed below; "
        "loading unquantized\n"
    )
    assert "cfg.checkpoint_quantization_type_unknown" not in rules_of(
        diagnose_text("stdout.log", text)
    )


ORT_SESSION = """\
2026-04-02 10:11:12 INFO exporting int4 model to /tmp/out/model.onnx (opset 17)
Traceback (most recent call last):
  File "/srv/bench/eval_onnx.py", line 52, in <module>
    sess = ort.InferenceSession(path, providers=["CUDAExecutionProvider"])
onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from /tmp/out/model.onnx failed:Node (lm_head_DQ) Op (DequantizeLinear) [ShapeInferenceError] Unrecognized attribute: block_size for operator DequantizeLinear
"""


def test_an_attribute_the_declared_opset_lacks_is_the_export_config() -> None:
    """docs/labelling.md#an-exported-graph-whose-nodes-the-runtime-schema-refuses"""
    diagnosis = diagnose_text("eval.log", ORT_SESSION)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unrecognized attribute: block_size for operator DequantizeLinear",
        rule="cfg.onnx_node_schema_refusal",
        beside=("operator",),
    )


def test_an_input_type_the_declared_opset_lacks_reads_the_same() -> None:
    """docs/labelling.md#an-exported-graph-whose-nodes-the-runtime-schema-refuses"""
    text = (
        "Error: Type 'tensor(float8e4m3fn)' of input parameter (w_q) of operator "
        "(QuantizeLinear) in node (w_QuantizeLinear) is invalid.\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert diagnosis.category == "config"
    assert "cfg.onnx_node_schema_refusal" in rules_of(diagnosis)
    assert "operator" in alternative_labels(diagnosis)


def test_an_ignored_config_key_is_no_schema_refusal() -> None:
    """docs/labelling.md#an-exported-graph-whose-nodes-the-runtime-schema-refuses"""
    text = "WARNING Unrecognized attribute in config.yaml: block_size (ignored)\n"
    assert "cfg.onnx_node_schema_refusal" not in rules_of(diagnose_text("stdout.log", text))


TOOL_RUN = """\
2026-05-06 07:08:01,100 INFO : try to convert model to om, please wait...
2026-05-06 07:08:20,200 INFO : try to convert model to om finished.
2026-05-06 07:08:21,300 ERROR : load op data failed, err:exec query shell failed, err:2026-05-06 07:08:21 [ERROR] The input path may be insecure because it does not belong to you.
2026-05-06 07:08:21,350 INFO : analysis result has been written in out/result.csv.
"""


def test_a_toolkit_path_owned_by_another_user_is_the_machine() -> None:
    """docs/labelling.md#a-toolkit-file-owned-by-another-user"""
    diagnosis = diagnose_text("analyze.log", TOOL_RUN)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="may be insecure because it does not belong to you",
        rule="env.toolkit_path_not_owned",
        beside=("config",),
    )


def test_a_path_that_passed_the_owner_check_is_no_failure() -> None:
    """docs/labelling.md#a-toolkit-file-owned-by-another-user"""
    text = "INFO the input path /home/dev/model.onnx belongs to you, checks passed\n"
    assert "env.toolkit_path_not_owned" not in rules_of(diagnose_text("stdout.log", text))
