"""FSDP finding a wrapped unit in another training state than its hook expects.

docs/labelling.md#fsdp-finds-a-unit-in-the-wrong-training-state: torch prints the stack, then
the finding with no error word, then the framework's traceback follows. Forward and backward
did not pair up as FSDP wrapped them (a manual optimisation loop, two forwards per backward):
`config`, with `other` beside it, and the finding is the first error, not a frame around it.

The fixture is written in the shape of a Lightning FSDP run's stderr, with paths and numbers
of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

STATE_ASSERTION = """\
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/fsdp/_runtime_utils.py", line 715, in _post_backward_hook
    _p_assert(
  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/utils.py", line 146, in _p_assert
    traceback.print_stack()
Expects `BACKWARD_PRE` or `BACKWARD_POST` state but got HandleTrainingState.FORWARD
Traceback (most recent call last):
  File "/srv/gen/train.py", line 88, in <module>
    trainer.fit(model, loader)
  File "/opt/venv/lib/python3.11/site-packages/lightning/pytorch/trainer/trainer.py", line 579, in _fit_impl
    self._run(model, ckpt_path=ckpt_path)
"""


def test_the_state_finding_is_the_first_error_and_the_loop_setup_is_the_label() -> None:
    diagnosis = diagnose_text("stderr.log", STATE_ASSERTION)
    assert_reads(
        diagnosis, "config", first_error="but got HandleTrainingState.FORWARD", beside=("other",)
    )


def test_a_line_that_reports_the_state_a_unit_entered_is_no_failure() -> None:
    text = "DEBUG fsdp unit 3 entered state HandleTrainingState.BACKWARD_PRE\nepoch 0 done\n"
    diagnosis = diagnose_text("stderr.log", text)
    assert diagnosis.first_error is None


FAIRSCALE_STATE_CHECK = """\
Asserting FSDP instance is: FullyShardedDataParallel(world_size=2, flatten_parameters=True)
ERROR: expected to be in states [<TrainingState.BACKWARD_PRE: 3>] but current state is TrainingState.FORWARD
  File "/opt/env/lib/python3.9/site-packages/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", line 1402, in assert_state
    traceback.print_stack()
Traceback (most recent call last):
  File "/srv/mt/train.py", line 64, in <module>
    run()
  File "/opt/env/lib/python3.9/site-packages/fairscale/nn/data_parallel/fully_sharded_data_parallel.py", line 1403, in assert_state
    raise ValueError(msg)
ValueError: expected to be in states [<TrainingState.BACKWARD_PRE: 3>] but current state is TrainingState.FORWARD
"""


def test_fairscales_lower_case_wording_is_the_same_state_check() -> None:
    # docs/labelling.md#fsdp-finds-a-unit-in-the-wrong-training-state
    diagnosis = diagnose_text("worker.log", FAIRSCALE_STATE_CHECK)
    assert_reads(diagnosis, "config", first_error="expected to be in states", beside=("other",))
