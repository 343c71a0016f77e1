"""Moore Threads' DNN library (muDNN, under torch_musa) writing an operator it could not run.

docs/labelling.md#operator-installation-or-platform-limit: muDNN's own record, `muDNN(v<n>)
<time> ... ERROR# <STATUS> in <Op>::Run, Reason:` with the reason indented under it, is the
library refusing or failing the op: `operator`, that line the first error. A mode or dtype it
has no kernel for (`NOT_SUPPORTED`) offers `config` beside it (the op run on the CPU, another
dtype). A torch_musa warning that it falls back from a kernel is no failure. Values of our own
in the shape muDNN prints.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

NOT_SUPPORTED = """\
muDNN(v2700) 2025-06-02 10:11:12.334455 0d:0h:3m:41s TID=0x5a1c0e77 GPU=1 Handle=0x55d0c2a0 ERROR# NOT_SUPPORTED in Cumsum::Run, Reason:
    The input dtype(INT16) is not supported by this mode
Traceback (most recent call last):
  File "infer.py", line 40, in <module>
    out = model.generate(**inputs)
RuntimeError: MUDNN failed in: Run
"""

OTHER_STATUS = """\
muDNN(v2700) 2025-06-02 10:11:12.334455 0d:0h:3m:41s TID=0x5a1c0e77 GPU=0 Handle=0x55d0c2a0 ERROR# INTERNAL_ERROR in Convolution::Run, Reason:
    workspace descriptor mismatch
"""

FALLBACK_WARNING = """\
/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py:5476: UserWarning: Flash attention only supports architecture with mp version 2.2. But now attempts to run on a mp 2.1 gpu. (Triggered internally at /home/torch_musa/torch_musa/csrc/aten/ops/attention/mudnn/SDPUtils.h:28.)
  return func(*args, **kwargs)
generation finished in 3.2 s
"""


def test_a_mode_the_library_has_no_kernel_for_is_the_operator_with_a_setting_beside_it() -> None:
    diagnosis = diagnose_text("logs/stdout.log", NOT_SUPPORTED)
    assert_reads(
        diagnosis,
        "operator",
        first_error="ERROR# NOT_SUPPORTED in Cumsum::Run",
        rule="op.mudnn_error_record",
        beside=("config",),
    )


def test_another_status_of_the_library_is_still_the_operator() -> None:
    diagnosis = diagnose_text("logs/stdout.log", OTHER_STATUS)
    assert_reads(diagnosis, "operator", first_error="INTERNAL_ERROR in Convolution::Run")


def test_a_kernel_fallback_warning_is_no_failure() -> None:
    diagnosis = diagnose_text("logs/stdout.log", FALLBACK_WARNING)
    assert diagnosis.first_error is None
