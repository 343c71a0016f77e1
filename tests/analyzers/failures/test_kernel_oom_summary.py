"""The kernel's one-line summary of an OOM kill (`oom-kill:constraint=...,task=...,pid=N`).

docs/labelling.md#a-rank-killed-for-host-memory: newer kernels sum the kill up on one line
between the task list and `Killed process`; a paste that keeps only that line holds the same
record: `oom`, `device_fault` beside it, the line the first error. Fixtures are our own jobs in
the kernel's real format.
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# A DeepSpeed launcher killing its ranks, with the kernel log the user grepped beside it.
LAUNCHER_AND_SUMMARY = """\
 40%|████      | 20/50 [12:03<18:04, 36.15s/it][2026-03-09 21:40:12,303] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 88120
[2026-03-09 21:40:12,304] [INFO] [launch.py:316:sigkill_handler] Killing subprocess 88121
[912004.551871] [  88120]  1000 88120 198650088 176301120 1417441536     512          -998 python
[912004.551890] [  88121]  1000 88121 31475461  2129507 22161728     300          -998 python
[912004.551930] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=a41f07,mems_allowed=0-1,oom_memcg=/docker/a41f07,task_memcg=/docker/a41f07,task=python,pid=88120,uid=1000
"""

GLOBAL_SUMMARY_ALONE = """\
2026-03-10T02:11:40,118203+00:00 oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice,task=pt_main_thread,pid=51277,uid=1000
"""

# Counterexample: a line about the cgroup's OOM settings records no kill; the job's error decides.
OOM_SETTINGS_ONLY = """\
memory.oom.group=1 set; oom-kill events so far: 0
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    main()
ValueError: learning rate must be positive, got -0.001
"""


def test_the_summary_line_beside_the_launcher_is_the_kill() -> None:
    diagnosis = diagnose_text("train.log", LAUNCHER_AND_SUMMARY)
    assert_reads(
        diagnosis,
        "oom",
        first_error="oom-kill:constraint=CONSTRAINT_MEMCG",
        rule="oom.host_oom_killer",
        beside=("device_fault",),
    )


def test_a_host_wide_summary_alone() -> None:
    diagnosis = diagnose_text("dmesg.txt", GLOBAL_SUMMARY_ALONE)
    assert diagnosis.category == "oom", diagnosis.root_cause
    assert "oom.host_oom_killer" in rules_of(diagnosis)


def test_oom_settings_record_no_kill() -> None:
    diagnosis = diagnose_text("train.log", OOM_SETTINGS_ONLY)
    assert "oom.host_oom_killer" not in rules_of(diagnosis)
    assert diagnosis.category != "oom"


# Kernels before 4.19 open the record's summary with the cgroup whose limit was hit instead of
# the one-line `oom-kill:` summary: `Task in <cgroup> killed as a result of limit of <cgroup>`.
OLD_KERNEL_SUMMARY = """\
[Thu Mar 20 21:01:25 2026]  handle_mm_fault+0xc4/0x200
[Thu Mar 20 21:01:25 2026]  page_fault+0x3e/0x50
[Thu Mar 20 21:01:25 2026] Task in /docker/5f0e2a91c7 killed as a result of limit of /docker/5f0e2a91c7
[Thu Mar 20 21:01:25 2026] memory: usage 67108864kB, limit 67108864kB, failcnt 4410
[Thu Mar 20 21:01:25 2026] Mem-Info:
"""

# Counterexample: the cgroup's counters alone record no kill.
OLD_KERNEL_COUNTERS_ONLY = """\
[Thu Mar 20 21:01:25 2026] memory: usage 67108864kB, limit 67108864kB, failcnt 4410
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    main()
ValueError: learning rate must be positive, got -0.001
"""


@pytest.mark.parametrize("limit", ["/docker/5f0e2a91c7", "host"])
def test_an_older_kernels_summary_names_the_cgroup_it_killed_in(limit: str) -> None:
    text = OLD_KERNEL_SUMMARY.replace("limit of /docker/5f0e2a91c7", f"limit of {limit}")
    diagnosis = diagnose_text("dmesg.txt", text)
    assert_reads(
        diagnosis,
        "oom",
        first_error="killed as a result of limit of",
        rule="oom.host_oom_killer",
        beside=("device_fault",),
    )


def test_the_cgroups_counters_alone_record_no_kill() -> None:
    diagnosis = diagnose_text("train.log", OLD_KERNEL_COUNTERS_ONLY)
    assert "oom.host_oom_killer" not in rules_of(diagnosis)
