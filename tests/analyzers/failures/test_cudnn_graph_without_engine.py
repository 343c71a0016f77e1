"""cuDNN's graph API finding no engine that can run the graph an op built.

docs/labelling.md#a-cudnn-graph-with-no-engine-for-it: cuDNN's frontend answers a graph it has
no kernel for (`[cudnn_frontend] Error: No execution plans built successfully`, `No execution
plans support the graph`; torch's own cuDNN path says `GET was unable to find an engine to
execute this computation`). The op asked for a configuration this cuDNN build and card do not
cover: `operator`, with the release (`config`) and the installed cuDNN (`driver_env`) beside it.
The fixtures follow Transformer Engine's fused-attention check and torch's convolution path,
with paths and line numbers of our own; one has two ranks' messages run together on one line,
as several ranks writing to one terminal leave them.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

FUSED_ATTENTION_NO_PLAN = """\
[rank1]:   File "/opt/env/lib/python3.10/site-packages/transformer_engine/pytorch/cpp_extensions/fused_attn.py", line 912, in fused_attn_fwd
[rank1]:     output_tensors = tex.fused_attn_fwd(
[rank1]: RuntimeError: /src/te/transformer_engine/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:231 in function operator(): cuDNN Error: [cudnn_frontend] Error: No execution plans built successfully.. For more information, enable cuDNN error logging by setting CUDNN_LOGERR_DBG=1 and CUDNN_LOGDEST_DBG=stderr in the environment.
"""

# Two ranks' exceptions written over each other on one line.
INTERLEAVED_NO_PLAN = """\
RuntimeErrorRuntimeError: RuntimeError/work/te/common/fused_attn/fused_attn_f16_arbitrary_seqlen.cu:240 in function operator(): cuDNN Error: [cudnn_frontend] Error: No execution plans support the graph. For more information, enable cuDNN error logging by setting CUDNN_LOGERR_DBG=1 and CUDNN_LOGDEST_DBG=stderr in the environment.RuntimeError
"""

TORCH_CONV_NO_ENGINE = """\
  File "/opt/env/lib/python3.11/site-packages/torch/nn/modules/conv.py", line 549, in _conv_forward
    return F.conv2d(
RuntimeError: GET was unable to find an engine to execute this computation
"""

# Counterexample: a debug line that counts the plans cuDNN did build.
PLANS_BUILT_NOTE = """\
cudnn_frontend: 12 execution plans built successfully for graph sdpa_fwd
"""


def test_a_fused_attention_graph_with_no_plan_is_the_operator() -> None:
    diagnosis = diagnose_text("logs/rank1.log", FUSED_ATTENTION_NO_PLAN)
    assert_reads(
        diagnosis,
        "operator",
        first_error="No execution plans built successfully",
        beside=("config",),
    )


def test_ranks_written_over_each_other_read_the_same() -> None:
    diagnosis = diagnose_text("logs/train.log", INTERLEAVED_NO_PLAN)
    assert_reads(diagnosis, "operator", first_error="No execution plans support the graph")


def test_torchs_own_cudnn_path_finding_no_engine_reads_alike() -> None:
    diagnosis = diagnose_text("logs/train.log", TORCH_CONV_NO_ENGINE)
    assert_reads(diagnosis, "operator", first_error="unable to find an engine")


def test_a_note_that_counts_built_plans_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/train.log", PLANS_BUILT_NOTE)
    assert diagnosis.first_error is None
