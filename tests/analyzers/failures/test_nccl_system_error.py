"""NCCL's `unhandled system error` answer, kept only as a wrapper's line.

docs/labelling.md#nccl-failures-named-by-the-call: NCCL returns a system error when a call into
the operating system failed (a socket, shared memory, a topology file, an RDMA verb). The
wrapper's line is still `hccl` and the first error, with `driver_env` offered beside it because
the usual fixes are on the host; NCCL's own WARN line decides when the log kept it. Other answers
of NCCL's (`invalid usage`, `unhandled cuda error`) get no `driver_env` from this reading.
Values of our own in the real shapes.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A serving engine's worker whose tensor-parallel communicator could not be created.
ENGINE_WORKER = """\
(Worker_TP2 pid=7120) ERROR 03-04 05:06:07 [multiproc_executor.py:700]   File "/srv/venv/lib/python3.12/site-packages/engine/distributed/pynccl.py", line 99, in __init__
(Worker_TP2 pid=7120) ERROR 03-04 05:06:07 [multiproc_executor.py:700]     self.comm = self.nccl.ncclCommInitRank(
(Worker_TP2 pid=7120) ERROR 03-04 05:06:07 [multiproc_executor.py:700] RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)
(EngineCore pid=7001) ERROR 03-04 05:06:15 [core.py:900] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.
"""

# An engine's own native check of the same answer, the only line the report kept.
NATIVE_CHECK = """\
Failed, NCCL error /build/engine/src/comm/nccl_setup.cc:88 'unhandled system error (run with NCCL_DEBUG=INFO for details)'
"""

# NCCL's warning names the failed call: it is the first error, the wrapper its cascade.
SOCKET_WARNINGS = """\
node-4:3310:3390 [1] NCCL WARN Call to connect returned Connection refused, retrying
node-4:3310:3390 [1] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.4.12<45117> failed : Software caused connection abort
"""
WITH_WARNING = SOCKET_WARNINGS + ENGINE_WORKER

# Counterexample: another answer of NCCL's keeps its own reading.
CUDA_ERROR = ENGINE_WORKER.replace("unhandled system error", "unhandled cuda error")


@pytest.mark.parametrize("text", [ENGINE_WORKER, NATIVE_CHECK], ids=["worker", "native check"])
def test_a_bare_system_error_is_hccl_with_the_host_beside_it(text: str) -> None:
    diagnosis = diagnose_text("serve/worker.log", text)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="unhandled system error",
        rule="hccl.nccl_system_error",
        beside=("driver_env",),
    )


def test_nccls_own_warning_decides_when_kept() -> None:
    diagnosis = diagnose_text("serve/worker.log", WITH_WARNING)
    assert diagnosis.first_error is not None
    assert "unhandled system error" not in diagnosis.first_error.text


def test_another_nccl_answer_is_not_read_as_a_system_error() -> None:
    diagnosis = diagnose_text("serve/worker.log", CUDA_ERROR)
    assert diagnosis.category == "hccl"
    assert "hccl.nccl_system_error" not in rules_of(diagnosis)
