"""A forked child stuck on a lock it inherited: a hang that leaves only stack dumps.

docs/labelling.md#a-child-process-stuck-on-a-lock-copied-at-fork: a process forked while
another thread held an interpreter lock carries the lock into the child locked; the child's
after-fork hook waits for it for ever, and the parent waits for the child. No line says
anything failed. A debugger's backtrace of the child passes through the interpreter's
after-fork hook, and a py-spy dump of the parent stands in the fork launcher's wait: `hang`,
with `config` beside it (a start method other than fork, or an interpreter with the fix). A
glibc wait helper as the innermost frame, whatever suffix the compiler gave its name, is a
thread waiting and not a crash. The excerpts follow gdb's and py-spy's layouts; addresses,
pids and paths are made up.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text, rules_of

CHILD_BACKTRACE = """\
#0  0x0000ffff8c1d4a10 in do_futex_wait.constprop () from /lib/aarch64-linux-gnu/libpthread.so.0
#1  0x0000ffff8c1d4b58 in __new_sem_wait_slow.constprop.0 () from /lib/aarch64-linux-gnu/libpthread.so.0
#2  0x0000ffff8c5e0c44 in PyThread_acquire_lock_timed () from /usr/lib/libpython3.10.so.1.0
#3  0x0000ffff8c5d0a18 in _PyThreadState_DeleteExcept () from /usr/lib/libpython3.10.so.1.0
#4  0x0000ffff8c60311c in PyOS_AfterFork_Child () from /usr/lib/libpython3.10.so.1.0
#5  0x0000ffff8c603300 in ?? () from /usr/lib/libpython3.10.so.1.0
"""

PARENT_DUMP = """\
Process 2231: python -u train.py --cfg run.yaml
Python v3.10.14 (/usr/bin/python3.10)

Thread 0x7F0A11C2D740 (active): "MainThread"
    poll (multiprocessing/popen_fork.py:27)
    wait (multiprocessing/popen_fork.py:43)
    join (multiprocessing/process.py:149)
    _terminate_pool (multiprocessing/pool.py:729)
    build_index (data/indexer.py:58)
"""

# the innermost frame alone, in a glibc helper whose name carries a compiler suffix
PARKED_IN_GLIBC_HELPER = """\
#0  0x00007f3a55e1c0d2 in do_futex_wait.constprop () from /lib/x86_64-linux-gnu/libpthread.so.0
#1  0x00007f3a55e1c1f8 in __new_sem_wait_slow.constprop.0 () from /lib/x86_64-linux-gnu/libpthread.so.0
#2  0x00007f3a55e23a1c in sem_timedwait () from /lib/x86_64-linux-gnu/libpthread.so.0
"""

# a crash in library code keeps the crash reading
CRASHED_IN_LIBRARY = """\
#0  0x00007f3a4d00b210 in hcclCommInitRootInfo () from /usr/local/Ascend/cann/lib64/libhccl.so
#1  0x00007f3a4d00c001 in ?? () from /usr/local/Ascend/cann/lib64/libhccl.so
"""


def test_a_child_stuck_in_the_after_fork_hook_is_a_hang() -> None:
    diagnosis = diagnose_text("debug/gdb_bt.txt", CHILD_BACKTRACE)
    assert_reads(
        diagnosis,
        "hang",
        first_error="AfterFork_Child",
        rule="hang.fork_child_lock_wait",
        beside=("config",),
    )
    assert "dev.native_backtrace_crash" not in rules_of(diagnosis)


def test_the_parent_waiting_in_the_fork_launcher_is_the_same_hang() -> None:
    diagnosis = diagnose_text("debug/pyspy.txt", PARENT_DUMP)
    assert_reads(
        diagnosis, "hang", first_error="popen_fork.py:27", rule="hang.fork_child_lock_wait"
    )


def test_both_dumps_together_read_as_one_hang() -> None:
    diagnosis = diagnose_files(
        {"debug/pyspy.txt": PARENT_DUMP, "debug/gdb_bt.txt": CHILD_BACKTRACE}
    )
    assert diagnosis.category == "hang"
    assert "dev.native_backtrace_crash" not in rules_of(diagnosis)


def test_a_suffixed_glibc_wait_helper_is_not_a_crash() -> None:
    diagnosis = diagnose_text("debug/gdb_bt.txt", PARKED_IN_GLIBC_HELPER)
    assert diagnosis.category != "device_fault"
    assert "dev.native_backtrace_crash" not in rules_of(diagnosis)


def test_a_crash_in_library_code_stays_a_crash() -> None:
    diagnosis = diagnose_text("debug/gdb_bt.txt", CRASHED_IN_LIBRARY)
    assert_reads(diagnosis, "device_fault", first_error="hcclCommInitRootInfo")
    assert "hang.fork_child_lock_wait" not in rules_of(diagnosis)


def test_a_traceback_frame_in_the_fork_launcher_is_not_the_hang() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/multiprocessing/popen_fork.py", line 66, in _launch\n'
        "    self.pid = os.fork()\n"
        "OSError: [Errno 12] Cannot allocate memory\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "hang.fork_child_lock_wait" not in rules_of(diagnosis)
    assert diagnosis.category != "hang"
