"""A detail line written from an operator's tiling source is the op refusing its inputs.

docs/labelling.md#an-operator-name-decides-nothing: the error manager ends each detail line
with the function and file that wrote it, and a `*_tiling.cpp` / `*_tiling.cc` file is the
op's host-side check, so the line is `operator` and the first error, whatever its words.
The excerpts are ours, in the shapes CANN and the serving wrappers print; the counterexamples
are lines whose writer is not a tiling source, and a tiling line a more specific rule reads.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Four tensor-parallel workers write into one console; the op's check is on worker 2, the
# other workers print only the trace and Python frames around it.
INTERLEAVED_WORKERS = """\
(Worker TP0 pid=5101) ERROR 04-02 10:11:12 [multiproc_executor.py:602]     return self._op(*args, **(kwargs or {}))
(Worker TP1 pid=5102) ERROR 04-02 10:11:12 [multiproc_executor.py:602]        Check NnopbaseExecutorTilingAndUpdateBinInfo(executor) failed
(Worker TP2 pid=5103) ERROR 04-02 10:11:12 [multiproc_executor.py:602] EZ9999: [PID: 5103] 2026-04-02-10:11:12.404.505 top_k should be greater than 0[FUNC:CheckAttr][FILE:moe_gating_tiling.cpp][LINE:88]
(Worker TP2 pid=5103) ERROR 04-02 10:11:12 [multiproc_executor.py:602]         TraceBack (most recent call last):
(Worker TP1 pid=5102) ERROR 04-02 10:11:12 [multiproc_executor.py:602]        Check NnopbaseExecutorMatchCache(executor) failed
(Worker TP0 pid=5101) ERROR 04-02 10:11:12 [multiproc_executor.py:602]   File "/srv/engine/ops/moe.py", line 51, in route
"""

PLAIN_BLOCK = """\
RuntimeError: call aclnnPagedAttention failed, detail:EZ9999: Inner Error!
EZ9999: [PID: 812] 2026-05-06-07:08:09.010.011 num_heads 20 must be divisible by kv_heads 3[FUNC:CheckShape][FILE:paged_attention_tiling_base.cc][LINE:310]
        TraceBack (most recent call last):
        PagedAttention do tiling failed, ret is -1.
"""

# Counterexamples: the writer is the runtime's error table, not a tiling source.
RUNTIME_REASON = """\
EE9999: Inner Error!
EE9999[PID: 812] 2026-05-06-07:08:09.010.011 (EE9999):  rtStreamSynchronize execution failed, reason=aicore timeout[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]
RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:488 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507014
"""

# ... and a tiling line whose words a more specific rule reads: an expert count the op does
# not support stays the op's documented limit.
EXPERT_COUNT_LIMIT = """\
EZ9999: Inner Error!
EZ9999: [PID: 812] 2026-05-06-07:08:09.010.011 expert count is: 96, but currently only support 256.[FUNC:CheckInputShape][FILE:moe_gating_top_k_tiling.cpp][LINE:160]
"""


# ... and a trace line under a headline another rule reads: it names a tiling source but only
# restates the headline, so it neither takes the first place nor contests the label.
DOCUMENTED_LIMIT_WITH_TRACE = """\
EZ9999: Inner Error!
EZ9999[PID: 812] 2026-05-06-07:08:09.010.011 (EZ9999):  expert count is: 96, but currently only support 256.
        TraceBack (most recent call last):
       fail to analyze shape info.[FUNC:GetShapeAttrsInfo][FILE:moe_gating_top_k_tiling.cpp][LINE:120]
"""


@pytest.mark.parametrize(
    ("text", "category", "first"),
    [
        (INTERLEAVED_WORKERS, "operator", "top_k should be greater than 0"),
        (PLAIN_BLOCK, "operator", "must be divisible by kv_heads 3"),
        (RUNTIME_REASON, "aicore_timeout", "reason=aicore timeout"),
        (EXPERT_COUNT_LIMIT, "op_constraint", "expert count is: 96"),
    ],
    ids=["interleaved workers", "plain block", "runtime reason", "expert count limit"],
)
def test_tiling_source_line(text: str, category: str, first: str) -> None:
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(diagnosis, category, first_error=first)


def test_tiling_source_line_is_trusted() -> None:
    """Read from its source file, the check is a cause the report can stand behind."""
    diagnosis = diagnose_text("worker.log", INTERLEAVED_WORKERS)
    assert diagnosis.confidence >= 0.7


def test_trace_line_does_not_contest_the_headline() -> None:
    """A restating trace line leaves the headline's reading as sure as it was alone."""
    alone = diagnose_text(
        "worker.log", DOCUMENTED_LIMIT_WITH_TRACE.rsplit("        TraceBack", 1)[0]
    )
    with_trace = diagnose_text("worker.log", DOCUMENTED_LIMIT_WITH_TRACE)
    assert_reads(with_trace, "op_constraint", first_error="expert count is: 96")
    assert with_trace.confidence >= alone.confidence


# The detail line pasted without the code and PID in front of it (an issue's title or a log cut
# to the sentence that mattered), then the launcher's record of the rank that died of it.
BARE_DETAIL_OVER_LAUNCHER = """\
When layout is BSND, the pse input is required, but now is nullptr![FUNC:CheckPseInput][FILE:fused_infer_attention_score_tiling.cpp][LINE:870]
  rank      : 2 (local_rank: 2)
  exitcode  : 1 (pid: 4410)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
"""

# Counterexample: a bare tiling line that only says a step failed restates some headline the
# paste dropped; it names no refusal, so the launcher's record keeps its reading.
BARE_STEP_FAILED_OVER_LAUNCHER = BARE_DETAIL_OVER_LAUNCHER.replace(
    "When layout is BSND, the pse input is required, but now is nullptr!",
    "fail to analyze shape info.",
)


def test_bare_detail_line_is_the_ops_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", BARE_DETAIL_OVER_LAUNCHER)
    assert_reads(
        diagnosis,
        "operator",
        first_error="the pse input is required, but now is nullptr",
        beside=("op_constraint",),
    )


def test_bare_step_failure_line_is_not_read_as_a_refusal() -> None:
    diagnosis = diagnose_text("launcher.log", BARE_STEP_FAILED_OVER_LAUNCHER)
    assert diagnosis.first_error is not None
    assert "fail to analyze shape info" not in diagnosis.first_error.text


def test_coded_detail_line_outweighs_a_bare_one() -> None:
    """A paste that keeps the coded detail line is read from it, not from a bare line below."""
    text = PLAIN_BLOCK + BARE_DETAIL_OVER_LAUNCHER
    diagnosis = diagnose_text("worker.log", text)
    assert diagnosis.first_error is not None
    assert "must be divisible by kv_heads 3" in diagnosis.first_error.text
