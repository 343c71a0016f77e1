"""glibc's futex abort in a process that shares memory with its peers.

glibc stops a process with `The futex facility returned an unexpected error code.` when a
futex call on a process-shared lock or semaphore fails in a way it cannot handle; in a
container that is almost always the lock's page in a `/dev/shm` too small for the job, and the
fix is the container's shared memory (docs/labelling.md#config-driver_env-or-weight_load).
Fixtures are invented: a serving daemon in a container, and a torchrun worker whose launcher
reports the abort.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A model server in a container: its start-up line, glibc's sentence, the shell's abort record.
SERVER_ABORT = """\
[2026-04-07 09:12:40] [daemon] loading model instance 0 on devices 0,1,2,3
The futex facility returned an unexpected error code.
Aborted (core dumped)
"""

# A torchrun worker of a data-parallel job: glibc's sentence, then the launcher's exit record.
WORKER_ABORT = """\
[default1]:The futex facility returned an unexpected error code.
E0407 09:20:03.118000 4411 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: 1 (pid: 4473) of binary: /opt/venv/bin/python
"""

# A debugger's backtrace of a rank parked in a futex wait: a waiting thread, no failure.
PARKED_IN_FUTEX = """\
Thread 3 (Thread 0x7f11c2bff640 (LWP 5120) "python"):
#0  0x00007f11d9a91117 in __futex_abstimed_wait_common () from /lib/x86_64-linux-gnu/libc.so.6
#1  0x00007f11d9a93a41 in pthread_cond_wait () from /lib/x86_64-linux-gnu/libc.so.6
"""

# An abort with no futex sentence stays the crash reading.
BARE_ABORT = """\
[2026-04-07 09:12:40] [daemon] loading model instance 0 on devices 0,1,2,3
Aborted (core dumped)
"""


def test_a_futex_abort_in_a_server_is_the_containers_shared_memory() -> None:
    diagnosis = diagnose_text("server.log", SERVER_ABORT)
    assert_reads(
        diagnosis,
        "driver_env",
        first_error="futex facility returned an unexpected error code",
        rule="env.futex_abort_shared_memory",
        beside=("device_fault",),
    )
    assert diagnosis.confidence < 0.8


def test_a_futex_abort_comes_before_the_launchers_exit_record() -> None:
    diagnosis = diagnose_text("launcher.log", WORKER_ABORT)
    assert_reads(diagnosis, "driver_env", first_error="futex facility")


def test_a_thread_parked_in_a_futex_wait_is_no_failure() -> None:
    diagnosis = diagnose_text("gdb.txt", PARKED_IN_FUTEX)
    assert "env.futex_abort_shared_memory" not in rules_of(diagnosis)


def test_an_abort_without_the_futex_sentence_stays_a_crash() -> None:
    diagnosis = diagnose_text("server.log", BARE_ABORT)
    assert "env.futex_abort_shared_memory" not in rules_of(diagnosis)
    assert diagnosis.category == "device_fault"
