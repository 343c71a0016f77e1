"""FSDP finding that an inner wrapped unit was initialised as the root before the outer one.

docs/labelling.md#fsdp-finds-an-inner-unit-already-marked-root: the outermost wrapper's first
forward marks every unit inside it not-root and asserts none of them is root already. One is
when it ran a forward of its own first or the model was wrapped twice: the wrapping and the
loop do not fit, `config` with `other` beside it, and the finding is the first error even when
a framework prints it bare above its traceback.

Fixtures are written in the shapes of a training framework's traceback and of torch's ranked
stderr, with paths, names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "cfg.fsdp_inner_unit_marked_root"

BARE_FINDING_ABOVE_TRACEBACK = """\
Non-root FSDP instance's `_is_root` should not have been set yet or should have been set to `False`
  File "/srv/tune/adapt.py", line 212, in <module>
    run(settings)
  File "/opt/env/lib/python3.11/site-packages/lightning/fabric/fabric.py", line 901, in launch
    return self._wrap_and_launch(function, self, *args, **kwargs)
  File "/opt/env/lib/python3.11/site-packages/lightning/fabric/fabric.py", line 977, in _wrap_with_setup
    return to_run(*args, **kwargs)
  File "/srv/tune/adapt.py", line 131, in main
    model = fabric.setup_module(model)
"""

RANKED_ASSERTION = """\
[rank3]: Traceback (most recent call last):
[rank3]:   File "/work/jobs/rl/step.py", line 58, in score
[rank3]:     logits = policy(batch).logits
[rank3]:   File "/usr/lib/python3/site-packages/torch/distributed/fsdp/_runtime_utils.py", line 160, in _lazy_init
[rank3]:     _p_assert(
[rank3]: AssertionError: Non-root FSDP instance's _is_root should not have been set yet or should have been set to False
W1107 02:14:09.551000 801 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 806 closing signal SIGTERM
"""


def test_a_bare_finding_above_a_framework_traceback_is_the_first_error() -> None:
    diagnosis = diagnose_text("stderr.log", BARE_FINDING_ABOVE_TRACEBACK)
    assert_reads(
        diagnosis, "config", first_error="_is_root` should not have been set", beside=("other",)
    )
    assert RULE in rules_of(diagnosis)


def test_the_raised_assertion_on_a_rank_is_read_the_same_way() -> None:
    diagnosis = diagnose_text("rank3.log", RANKED_ASSERTION)
    assert_reads(
        diagnosis, "config", first_error="Non-root FSDP instance", rule=RULE, beside=("other",)
    )


def test_a_line_reporting_which_unit_became_the_root_is_no_failure() -> None:
    text = "DEBUG fsdp: root unit chosen, _is_root=True for the outer wrapper\nstep 1 loss 2.31\n"
    diagnosis = diagnose_text("stderr.log", text)
    assert RULE not in rules_of(diagnosis)
    assert diagnosis.first_error is None
