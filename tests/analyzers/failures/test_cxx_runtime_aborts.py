"""The C++ runtime's own reason for aborting a process, printed before the launcher's -6.

docs/labelling.md#native-only-crashes. A virtual call on an object already half destroyed
(`pure virtual method called`) and `std::terminate` with nothing thrown (`terminate called
without an active exception`) each print one line and abort; the launcher then reports exit
code -6. The runtime's line is the first error and the crash label holds. The fixtures are in
the shapes these runtimes and launchers print (values are ours).
"""

from __future__ import annotations

from tests.analyzers.excerpts import alternative_labels, assert_reads, diagnose_text

# A run that finished its evaluation and aborted while the interpreter shut down.
PURE_VIRTUAL_AT_EXIT = """\
 eval loss at step 400 | lm loss: 2.913204E+00 |
[rank1]:[W0520 08:02:11.204883012 ProcessGroupNCCL.cpp:1477] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. (function operator())
pure virtual method called
terminate called without an active exception
E0520 08:02:40.118000 2210 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: 1 (pid: 2217) of binary: /usr/bin/python3
"""

# A helper thread left running when its owner was destroyed; no virtual-call line before it.
TERMINATE_WITHOUT_EXCEPTION = """\
step 12 done
terminate called without an active exception
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 7702) of binary: /opt/env/bin/python
"""

# Counterexample: the rank's own Python error came first; the abort after it is its teardown.
ERROR_BEFORE_THE_ABORT = """\
Traceback (most recent call last):
  File "/srv/train/loop.py", line 61, in step
    batch = next(loader)
RuntimeError: DataLoader worker (pid 8120) is killed by signal: Bus error.
terminate called without an active exception
ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: 0 (pid: 8114) of binary: /opt/env/bin/python
"""


def test_the_pure_virtual_call_not_the_launchers_exit_code_is_the_first_error() -> None:
    diagnosis = diagnose_text("logs/train.log", PURE_VIRTUAL_AT_EXIT)
    assert diagnosis.category == "device_fault", diagnosis.root_cause
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.strip() == "pure virtual method called"
    assert "other" in alternative_labels(diagnosis)


def test_terminate_with_no_exception_is_the_abort_reason() -> None:
    diagnosis = diagnose_text("logs/train.log", TERMINATE_WITHOUT_EXCEPTION)
    assert_reads(
        diagnosis, "device_fault", first_error="terminate called without an active exception"
    )


def test_an_earlier_error_of_the_same_process_keeps_its_place() -> None:
    diagnosis = diagnose_text("logs/train.log", ERROR_BEFORE_THE_ABORT)
    assert diagnosis.first_error is not None
    assert "DataLoader worker" in diagnosis.first_error.text
