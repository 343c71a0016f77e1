"""Paddle's spellings of a failed NCCL call, read as torch's wording.

docs/labelling.md#nccl-failures-named-by-the-call: each Paddle release's enforce message for an
NCCL call (`unhandled cuda error at [.../nccl_helper.h:93]`, `Nccl error, unhandled cuda error`,
`NCCL error(1), unhandled cuda error.`) is the collective layer's failure, `hccl`. An
`unhandled cuda error` at another of Paddle's places names no NCCL call. Values of our own.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text, rules_of

OLD = """\
Traceback (most recent call last):
  File "train.py", line 90, in train
    exe = fluid.ParallelExecutor(use_cuda=True, loss_name=loss.name)
paddle.fluid.core.EnforceNotMet: unhandled cuda error at [/build/agent/work/a81f/paddle/fluid/platform/nccl_helper.h:93]
"""

ONE_X = """\
I0301 08:11:40.120000 22110 nccl_context.cc:127] init nccl context nranks: 2 local rank: 1 gpu id: 1
----------------------
Error Message Summary:
----------------------
ExternalError:  Nccl error, unhandled system error  at (/paddle/paddle/fluid/platform/collective_helper.cc:75)
"""

TWO_X = """\
    __parallel_ctx__clz__.init()
OSError: (External) NCCL error(1), unhandled cuda error. 
  [Hint: 'ncclUnhandledCudaError'. A call to a CUDA function failed.] (at /paddle/paddle/fluid/platform/collective_helper.cc:100)
"""

NOT_NCCL = """\
paddle.fluid.core.EnforceNotMet: unhandled cuda error at [/build/agent/work/a81f/paddle/fluid/platform/device_context.cc:208]
"""


@pytest.mark.parametrize("text", [OLD, ONE_X, TWO_X], ids=["0.x", "1.x", "2.x"])
def test_paddles_nccl_enforce_reads_as_a_failed_nccl_call(text: str) -> None:
    diagnosis = diagnose_text("log/workerlog.0", text)
    assert diagnosis.category == "hccl"
    # the 1.x fixture's reason is a system error, read by the rule for that answer of NCCL's
    assert {"hccl.nccl_error", "hccl.nccl_system_error"} & rules_of(diagnosis)


def test_an_unhandled_cuda_error_elsewhere_names_no_nccl_call() -> None:
    diagnosis = diagnose_text("log/workerlog.0", NOT_NCCL)
    assert "hccl.nccl_error" not in rules_of(diagnosis)
