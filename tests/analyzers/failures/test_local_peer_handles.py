"""Handles that one process of a host shares with a local peer, and the peer cannot take.

NCCL's shared-memory transport maps a segment the peer created; a rank that finds no such
file is the set-up between the ranks failing, not a short `/dev/shm`
(docs/labelling.md#config-driver_env-or-weight_load). torch's symmetric memory passes file
descriptors over a per-process Unix socket, which only a process on the same host can reach
(docs/labelling.md#symmetric-memory-handles-that-cannot-reach-a-peer). Fixtures follow NCCL's
`host:pid:tid [dev] file:line NCCL WARN` lines and torchrun's `[rankN]:` tracebacks, with hosts,
sizes and paths of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_text, rules_of

# One rank of a node finds no segment where its peer's buffer should be; the empty name and
# size 0 are a peer that shared cuMem host memory instead of a file. NCCL's return-code trace
# and the other ranks' successful imports follow.
SHM_ATTACH_FAILED = """\
[2026-02-11 08:14:52] gpu-b07:40512:40512 [5] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl- (size 0), error: No such file or directory (2)
gpu-b07:40512:40512 [5] NCCL INFO transport/shm.cc:634 -> 2
gpu-b07:40512:40512 [5] NCCL INFO transport.cc:212 -> 2
gpu-b07:40512:40512 [5] NCCL INFO group.cc:76 -> 2 [Async thread]
gpu-b07:40509:40509 [2] NCCL INFO MMAP imported shareable host buffer /dev/shm/nccl-Tk3vQa size 11534336 ptr 0x7f3e1c000000
gpu-b07:40510:40510 [3] NCCL INFO MMAP imported shareable host buffer /dev/shm/nccl-Pe81Zo size 11534336 ptr 0x7f0a44000000
"""

# The same step succeeding on every rank: imports only.
SHM_IMPORTED = """\
gpu-b07:40509:40509 [2] NCCL INFO MMAP imported shareable host buffer /dev/shm/nccl-Tk3vQa size 11534336 ptr 0x7f3e1c000000
gpu-b07:40510:40510 [3] NCCL INFO CUMEM imported shareable host buffer from proxyRank 1 size 4096 ptr 0x7f0a46000000, granularity 2097152
"""

# A rendezvous of a group spread over two nodes: the remote peers have no socket on this host.
FD_SEND_ACROSS_NODES = """\
[rank9]: Traceback (most recent call last):
[rank9]:   File "/work/moe/a2a_bench.py", line 52, in <module>
[rank9]:     symm_mem.rendezvous(inp, dist.group.WORLD.group_name)
[rank9]:   File "/opt/venv/lib/python3.12/site-packages/torch/distributed/_symmetric_memory/__init__.py", line 1740, in rendezvous
[rank9]:     return _SymmetricMemory.rendezvous(tensor, group_name)
[rank9]: RuntimeError: Failed to send fd: No such file or directory
"""

# The socket itself could not be bound: the local set-up, not a peer out of reach.
SOCKET_NOT_BOUND = """\
[rank1]:   File "/work/moe/a2a_bench.py", line 52, in <module>
[rank1]:     symm_mem.rendezvous(inp, dist.group.WORLD.group_name)
[rank1]: RuntimeError: Failed to bind socket: Address already in use
"""


def test_a_segment_a_local_peer_created_and_this_rank_cannot_attach_is_the_transport() -> None:
    diagnosis = diagnose_text("node.log", SHM_ATTACH_FAILED)
    assert_reads(
        diagnosis,
        "hccl",
        first_error="Error while attaching to shared memory segment",
        rule="hccl.nccl_shm_attach_failed",
    )
    assert {alt.category for alt in diagnosis.alternatives} >= {"driver_env", "config"}
    assert diagnosis.confidence < 0.8


def test_imported_segments_are_no_failure() -> None:
    diagnosis = diagnose_text("node.log", SHM_IMPORTED)
    assert diagnosis.first_error is None
    assert "hccl.nccl_shm_attach_failed" not in rules_of(diagnosis)


def test_a_descriptor_that_cannot_reach_a_peer_is_the_backend_for_the_group() -> None:
    diagnosis = diagnose_text("rank9.log", FD_SEND_ACROSS_NODES)
    assert_reads(
        diagnosis,
        "config",
        first_error="Failed to send fd: No such file or directory",
        rule="cfg.symm_mem_fd_exchange_failed",
    )
    assert {alt.category for alt in diagnosis.alternatives} >= {"driver_env", "hccl"}


def test_the_bare_lower_case_line_is_read_alike() -> None:
    diagnosis = diagnose_text("run.log", "failed to send fd: No such file or directory\n")
    assert diagnosis.category == "config"
    assert "cfg.symm_mem_fd_exchange_failed" in rules_of(diagnosis)


def test_a_socket_that_cannot_be_bound_is_not_a_peer_out_of_reach() -> None:
    diagnosis = diagnose_text("rank1.log", SOCKET_NOT_BOUND)
    assert "cfg.symm_mem_fd_exchange_failed" not in rules_of(diagnosis)
