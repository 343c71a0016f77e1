"""torch.compile failures of multi-rank jobs that come from the compiler's mode or its own passes.

A graph break becomes an exception only where the mode asks for one whole graph (fullgraph,
export, compiled autograd): the compile mode and the code do not fit, `config` with `other` as the
alternative (docs/labelling.md#a-graph-break-that-a-whole-graph-compile-refuses). A graph pass that
reads `.meta` on a plain number met a constant where a node belonged: a defect of the compiler,
`other` with `config` as the alternative
(docs/labelling.md#a-compiler-pass-handed-a-plain-value-for-a-graph-node). So is the shape
environment's assertion that a symbolic size lost the input it came from
(docs/labelling.md#a-compiler-that-loses-track-of-a-symbolic-size). Excerpts in torchrun's
format, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

FULLGRAPH_BREAK = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/seg/train.py", line 88, in <module>
[rank1]:     logits = model(images)
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/eval_frame.py", line 655, in _fn
[rank1]:     return fn(*args, **kwargs)
[rank1]: torch._dynamo.exc.Unsupported: call_method UserDefinedObjectVariable(PackedBatch) pin_to [] {}
E1107 09:41:20.511000 3301 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 1 (pid: 3320) of binary: /opt/venv/bin/python
"""

GRAPH_BREAK_NOTE = """\
[rank0]:V1107 09:40:02.118000 3319 torch/_dynamo/symbolic_convert.py:402] [0/0] [__graph_breaks] Graph break in user code at /srv/seg/train.py:61
[rank0]:V1107 09:40:02.118000 3319 torch/_dynamo/symbolic_convert.py:402] [0/0] [__graph_breaks] Reason: Unsupported: call_method UserDefinedObjectVariable(PackedBatch) pin_to [] {}
[rank0]:Epoch 3 step 200 loss 0.412
"""

SPLIT_PLAIN_VALUE = """\
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/backends/distributed.py", line 539, in compile_fn
[rank2]:     submod_compiler.run(*example_inputs)
[rank2]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
[rank2]: AttributeError: 'int' object has no attribute 'meta'
E1107 10:02:33.905000 4410 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 2 (pid: 4433) of binary: /opt/venv/bin/python
"""

USER_DATA_CLASS = """\
[rank0]:   File "/srv/det/hooks.py", line 40, in after_iter
[rank0]:     scale = sample.meta["scale_factor"]
[rank0]: AttributeError: 'DetSample' object has no attribute 'meta'
"""


def test_a_graph_break_refused_by_a_fullgraph_compile_is_a_setting() -> None:
    diagnosis = diagnose_text("launcher.log", FULLGRAPH_BREAK)
    assert_reads(
        diagnosis,
        "config",
        first_error="_dynamo.exc.Unsupported",
        rule="cfg.dynamo_whole_graph_break",
        beside=("other",),
    )


def test_a_graph_break_that_was_taken_is_no_error() -> None:
    diagnosis = diagnose_text("rank0.log", GRAPH_BREAK_NOTE)
    assert "cfg.dynamo_whole_graph_break" not in rules_of(diagnosis)


def test_a_plain_number_where_a_graph_node_belongs_is_a_compiler_defect() -> None:
    diagnosis = diagnose_text("launcher.log", SPLIT_PLAIN_VALUE)
    assert_reads(
        diagnosis,
        "other",
        first_error="'int' object has no attribute 'meta'",
        rule="framework.compiler_pass_plain_value",
        beside=("config",),
    )


def test_a_users_data_class_without_meta_keeps_the_config_reading() -> None:
    diagnosis = diagnose_text("rank0.log", USER_DATA_CLASS)
    assert diagnosis.category == "config"
    assert "framework.compiler_pass_plain_value" not in rules_of(diagnosis)


# The shape environment's own assertion that a symbolic size kept its source
# (docs/labelling.md#a-compiler-that-loses-track-of-a-symbolic-size).
SYMBOL_SOURCE_LOST = """\
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/torch/fx/experimental/symbolic_shapes.py", line 4770, in produce_guards_verbose
[rank1]:     assert symbol in symbol_to_source, (
[rank1]: AssertionError: s31 (could be from ["L['positions']._base.size()[0]"]) not in {
[rank1]: s30: ["L['mask'].size()[1]", "L['mask'].stride()[0]"],
[rank1]: s33: ["L['cache_pos'].size()[0]", "L['positions']._base.size()[0]"],
[rank1]: s31: []
[rank1]: }.  If this assert is failing, it could be due to the issue described in https://github.com/pytorch/pytorch/pull/90665
"""

SYMBOL_CREATED_NOTE = """\
V1105 10:02:11.123000 4410 torch/fx/experimental/symbolic_shapes.py:4601] [0/0] create_symbol s31 = 2048 for L['positions'].size()[1] [2, int_oo]
step 10 loss 2.41
"""


def test_a_symbolic_size_that_lost_its_source_is_a_compiler_defect() -> None:
    diagnosis = diagnose_text("rank1.log", SYMBOL_SOURCE_LOST)
    assert_reads(
        diagnosis,
        "other",
        first_error="s31 (could be from",
        rule="framework.compiler_symbol_source_lost",
        beside=("config",),
    )


def test_a_symbol_created_in_a_verbose_log_is_no_error() -> None:
    diagnosis = diagnose_text("rank0.log", SYMBOL_CREATED_NOTE)
    assert "framework.compiler_symbol_source_lost" not in rules_of(diagnosis)
