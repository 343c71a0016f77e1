"""The process group's teardown sentence kept alone, without the line that says what failed.

- When torch's watchdog finds a failed or overdue collective it stops the process with a
  sentence of its own (`Some NCCL operations have failed or timed out. ...`, then `we are taking
  the entire process down`; torch_npu says HCCL and ASCEND). Older releases print both halves
  on one line. A paste that kept only that sentence still says a collective of the group failed
  or ran out of time, and how is lost: `hccl`, with `hang` and `device_fault` offered beside it,
  at a low confidence, the sentence the first error.
- Counterexample: beside a line that says why (a rank out of memory, the watchdog's timeout),
  that line is read first and the sentence stays a consequence; a sentence that only mentions
  completed operations is no failure.

Fixtures are written here in the real shapes with their own values.

docs/labelling.md#a-watchdog-headline-without-its-detail
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# Four ranks of a two-node run; every one printed the one-line form of older releases.
ONE_LINE_FORM = """\
[E ProcessGroupNCCL.cpp:341] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid this inconsistency, we are taking the entire process down.   
[E ProcessGroupNCCL.cpp:341] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data. To avoid this inconsistency, we are taking the entire process down.   
"""

TWO_LINE_FORM = """\
[rank6]:[E0415 09:12:01.112233445 ProcessGroupNCCL.cpp:681] [Rank 6] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
[rank6]:[E0415 09:12:01.112239120 ProcessGroupNCCL.cpp:695] [Rank 6] To avoid data inconsistency, we are taking the entire process down.
"""

ASCEND_FORM = """\
[rank3]:[E1102 21:40:17.500113208 compiler_depend.ts:202] Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run on corrupted/incomplete data.
[rank3]:[E1102 21:40:17.500120771 compiler_depend.ts:208] To avoid data inconsistency, we are taking the entire process down.
"""

AFTER_AN_OOM = """\
[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacity of 39.39 GiB of which 1.02 GiB is free.
[rank1]:[E0415 09:12:01.112233445 ProcessGroupNCCL.cpp:681] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
"""

AFTER_A_TIMEOUT = """\
[rank2]:[E0415 09:11:58.901227310 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE, NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600071 milliseconds before timing out.
[rank2]:[E0415 09:11:58.901339001 ProcessGroupNCCL.cpp:681] [Rank 2] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
"""

NO_FAILURE = """\
[rank0]:[I0415 09:12:01.112233445 ProcessGroupNCCL.cpp:1250] [Rank 0] All NCCL operations completed before the process group was destroyed.
"""


@pytest.mark.parametrize("text", [ONE_LINE_FORM, TWO_LINE_FORM, ASCEND_FORM])
def test_the_teardown_sentence_alone_offers_a_stall_and_a_device(text: str) -> None:
    diagnosis = diagnose_text("train.log", text)
    assert_reads(diagnosis, "hccl", first_error="operations have failed or timed out")
    assert {"hang", "device_fault"} <= set(alternative_labels(diagnosis))
    assert diagnosis.confidence < 0.5


def test_a_rank_out_of_memory_before_the_teardown_is_read_first() -> None:
    diagnosis = diagnose_text("train.log", AFTER_AN_OOM)
    assert_reads(diagnosis, "oom", first_error="CUDA out of memory")


def test_the_watchdog_timeout_before_the_teardown_is_read_first() -> None:
    diagnosis = diagnose_text("train.log", AFTER_A_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Watchdog caught collective operation timeout")


def test_completed_operations_are_no_failure() -> None:
    diagnosis = diagnose_text("train.log", NO_FAILURE)
    assert diagnosis.category != "hccl" or diagnosis.confidence < 0.3, diagnosis.root_cause
