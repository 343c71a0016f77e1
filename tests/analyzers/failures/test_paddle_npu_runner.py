"""Paddle's NPU plugin reporting a graph-engine code for the op it was running.

docs/labelling.md#wrappers: the Paddle custom-device NPU plugin runs an op through ACL's
single-op path and, when the call fails, raises the ACL code with the file of its op runner
and names the op on the next line (`[operator < X > error]`). A graph-engine code there
(500001, 500002) says the engine could not build or run the op, read like torch_npu's
single-op headline: `operator`, with `config` and `driver_env` beside it, and the line is the
first error. Other codes keep their table's reading.

The traceback shape follows the plugin's `OSError: (External) ACL error ...` form; paths,
line numbers and op names are made up.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text

TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/app/infer.py", line 41, in run\n'
    "    self.predictor.run()\n"
)


def runner_error(code: str, op: str) -> str:
    return TRACE + (
        f"OSError: (External)  ACL error, the error code is : {code}.  "
        "(at /work/PaddleCustomDevice/backends/npu/kernels/funcs/npu_op_runner.cc:512)\n"
        f"  [operator < {op} > error]\n"
    )


@pytest.mark.parametrize(("code", "op"), [("500002", "relu6"), ("500001", "scale")])
def test_a_graph_engine_code_from_the_runner_is_the_ops_with_the_install_beside(
    code: str, op: str
) -> None:
    diagnosis = diagnose_text("ocr/server.log", runner_error(code, op))
    assert diagnosis.category == "operator"
    assert diagnosis.first_error is not None
    assert f"error code is : {code}" in diagnosis.first_error.text
    assert {"config", "driver_env"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_device_code_from_the_same_runner_keeps_its_own_reading() -> None:
    # 507033: the runtime could not open the device; not a graph-engine failure of the op
    diagnosis = diagnose_text("ocr/server.log", runner_error("507033", "matmul"))
    assert diagnosis.category != "operator"
