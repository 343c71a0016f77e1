"""torch.compile refusing an FSDP wrapper's settings, and ops that meet plain and sharded tensors.

TorchDynamo traces FSDP1 only with `use_orig_params=True` and only through the parts of the
wrapper it models, so a compile with flat parameters, or a fullgraph compile that meets the
wrapper's own attribute writes, stops before any graph runs: the options do not fit, `config`
with `other` as the alternative (docs/labelling.md#a-compiler-that-refuses-a-sharding-wrapper);
so is DDP's graph splitter refusing a captured graph that holds a higher-order op.
An op that receives a plain tensor next to DTensors is a tensor left out of the sharding,
`config` with `operator` as the alternative
(docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them). Excerpts in
torchrun's and a trainer's formats, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FLAT_PARAMS = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/lm/train.py", line 140, in <module>
[rank1]:     trainer.train()
[rank1]:   File "/opt/venv/lib/python3.10/site-packages/torch/_dynamo/variables/builder.py", line 1207, in wrap_module
[rank1]:     assert getattr(value, "_fsdp_use_orig_params", False), (
[rank1]: AssertionError: Dynamo only supports FSDP with use_orig_params=True
E0302 11:20:05.118000 5120 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 5142) of binary: /opt/venv/bin/python
"""

FULLGRAPH_SETATTR = """\
0: [rank0]:   File "/opt/venv/lib/python3.10/site-packages/torch/_dynamo/variables/nn_module.py", line 838, in call_function
0: An error occurred: Unsupported – setattr(FSDPManagedNNModuleVariable(FullyShardedDataParallel), _is_root, ...)
"""

MIXED_TENSORS = """\
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/tensor/_dispatch.py", line 452, in _try_replicate_spec_for_scalar_tensor
[rank2]:     raise RuntimeError(
[rank2]: RuntimeError: aten.addmm.default: got mixed torch.Tensor and DTensor, need to convert all torch.Tensor to DTensor before calling distributed operators!
[rank5]: Traceback (most recent call last):
[rank5]:   File "/srv/ft/recipe.py", line 77, in <module>
[rank5]:     loss = step(batch)
"""

# An older release names the op without a colon, and the terminal wrapped the message.
MIXED_TENSORS_NO_COLON = """\
2026-03-11 08:02:41 INFO train: step 0 starting (tp=2, dp_shard=4)
RuntimeError: aten.nll_loss_forward.default got mixed torch.Tensor and DTensor,
need to convert all torch.Tensor to DTensor before calling distributed operators!
"""

# The message retyped by hand into a report, in lower case.
MIXED_TENSORS_RETYPED = """\
runtimeerror: aten._foreach_norm.Scalar: got mixed torch.tensor and DTensor, need to convert all torch.tensor to DTensor before calling distributed operators.
"""

# The message quoted on its own above the tail of the traceback it ended (no op, no class).
MIXED_TENSORS_QUOTED_ALONE = """\
got mixed torch.Tensor and DTensor, need to convert all torch.Tensor to DTensor before calling distributed operators!

[rank3]:   File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/module.py", line 1762, in _call_impl
[rank3]:     return forward_call(*args, **kwargs)
[rank3]:   File "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/normalization.py", line 217, in forward
[rank3]:     return F.layer_norm(
"""


def test_compiling_fsdp_with_flat_parameters_is_a_setting() -> None:
    diagnosis = diagnose_text("launcher.log", FLAT_PARAMS)
    assert_reads(
        diagnosis,
        "config",
        first_error="Dynamo only supports FSDP",
        rule="cfg.dynamo_refuses_fsdp",
        beside=("other",),
    )


def test_a_fullgraph_refusal_of_the_wrapper_is_the_first_error() -> None:
    diagnosis = diagnose_text("slurm.log", FULLGRAPH_SETATTR)
    assert_reads(diagnosis, "config", first_error="FSDPManagedNNModuleVariable")


def test_a_plain_tensor_among_dtensors_is_a_tensor_left_out_of_the_sharding() -> None:
    diagnosis = diagnose_text("stdout.log", MIXED_TENSORS)
    assert_reads(
        diagnosis,
        "config",
        first_error="got mixed torch.Tensor and DTensor",
        rule="cfg.dtensor_without_mesh",
    )


def test_the_mixed_tensor_refusal_without_a_colon_after_the_op_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("train.log", MIXED_TENSORS_NO_COLON)
    assert_reads(
        diagnosis,
        "config",
        first_error="nll_loss_forward.default got mixed",
        rule="cfg.dtensor_without_mesh",
    )


def test_the_mixed_tensor_refusal_retyped_in_lower_case_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("report.txt", MIXED_TENSORS_RETYPED)
    assert_reads(
        diagnosis,
        "config",
        first_error="got mixed torch.tensor and DTensor",
        rule="cfg.dtensor_without_mesh",
    )


def test_the_mixed_tensor_refusal_quoted_alone_is_the_same_refusal() -> None:
    diagnosis = diagnose_text("report.txt", MIXED_TENSORS_QUOTED_ALONE)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.startswith("got mixed torch.Tensor and DTensor")
    assert "cfg.dtensor_without_mesh" in rules_of(diagnosis)


# DDP's graph splitter under torch.compile refusing a graph with activation checkpointing in it
# (docs/labelling.md#a-compiler-that-refuses-a-sharding-wrapper).
DDP_SPLIT_REFUSED = """\
  File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/output_graph.py", line 1031, in call_user_compiler
    raise BackendCompilerFailed(self.compiler_fn, e).with_traceback(
  File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/output_graph.py", line 1012, in call_user_compiler
    compiled_fn = compiler_fn(gm, self.example_inputs())
  File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/backends/distributed.py", line 231, in compile_fn
    raise NotImplementedError(
torch._dynamo.exc.BackendCompilerFailed: backend='compile_fn' raised:
NotImplementedError: DDPOptimizer backend: Found a higher order op in the graph. This is not supported. Please turn off DDP optimizer using torch._dynamo.config.optimize_ddp=False. Note that this can cause performance degradation because there will be one bucket for the entire Dynamo graph.

Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information
"""


def test_the_ddp_graph_splitter_refusing_a_higher_order_op_is_a_setting() -> None:
    diagnosis = diagnose_text("train.log", DDP_SPLIT_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.confidence >= 0.6, diagnosis.confidence
    assert diagnosis.first_error is not None
    assert "Found a higher order op in the graph" in diagnosis.first_error.text
    assert "cfg.ddp_graph_split_refused" in rules_of(diagnosis)
    assert "other" in {alt.category for alt in diagnosis.alternatives}
    assert any("optimize_ddp = False" in action for action in diagnosis.next_actions)
