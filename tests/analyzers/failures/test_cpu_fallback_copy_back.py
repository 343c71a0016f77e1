"""An op the NPU backend lacks, run on the CPU, whose result cannot be copied back.

docs/labelling.md#operator-installation-or-platform-limit: torch_npu runs an aten op it has no
NPU kernel for on the CPU (the npu_cpu_fallback warning names it), then copies the result into
the NPU output; a result of another size is refused with `_copy_from_and_resize now only
support copy with same size!` and summed up as ERR01007. That refusal is the first error, the
label is `operator`, and `config` is offered beside it. The fixtures are written in that shape
with our own op names, paths and times.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FALLBACK_COPY_BACK = """\
[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_qr.out' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)
Traceback (most recent call last):
  File "/srv/fit/solve_npu.py", line 17, in <module>
    q, r = torch.linalg.qr(batch.npu())
RuntimeError: _copy_from_and_resize now only support copy with same size!
[ERROR] 2026-05-07-09:14:02 (PID:7731, Device:2, RankID:2) ERR01007 OPS feature not supported
"""

FALLBACK_WARNING_ONLY = """\
[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_qr.out' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)
step 10  loss 2.4102
step 20  loss 2.1877
"""


def test_a_refused_copy_back_after_a_cpu_fallback_is_the_operator_with_config_beside_it() -> None:
    diagnosis = diagnose_text("rank2.log", FALLBACK_COPY_BACK)
    assert_reads(
        diagnosis,
        "operator",
        first_error="_copy_from_and_resize now only support copy",
        beside=("config",),
    )
    assert diagnosis.confidence >= 0.5


def test_the_fallback_warning_alone_is_no_failure() -> None:
    diagnosis = diagnose_text("rank2.log", FALLBACK_WARNING_ONLY)
    assert diagnosis.first_error is None
    assert diagnosis.category != "operator"
