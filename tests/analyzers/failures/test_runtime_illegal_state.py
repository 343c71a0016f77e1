"""A device runtime that refuses ordinary work on a device in its present state.

docs/labelling.md#a-gpu-system-that-is-not-ready: torch raises the runtime's `the operation
cannot be performed in the present state` for a plain tensor operation as `CUDA error: ...`
(ROCm builds: `HIP error: ...`). The device is not set up to take work (`driver_env`, the card
itself beside it); the same answer in RCCL's or NCCL's own lines stays the collective layer's.
Fixtures are written for these tests in the real shapes, with their own values.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

SECOND_CARD_REFUSES = """\
[rank0]: step 0 loss 2.3031
[rank1]: Traceback (most recent call last):
[rank1]:   File "/workspace/ddp_smoke.py", line 41, in <module>
[rank1]:     batch = batch.to(device, non_blocking=True)
[rank1]: RuntimeError: HIP error: the operation cannot be performed in the present state
[rank1]: HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
[rank1]: For debugging consider passing AMD_SERIALIZE_KERNEL=3
E0814 10:22:05.511000 901 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 1 (pid: 933) of binary: /opt/venv/bin/python
"""

CUDA_FORM = """\
Traceback (most recent call last):
  File "/app/probe.py", line 12, in <module>
    x = torch.ones(4, device="cuda:3")
torch.AcceleratorError: CUDA error: the operation cannot be performed in the present state
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
"""

# Counterexample: RCCL's own line with the same answer, before torch's wrapper, stays the
# collective layer's first error.
RCCL_LINE_FIRST = """\
node-2:7710:7790 [3] [FATAL ERROR]: HIP failure: 'the operation cannot be performed in the present state'
[rank3]: RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)
"""


def test_a_card_that_refuses_work_in_its_state_is_the_machine() -> None:
    diagnosis = diagnose_text("logs/torchrun.log", SECOND_CARD_REFUSES)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="HIP error: the operation cannot be performed",
        beside=("device_fault",),
    )


def test_the_cuda_wording_reads_the_same() -> None:
    diagnosis = diagnose_text("probe.log", CUDA_FORM)
    assert_reads(
        diagnosis, "driver_env", first_error="CUDA error: the operation cannot be performed"
    )


def test_the_same_answer_in_rccls_own_line_stays_the_collective_layer() -> None:
    diagnosis = diagnose_text("serve/server.log", RCCL_LINE_FIRST)
    assert_reads(diagnosis, "hccl", first_error="[FATAL ERROR]: HIP failure")
