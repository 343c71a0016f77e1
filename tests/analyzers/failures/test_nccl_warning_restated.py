"""An NCCL warning that torch's exception quotes again under `Last error:`.

docs/labelling.md#wrappers: with NCCL_DEBUG set, NCCL writes a refusal as a `NCCL WARN` line
where it happens, and torch's exception for the failed call repeats it word for word under
`Last error:`. Both are one record of one failure: the warning, printed first, is the first
error, whatever the rule reads it as. A warning of the same rule in other words is another
report and does not lead. Values of our own in the real shapes.
"""

from __future__ import annotations

from tests.analyzers.excerpts import diagnose_text

NO_INTERFACE = """\
cn-4:30177:30177 [3] NCCL INFO cudaDriverVersion 12040
cn-4:30177:30177 [3] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found
cn-4:30177:30177 [3] NCCL INFO init.cc:1802 -> 3
Traceback (most recent call last):
  File "/work/flow/train.py", line 212, in <module>
    accelerator.wait_for_everyone()
  File "/opt/py/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4159, in barrier
    work = group.barrier(opts=opts)
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2251, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5
ncclInternalError: Internal check failed.
Last error:
Bootstrap : no socket interface found
"""


def test_the_warning_leads_its_copy_under_the_exception() -> None:
    diagnosis = diagnose_text("rank3.log", NO_INTERFACE)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 2
    assert "NCCL WARN Bootstrap : no socket interface found" in diagnosis.first_error.text


RANK_CLASH = """\
gn-02:11840:11902 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 6 of 8 ranks has already checked in
gn-02:11840:11840 [0] NCCL INFO init.cc:1802 -> 2
torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5
ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.
Last error:
Bootstrap Root : rank 6 of 8 ranks has already checked in
"""


def test_a_launch_reading_warning_leads_its_copy_too() -> None:
    diagnosis = diagnose_text("slurm-2210.out", RANK_CLASH)
    assert diagnosis.category == "config"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 1


def test_a_warning_in_other_words_does_not_lead() -> None:
    text = RANK_CLASH.replace(
        "rank 6 of 8 ranks has already checked in\ngn-02",
        "rank 2 of 8 ranks has already checked in\ngn-02",
        1,
    )
    diagnosis = diagnose_text("slurm-2210.out", text)
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.line == 6
