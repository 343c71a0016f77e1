"""An operator attribute checked against the settings the operator accepts.

docs/labelling.md#an-operator-name-decides-nothing: an op's check that names one of its
attributes with the values it supports (`groups = 1 or groups = cin`) states a limit of the op:
`op_constraint`, with `operator` and `config` offered. A dtype list and a notice that a faster
path falls back name no such limit. Fixtures follow torchrun's `[rankN]:` prefix and torch_npu's
aclnn error text; hosts, paths and numbers are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text


def ranked(rank: int, *lines: str) -> str:
    return "".join(f"[rank{rank}]: {line}\n" for line in lines)


GROUPS_LIMIT = ranked(
    2,
    '  File "/opt/envs/vid/lib/python3.10/site-packages/torch/nn/modules/conv.py", line 610, '
    "in _conv_forward",
    "    return F.conv3d(",
    "RuntimeError: call aclnnConvolution failed, detail:EZ1001: [PID: 6120] "
    "2026-03-11-09:14:52.203.118 Conv3dv2 only supports groups = 1 or groups = cin",
    "        TraceBack (most recent call last):",
    "        conv3d raise an unknown error",
    '        check the condition which is "ret == ACLNN_SUCCESS" failed, except the condition '
    "is true.",
)

DTYPE_REFUSED = ranked(
    2,
    "RuntimeError: call aclnnConvolution failed, detail:EZ1001: [PID: 6120] "
    "2026-03-11-09:14:52.203.118 the op only supports dtype = float16 or bfloat16, but got float32",
    "        TraceBack (most recent call last):",
    "        conv3d raise an unknown error",
)


def test_an_attribute_named_with_its_supported_values_is_the_ops_limit() -> None:
    diagnosis = diagnose_text("launch/infer.log", GROUPS_LIMIT)
    assert_reads(diagnosis, "op_constraint", first_error="only supports groups = 1 or groups = cin")
    assert {"operator", "config"} <= {a.category for a in diagnosis.alternatives}


def test_a_dtype_list_stays_the_ops_refusal_of_its_arguments() -> None:
    diagnosis = diagnose_text("launch/infer.log", DTYPE_REFUSED)
    assert diagnosis.category == "operator", diagnosis.root_cause
