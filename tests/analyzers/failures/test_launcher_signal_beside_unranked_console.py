"""A launcher's report that a rank died on a signal, next to a console that names no rank.

docs/labelling.md#a-rank-killed-for-host-memory: a launcher's line that a rank ended on a
signal (Cray PALS' `rank <N> died from signal 11`) reports what the rank itself printed as it
died. When neither file carries times and no line names its rank, the file order says nothing
about which came first; the rank's own console, which holds the crash the launcher reports,
is read first, and in it its own order decides. Fixtures follow PALS' and oneCCL's formats
with names and numbers of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files

LAUNCHER = "rank 0 died from signal 11 and dumped core\n"

CONSOLE_WITH_LIBRARY_ERROR = """\
|CCL_ERROR| atl_mpi_comm.cpp:97 init_transport: comm_create error
!!!!!!! Segfault encountered !!!!!!!
  atl_mpi::allgatherv(...)
  ccl_comm::create(...)
"""

CONSOLE_WITH_CRASH_ONLY = """\
loading shard 3 of 8
!!!!!!! Segfault encountered !!!!!!!
  libfoo::pack(...)
"""

# Counterexample: a console without the crash the launcher reports leaves the report first.
CONSOLE_WITHOUT_CRASH = """\
loading shard 3 of 8
"""


def test_the_library_error_before_the_crash_is_the_first_error() -> None:
    diagnosis = diagnose_files(
        {"job/run.log": LAUNCHER, "job/trainer.log": CONSOLE_WITH_LIBRARY_ERROR}
    )
    assert_reads(diagnosis, "hccl", first_error="comm_create error", beside=("device_fault",))


def test_the_console_crash_goes_before_the_launcher_report() -> None:
    diagnosis = diagnose_files(
        {"job/run.log": LAUNCHER, "job/trainer.log": CONSOLE_WITH_CRASH_ONLY}
    )
    assert_reads(diagnosis, "device_fault", first_error="Segfault encountered")


def test_without_the_rank_own_crash_the_report_stays_first() -> None:
    diagnosis = diagnose_files({"job/run.log": LAUNCHER, "job/trainer.log": CONSOLE_WITHOUT_CRASH})
    assert_reads(diagnosis, "device_fault", first_error="died from signal 11")
