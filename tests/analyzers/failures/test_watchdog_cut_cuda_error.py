"""A watchdog teardown whose quoted CUDA error a paste cut short
(docs/labelling.md#a-watchdogs-cuda-error-cut-short-by-the-paste).

torch's process-group watchdog polls the work it launched and, when the device failed under a
kernel, tears the process down quoting the CUDA runtime's answer. A paste may break that line
right after the words `CUDA error`, or inside them, and leave the answer on the next row with
no prefix, or drop it. What is left still says the watchdog caught a CUDA runtime error, not a
timeout or an NCCL error: the device failed (`device_fault`), with the collective beside it.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

CUT_INSIDE_THE_WORD = """\
[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread terminated with exception: CUDA er
ror: an illegal memory access was encountered
1: CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect
1: For debugging consider passing CUDA_LAUNCH_BLOCKING=1.
1: Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):
1: frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f3a11d3c897 in /opt/venv/lib/python3.11/site-packages/torch/lib/libc10.so)
"""

CUT_AFTER_THE_WORDS = """\
  what():  [Rank 5] NCCL watchdog thread terminated with exception: CUDA error:
Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f0c41e5d617 in /usr/lib/python3/site-packages/torch/lib/libc10.so)
"""

A_TIMEOUT_IT_QUOTES = """\
[rank2]:[E1130 09:12:44.201338410 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 2] Process group watchdog thread terminated with exception: [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=77, OpType=ALLGATHER, NumelIn=1024, NumelOut=8192, Timeout(ms)=600000) ran for 600321 milliseconds before timing out.
"""

AN_OUT_OF_MEMORY_IT_QUOTES = """\
[rank0]:[E1130 09:12:44.201338410 ProcessGroupNCCL.cpp:1895] [PG ID 0 PG GUID 0(default_pg) Rank 0] Process group watchdog thread terminated with exception: CUDA error: out of memory
"""


def test_a_teardown_cut_inside_the_words_cuda_error_is_a_device_fault() -> None:
    diagnosis = diagnose_text("slurm-7712.out", CUT_INSIDE_THE_WORD)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="watchdog thread terminated with exception: CUDA er",
        rule="dev.watchdog_cuda_error_cut",
        beside=["hccl"],
    )


def test_a_teardown_cut_right_after_cuda_error_is_a_device_fault() -> None:
    diagnosis = diagnose_text("train/rank5.log", CUT_AFTER_THE_WORDS)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="terminated with exception: CUDA error:",
        rule="dev.watchdog_cuda_error_cut",
    )


def test_a_teardown_that_quotes_a_timeout_stays_with_the_collective() -> None:
    diagnosis = diagnose_text("train/rank2.log", A_TIMEOUT_IT_QUOTES)
    assert diagnosis.category == "hccl"


def test_a_full_answer_keeps_its_own_reading() -> None:
    diagnosis = diagnose_text("train/rank0.log", AN_OUT_OF_MEMORY_IT_QUOTES)
    assert diagnosis.category == "oom"
    assert "dev.watchdog_cuda_error_cut" not in rules_of(diagnosis)
