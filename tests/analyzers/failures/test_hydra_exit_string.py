"""MPICH's and Intel MPI's hydra launcher reporting a process that ended on a signal.

docs/labelling.md#a-rank-killed-for-host-memory: hydra (`mpiexec`, `mpiexec.hydra`) prints a
banner of `=` lines (`BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES`, the process's PID,
host and exit code) and then the signal in words: `YOUR APPLICATION TERMINATED WITH THE EXIT
STRING: Killed (signal 9)`. SIGKILL came from outside the process: `device_fault`, `oom` beside
it, as for the other launchers. A crash signal (11, 7, 4, 8, 6) is the process's own crash,
`device_fault` alone. SIGTERM (15) is the launcher stopping the rest and reads as no cause.
Fixtures are our own runs written in hydra's real wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

BANNER = """\
===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
=   PID 31877 RUNNING AT cn-14
=   EXIT CODE: {code}
=   CLEANING UP REMAINING PROCESSES
=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES
===================================================================================
YOUR APPLICATION TERMINATED WITH THE EXIT STRING: {words}
This typically refers to a problem with your application.
Please see the FAQ page for debugging suggestions
"""

# Counterexample: the rank's own error comes first; hydra's SIGTERM for the rest follows.
ERROR_THEN_TERMINATED = """\
Traceback (most recent call last):
  File "train.py", line 30, in <module>
    main()
ValueError: batch size 12 does not divide over 8 processes
""" + BANNER.format(code=15, words="Terminated (signal 15)")


def test_a_process_killed_by_sigkill_is_a_kill_from_outside() -> None:
    diagnosis = diagnose_text("mpiexec.log", BANNER.format(code=9, words="Killed (signal 9)"))
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="EXIT STRING: Killed (signal 9)",
        rule="dev.hydra_exit_string_sigkill",
        beside=("oom",),
    )


def test_a_process_that_crashed_is_its_own_crash() -> None:
    text = BANNER.format(code=139, words="Segmentation fault (signal 11)")
    diagnosis = diagnose_text("mpiexec.log", text)
    assert_reads(diagnosis, "device_fault", first_error="Segmentation fault (signal 11)")
    assert "oom" not in [alternative.category for alternative in diagnosis.alternatives]


def test_the_termination_of_the_rest_yields_to_the_ranks_error() -> None:
    diagnosis = diagnose_text("mpiexec.log", ERROR_THEN_TERMINATED)
    assert diagnosis.first_error is not None
    assert "batch size 12 does not divide" in diagnosis.first_error.text
