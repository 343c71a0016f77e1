"""torch_npu's inner-error summary that names a collective library's operator.

docs/labelling.md#an-operator-name-decides-nothing: when the summary is all that is left, an
operator name from HCCL or from the single-node LCCL library says the collective layer failed
(`hccl`, with `operator` offered); any other operator name keeps `operator`.

Fixtures follow the shape of a vLLM engine traceback; values are made up.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

ENGINE = "ERROR 01-02 03:04:05 engine.py:400] "


def summary(op: str) -> str:
    return "".join(
        f"{ENGINE}{line}\n"
        for line in (
            '  File "/opt/serve/ops/norm.py", line 40, in forward',
            "    out, residual = fused_add_norm(x, residual, weight)",
            "RuntimeError: The Inner error is reported as above. The process exits for this "
            f"inner error, and the current working operator name is {op}.",
        )
    )


@pytest.mark.parametrize(
    ("op", "label"),
    [
        ("lccl_reducescatter", "hccl"),
        ("HcclAllGather", "hccl"),
        ("LinearOperation", "operator"),
    ],
)
def test_a_collective_name_reads_as_the_collective_layer(op: str, label: str) -> None:
    diagnosis = diagnose_text("run/engine.log", summary(op))
    assert diagnosis.category == label
    assert diagnosis.first_error is not None
    assert f"operator name is {op}" in diagnosis.first_error.text


def test_the_operator_reading_is_offered_for_a_collective_name() -> None:
    diagnosis = diagnose_text("run/engine.log", summary("lccl_reducescatter"))
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


@pytest.mark.parametrize("op", ["Conv3D", "aclnnMatmul", "SelfAttentionOperation"])
def test_a_device_core_exception_is_offered_for_any_other_name(op: str) -> None:
    diagnosis = diagnose_text("run/engine.log", summary(op))
    assert diagnosis.category == "operator"
    assert "aicore_timeout" in {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.confidence < 0.5


def test_a_collective_name_is_not_offered_the_device_core_reading() -> None:
    diagnosis = diagnose_text("run/engine.log", summary("HcclAllGather"))
    assert diagnosis.category == "hccl"
    assert "aicore_timeout" not in {alt.category for alt in diagnosis.alternatives}
