"""The interpreter stopping on a failed check of its own state.

CPython ends a process with `Fatal Python error: <check>: <message>` when a compiled extension
left its state broken (a reference dropped once too often, a C call made without the GIL).
Nothing raised a Python exception: the process died in native code, which the taxonomy calls a
device_fault, with `other` beside it because the fault is the extension's own
(docs/labelling.md#native-only-crashes). The excerpts follow the interpreter's real shapes (the
header, the runtime state, the thread dump, the module list) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

RULE = "dev.python_fatal_runtime_check"


REFCOUNT_AFTER_ENGINE_WAKE_UP = """\
Train:  41%|████      | 812/1980 [20:11:05<29:02:40, 89.52s/it]
INFO 03-11 04:12:40 [executor_base.py:227] It took 0.58 seconds to wake up tags ['weights'].
INFO 03-11 04:12:41 [block_pool.py:316] Successfully reset prefix cache
INFO 03-11 04:12:52 [executor_base.py:227] It took 0.07 seconds to wake up tags ['kv_cache'].
Fatal Python error: none_dealloc: deallocating None: bug likely caused by a refcount error in a C extension
Python runtime state: initialized

Thread 0x00007f3a2effd640 (most recent call first):
  <no Python frame>

Extension modules: numpy._core._multiarray_umath, torch._C, msgspec._core, zmq.backend.cython._zmq (total: 4)
W0311 04:13:05.118000 5120 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 5133 closing signal SIGTERM
"""


def test_a_refcount_check_after_a_wake_up_is_the_crash() -> None:
    diagnosis = diagnose_text("grpo_train.log", REFCOUNT_AFTER_ENGINE_WAKE_UP)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="none_dealloc: deallocating None",
        rule=RULE,
        beside=("other",),
    )


def test_a_gil_check_under_a_ray_actor_prefix_is_the_crash() -> None:
    text = (
        "(RolloutWorker pid=4410) INFO 05-02 11:00:02 [gpu_worker.py:98] Sleep mode freed 21.40 GiB memory\n"
        "(RolloutWorker pid=4410) Fatal Python error: PyThreadState_Get: the function must be called with "
        "the GIL held, but the GIL is released (the current Python thread state is NULL)\n"
        "(RolloutWorker pid=4410) Python runtime state: initialized\n"
    )
    diagnosis = diagnose_text("rollout.log", text)
    assert_reads(diagnosis, "device_fault", first_error="PyThreadState_Get", rule=RULE)


def test_an_interpreter_that_does_not_start_is_no_such_crash() -> None:
    text = (
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding\n"
        "Python runtime state: core initialized\n"
        "ModuleNotFoundError: No module named 'encodings'\n"
    )
    diagnosis = diagnose_text("launch.log", text)
    assert RULE not in rules_of(diagnosis)


def test_a_daemon_thread_at_shutdown_is_no_such_crash() -> None:
    text = (
        "Fatal Python error: _enter_buffered_busy: could not acquire lock for "
        "<_io.BufferedWriter name='<stdout>'> at interpreter shutdown, possibly due to daemon threads\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert RULE not in rules_of(diagnosis)
