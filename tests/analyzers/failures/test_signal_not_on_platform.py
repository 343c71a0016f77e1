"""A launcher or trainer that names a signal the platform does not define.

docs/labelling.md#a-signal-the-platform-does-not-define: Python's `signal` module on Windows has
no `SIGKILL`, `SIGHUP` or `SIGUSR1`; code that names one stops with `AttributeError: module
'signal' has no attribute ...` before any worker runs. The code or release does not fit the
platform: `config`, with `driver_env` beside it, and the signal's name does not make it a killed
process. A worker that did die of SIGKILL keeps the crash reading. Commands and paths are our
own, in Python's and torch's wording.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

WINDOWS_LAUNCH = r"""(det) PS D:\jobs\det> python -m torch.distributed.launch --nproc_per_node 2 tools\train.py --device 0,1 --batch 8
AttributeError: module 'signal' has no attribute 'SIGKILL'. Did you mean: 'SIGILL'?
"""


def test_a_signal_missing_on_the_platform_is_a_setting_not_a_killed_rank() -> None:
    diagnosis = diagnose_text("console.log", WINDOWS_LAUNCH)
    assert_reads(
        diagnosis,
        "config",
        first_error="module 'signal' has no attribute 'SIGKILL'",
        rule="cfg.signal_not_on_platform",
        beside=("driver_env",),
    )


def test_a_handler_for_another_missing_signal_reads_the_same() -> None:
    text = (
        '  File "C:\\jobs\\seg\\train.py", line 58, in install_handlers\n'
        "    signal.signal(signal.SIGUSR1, self._save_and_exit)\n"
        "AttributeError: module 'signal' has no attribute 'SIGUSR1'\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert diagnosis.category == "config"
    assert "cfg.signal_not_on_platform" in rules_of(diagnosis)


def test_a_worker_killed_by_the_signal_keeps_the_crash_reading() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/det/train.py", line 90, in <module>\n'
        "    mp.spawn(main, nprocs=4)\n"
        "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGKILL\n"
    )
    diagnosis = diagnose_text("train.log", text)
    assert "cfg.signal_not_on_platform" not in rules_of(diagnosis)
    assert diagnosis.category == "device_fault"
