"""A serving daemon that cannot make its own process group is a container without an init.

MindIE's daemon puts itself and its backends into a process group of their own when it starts.
Run as the container's first process (no init in front of it), the call fails and the daemon
stops with its own code and the errno (`[daemon] Failed to set process group. errno is 2`). The
container set-up has to change (an init process, `docker run --init`): `driver_env`, with the
launch settings (`config`) beside it. The words "process group" here are the operating system's,
not a collective's. Counterexample: torch's note about a destroyed process group is no such line.

docs/labelling.md#a-serving-daemon-that-cannot-make-its-own-process-group
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

DAEMON_AS_PID_ONE = """\
[2025-09-01 08:00:00.010+08:00] [1] [1] [server] [INFO] [llm_daemon.cpp:120] : [daemon] starting
[2025-09-01 08:00:00.020+08:00] [1] [1] [server] [ERROR] [llm_daemon.cpp:218] : [MIE04E01011C] [daemon] Failed to set process group. errno is 2
"""


def test_a_daemon_refused_its_process_group_is_the_container() -> None:
    diagnosis = diagnose_text("mindie/daemon.log", DAEMON_AS_PID_ONE)
    assert_reads(diagnosis, "driver_env", first_error="Failed to set process group")


def test_a_collective_process_group_note_is_not_this() -> None:
    diagnosis = diagnose_text(
        "train/rank0.log", "[W1201 10:00:00] ProcessGroupNCCL destroyed, process group shutdown\n"
    )
    assert diagnosis.category != "driver_env"
