"""Failure lines as a FAQ entry or an issue title pastes them: one line, sometimes cut short,
sometimes passed through an editor that turned straight quotes into typographic ones.

- a missing attribute whose object name came back with a typographic closing quote reads as
  the straight-quoted message does (`config`);
- an experiment tracker that has no API key in a job with no terminal to ask for one is a
  setting the job lacks (`config`, `other` beside it), unlike a tracker service that does not
  answer (docs/labelling.md#an-experiment-tracker-that-cannot-start-or-reach-its-service);
- torch_npu's `call aclnnX failed` headline with its detail cut off still names the op call
  that failed (`operator`), also when the cut falls inside `, error code is` or `, detail:`
  and when torch_npu's `NPU function error: ` stands in front of the call
  (docs/labelling.md#wrappers).
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of


def test_a_typographic_quote_around_the_object_reads_as_a_straight_one() -> None:
    diagnosis = diagnose_text(
        "train.log", "AttributeError: 'DemoTokenizer’ object has no attribute 'sp_model'\n"
    )
    assert diagnosis.category == "config"
    assert "cfg.missing_attribute" in rules_of(diagnosis)


def test_a_typographic_quote_does_not_let_none_through() -> None:
    diagnosis = diagnose_text(
        "train.log", "AttributeError: 'NoneType’ object has no attribute 'shape'\n"
    )
    assert "cfg.missing_attribute" not in rules_of(diagnosis)


def test_a_tracker_without_an_api_key_in_a_job_without_a_terminal_is_a_setting() -> None:
    """docs/labelling.md#an-experiment-tracker-that-cannot-start-or-reach-its-service"""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/bert/run_pretrain.py", line 61, in main\n'
        "    wandb.init(project=args.project)\n"
        "wandb.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="api_key not configured",
        rule="cfg.tracker_api_key_missing",
    )


def test_a_tracker_that_logged_in_is_no_failure() -> None:
    """docs/labelling.md#an-experiment-tracker-that-cannot-start-or-reach-its-service"""
    diagnosis = diagnose_text(
        "train.log", "wandb: Currently logged in as: demo-user. api_key configured from env\n"
    )
    assert "cfg.tracker_api_key_missing" not in rules_of(diagnosis)


def test_an_aclnn_call_headline_cut_after_failed_names_the_op_call() -> None:
    diagnosis = diagnose_text("eval.log", "RuntimeError: call aclnnDemoAttentionScore failed\n")
    assert diagnosis.category == "operator"
    assert "op.aclnn_call_failed" in rules_of(diagnosis)


def test_a_sentence_about_an_aclnn_call_is_no_headline() -> None:
    diagnosis = diagnose_text(
        "eval.log", "retrying: call aclnnDemoAttentionScore failed once, falling back to eager\n"
    )
    assert "op.aclnn_call_failed" not in rules_of(diagnosis)


def test_an_aclnn_call_headline_cut_inside_its_code_names_the_op_call() -> None:
    line = (
        "RuntimeError: npu_demo_attention:../third_party/op-plugin/op_plugin/ops/opapi/"
        "DemoKernelNpuOpApi.cpp:120 NPU function error: call aclnnDemoAttentionScore failed, er\n"
    )
    diagnosis = diagnose_text("eval.log", line)
    assert diagnosis.category == "operator"
    assert "op.aclnn_call_failed" in rules_of(diagnosis)


def test_an_npu_function_error_cut_after_failed_names_the_op_call() -> None:
    diagnosis = diagnose_text(
        "eval.log", "NPU function error: call aclnnDemoMatmul failed, detai\n"
    )
    assert diagnosis.category == "operator"
    assert "op.aclnn_call_failed" in rules_of(diagnosis)


def test_an_aclnn_call_followed_by_other_words_is_no_cut_headline() -> None:
    diagnosis = diagnose_text(
        "eval.log", "call aclnnDemoAttentionScore failed, retrying with the eager path\n"
    )
    assert "op.aclnn_call_failed" not in rules_of(diagnosis)


def test_torch_npus_bare_error_code_sentence_with_a_full_width_comma_reads_its_code() -> None:
    """docs/labelling.md#a-runtime-call-with-no-current-context"""
    diagnosis = diagnose_text(
        "console.log",
        "torch_npu._C._npu_demo_check() RuntimeError NPU error，error code is 107002。\n",
    )
    assert_reads(
        diagnosis, "config", first_error="error code is 107002", rule="op.npu_function_error"
    )


def test_a_full_width_comma_does_not_turn_a_warning_into_the_sentence() -> None:
    diagnosis = diagnose_text("console.log", "NPU warning，error code is 107002\n")
    assert "op.npu_function_error" not in rules_of(diagnosis)


def test_a_missing_module_attribute_restated_with_a_colon_is_the_package_set() -> None:
    """A FAQ restates Python's `module 'x' has no attribute 'y'` without quotes, the name after
    a colon: the same finding, a library calling a name the installed release lacks."""
    for text in (
        "torch has no attribute: float8_demo\n",
        "module torch_npu has no attribute: npu_demo\n",
    ):
        diagnosis = diagnose_text("train.log", text)
        assert_reads(diagnosis, "config", first_error="has no attribute:")


def test_a_sentence_that_goes_on_after_the_missing_attribute_is_no_failure() -> None:
    diagnosis = diagnose_text(
        "train.log", "config has no attribute: rope_scaling, using the default of 1.0\n"
    )
    assert diagnosis.category != "config"


def test_an_extensions_undefined_symbol_cut_before_the_symbol_is_the_package_set() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load: a paste that keeps the loader's
    refusal of a package's extension but cuts the symbol's name still names the library, read
    as the whole line is."""
    for text in (
        "ImportError: /srv/env/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol\n",
        "ImportError：.../fastops/lib/libfastops.so: undefined symbol\n",
    ):
        diagnosis = diagnose_text("build.log", text)
        assert_reads(
            diagnosis,
            "config",
            first_error="so: undef",
            rule="cfg.extension_symbol_mismatch",
            beside=("driver_env",),
        )


def test_a_symbol_tool_listing_undefined_symbols_is_no_refusal() -> None:
    diagnosis = diagnose_text("build.log", "nm -u libfastops.so lists each undefined symbol\n")
    assert "cfg.extension_symbol_mismatch" not in rules_of(diagnosis)
