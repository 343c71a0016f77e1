"""Refusals that torch or its device adapter print as one bare sentence.

docs/labelling.md#an-op-that-names-the-only-dtypes-it-takes: a reduction or other op that
names the only dtypes it takes (`any only supports torch.uint8 and torch.bool dtypes`) refused
its input's dtype on the host: `operator`, with `config` beside it. A note that a kernel only
supports some dtypes and falls back refuses nothing.

docs/labelling.md#inference-mode-and-the-jit-fuser: a tensor made under `torch.inference_mode()`
carries no version counter, and autograd or an in-place update refuses it (`Cannot set
version_counter for inference tensor`, `Inplace update to inference tensor outside
InferenceMode is not allowed`); TorchScript's graph fuser refuses a device it was not built for
(`Unknown device for graph fuser`). Both are a mode the script turned on that the run cannot
use: `config`, with `operator` beside it, even when the sentence is all the paste kept.
Tensors, ops and values are our own, in torch's wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of


def test_an_op_that_names_the_only_dtypes_it_takes_refused_its_input() -> None:
    text = (
        '  File "/srv/app/moe/gate.py", line 41, in route\n'
        "    keep = scores.gt(0).any(dim=-1)\n"
        "RuntimeError: any only supports torch.uint8 and torch.bool dtypes\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "operator",
        first_error="any only supports torch.uint8 and torch.bool dtypes",
        rule="op.dtype_only_supports",
        beside=["config"],
    )


def test_the_dtype_refusal_alone_in_a_note_heading_is_read_the_same() -> None:
    # A note keeps the sentence with a stray bracket and the dot of one dtype lost.
    diagnosis = diagnose_text(
        "error.log", "<RuntimeError: all only supports torch.uint8 and torch bool dtypes\n"
    )
    assert_reads(
        diagnosis, "operator", first_error="all only supports", rule="op.dtype_only_supports"
    )


def test_a_kernel_that_only_supports_some_dtypes_and_falls_back_refuses_nothing() -> None:
    text = (
        "INFO 03-02 10:11:12 [fused.py:30] the fused rope kernel only supports torch.float16 and "
        "torch.bfloat16 dtypes, falling back to the reference path\n"
    )
    diagnosis = diagnose_text("serve.log", text)
    assert "op.dtype_only_supports" not in rules_of(diagnosis)


def test_an_inference_tensor_refused_by_autograd_is_the_mode_the_script_chose() -> None:
    text = (
        '  File "/srv/app/eval.py", line 77, in score\n'
        "    out = head(feats)\n"
        "RuntimeError: Cannot set version_counter for inference tensor\n"
    )
    diagnosis = diagnose_text("eval.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Cannot set version_counter for inference tensor",
        rule="cfg.inference_tensor_refused",
        beside=["operator"],
    )


def test_an_inplace_update_of_an_inference_tensor_is_the_same_refusal() -> None:
    text = (
        "RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You "
        "can make a clone to get a normal tensor before doing inplace update.\n"
    )
    diagnosis = diagnose_text("eval.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Inplace update to inference tensor",
        rule="cfg.inference_tensor_refused",
    )


def test_the_bare_refusal_sentences_are_read_without_an_exception_name() -> None:
    for line, rule in (
        ("Cannot set version_counter for inference tensor", "cfg.inference_tensor_refused"),
        ("Unknown device for graph fuser", "cfg.jit_fuser_unknown_device"),
    ):
        diagnosis = diagnose_text("error.log", line + "\n")
        assert_reads(diagnosis, "config", first_error=line, rule=rule)


def test_a_script_that_turns_inference_mode_on_refuses_nothing() -> None:
    text = "INFO evaluation runs under torch.inference_mode() to skip version counters\n"
    diagnosis = diagnose_text("eval.log", text)
    assert "cfg.inference_tensor_refused" not in rules_of(diagnosis)


def test_the_jit_fuser_refusing_the_device_is_the_fuser_setting() -> None:
    text = (
        '  File "/srv/app/model.py", line 12, in forward\n'
        "    return self.scripted(x)\n"
        "RuntimeError: Unknown device for graph fuser\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="Unknown device for graph fuser",
        rule="cfg.jit_fuser_unknown_device",
        beside=["operator"],
    )


def test_a_line_that_sets_the_fuser_refuses_nothing() -> None:
    diagnosis = diagnose_text(
        "train.log", "torch._C._jit_set_texpr_fuser_enabled(False)  # graph fuser off\n"
    )
    assert "cfg.jit_fuser_unknown_device" not in rules_of(diagnosis)
