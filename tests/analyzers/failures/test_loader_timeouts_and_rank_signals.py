"""A rank's own data loader that stops feeding it, and a rank ended by a signal sent to it alone.

docs/labelling.md#a-data-loader-that-waits-past-its-timeout: `DataLoader timed out after N
seconds` is the rank's input pipeline, not a collective: `other` with `hang` beside it, and the
peers that lose the rank afterwards are its consequences.
docs/labelling.md#a-rank-that-exits-without-a-word: a launch script's own `rank N (pid P) exited
with status S` is read as torchrun's status line; 143 (128 + SIGTERM) is a rank stopped from
outside, the first error when that rank printed nothing. The excerpts follow the shapes of real
torchrun and per-rank logs (Python logging, `[rankN]:` tracebacks) with values of our own.
"""

from __future__ import annotations

from tests.analyzers.excerpts import assert_reads, diagnose_files, rules_of

LOADER_TIMEOUT_RANK1 = """\
2026-12-04 21:40:09,120 [rank1] INFO layer 3 passed
2026-12-04 21:40:09,121 [rank1] INFO decode step 4 passed
2026-12-04 21:40:19,127 [rank1] ERROR model run failed: DataLoader timed out after 10.0 seconds
Traceback (most recent call last):
  File "/srv/gen/infer.py", line 175, in main
    for step, ids in enumerate(loader):
  File "/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py", line 1449, in _get_data
    raise RuntimeError(
RuntimeError: DataLoader timed out after 10.0 seconds
"""
PEER_LOST_RANK1 = """\
2026-12-04 21:40:09,122 [rank0] INFO decode step 4 passed
2026-12-04 21:40:09,160 [rank0] INFO  norm passed
2026-12-04 21:40:25,408 [rank0] ERROR model run failed: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] Connection closed by peer [127.0.0.1]:21877. This is typically caused by a remote worker crashing. Check the logs of the remote worker before reporting an error. GLHF! 🏖️
"""


def test_a_loader_that_timed_out_is_the_ranks_input_not_a_collective() -> None:
    diagnosis = diagnose_files(
        {"job/log_0.log": PEER_LOST_RANK1, "job/log_1.log": LOADER_TIMEOUT_RANK1}
    )
    assert_reads(
        diagnosis, "other", first_error="DataLoader timed out after 10.0 seconds", beside=("hang",)
    )
    assert diagnosis.culprit_ranks == [1]


def test_a_collective_that_timed_out_keeps_its_reading() -> None:
    text = LOADER_TIMEOUT_RANK1.replace(
        "DataLoader timed out after 10.0 seconds",
        "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] "
        "Timed out waiting 10000ms for recv operation to complete",
    )
    diagnosis = diagnose_files({"job/log_1.log": text})
    assert diagnosis.category == "hccl"
    assert "other.dataloader_timeout" not in rules_of(diagnosis)


# A launch script started four ranks in the background and waited for each in rank order;
# rank 2 was sent SIGTERM mid-layer and printed nothing, the others lost it.
LAUNCH_LOG = """\
rank 0 (pid 31410) exited with status 1
rank 1 (pid 31411) exited with status 1
rank 2 (pid 31412) exited with status 143
rank 3 (pid 31413) exited with status 1
"""
SILENT_RANK2 = """\
2026-12-04 21:57:25,402 [rank2] INFO layer 1 passed
2026-12-04 21:57:25,433 [rank2] INFO  norm passed
"""


def _lost(rank: int, ms: int) -> str:
    return (
        f"2026-12-04 21:57:25,{ms:03d} [rank{rank}] INFO  norm passed\n"
        f"2026-12-04 21:57:27,{ms:03d} [rank{rank}] ERROR model run failed: "
        "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] Read error "
        f"[127.0.0.1]:{3700 + rank}: Connection reset by peer. This is typically caused by a "
        "remote worker hanging or bugs in the application. Check the logs of the remote worker "
        "before reporting an error. GLHF! 🏖️\n"
    )


def _script_job(launch_log: str, rank2: str = SILENT_RANK2):
    return diagnose_files(
        {
            "job/launch.log": launch_log,
            "job/log_0.log": _lost(0, 431),
            "job/log_1.log": _lost(1, 433),
            "job/log_2.log": rank2,
            "job/log_3.log": _lost(3, 430),
        }
    )


def test_a_rank_the_launch_script_saw_stopped_by_sigterm_is_the_first_error() -> None:
    diagnosis = _script_job(LAUNCH_LOG)
    assert_reads(diagnosis, "other", first_error="rank 2 (pid 31412) exited with status 143")
    assert {"device_fault", "hang"} <= {alt.category for alt in diagnosis.alternatives}
    assert diagnosis.culprit_ranks == [2]


def test_a_silent_ranks_plain_status_is_its_end() -> None:
    diagnosis = _script_job(LAUNCH_LOG.replace("status 143", "status 3"))
    assert_reads(diagnosis, "device_fault", first_error="rank 2 (pid 31412) exited with status 3")
    assert diagnosis.culprit_ranks == [2]


def test_a_status_under_the_ranks_own_error_stays_a_summary() -> None:
    own = SILENT_RANK2 + (
        "2026-12-04 21:57:25,440 [rank2] ERROR model run failed: "
        "corrupt record 9 in shard-00002.jsonl: expected 8 token ids, got 0\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/gen/infer.py", line 175, in main\n'
        "    for step, ids in enumerate(loader):\n"
        "ValueError: corrupt record 9 in shard-00002.jsonl: expected 8 token ids, got 0\n"
    )
    diagnosis = _script_job(LAUNCH_LOG.replace("status 143", "status 1"), own)
    assert diagnosis.first_error is not None
    assert "corrupt record 9" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]
