"""A collective library's own state monitor warning that a kernel still polls for its peers.

docs/labelling.md#a-collective-librarys-own-stall-monitor: the warning is a stall, `hang` with
`hccl` beside it, and the line to read first; the monitor's set-up lines are no stall, and an
error printed before the warning wins. Hosts, communicator ids and numbers are our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

PREFIX = "[trainer-6c9d1-worker-0][51022:51190][0]"
SETUP = (
    f"{PREFIX}[state_monitor.cc:89] NCCL INFO StateSync:7d0e3b91c2a4f568:Rank0 : using"
    " eth0:10.2.8.14<41207>\n"
    f"{PREFIX}[state_monitor.cc:89] NCCL INFO StateSync:7d0e3b91c2a4f568:Rank2 : using"
    " eth0:10.2.8.14<41233>\n"
)
LOSSES = "".join(
    f"{{'loss': {2.5 - i / 10:.4f}, 'grad_norm': 31.2, 'learning_rate': 1e-05, 'epoch': 0.0}}\n"
    for i in range(6)
)
WARNING = (
    f"{PREFIX}[state_monitor.cc:204] NCCL WARN StateMonitor:7d0e3b91c2a4f568:Rank1 : kernel"
    " begins at work 20417 may hang in polling, time 20260302-104455\n"
)
RAISED_BEFORE = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 212, in <module>\n'
    "    batch = next(loader)\n"
    "FileNotFoundError: [Errno 2] No such file or directory: '/data/shards/part-0031.parquet'\n"
)


def test_the_monitors_polling_warning_reads_as_a_stall_in_a_collective() -> None:
    diagnosis = diagnose_text("train.log", SETUP + LOSSES + WARNING)
    assert_reads(
        diagnosis,
        "hang",
        first_error="may hang in polling",
        rule="hang.collective_kernel_polling_monitor",
        beside=("hccl",),
    )


def test_the_monitors_set_up_lines_are_no_stall() -> None:
    diagnosis = diagnose_text("train.log", SETUP + LOSSES)
    assert "hang.collective_kernel_polling_monitor" not in rules_of(diagnosis)
    assert diagnosis.first_error is None


def test_an_error_before_the_warning_wins() -> None:
    diagnosis = diagnose_text("train.log", SETUP + LOSSES + RAISED_BEFORE + WARNING)
    assert "FileNotFoundError" in diagnosis.first_error.text
