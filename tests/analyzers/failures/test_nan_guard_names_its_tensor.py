"""A job's own NaN guard that names the tensor it found NaN in.

`AssertionError: NaN detected in <tensor> output on rank N (k/n values)` and `NaNs found in
<block> hidden states` say the numbers went non-finite on the rank that checked: `other`, that
rank the culprit, the peers' lost connections the cascade
(docs/labelling.md#numbers-that-went-non-finite). A check that found none, or the check's
source line quoted in a traceback, is no failure. The console follows torchrun's `--tee` shape
with ranks, ports and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "num.own_check_nonfinite"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:40112. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)


def _console(guard_line: str, source_line: str) -> str:
    return f"""\
[default1]:layers.0.norm passed
[default2]:layers.0.norm passed
[default2]:[rank2]: Traceback (most recent call last):
[default2]:[rank2]:   File "/srv/toy/infer.py", line 212, in <module>
[default2]:[rank2]:     out = block(x, layer)
[default2]:[rank2]:   File "/srv/toy/infer.py", line 170, in block
[default2]:[rank2]:     {source_line}
[default2]:[rank2]: {guard_line}
[default0]:[rank0]: Traceback (most recent call last):
[default0]:[rank0]:   File "/srv/toy/infer.py", line 181, in block
[default0]:[rank0]:     dist.all_reduce(h)
[default0]:[rank0]: {CLOSED}
[default1]:[rank1]: Traceback (most recent call last):
[default1]:[rank1]:   File "/srv/toy/infer.py", line 181, in block
[default1]:[rank1]:     dist.all_reduce(h)
[default1]:[rank1]: {CLOSED}
"""


def test_a_guard_that_names_its_tensor_is_a_numerical_failure() -> None:
    text = _console(
        "AssertionError: NaN detected in layers.0.attention output on rank 2 (96/256 values)",
        'assert bad == 0, f"NaN detected in layers.{layer}.{name} output on rank {rank}"',
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(
        diagnosis, "other", first_error="NaN detected in layers.0.attention output", rule=RULE
    )
    assert diagnosis.culprit_ranks == [2]


def test_a_guard_that_found_none_is_no_failure() -> None:
    text = (
        "2026-11-30 09:12:40,118 [rank2] WARNING no NaN detected in gradients after 40 steps\n"
        "2026-11-30 09:12:40,120 [rank2] WARNING NaN found in 0 of 64 parameter groups\n"
    )
    diagnosis = diagnose_text("log_2.log", text)
    assert RULE not in rules_of(diagnosis)


def test_a_guard_that_counts_the_non_finite_values_it_found_is_a_numerical_failure() -> None:
    """`non-finite activations in layer 3 attention output: 256 nan, 0 inf`: the guard says
    where it found them and how many; a held-out gloo run's assertion read as unrecognised."""
    text = _console(
        "AssertionError: non-finite activations in layer 3 attention output: 256 nan, 0 inf",
        "assert torch.isfinite(out).all(), (",
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "other", first_error="non-finite activations in layer 3", rule=RULE)
    assert diagnosis.culprit_ranks == [2]


def test_a_check_for_non_finite_values_that_found_none_is_no_failure() -> None:
    text = (
        "2026-12-06 02:43:03,100 [rank2] INFO checking for non-finite values in gradients\n"
        "2026-12-06 02:43:03,101 [rank2] INFO finite check: non-finite activations in layer 3 "
        "attention output: 0 nan, 0 inf\n"
    )
    diagnosis = diagnose_text("log_2.log", text)
    assert RULE not in rules_of(diagnosis)


def test_a_guard_that_names_the_module_before_the_tensor_is_a_numerical_failure() -> None:
    """`non-finite attention output in layer 3 on rank 2`: the module's name stands between
    the word and the tensor; a held-out gloo run's assertion read as unrecognised."""
    text = _console(
        "AssertionError: non-finite attention output in layer 3 on rank 2",
        "assert torch.isfinite(out).all(), (",
    )
    diagnosis = diagnose_text("launcher.log", text)
    assert_reads(diagnosis, "other", first_error="non-finite attention output", rule=RULE)
    assert diagnosis.culprit_ranks == [2]


def test_a_check_for_a_named_modules_non_finite_outputs_is_no_failure() -> None:
    text = (
        "2026-12-06 02:43:03,100 [rank2] INFO checking for non-finite attention outputs in every "
        "layer\n"
        "2026-12-06 02:43:03,101 [rank2] DEBUG no non-finite attention output in layer 3\n"
    )
    assert RULE not in rules_of(diagnose_text("log_2.log", text))
