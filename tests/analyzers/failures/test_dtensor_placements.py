"""A tensor-parallel plan whose placements DTensor cannot carry through the model's ops.

DTensor found a mesh and a rule for the op, but the inputs' placements do not fit it: a view
that flattens a sharded dimension, or a plan that asks for a redistribution into Partial. The
plan does not fit the model's code, so the label is `config` with `operator` and `other` as
the alternatives (docs/labelling.md#dtensor-parameters-under-a-wrapper-that-does-not-know-them).
Excerpts follow torchrun's `[rankN]:` tracebacks through DTensor's dispatcher, with values of
our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

DISPATCH_FRAMES = """\
[rank{r}]: Traceback (most recent call last):
[rank{r}]:   File "/work/lm/train.py", line 311, in <module>
[rank{r}]:     loss = model(batch).sum()
[rank{r}]:   File "/work/lm/blocks.py", line 88, in forward
[rank{r}]:     h = h.view(bsz * seqlen, -1)
[rank{r}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/tensor/_api.py", line 346, in __torch_dispatch__
[rank{r}]:     return DTensor._op_dispatcher.dispatch(
[rank{r}]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/tensor/_dispatch.py", line 160, in dispatch
[rank{r}]:     self.sharding_propagator.propagate(op_info)
"""

FLATTEN_REFUSED = "".join(
    DISPATCH_FRAMES.format(r=r)
    + f"[rank{r}]: RuntimeError: ('Attempted to flatten sharded dimension 1, ', 'but only the leftmost dim of a Flatten can be sharded.')\n"
    + f"[rank{r}]: \n"
    + f"[rank{r}]: The above exception was the direct cause of the following exception:\n"
    + f"[rank{r}]: RuntimeError: Sharding propagation failed for Op(op=aten.view.default, args_schema=Spec((Shard(dim=1),) on (2, 256, 512)), [512, 512] @ mesh: (2,))\n"
    for r in (0, 1)
) + (
    "E0611 09:40:12.551000 2210 torch/distributed/elastic/multiprocessing/api.py:869] failed "
    "(exitcode: 1) local_rank: 0 (pid: 2236) of binary: /opt/venv/bin/python\n"
)

PARTIAL_REFUSED = """\
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/tensor/_api.py", line 541, in redistribute
[rank2]:     raise RuntimeError(
[rank2]: RuntimeError: Can not redistribute from R to P(sum), redistributing to Partial is for internal use only!
"""


def test_a_view_of_a_sharded_dimension_is_the_plan_not_the_op() -> None:
    diagnosis = diagnose_text("launcher.log", FLATTEN_REFUSED)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    # the inner reason, printed before the propagation error that wraps it
    assert "Attempted to flatten sharded dimension 1" in diagnosis.first_error.text
    assert "cfg.dtensor_placement_refused" in rules_of(diagnosis)
    assert {"operator", "other"} <= {alt.category for alt in diagnosis.alternatives}


def test_a_redistribution_into_partial_is_the_plan() -> None:
    diagnosis = diagnose_text("rank2.log", PARTIAL_REFUSED)
    assert_reads(diagnosis, "config", first_error="redistribute from R to P(sum)")


def test_a_failure_that_only_passes_through_dtensor_frames_keeps_its_own_reading() -> None:
    text = (
        DISPATCH_FRAMES.format(r=0)
        + "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 6.00 GiB. "
        "GPU 0 has a total capacity of 79.10 GiB of which 2.31 GiB is free.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.dtensor_placement_refused" not in rules_of(diagnosis)


def test_a_flatten_of_several_dimensions_one_of_them_sharded_is_the_plan() -> None:
    # the wording of releases that name the flattened group instead of the sharded dimension
    text = (
        DISPATCH_FRAMES.format(r=3)
        + '[rank3]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/tensor/_ops/'
        '_view_ops.py", line 560, in get_in_dim_to_shard\n'
        "[rank3]:     raise RuntimeError(\n"
        "[rank3]: RuntimeError: ('Attempted to flatten multiple dimensions, with dimension 2 being "
        "sharded. ', 'It cannot be performed without redistribution, which is disallowed by the "
        "current operator.')\n"
    )
    diagnosis = diagnose_text("rank3.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="with dimension 2 being sharded",
        rule="cfg.dtensor_placement_refused",
    )


# The propagator's own rule-based path words its refusal `failed on op <schema>` (with the
# rule's reason on an `Error:` line below, or `!` and no reason), not `failed for <schema>`.
RULE_PATH_FRAMES = """\
2026-03-02T08:14:05.104417Z   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/tensor/_sharding_prop.py", line 451, in propagate_op_sharding_non_cached
2026-03-02T08:14:05.104421Z     raise RuntimeError(
"""


def test_the_rule_paths_wording_on_op_is_the_plan() -> None:
    text = RULE_PATH_FRAMES + (
        "2026-03-02T08:14:05.104430Z RuntimeError: Sharding propagation failed on op "
        "Op(op=aten.addmm.default, args_schema=Spec(S(0) on (768,)), Spec(R on (6, 384)), "
        "Spec(S(1) on (384, 768)) @ mesh: (2,)).\n"
        "2026-03-02T08:14:05.104436Z Error: \n"
        "2026-03-02T08:14:05.611002Z [rank1]:[W302 08:14:05.611002 ProcessGroupNCCL.cpp:1476] "
        "Warning: WARNING: destroy_process_group() was not called before program exit, which "
        "can leak resources.\n"
    )
    diagnosis = diagnose_text("worker.log", text)
    assert_reads(
        diagnosis,
        "config",
        first_error="failed on op Op(op=aten.addmm.default",
        rule="cfg.dtensor_placement_refused",
    )
    assert "operator" in {alt.category for alt in diagnosis.alternatives}


def test_the_propagators_frame_alone_is_no_refusal() -> None:
    diagnosis = diagnose_text("worker.log", RULE_PATH_FRAMES)
    assert "cfg.dtensor_placement_refused" not in rules_of(diagnosis)
