"""An ATB operation that the op-plugin could not create.

docs/labelling.md#an-operator-name-decides-nothing: `<Name>Operation CreateOperation failed!`
is the op layer refusing on the host, `operator` with `config` beside it and below the
confident band; torch_npu's summary after it restates it. Values are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CREATE_REFUSED = """\
Traceback (most recent call last):
  File "/srv/check_op.py", line 9, in <module>
    torch_npu._npu_fused_add(a, b, out)
  File "/opt/env/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", line 90, in wrapper
    return api_func(*args, **kwargs)
RuntimeError: ElewiseOperation CreateOperation failed!
[ERROR] 2026-03-02-10:14:07 (PID:5120, Device:0, RankID:-1) ERR99999 UNKNOWN applicaiton exception
"""

CREATE_TIMED = """\
DEBUG atb CreateOperation for ElewiseOperation took 14 us
INFO step 1 done
"""


def test_an_operation_atb_will_not_create_is_the_operators() -> None:
    diagnosis = diagnose_text("serve/check.log", CREATE_REFUSED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="ElewiseOperation CreateOperation failed",
        rule="op.atb_operation_create_failed",
        beside=["config"],
    )
    assert diagnosis.confidence < 0.8


def test_a_timed_creation_is_no_failure() -> None:
    diagnosis = diagnose_text("serve/check.log", CREATE_TIMED)
    assert "op.atb_operation_create_failed" not in rules_of(diagnosis)
