"""GNU time's report of a timed command that a signal ended.

docs/labelling.md#a-rank-killed-for-host-memory: a job run under `/usr/bin/time` (or a shell
whose `time` is the GNU program) gets, when a signal ends it, the line `Command terminated by
signal <S>` ahead of time's resource figures. The line holds no error word and names no rank.
A crash signal (SIGSEGV 11, SIGBUS 7, SIGFPE 8, SIGILL 4) is the command's own crash,
device_fault; SIGKILL (9) came from outside, most often the kernel's OOM killer, so oom is
offered beside it. An abort (6) follows the program's own error and a stop (15, 2) came from
outside, so neither is read; `Command exited with non-zero status N` is a status only.
Values are our own, in the tool's real wording.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

TIMED_CRASH = """\
+ CUDA_VISIBLE_DEVICES=0
+ /usr/bin/time python tools/train_detector.py --cfg cfgs/r50_fpn.yml --iters 90000
loading annotations into memory...
Done (t=4.12s)
Command terminated by signal {signal}
41.07user 6.88system 0:19.30elapsed 248%CPU (0avgtext+0avgdata 3120044maxresident)k
0inputs+112outputs (0major+904121minor)pagefaults 0swaps
"""

TIMED_KILL = """\
+ time python pretrain_unet.py --batch 64
epoch 3 step 1800 loss 0.1182
Command terminated by signal 9
5120.44user 230.10system 1:31:02elapsed 99%CPU (0avgtext+0avgdata 61234880maxresident)k
"""

# Counterexample: the program's own error is the cause; time's status line only sums it up.
TIMED_OWN_ERROR = """\
+ /usr/bin/time python train_vit.py --data /datasets/imagenet
Traceback (most recent call last):
  File "train_vit.py", line 40, in <module>
    dataset = ImageFolder(args.data)
FileNotFoundError: [Errno 2] No such file or directory: '/datasets/imagenet/train'
Command exited with non-zero status 1
2.10user 0.77system 0:03.02elapsed 95%CPU (0avgtext+0avgdata 402112maxresident)k
"""

# Counterexample: a stop from outside (SIGTERM) is not the command's crash.
TIMED_STOPPED = """\
+ /usr/bin/time python train_vit.py
epoch 0 step 10 loss 6.91
Command terminated by signal 15
"""


@pytest.mark.parametrize("signal", ["11", "7", "8", "4"])
def test_a_timed_command_ended_by_a_crash_signal_is_its_own_crash(signal: str) -> None:
    diagnosis = diagnose_text("train.log", TIMED_CRASH.format(signal=signal))
    assert_reads(
        diagnosis,
        "device_fault",
        first_error=f"Command terminated by signal {signal}",
        rule="dev.gnu_time_crash_signal",
    )
    assert diagnosis.confidence >= 0.8


def test_a_timed_command_killed_by_sigkill_offers_oom() -> None:
    diagnosis = diagnose_text("train.log", TIMED_KILL)
    assert_reads(
        diagnosis,
        "device_fault",
        first_error="Command terminated by signal 9",
        rule="dev.gnu_time_sigkill",
        beside=("oom",),
    )


def test_time_status_line_yields_to_the_program_error() -> None:
    diagnosis = diagnose_text("train.log", TIMED_OWN_ERROR)
    assert diagnosis.first_error is not None
    assert "FileNotFoundError" in diagnosis.first_error.text
    assert not rules_of(diagnosis) & {"dev.gnu_time_crash_signal", "dev.gnu_time_sigkill"}


def test_a_stop_from_outside_is_not_read_as_a_crash() -> None:
    diagnosis = diagnose_text("train.log", TIMED_STOPPED)
    assert not rules_of(diagnosis) & {"dev.gnu_time_crash_signal", "dev.gnu_time_sigkill"}
