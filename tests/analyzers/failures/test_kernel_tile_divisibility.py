"""Kernels built around fixed tiles that refuse a dimension the tiles do not divide.

docs/labelling.md#a-kernel-tile-that-the-split-dimension-does-not-fill: a GPU kernel's host
check that the problem dimension it was handed is a whole number of its tiles (`size_k must
divisible by BLOCK_SIZE_K`, `prob_m = ... is not divisible by thread_m = ...`) is the kernel's
own limit, `op_constraint`, with `operator` and `config` beside it and below the confident band,
even when only a serving engine's one-line restatement of the worker's failure was kept. The
same check raised while a quantized weight is created for its rank stays the per-rank slice of
that weight (`weight_load`).

Fixtures follow the shapes of a serving engine's worker lines and its summary line, with sizes,
paths and process ids of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# The engine's summary line is all that was kept: it quotes the MoE GEMM's check.
ENGINE_SUMMARY_ONLY = """\
RuntimeError: Worker failed with error 'size_k must divisible by BLOCK_SIZE_K', please check the stack trace above for the root cause
"""

# A Marlin-style GEMM's check, at the end of a worker's traceback during the warm-up run.
WORKER_GEMM_CHECK = """\
(Worker_TP2 pid=4410) ERROR 03-02 10:11:12 [multiproc_executor.py:600]   File "/srv/venv/lib/python3.12/site-packages/vllm/_custom_ops.py", line 880, in gptq_marlin_24_gemm
(Worker_TP2 pid=4410) ERROR 03-02 10:11:12 [multiproc_executor.py:600]     return torch.ops._C.gptq_marlin_24_gemm(a, b_q_weight, b_meta, b_scales,
(Worker_TP2 pid=4410) ERROR 03-02 10:11:12 [multiproc_executor.py:600] RuntimeError: prob_m = 1000 is not divisible by thread_m = 512
"""

# The check raised while the quantized layer's weights are created: the weight's slice.
WEIGHT_CREATION_CHECK = """\
(Worker_TP1 pid=4409) ERROR 03-02 10:11:02 [multiproc_executor.py:600] ValueError: Weight input_size_per_partition = 3000 is not divisible by min_thread_k = 128. Consider reducing tensor_parallel_size or running with --quantization gptq.
"""

# A line that prints the kernel's tile sizes is no error.
TILE_SIZES_PRINTED = """\
INFO 03-02 10:10:58 [fused_moe.py:700] moe_wna16 config: size_k=2048 BLOCK_SIZE_K=64 BLOCK_SIZE_N=128
INFO 03-02 10:11:40 [api_server.py:1000] Starting vLLM API server on http://0.0.0.0:8000
"""


def alternatives(diagnosis) -> set[str]:
    return {alt.category for alt in diagnosis.alternatives}


def test_a_quoted_tile_check_in_the_engine_summary_is_the_kernels_limit() -> None:
    diagnosis = diagnose_text("serve/server.log", ENGINE_SUMMARY_ONLY)
    assert_reads(diagnosis, "op_constraint", first_error="size_k must divisible by BLOCK_SIZE_K")
    assert {"operator", "config"} <= alternatives(diagnosis)
    assert diagnosis.confidence < 0.8


def test_a_gemm_tile_check_in_a_worker_traceback_is_the_kernels_limit() -> None:
    diagnosis = diagnose_text("serve/worker_2.log", WORKER_GEMM_CHECK)
    assert_reads(diagnosis, "op_constraint", first_error="is not divisible by thread_m")
    assert "operator" in alternatives(diagnosis)


def test_the_check_at_weight_creation_stays_the_weights_slice() -> None:
    """Counterexample: `input_size_per_partition ... min_thread_k` is the quantized weight."""
    diagnosis = diagnose_text("serve/worker_1.log", WEIGHT_CREATION_CHECK)
    assert diagnosis.category == "weight_load", diagnosis.root_cause


def test_printed_tile_sizes_are_no_error() -> None:
    """Counterexample: a configuration line naming the tiles."""
    diagnosis = diagnose_text("serve/server.log", TILE_SIZES_PRINTED)
    assert diagnosis.category != "op_constraint", diagnosis.root_cause
