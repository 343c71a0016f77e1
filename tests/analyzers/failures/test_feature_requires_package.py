"""A library's own check that a feature the job switched on needs a package.

`AssertionError: <feature> requires <pkg> package.` or `ImportError: <Class> requires the <pkg>
library ...` says the options call for a package the environment lacks: `config`, with
`driver_env` as the alternative, like the package registry's own refusal.
(docs/labelling.md#config-driver_env-or-weight_load)
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A video model started with a sequence-parallel degree on four GPUs; the sampler asserts the
# parallel-attention package is importable before it builds the model.
SAMPLER = """\
2026-03-02 11:04:55 Traceback (most recent call last):
2026-03-02 11:04:55   File "/srv/vidgen/sample.py", line 61, in <module>
2026-03-02 11:04:55     main()
2026-03-02 11:04:55   File "/srv/vidgen/vidgen/pipeline.py", line 233, in from_pretrained
2026-03-02 11:04:55     assert ringkit is not None, "Ring and Ulysses attention requires ringkit package."
2026-03-02 11:04:55 AssertionError: Ring and Ulysses attention requires ringkit package.
"""


def test_a_feature_that_needs_a_missing_package_is_the_package_set() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("sample.log", SAMPLER)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert "AssertionError: Ring and Ulysses attention requires ringkit package." in (
        diagnosis.first_error.text
    )
    assert "driver_env" in {alt.category for alt in diagnosis.alternatives}


def test_the_library_form_reads_the_same() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        "[rank3]: ImportError: LongSeqTokenizer requires the protobuf library but it was not "
        "found in your environment.\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "cfg.feature_requires_package" in rules_of(diagnosis)


def test_a_fallback_warning_is_no_failure() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = "WARNING ring attention requires the flash_attn package; falling back to sdpa\n"
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.feature_requires_package" not in rules_of(diagnosis)


# A quantization script loads a checkpoint whose remote modelling code imports two packages
# the host lacks; transformers checks the imports before it runs that code.
REMOTE_CODE = """\
Traceback (most recent call last):
  File "/srv/quant/run_quant.py", line 40, in <module>
    model = AutoModelForCausalLM.from_pretrained(args.model, trust_remote_code=True)
ImportError: This modeling file requires the following packages that were not found in your environment: einops, causal_conv1d. Run `pip install einops causal_conv1d`
"""


def test_the_remote_code_import_check_is_the_package_set() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    diagnosis = diagnose_text("quant.log", REMOTE_CODE)
    assert_reads(
        diagnosis,
        "config",
        first_error="This modeling file requires the following packages",
        rule="cfg.feature_requires_package",
        beside=("driver_env",),
    )


def test_the_remote_code_check_pasted_without_its_class_reads_the_same() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = (
        "This modeling file requires the following packages that were not found in your "
        "environment: causal_conv1d. Run `pip install causal_conv1d`\n"
    )
    diagnosis = diagnose_text("stdout.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="were not found in your environment",
        rule="cfg.feature_requires_package",
    )


def test_a_note_that_every_package_was_found_is_no_failure() -> None:
    """docs/labelling.md#config-driver_env-or-weight_load"""
    text = "INFO all packages this modeling file requires were found in your environment\n"
    assert "cfg.feature_requires_package" not in rules_of(diagnose_text("stdout.log", text))
