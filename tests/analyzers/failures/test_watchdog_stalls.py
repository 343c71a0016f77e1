"""Two watchdog reports of a job that stopped making progress.

torch 2.5 and later report a collective that overran its timeout in the process-group
watchdog as a headline (an error or a timeout was seen at work N), then `Timeout at NCCL work:
N, ...`, then the generic teardown line. Only the second line says it was a timeout, and it is
the line to read, not the teardown that follows.

A serving framework's scheduler can also watch its own progress: SGLang's schedulers log
`Watchdog timeout (self.watchdog_timeout=300)` when the running batch stops advancing and then
take the server down, which a shell reports as `Killed`. The stall is a hang; the kill is its
teardown.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# One rank of a two-node job; the watchdog gives up on work item 57.
NCCL_WORK_TIMEOUT = """\
[rank5]:[E0312 07:41:09.210355101 ProcessGroupNCCL.cpp:1785] [PG ID 2 PG GUID 3 Rank 5] Exception (either an error or timeout) detected by watchdog at work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.
[rank5]:[E0312 07:41:09.210371842 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 3 Rank 5] Timeout at NCCL work: 57, last enqueued NCCL work: 57, last completed NCCL work: 56.
[rank5]:[E0312 07:41:09.210378114 ProcessGroupNCCL.cpp:630] [Rank 5] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.
"""

# Four TP schedulers of one server stop on the same batch; the launcher then kills the tree.
SCHEDULER_WATCHDOG = """\
[2026-02-11 03:14:20 TP0] Decode batch. #running-req: 64, #token: 81920, token usage: 0.41, gen throughput (token/s): 2210.43, #queue-req: 0
[2026-02-11 03:19:21 TP2] Watchdog timeout (self.watchdog_timeout=300)
[2026-02-11 03:19:21 TP0] Watchdog timeout (self.watchdog_timeout=300)
[2026-02-11 03:19:21 TP3] Watchdog timeout (self.watchdog_timeout=300)
[2026-02-11 03:19:22 TP1] Watchdog timeout (self.watchdog_timeout=300)
[2026-02-11 03:19:26] Received sigquit from a child process. It usually means the child failed.
Killed
"""

# The same teardown without any watchdog line: a process killed from outside.
KILLED_ALONE = """\
[2026-02-11 03:14:20 TP0] Decode batch. #running-req: 64, #token: 81920, token usage: 0.41, gen throughput (token/s): 2210.43, #queue-req: 0
Killed
"""


def test_the_watchdog_timeout_line_is_read_before_the_teardown() -> None:
    diagnosis = diagnose_text("node0/server.log", NCCL_WORK_TIMEOUT)
    assert_reads(diagnosis, "hccl", first_error="Timeout at NCCL work: 57")


def test_a_serving_scheduler_watchdog_is_a_hang_not_a_kill() -> None:
    diagnosis = diagnose_text("server.log", SCHEDULER_WATCHDOG)
    assert_reads(diagnosis, "hang", first_error="03:19:21 TP2] Watchdog timeout")


def test_a_kill_without_a_watchdog_line_stays_a_kill() -> None:
    diagnosis = diagnose_text("server.log", KILLED_ALONE)
    assert diagnosis.category == "device_fault"


# A benchmark client relays the server's answer: the engine missed its per-token limit.
ENGINE_CALLBACK_TIMEOUT = """\
05/14 09:31:02 - AISBench - ERROR - /opt/ais_bench/benchmark/clients/base_client.py - raise_error - 35 - [AisBenchClientException] Error processing stream response: [StreamResponseError] Expecting value: line 1 column 1 (char 0)! Raw server response: b'Engine callback timeout: server tokenTimeout'
05/14 09:31:02 - AISBench - ERROR - /opt/ais_bench/benchmark/clients/base_client.py - raise_error - 35 - [AisBenchClientException] Error processing stream response: [StreamResponseError] Expecting value: line 1 column 1 (char 0)! Raw server response: b'Engine callback timeout: server tokenTimeout'
"""


def test_a_server_answer_that_its_engine_missed_its_limit_is_a_stall() -> None:
    # docs/labelling.md#a-serving-scheduler-that-stops-making-progress
    diagnosis = diagnose_text("bench/ais_bench.log", ENGINE_CALLBACK_TIMEOUT)
    assert_reads(diagnosis, "hang", first_error="Engine callback timeout", beside=("config",))


def test_the_servers_timeout_settings_are_no_stall() -> None:
    text = '{"ScheduleConfig": {"maxBatchSize": 20, "tokenTimeout": 600, "e2eTimeout": 600}}\n'
    diagnosis = diagnose_text("server/config.json", text)
    assert diagnosis.category != "hang"
