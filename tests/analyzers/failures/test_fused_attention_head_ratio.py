"""A fused attention kernel's supported heads-per-KV ratios, checked by the plugin that picks it.

docs/labelling.md#an-operator-name-decides-nothing: a serving plugin that asserts, while the
model is built, that the query heads per KV head is one of the values a fused kernel takes
(and lists them) reports the kernel's limit, `op_constraint`, with `config` (a parallel size or
the eager path) as the neighbour. The same ratio checked without any supported values named
is no limit of an op and is not read as one. The attention op's own tiling check, giving the
ratio it computed and the set it takes, is the same limit, with `operator` beside it too; the op
refusing a ratio with no set keeps the op's reading.

Fixtures follow the shape of a vLLM engine-core traceback; values and wording are made up.
"""

from __future__ import annotations

from analyzers.core.report import Diagnosis
from tests.analyzers.excerpts import assert_reads, diagnose_text

ENGINE = "ERROR 03-04 05:06:07 [core.py:515] "


def engine(*lines: str) -> str:
    return "".join(f"{ENGINE}{line}\n" for line in lines)


HEAD = (
    "EngineCore failed to start.",
    "Traceback (most recent call last):",
    '  File "/srv/serve/plugin/attention/latent_attention.py", line 301, in __init__',
    "    assert ratio in SUPPORTED_RATIOS, \\",
)

RATIO_LIMIT = engine(
    *HEAD,
    "AssertionError: the number of query heads per KV head must be one of {16, 32, 64} for the "
    "fused latent attention kernel in graph mode, got 8; use a smaller tensor parallel size or "
    "eager mode",
)

RATIO_WITHOUT_VALUES = engine(
    *HEAD,
    "AssertionError: query heads per KV head must be a whole number, got 28 heads over 6 KV heads",
)


def alternative_labels(diagnosis: Diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_listed_ratio_limit_is_the_kernels_constraint() -> None:
    diagnosis = diagnose_text("run/engine.log", RATIO_LIMIT)
    assert_reads(
        diagnosis, "op_constraint", first_error="must be one of {16, 32, 64}", beside=("config",)
    )


def test_a_ratio_check_without_supported_values_is_no_op_limit() -> None:
    diagnosis = diagnose_text("run/engine.log", RATIO_WITHOUT_VALUES)
    assert diagnosis.category != "op_constraint"
    assert diagnosis.first_error is not None
    assert "must be a whole number" in diagnosis.first_error.text


OP_CHECK = """\
[rank1]: RuntimeError: EZ9999: Inner Error!
[rank1]: EZ9999: [PID: 7021] 2026-04-02-11:12:13.141.516 numHeads / numKvHeads = 16, MLA only support {32, 64, 128}.[FUNC:CheckMlaAttrs][FILE:demo_attention_tiling_check.cc][LINE:402]
"""

# Counterexample: the same op refusing a ratio without naming a set it takes.
OP_CHECK_WITHOUT_SET = """\
[rank1]: RuntimeError: EZ9999: Inner Error!
[rank1]: EZ9999: [PID: 7021] 2026-04-02-11:12:13.141.516 numHeads / numKvHeads = 7.5 is not an integer.[FUNC:CheckAttrs][FILE:demo_attention_tiling_check.cc][LINE:380]
"""


def test_the_ops_own_ratio_check_with_its_set_is_the_same_limit() -> None:
    diagnosis = diagnose_text("run/worker.log", OP_CHECK)
    assert_reads(diagnosis, "op_constraint", first_error="MLA only support {32, 64, 128}")
    assert {"operator", "config"} <= alternative_labels(diagnosis)


def test_the_ops_ratio_check_without_a_set_keeps_the_ops_reading() -> None:
    diagnosis = diagnose_text("run/worker.log", OP_CHECK_WITHOUT_SET)
    assert diagnosis.category != "op_constraint"
    assert diagnosis.first_error is not None
    assert "is not an integer" in diagnosis.first_error.text
