"""A communicating (MC2) operator whose tiling failed with no reason line kept.

docs/labelling.md#wrappers: `X do tiling failed, ret is -1.` is the op's own line that its
host tiling step gave up. Alone it stays the first error and the operator's, below the
confident band. When X is an op that communicates (the MoE dispatch and combine ops, matmuls
fused with a collective), its tiling also checks the HCCL window, the experts per rank and the
communication settings, so `hccl` and `op_constraint` are offered beside it. When the check
that failed was kept (the window too small), that line decides. Fixtures are ours, in the
shape an engine's worker console prints; the counterexample is a computing op's line.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

MC2_WORKERS = """\
(Worker_TP0_EP0 pid=7201) ERROR 03-04 05:06:07 [multiproc_executor.py:671]   File "/srv/engine/ops/fused_moe.py", line 318, in forward_impl
(Worker_TP1_EP1 pid=7202) ERROR 03-04 05:06:07 [multiproc_executor.py:671]         TraceBack (most recent call last):
(Worker_TP1_EP1 pid=7202) ERROR 03-04 05:06:07 [multiproc_executor.py:671]        MoeDistributeCombineV2 do tiling failed, ret is -1.
(Worker_TP0_EP0 pid=7201) ERROR 03-04 05:06:07 [multiproc_executor.py:671]     final_hidden_states = self.quant_method.apply(
(Worker_TP1_EP1 pid=7202) ERROR 03-04 05:06:07 [multiproc_executor.py:671]        Check NnopbaseExecutorDoTiling(executor) failed
(Worker_TP1_EP1 pid=7202) ERROR 03-04 05:06:07 [multiproc_executor.py:671]        Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed
"""

COMPUTE_OP_WORKERS = MC2_WORKERS.replace("MoeDistributeCombineV2", "FlashAttentionScore")

WINDOW_KEPT = """\
[PID: 7202] 2026-03-04-05:06:07.101.202 Execution_Error(EZ1008): Failed to execute operator MoeDistributeCombineV2_9. Reason: Failed to execute tiling function.
TraceBack (most recent call last):
        HCCL_BUFFSIZE is too SMALL, maxBs = 32, h = 4096, NEEDED_HCCL_BUFFSIZE = 420MB, HCCL_BUFFSIZE=200MB.[FUNC:CheckWinSize][FILE:moe_distribute_combine_v2_tiling.cpp][LINE:210]
        MoeDistributeCombineV2 do tiling failed, ret is -1.
"""


def test_a_communicating_ops_bare_tiling_failure_offers_the_window_and_the_limit() -> None:
    diagnosis = diagnose_text("serve.log", MC2_WORKERS)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert diagnosis.confidence < 0.8
    assert diagnosis.first_error is not None
    assert "MoeDistributeCombineV2 do tiling failed" in diagnosis.first_error.text
    offered = {alt.category for alt in diagnosis.alternatives}
    assert {"hccl", "op_constraint"} <= offered


def test_a_computing_ops_bare_tiling_failure_offers_no_collective() -> None:
    diagnosis = diagnose_text("serve.log", COMPUTE_OP_WORKERS)
    assert diagnosis.category == "operator", diagnosis.root_cause
    assert "hccl" not in {alt.category for alt in diagnosis.alternatives}


def test_the_kept_window_check_decides() -> None:
    diagnosis = diagnose_text("plog.log", WINDOW_KEPT)
    assert_reads(diagnosis, "hccl", first_error="HCCL_BUFFSIZE is too SMALL")
