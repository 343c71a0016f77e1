"""The kernel's one-line summary of an OOM kill (`oom-kill:constraint=...,task=...,pid=N`).

docs/labelling.md#a-rank-killed-for-host-memory: newer kernels sum the kill up on one line
between the task list and `Killed process`; a paste that keeps only that line holds the same
record: `oom`, `device_fault` beside it, the line the first error. Fixtures are our own jobs in
the kernel's real format.
"""

from __future__ import annotations

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
