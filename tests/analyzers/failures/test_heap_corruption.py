"""A process the C library's allocator aborted because its heap was overwritten.

docs/labelling.md#native-only-crashes: glibc prints what its integrity check found
(`free(): corrupted unsorted chunks`, `double free or corruption (...)`) and aborts; the
launcher then reports exit code -6. The allocator's line is the first error, the process's
crash labels it (`device_fault`, `other` beside it), and the launcher's line yields to it.

Fixtures are written in torchrun's and glibc's formats, with hosts and pids of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

HEAP_ABORT_THEN_LAUNCHER = """\
step 412 loss 2.3180
free(): corrupted unsorted chunks
gpu-3:51020:51088 [1] NCCL INFO [Service thread] Connection closed by localRank 0
W0210 11:02:40.118000 51000 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 51021 closing signal SIGTERM
E0210 11:02:40.131000 51000 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: 0 (pid: 51020) of binary: /usr/bin/python
"""

OLD_GLIBC_SPELLING = """\
*** Error in `/usr/bin/python': double free or corruption (!prev): 0x000055d1c0a3b2f0 ***
Aborted (core dumped)
"""


def test_the_allocators_line_explains_the_abort() -> None:
    diagnosis = diagnose_text("train/stdout.log", HEAP_ABORT_THEN_LAUNCHER)
    assert_reads(
        diagnosis, "device_fault", first_error="corrupted unsorted chunks", beside=("other",)
    )


def test_the_older_wrapped_spelling_is_read_alike() -> None:
    diagnosis = diagnose_text("train/stdout.log", OLD_GLIBC_SPELLING)
    assert_reads(diagnosis, "device_fault", first_error="double free or corruption")


# The allocator's size checks say `invalid` rather than `corrupted` and carry no error word;
# the line must still reach the parser, also when a multi-device plugin repeats it per thread.
INVALID_SIZE_SPELLING = """\
[ INFO ] Loading the network on MULTI:GPU.1,CPU
malloc(): invalid next size (unsorted)
malloc(): invalid next size (unsorted)
Aborted (core dumped)
"""


def test_an_invalid_size_finding_is_the_first_error_ahead_of_the_abort() -> None:
    diagnosis = diagnose_text("app/console.txt", INVALID_SIZE_SPELLING)
    assert_reads(
        diagnosis, "device_fault", first_error="invalid next size (unsorted)", beside=("other",)
    )


def test_a_python_argument_check_that_says_invalid_is_no_heap_finding() -> None:
    diagnosis = diagnose_text(
        "app/console.txt", "run(): invalid choice for --mode, using default\n"
    )
    assert "dev.heap_corruption_abort" not in rules_of(diagnosis)
