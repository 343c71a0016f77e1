"""Kunlun's collective library that cannot allocate its device memory.

docs/labelling.md#communication-resources-refused-for-want-of-memory: BKCL takes device memory
of its own for each communicator's parameters and buffers while `init_parallel_env` builds it,
and older releases print the refusal at WARN level with the build path of the source file
(`[WARN][BKCL][/build/bkcl/src/kl2/kl2_init.cpp:110] param 2 data alloc failed`), followed by
`init device param failed` and `init_bkcl_context failed`. What ran out is the card's memory
(another process on it, a model already loaded): `oom`, `hccl` beside it, the allocation line
the first error. A line that reports memory it did allocate is no failure, and an INFO line of
the library is never read as one. Values are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

REFUSED = (
    "I0407 10:11:02.118200 40112 bkcl_context.cc:104] init BKCL context nranks: 4 local rank: 1"
    " xpu id: 1 ring id: 0\n"
    "[WARN][BKCL][/build/kunlun/bkcl/src/kl2/kl2_init.cpp:108] param 1 data alloc failed\n"
    "[WARN][BKCL][/build/kunlun/bkcl/src/init.cpp:600] init device param failed\n"
    "[WARN][BKCL][/build/kunlun/bkcl/src/init.cpp:714] init_bkcl_context failed\n"
    "Traceback (most recent call last):\n"
    '  File "train.py", line 30, in <module>\n'
    "    dist.init_parallel_env()\n"
)

REFUSED_NEW_HEADER = (
    "[10:11:02][xpu-node3][40112][ERR][BKCL][kl3_init.cpp:221] buffer alloc failed,"
    " size 268435456\n"
)

ALLOCATED = (
    "[10:11:02][xpu-node3][40112][INFO][BKCL][kl3_init.cpp:221] buffer alloc done, size 268435456\n"
)


def test_bkcl_refusing_its_device_allocation_is_memory() -> None:
    diagnosis = diagnose_text("workerlog.1", REFUSED)
    assert_reads(diagnosis, "oom", first_error="param 1 data alloc failed", beside=("hccl",))


def test_the_levelled_header_of_newer_releases_reads_the_same() -> None:
    diagnosis = diagnose_text("workerlog.0", REFUSED_NEW_HEADER)
    assert diagnosis.category == "oom"


def test_memory_it_did_allocate_is_no_failure() -> None:
    diagnosis = diagnose_text("workerlog.0", ALLOCATED)
    assert diagnosis.category != "oom"
    assert diagnosis.first_error is None
