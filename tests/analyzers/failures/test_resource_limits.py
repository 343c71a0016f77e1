"""One rank that reaches an operating-system limit: open files, threads, a memory watchdog.

docs/labelling.md#config-driver_env-or-weight_load: a collective library that cannot open a
socket because the process has no descriptor left, and a process that may start no more
threads, are the machine's limits (`driver_env`), with the collective layer or the job's own
settings beside them. docs/labelling.md#a-rank-killed-for-host-memory: a memory watchdog that
says it killed a process for its memory is the host's memory running out (`oom`). The
fixtures follow the shapes of gloo ranks under torchrun (combined `[defaultN]:` stdout, Python
logging) and of a rank run by its own shell script, with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import (
    alternative_labels,
    assert_reads,
    diagnose_files,
    diagnose_text,
    rules_of,
)

CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)

# Rank 2 lowered its open-file limit; the group all ranks build next needs sockets.
GLOO_SOCKET_FD_LIMIT = f"""\
[default0]:2026-12-04 18:20:10,902 [rank0] INFO creating expert-parallel group (gloo)
[default2]:2026-12-04 18:20:10,905 [rank2] INFO creating expert-parallel group (gloo)
[default2]:2026-12-04 18:20:11,732 [rank2] ERROR forward failed: RuntimeError: [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/socket.cc:24] rv != -1. -1 vs -1. socket: Too many open files
[default2]:[rank2]: RuntimeError: [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/socket.cc:24] rv != -1. -1 vs -1. socket: Too many open files
[default0]:2026-12-04 18:20:12,044 [rank0] ERROR forward failed: {CLOSED.format(port=41877)}
[default1]:2026-12-04 18:20:12,051 [rank1] ERROR forward failed: {CLOSED.format(port=33310)}
E1204 18:20:14.947000 5325 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) local_rank: 2 (pid: 5583) of binary: /opt/job/run.sh
"""

# Rank 1 runs under a per-user process limit; its prefetch pool cannot start a thread.
THREAD_LIMIT = f"""\
[default1]:2026-12-04 18:21:34,909 [rank1] INFO prefetching expert weights with 8 threads
[default1]:2026-12-04 18:21:34,910 [rank1] ERROR forward failed: RuntimeError: can't start new thread
[default1]:[rank1]:   File "/usr/lib/python3.11/threading.py", line 964, in start
[default1]:[rank1]:     _start_new_thread(self._bootstrap, ())
[default1]:[rank1]: RuntimeError: can't start new thread
[default0]:2026-12-04 18:21:36,656 [rank0] ERROR forward failed: {CLOSED.format(port=45979)}
[default2]:2026-12-04 18:21:36,669 [rank2] ERROR forward failed: {CLOSED.format(port=5315)}
"""

# Rank 0's memory watchdog kills it; the peers lose it.
WATCHDOG_RANK0 = """\
2026-12-04 18:21:40,118 [rank0] INFO  attention passed
2026-12-04 18:21:40,120 [rank0] INFO caching activations on host
memwatch[7994]: pid 6870 RSS 469 MiB over limit 450 MiB, sending SIGKILL
"""
WATCHDOG_RANK1 = f"""\
2026-12-04 18:21:40,131 [rank1] INFO  attention passed
2026-12-04 18:21:42,665 [rank1] ERROR forward failed: {CLOSED.format(port=948)}
[rank1]: {CLOSED.format(port=948)}
"""


def test_a_gloo_socket_refused_for_open_files_is_the_machines_limit() -> None:
    diagnosis = diagnose_text("job/stdout.log", GLOO_SOCKET_FD_LIMIT)
    assert_reads(diagnosis, "driver_env", first_error="socket: Too many open files")
    assert "hccl" in alternative_labels(diagnosis)
    assert "env.comm_socket_fd_limit" in rules_of(diagnosis)


def test_nccls_socket_call_refused_for_open_files_reads_the_same() -> None:
    text = "box-2:3171:3171 [0] misc/socket.cc:440 NCCL WARN Call to socket failed : Too many open files\n"
    diagnosis = diagnose_text("node0.log", text)
    assert diagnosis.category == "driver_env"
    assert "hccl" in alternative_labels(diagnosis)


def test_a_socket_that_fails_for_another_reason_is_not_the_limit() -> None:
    text = GLOO_SOCKET_FD_LIMIT.replace(
        "socket: Too many open files", "socket: Address family not supported by protocol"
    )
    diagnosis = diagnose_text("job/stdout.log", text)
    assert "env.comm_socket_fd_limit" not in rules_of(diagnosis)
    assert diagnosis.category != "driver_env"


def test_a_thread_the_process_may_not_start_is_the_machines_limit() -> None:
    diagnosis = diagnose_text("job/stdout.log", THREAD_LIMIT)
    assert_reads(diagnosis, "driver_env", first_error="can't start new thread")
    assert {"config", "oom"} & set(alternative_labels(diagnosis))


def test_native_thread_pools_that_cannot_start_read_the_same() -> None:
    for line in (
        "OpenBLAS blas_thread_init: pthread_create failed for thread 3 of 8: Resource temporarily unavailable",
        "libgomp: Thread creation failed: Resource temporarily unavailable",
    ):
        assert diagnose_text("rank3.log", line + "\n").category == "driver_env", line


def test_a_thread_count_that_is_only_logged_is_no_limit() -> None:
    text = "2026-12-04 18:21:34,909 [rank1] INFO prefetching expert weights with 8 threads\n"
    assert "env.thread_limit" not in rules_of(diagnose_text("rank1.log", text))


def test_a_memory_watchdogs_kill_is_host_memory() -> None:
    diagnosis = diagnose_files({"job/log_0.log": WATCHDOG_RANK0, "job/log_1.log": WATCHDOG_RANK1})
    assert_reads(diagnosis, "oom", first_error="over limit 450 MiB, sending SIGKILL")
    assert "device_fault" in alternative_labels(diagnosis)


def test_the_shells_killed_line_under_the_watchdog_is_that_kill() -> None:
    text = WATCHDOG_RANK0 + (
        "/opt/job/run_rank.sh: line 4:  6870 Killed                  python -u decode.py\n"
    )
    diagnosis = diagnose_text("job/log_0.log", text)
    assert_reads(diagnosis, "oom", first_error="memwatch")


def test_a_watchdog_that_only_states_its_limit_leaves_a_kill_unexplained() -> None:
    text = (
        "memwatch: watching pid 6870, RSS limit 450 MiB (SIGKILL above it)\n"
        "/opt/job/run_rank.sh: line 4:  6870 Killed                  python -u decode.py\n"
    )
    diagnosis = diagnose_text("job/log_0.log", text)
    assert diagnosis.category == "device_fault"
    assert "oom" in alternative_labels(diagnosis)


# A watchdog that reads each worker's /proc status names the field it read (`VmRSS`), in its
# own log beside the launcher's console.
WATCHDOG_VMRSS = """\
2026-12-07 03:28:49,850 memwatch[21415] INFO watching job processes under pid 21413, rss limit 1024 MiB, poll 0.1 s
2026-12-07 03:29:16,360 memwatch[21415] WARNING pid 21533 (/work/torchenv/bin/python3 -u /work/heldout/infer.py) VmRSS 1055 MiB exceeds limit 1024 MiB, sending SIGKILL
"""
LAUNCHER_KILLED = """\
W1207 03:29:16.860000 21413 torch/distributed/elastic/multiprocessing/api.py:1028] Sending process 21530 closing signal SIGTERM
E1207 03:29:17.011000 21413 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -9) local_rank: 3 (pid: 21533) of binary: /work/torchenv/bin/python3
"""


def test_a_watchdog_naming_the_vmrss_field_reads_as_host_memory() -> None:
    diagnosis = diagnose_files(
        {"job/memwatch.log": WATCHDOG_VMRSS, "job/launcher.log": LAUNCHER_KILLED}
    )
    assert_reads(diagnosis, "oom", first_error="VmRSS 1055 MiB exceeds limit 1024 MiB")
    assert "device_fault" in alternative_labels(diagnosis)
