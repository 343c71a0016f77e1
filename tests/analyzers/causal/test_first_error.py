"""The first causal error across files and ranks, and the ranks to blame."""

from __future__ import annotations

from analyzers.causal.first_error import find_first_error
from analyzers.core.types import FileInfo, FileKind, FileScan, RankStatus
from tests.analyzers.causal.timed_items import WATCHDOG, correlation, item
from tests.analyzers.excerpts import assert_reads, diagnose_files


def test_launcher_line_names_a_local_rank_mapped_through_the_failure_report() -> None:
    line = (
        "E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
        "(exitcode: -11) local_rank: 1 (pid: 26691) of binary: /opt/venv/bin/python"
    )
    launcher = item(line, rank=None, order=0, kind=FileKind.LAUNCHER)
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": 9, "local_rank": 1, "exitcode": -11}]},
    )
    chain = find_first_error([launcher], None, [report])
    assert chain.first is launcher
    assert chain.culprit_ranks == [9]


def test_a_timeout_alone_blames_the_killed_rank() -> None:
    timeout = item(WATCHDOG.format(rank=0), rank=0, order=0, seconds=0)
    statuses = {0: RankStatus.ERROR, 1: RankStatus.KILLED, 2: RankStatus.HUNG}
    chain = find_first_error([timeout], correlation(statuses))
    assert chain.culprit_ranks == [1]


def test_only_noise_means_no_first_error() -> None:
    noise = item("[ERROR] HCCL(1,python):| dest_ip(rank_id) | Role |", rank=0, order=0)
    assert find_first_error([noise]).first is None


def test_elastic_root_cause_is_only_a_last_resort_for_the_culprit() -> None:
    summary = item(
        "E1129 07:25:37.499000 26576 torch/distributed/elastic/multiprocessing/api.py:1002] failed "
        "(exitcode: 1) local_rank: 3 (pid: 26691) of binary: /opt/venv/bin/python",
        rank=None,
        order=0,
        kind=FileKind.LAUNCHER,
    )
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": 3, "exitcode": 1, "root_cause": True}]},
    )
    assert find_first_error([summary], None, [report]).culprit_ranks == [3]
    statuses = {0: RankStatus.ERROR, 1: RankStatus.KILLED, 2: RankStatus.ERROR, 3: RankStatus.ERROR}
    assert find_first_error([summary], correlation(statuses), [report]).culprit_ranks == [1]


def _receiver_aborts(root_cause: int) -> list[int]:
    mismatch = item(
        "  what():  [enforce fail at /src/gloo/transport/tcp/pair.cc:446] op.preamble.length "
        "<= op.nbytes. 2048 vs 1024. Received data size doesn't match expected size.",
        rank=1,
        order=0,
    )
    report = FileScan(
        FileInfo("job/launcher.log", FileKind.LAUNCHER, None),
        facts={"elastic_failures": [{"rank": root_cause, "exitcode": -6, "root_cause": True}]},
    )
    return find_first_error([mismatch], None, [report]).culprit_ranks


# docs/labelling.md, "A rank that aborts on what a peer sent": the launcher's root cause is the first child
# to exit, no culprit when it is the rank that reported a peer's bad message and died of it.
def test_the_rank_that_aborts_on_a_peers_message_is_not_blamed_for_exiting_first() -> None:
    assert _receiver_aborts(root_cause=1) == []


def test_another_rank_the_launcher_saw_exit_first_is_still_the_last_resort() -> None:
    assert _receiver_aborts(root_cause=3) == [3]


FAULTHANDLER_STDERR = """\
Fatal Python error: Segmentation fault

Thread 0x00007fce53a956c0 (most recent call first):
  File "/srv/job/infer.py", line 366 in heartbeat
  File "/usr/lib/python3.11/threading.py", line 982 in run

Current thread 0x00007fce6e5c0b80 (most recent call first):
  File "/usr/lib/python3.11/ctypes/__init__.py", line 519 in string_at
  File "/srv/job/infer.py", line 136 in inject
"""

TORCHRUN_TAIL = """\
W1204 16:51:49.553000 6388 torch/distributed/elastic/multiprocessing/api.py:940] Sending process 6641 closing signal SIGTERM
E1204 16:51:49.554000 6388 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: -11) local_rank: 5 (pid: 6646) of binary: /usr/bin/python3
"""


def test_a_ranks_own_crash_line_goes_before_the_launchers_timed_report_of_it() -> None:
    diagnosis = diagnose_files(
        {
            "job/launcher.log": TORCHRUN_TAIL,
            "job/torchrun_logs/a_1/attempt_0/5/stderr.log": FAULTHANDLER_STDERR,
            "job/torchrun_logs/a_1/attempt_0/5/stdout.log": " norm passed\n",
            "job/torchrun_logs/a_1/attempt_0/4/stdout.log": " norm passed\n attention passed\n",
        }
    )
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == "Fatal Python error: Segmentation fault"
    assert diagnosis.culprit_ranks == [5]


def test_the_launchers_report_stays_first_when_the_rank_said_nothing_of_its_crash() -> None:
    diagnosis = diagnose_files(
        {
            "job/launcher.log": TORCHRUN_TAIL,
            "job/torchrun_logs/a_1/attempt_0/5/stdout.log": " norm passed\n",
            "job/torchrun_logs/a_1/attempt_0/4/stdout.log": " norm passed\n attention passed\n",
        }
    )
    assert diagnosis.first_error is not None
    assert "failed (exitcode: -11) local_rank: 5" in diagnosis.first_error.text


def _left_early_job() -> dict[str, str]:
    """torchrun --log-dir: rank 1 logs that its shard is empty and exits 0; ranks 0, 2 and 3
    lose it in their next all_reduce (their logged record is timed, torch's `[rankN]:` copy
    in stderr is not) and the agent, whose lines are timed, reports rank 0's exit status."""
    closed = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        "Connection closed by peer [127.0.0.1]:7304. This is typically caused by a remote "
        "worker crashing. Check the logs of the remote worker before reporting an error."
    )
    base = "torchrun/none_z_iry1uv/attempt_0"
    layer = ["  norm passed", "  attention passed", "  MoE passed", "layer 0 passed"]
    files = {
        "launcher.log": (
            "W1205 01:23:38.848000 26094 torch/distributed/elastic/multiprocessing/api.py:1028]"
            " Sending process 26130 closing signal SIGTERM\n"
            "E1205 01:23:38.883000 26094 torch/distributed/elastic/multiprocessing/api.py:1002]"
            " failed (exitcode: 1) local_rank: 0 (pid: 26128) of binary: /usr/bin/python3\n"
        )
    }
    for rank in range(4):
        out = [
            f"2026-12-05 01:23:38,{130 + i:03d} [rank{rank}] INFO {t}"
            for i, t in enumerate(["prefill start: 8 tokens", *layer])
        ]
        if rank == 1:
            out.append("2026-12-05 01:23:38,165 [rank1] INFO no more requests in my shard, exiting")
            files[f"{base}/1/stdout.log"] = "\n".join(out) + "\n"
            files[f"{base}/1/stderr.log"] = ""
            continue
        out += [
            f"2026-12-05 01:23:38,169 [rank{rank}] INFO prefill start: 8 tokens",
            f"2026-12-05 01:23:38,{281 + rank:03d} [rank{rank}] ERROR model run failed",
            "Traceback (most recent call last):",
            '  File "/srv/serve.py", line 70, in forward',
            "    dist.all_reduce(a)",
            closed,
        ]
        files[f"{base}/{rank}/stdout.log"] = "\n".join(out) + "\n"
        files[f"{base}/{rank}/stderr.log"] = (
            f"[rank{rank}]: Traceback (most recent call last):\n"
            f'[rank{rank}]:   File "/srv/serve.py", line 70, in forward\n'
            f"[rank{rank}]:     dist.all_reduce(a)\n"
            f"[rank{rank}]: {closed}\n"
        )
    return files


def test_an_exit_status_comes_after_the_lost_connection_its_rank_logged() -> None:
    """Labelling guide, "A rank that exits without a word": when the rank the agent's exit
    line names logged an error, that error is the first error and the exit line a summary of
    it, even when both are consequences of another rank leaving and only the agent's line
    carries a time the other ranks' lines can be ordered against."""
    diagnosis = diagnose_files(_left_early_job())
    assert_reads(diagnosis, "hccl", first_error="Connection closed by peer")


def _dcp_failure(rank: int) -> str:
    """The end of one rank's log in a real gloo job (trimmed) whose distributed
    checkpoint save failed on rank 3: every rank raises the one `CheckpointException`, which
    quotes rank 3's traceback under `(RANK 3)`; no line of it carries a time."""
    tag = f"[rank{rank}]:"
    return "\n".join(
        [
            f"2026-12-05T18:47:12.310+00:00 rank={rank} INFO step 4 done",
            f"2026-12-05T18:47:12.311+00:00 rank={rank} INFO saving checkpoint to /mnt/ckpt/step_4",
            f"{tag} Traceback (most recent call last):",
            f'{tag}   File "/home/user/pretrain/train.py", line 199, in save',
            f"{tag}     dcp.save(sd, checkpoint_id=path)",
            f"{tag} torch.distributed.checkpoint.api.CheckpointException: CheckpointException"
            " ranks:dict_keys([3])",
            f"{tag} Traceback (most recent call last): (RANK 3)",
            f'{tag}   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/checkpoint/'
            'filesystem.py", line 520, in create_stream',
            f"{tag}     with path.open(mode) as stream:",
            f"{tag} OSError: [Errno 28] No space left on device",
            "",
        ]
    )


def test_a_failure_every_rank_quotes_is_cited_from_the_failed_ranks_own_log() -> None:
    """The quote in rank 0's log has the same words and no time, so file order alone cited
    rank 0's copy; rank 3's own log holds the line where rank 3 wrote it."""
    diagnosis = diagnose_files({f"log_{rank}.log": _dcp_failure(rank) for rank in range(4)})
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.file == "log_3.log"
    assert diagnosis.first_error.text == "[rank3]: OSError: [Errno 28] No space left on device"
    assert diagnosis.culprit_ranks == [3]
