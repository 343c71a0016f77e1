"""Two lines that said what failed but that no signature read.

docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout: a rank that logs that it
received the process group's debug-dump signal for a collective timeout reports the same overrun
as the watchdog's timeout line: `hccl`, `hang` as the alternative. The `preparing to dump debug
info` line alone is bookkeeping and says nothing failed.

docs/labelling.md#a-rank-killed-for-host-memory: Rust's allocator aborting a rank with `memory
allocation of N bytes failed` is the host's memory running out, `oom`, ahead of the launcher's
kills; `device_fault` is the alternative.

Fixtures follow the shapes of torch's process group log and DeepSpeed's launcher, with hosts,
pids, times and sizes of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text

# Two ranks of one node hear the dump signal after rank 5's collective overran; rank 1 only
# announces that it will dump.
DUMP_SIGNAL_AFTER_TIMEOUT = """\
[rank1]:[E514 02:17:40.551203998 ProcessGroupNCCL.cpp:1592] [PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1
[rank4]:[E514 02:17:40.604417730 ProcessGroupNCCL.cpp:1873] [PG ID 0 PG GUID 0 Rank 4] Received a dump signal due to a collective timeout from rank 5 and we will try our best to dump the debug info. Last enqueued NCCL work: 212, last completed NCCL work: 211.
[rank5]:[E514 02:17:40.604980115 ProcessGroupNCCL.cpp:1873] [PG ID 0 PG GUID 0 Rank 5] Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 212, last completed NCCL work: 211.
"""

# The dump announcement with nothing else: no failure is stated.
DUMP_ANNOUNCEMENT_ONLY = """\
[rank1]:[E514 02:17:40.551203998 ProcessGroupNCCL.cpp:1592] [PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1
"""

# Four ranks load a tokenizer while the host is nearly full; two abort in its allocator, their
# words mixed on the shared terminal, and the launcher kills the rest.
HOST_ALLOC_ABORT = """\
[2026-05-14 02:19:58,410] [INFO] [runner.py:568:main] cmd = /opt/venv/bin/python -u -m deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbMCwgMSwgMiwgM119 --master_addr=127.0.0.1 --master_port=29511 sft.py --deepspeed ds_z2.json --per_device_train_batch_size 4
[2026-05-14 02:20:01,117] [INFO] [launch.py:245:main] nnodes=1, num_local_procs=4, node_rank=0
[2026-05-14 02:20:01,118] [INFO] [launch.py:256:main] dist_world_size=4
[2026-05-14 02:20:07,902] [INFO] [comm.py:652:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl
memory allocation of memory allocation of 83886088388608 bytes failed
 bytes failed
[2026-05-14 02:31:44,017] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 51022
[2026-05-14 02:31:44,230] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 51023
"""

# A cache that reports the size it planned to take: nothing failed.
HOST_ALLOC_PLANNED = """\
[2026-05-14 02:20:07,902] [INFO] [cache.py:40:setup] planned memory allocation of 8388608 bytes for the prefix cache
[2026-05-14 02:20:08,004] [INFO] [cache.py:52:setup] prefix cache ready
"""


def test_a_dump_signal_for_a_collective_timeout_is_the_collective() -> None:
    diagnosis = diagnose_text("node0/serve.log", DUMP_SIGNAL_AFTER_TIMEOUT)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Received a dump signal due to a collective timeout",
        beside=("hang",),
    )


def test_a_dump_announcement_alone_is_no_collective_timeout() -> None:
    diagnosis = diagnose_text("node0/serve.log", DUMP_ANNOUNCEMENT_ONLY)
    assert diagnosis.category != "hccl" or diagnosis.confidence < 0.5, diagnosis.root_cause


def test_a_host_allocation_abort_is_host_memory() -> None:
    diagnosis = diagnose_text("ds/training.log", HOST_ALLOC_ABORT)
    assert_reads(diagnosis, "oom", first_error="memory allocation of")
    assert diagnosis.confidence >= 0.5
    assert "device_fault" in {alt.category for alt in diagnosis.alternatives}


def test_a_planned_allocation_is_not_a_failure() -> None:
    diagnosis = diagnose_text("ds/training.log", HOST_ALLOC_PLANNED)
    assert diagnosis.category != "oom", diagnosis.root_cause
    assert diagnosis.first_error is None


# Releases that name the rank whose watchdog fired put two spaces before its number; the peers
# had finished all the work they enqueued.
DUMP_SIGNAL_TWO_SPACES = """\
[rank2]:[E412 08:30:05.201177410 ProcessGroupNCCL.cpp:1922] [PG ID 0 PG GUID 0(default_pg) Rank 2] Observed flight recorder dump signal from another rank via TCPStore.
[rank2]:[E412 08:30:05.201177410 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 2] Received a dump signal due to a collective timeout from  rank 5 and we will try our best to dump the debug info. Last enqueued NCCL work: 9120, last completed NCCL work: 9120.
[rank3]:[E412 08:30:05.201290016 ProcessGroupNCCL.cpp:1987] [PG ID 0 PG GUID 0(default_pg) Rank 3] Received a dump signal due to a collective timeout from  rank 5 and we will try our best to dump the debug info. Last enqueued NCCL work: 9120, last completed NCCL work: 9120.
E0412 08:30:09.702000 811 torch/distributed/elastic/multiprocessing/api.py:988] failed (exitcode: 1) local_rank: 2 (pid: 1304) of binary: /srv/venv/bin/python
  exitcode  : 1 (pid: 1304)
"""


def test_a_dump_signal_naming_the_rank_after_two_spaces_is_the_collective() -> None:
    """docs/labelling.md#hang-or-hccl-when-a-stall-ends-in-a-notify-timeout"""
    diagnosis = diagnose_text("server_tail.log", DUMP_SIGNAL_TWO_SPACES)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Received a dump signal due to a collective timeout from  rank 5",
        rule="hccl.timeout_dump_signal",
        beside=("hang",),
    )
