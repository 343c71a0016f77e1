"""DDP's reducer finding a gradient hook it did not expect, worded as an internal assertion.

The reducer arms its autograd hooks in DDP's forward and expects them to fire only in the
backward of that forward. When a backward runs over a graph that DDP's forward did not build
(the wrapper bypassed by a patched trainer, a checkpointing mode that replays the forward
outside it), torch stops in the reducer with an internal assertion on that expectation
(`expect_autograd_hooks_ INTERNAL ASSERT FAILED at ".../reducer.cpp":N`). Like the reducer's
worded refusals it is how the model is run under DDP, not a device or a link
(docs/labelling.md#ddps-reducer-refuses-a-step): `config`, with `other` beside it, and the
assertion is the first error. Excerpts follow the real shapes with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HOOK_ASSERT = """\
[rank1]:   File "/opt/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 829, in _engine_run_backward
[rank1]:     return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
[rank1]: RuntimeError: expect_autograd_hooks_ INTERNAL ASSERT FAILED at "/pytorch/torch/csrc/distributed/c10d/reducer.cpp":1641, please report a bug to PyTorch.
[rank0]: Traceback (most recent call last):
[rank0]:   File "/work/sft/run.py", line 88, in <module>
[rank0]:     trainer.train()
"""


def test_the_reducers_hook_assertion_is_its_refusal() -> None:
    diagnosis = diagnose_text("train.log", HOOK_ASSERT)
    assert_reads(
        diagnosis,
        "config",
        first_error="expect_autograd_hooks_ INTERNAL ASSERT FAILED",
        rule="cfg.ddp_reducer_refused",
        beside=("other",),
    )


def test_the_assertion_in_the_reducers_source_is_no_failure() -> None:
    text = (
        '    TORCH_INTERNAL_ASSERT(expect_autograd_hooks_, "hook fired outside backward");\n'
        "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.\n"
    )
    diagnosis = diagnose_text("rank0.log", text)
    assert diagnosis.category == "oom"
    assert "cfg.ddp_reducer_refused" not in rules_of(diagnosis)
