"""A HIP code object that the runtime could not initialise for the card.

HIP answers `hipErrorSharedObjectInitFailed` (`shared object initialization failed`) when a
library's device code is there but cannot be set up on this GPU: a build whose code objects
do not fit the card's architecture, or an override of the architecture the runtime reports.
Libraries that sort on the device (thrust and rocPRIM under torch's `unique`/embedding
backward) print it behind their own step name. The build does not fit the card, as for a
wheel with no kernel for it: `config`, with the host's ROCm set-up beside it.
docs/labelling.md#operator-installation-or-platform-limit
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SORT_STEP = """\
step 120 | loss 3.9172 | lr 2.4e-04
Traceback (most recent call last):
  File "/work/train_ddp.py", line 311, in <module>
    loss.backward()
  File "/opt/venv/lib/python3.11/site-packages/torch/autograd/graph.py", line 825, in _engine_run_backward
    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
RuntimeError: sort_by_key failed on 1st step: hipErrorSharedObjectInitFailed: shared object initialization failed
"""

TORCH_CHECK_FORM = """\
[rank2]:   File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/sparse.py", line 190, in forward
[rank2]: RuntimeError: HIP error: shared object initialization failed
[rank2]: HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

DOC_POINTER = """\
step 3 | loss 5.0121
Search for `hipErrorSharedObjectInitFailed' in the HIP runtime documentation for more information.
"""


def test_a_code_object_that_did_not_initialise_is_a_build_for_another_card() -> None:
    diagnosis = diagnose_text("train/train.log", SORT_STEP)
    assert_reads(
        diagnosis, "config", first_error="hipErrorSharedObjectInitFailed", beside=("driver_env",)
    )
    assert diagnosis.confidence >= 0.5


def test_the_torch_check_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("train/rank2.log", TORCH_CHECK_FORM)
    assert_reads(diagnosis, "config", first_error="shared object initialization failed")


def test_a_pointer_to_the_documentation_is_no_failure() -> None:
    diagnosis = diagnose_text("train/train.log", DOC_POINTER)
    assert diagnosis.category != "config", diagnosis.root_cause
