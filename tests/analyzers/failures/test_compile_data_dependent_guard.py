"""A whole-graph compile that meets a branch on a value read from the data.

docs/labelling.md#a-graph-break-that-a-whole-graph-compile-refuses: a `.item()` or `.tolist()`
read becomes an unbacked symbol, and a Python branch or an `int()` on it needs a guard the
compiler cannot write. Where the mode asks for one whole graph (`fullgraph=True`, export) the
break is raised as `torch._dynamo.exc.UserError` (or the shape environment's own
`GuardOnDataDependentSymNode`): `Could not guard on data-dependent expression u0 > 4`. The
compile mode and the code do not fit: `config`, with `other` beside it, and the line is the
first error, ahead of the peers that lose the rank. Counterexamples: the advice line under it
(`consider using data-dependent friendly APIs ...`) and the shape environment's note that it
made the symbol are no failures. Excerpts in torchrun's and gloo's formats, values our own.
"""

from __future__ import annotations

from analyzers.classify.rules import load_knowledge
from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

KNOWLEDGE = load_knowledge()

GUARDED_BRANCH = """\
[rank1]: Traceback (most recent call last):
[rank1]:   File "/srv/lm/train.py", line 140, in <module>
[rank1]:     logits = model(tokens)
[rank1]:   File "/opt/venv/lib/python3.12/site-packages/torch/_dynamo/eval_frame.py", line 841, in compile_wrapper
[rank1]:     raise e.with_traceback(None) from e.__cause__  # User compiler error
[rank1]: torch._dynamo.exc.UserError: Consider annotating your code using torch._check*(). Could not guard on data-dependent expression zuf0 > 100.0 (unhinted: zuf0 > 100.0).  (Size-like symbols: none)

[rank1]: consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and statically_known_true.
[rank1]: Caused by: if logits.abs().max().item() > 100.0:  # srv/lm/model.py:88 in forward (_dynamo/variables/tensor.py:2606 in evaluate_expr)
[rank1]: For more information, run with TORCH_LOGS="dynamic"
[rank0]: Traceback (most recent call last):
[rank0]:   File "/srv/lm/train.py", line 152, in <module>
[rank0]:     dist.all_reduce(p.grad)
[rank0]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:40231. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF!
"""

SHAPE_ENV_NODE = """\
Traceback (most recent call last):
  File "export_model.py", line 41, in <module>
    ep = torch.export.export(model, (ids,))
torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode: Could not guard on data-dependent expression Eq(u0, 1) (unhinted: Eq(u0, 1)).  (Size-like symbols: u0)
"""

NOTES = """\
I1206 11:40:05.201000 2231 torch/fx/experimental/symbolic_shapes.py:4750] [0/0] create_unbacked_symfloat zuf0 [-inf, inf] (_subclasses/fake_impls.py:460 in local_scalar_dense)
[rank1]: consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and statically_known_true.
step 12 done
"""


def _rule():
    return next(sig for sig in KNOWLEDGE.signatures if sig.id == "cfg.dynamo_data_dependent_guard")


def test_a_data_dependent_branch_in_a_whole_graph_compile_is_a_setting() -> None:
    diagnosis = diagnose_text("launcher.log", GUARDED_BRANCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="Could not guard on data-dependent expression",
        rule="cfg.dynamo_data_dependent_guard",
        beside=("other",),
    )


def test_the_shape_environments_own_exception_reads_the_same() -> None:
    diagnosis = diagnose_text("export.log", SHAPE_ENV_NODE)
    assert_reads(diagnosis, "config", first_error="GuardOnDataDependentSymNode")


def test_the_advice_and_the_symbol_note_are_no_failures() -> None:
    pattern = _rule().regex
    for line in NOTES.splitlines():
        assert not pattern.search(line)
    diagnosis = diagnose_text("rank1.log", NOTES)
    assert "cfg.dynamo_data_dependent_guard" not in rules_of(diagnosis)
