"""Hung jobs that a watchdog, a `timeout` or a dump stopped, every rank at once
(docs/labelling.md#a-job-stopped-from-outside-all-at-once,
docs/labelling.md#a-peer-lost-to-ranks-a-dump-ended, docs/labelling.md#a-wait-that-names-its-peer).

- every rank ended by SIGTERM from outside (a watchdog that dumped the ranks with py-spy and
  then stopped them, torchrun's `exitcode: -15` for each; a launch script's `timeout` status
  124 for each) while none logged an error: the stop is no rank's failure, the dumps name who
  stalled (docs/labelling.md, "A job stopped from outside all at once");
- a wait line that names a rank whose own dump waits in a collective names no culprit (a
  cycle; "A wait that names its peer");
- every rank a launch script's `timeout` stopped at the same checkpoint, none with an error of
  its own in the first try, is a hang that blames nobody, also when the retry's ranks lost
  peers the timeouts had stopped a moment before theirs, or one of them raised there;
- a rank that raised in the first try, while `timeout` stopped the others, is the first error
  and the culprit: the script's records of the stopped ranks only summarise their stop;
- a rank that lost its peers just before its own dump, while every other rank printed only a
  dump, lost them to the stop ("A peer lost to ranks a dump ended"), also when the dumps are
  an srun task's, behind its `N: ` label.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.job_bundles import CLOSED, RankLog, bundle, decoder_steps, pack

SPY_RUN = "torchrun_logs/job_x1/attempt_0"


def _spy(pid: int, inner: str) -> str:
    return (
        f"Process {pid}: /opt/venv/bin/python3 -u /srv/moe/infer.py\n"
        "Python v3.11.7 (/usr/bin/python3.11)\n\n"
        f'Thread {pid} (idle): "MainThread"\n'
        f"    {inner}\n"
        "    MoE.forward (infer.py:161)\n"
        "    Module._call_impl (torch/nn/modules/module.py:1789)\n"
        "    prefill (infer.py:344)\n"
        "    main (infer.py:404)\n"
        "    <module> (infer.py:416)\n"
    )


def _stopped_record(rank: int, status: int) -> str:
    return (
        f"E1206 03:27:39.225000 9795 torch/distributed/elastic/multiprocessing/api.py:1002] "
        f"failed (exitcode: {status}) local_rank: {rank} (pid: {9956 + rank}) of binary: "
        "/opt/venv/bin/python3\n"
    )


def _watchdog_job(tmp_path: Path, rank1_status: int) -> Path:
    files = {"env.txt": "WORLD_SIZE=4\n"}
    launcher = "".join(_stopped_record(r, -15 if r != 1 else rank1_status) for r in range(4))
    files["launcher.log"] = launcher
    for rank in range(4):
        log = RankLog(rank, 4).layers(2, [" norm passed", " attention passed"])
        if rank == 3:
            log.info("layer 2: updating expert cache")
        files[f"{SPY_RUN}/{rank}/stdout.log"] = log.text()
        files[f"{SPY_RUN}/{rank}/stderr.log"] = ""
        inner = (
            "expert_cache_key (infer.py:185)"
            if rank == 3
            else "all_gather (torch/distributed/distributed_c10d.py:4186)"
        )
        files[f"pyspy/rank{rank}.txt"] = _spy(9956 + rank, inner)
    return pack(tmp_path / "job.tar.gz", files, "job-479c9ea1")


def test_every_rank_stopped_by_a_watchdog_is_a_hang_its_dumps_blame(tmp_path: Path) -> None:
    diagnosis = analyze(_watchdog_job(tmp_path, -15), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.first_error is None


def test_a_rank_that_ended_with_a_crash_of_its_own_is_no_stop_from_outside(
    tmp_path: Path,
) -> None:
    diagnosis = analyze(_watchdog_job(tmp_path, -11), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None


def _timer_dump(seconds: int, inner: str) -> str:
    return (
        f"Timeout (0:00:{seconds:02d})!\n"
        "Thread 0x00007fef31677b80 (most recent call first):\n"
        f"  {inner}\n"
        '  File "/srv/moe/infer.py", line 161 in forward\n'
        '  File "/srv/moe/infer.py", line 344 in prefill\n'
        '  File "/srv/moe/infer.py", line 416 in <module>\n'
    )


IN_GATHER = (
    'File "/opt/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
    "line 4186 in all_gather"
)
POLLING = 'File "/srv/moe/infer.py", line 208 in share_routing_table'


def _file_wait_job(tmp_path: Path, writer_dump: str) -> Path:
    logs = []
    for rank in range(4):
        log = RankLog(rank, 4).layers(1, [" norm passed", " attention passed"])
        if rank == 2:
            log.info("layer 1: waiting for routing table from rank 0 (/shared/routing_layer1.json)")
        dump = POLLING if rank == 2 else writer_dump if rank == 0 else IN_GATHER
        log.raw(_timer_dump(12, dump).rstrip("\n"))
        logs.append(log)
    statuses = "".join(f"rank {r} (pid {8561 + r}) exited with status 124\n" for r in range(4))
    return bundle(tmp_path, logs, 4, {"launch.log": statuses})


def test_a_wait_for_a_rank_whose_dump_waits_in_a_collective_blames_the_waiter(
    tmp_path: Path,
) -> None:
    diagnosis = analyze(_file_wait_job(tmp_path, IN_GATHER), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.first_error is None


def test_a_wait_for_a_rank_stuck_outside_any_collective_blames_that_rank(
    tmp_path: Path,
) -> None:
    outside = 'File "/srv/moe/infer.py", line 190 in write_routing_table'
    diagnosis = analyze(_file_wait_job(tmp_path, outside), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0]


def _srun_job(tmp_path: Path, dumps: bool) -> Path:
    lines = []
    for rank in range(4):
        lines.append(
            f"{rank}: init process group: backend=gloo rank={rank} world_size=4 "
            "master=127.0.0.1:29812 timeout=60s"
        )
    for rank in range(4):
        for part in decoder_steps(1, [" norm passed"]):
            lines.append(f"{rank}: {part}")
    lines.append(f"3: [rank3]: RuntimeError: {CLOSED}")
    for rank in range(3) if dumps else ():
        call = "barrier" if rank == 0 else "all_reduce"
        lines += [
            f"{rank}: Current thread 0x00007f3ca1220b80 (most recent call first):",
            f'{rank}:   File "/opt/venv/lib/python3.11/site-packages/torch/distributed/'
            f'distributed_c10d.py", line 5356 in {call}',
            f'{rank}:   File "/srv/moe/infer.py", line 121 in forward',
            f'{rank}:   File "/srv/moe/infer.py", line 416 in <module>',
        ]
    lines += [
        "3: Current thread 0x00007f7a08c58b80 (most recent call first):",
        "3:   <no Python frame>",
    ]
    files = {"job.out": "\n".join(lines) + "\n", "env.txt": "WORLD_SIZE=4\n"}
    return pack(tmp_path / "job.tar.gz", files, "job-0699ee88")


def test_a_peer_lost_to_ranks_stopped_under_their_dumps_is_the_stops_consequence(
    tmp_path: Path,
) -> None:
    diagnosis = analyze(_srun_job(tmp_path, dumps=True), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [0]
    assert diagnosis.first_error is None


def test_a_peer_lost_with_no_dumps_beside_it_keeps_its_reading(tmp_path: Path) -> None:
    diagnosis = analyze(_srun_job(tmp_path, dumps=False), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category != "hang"
    assert diagnosis.first_error is not None


def _killed_job(tmp_path: Path) -> Path:
    """torchrun killed with SIGKILL (its log just ends), plain prints, and one file holding
    every rank's py-spy dump under a header naming the rank."""
    files = {"env.txt": "WORLD_SIZE=4\n"}
    files["launcher.log"] = (
        "W1207 00:57:41.102000 21402 torch/distributed/run.py:851] Setting OMP_NUM_THREADS "
        "environment variable for each process to be 1 in default, to avoid your system being "
        "overloaded, please further tune the variable for optimal performance in your "
        "application as needed.\n"
    )
    files["command.txt"] = "$ timeout -s KILL 90 torchrun --nproc-per-node=4 infer.py\n"
    dumps = ""
    for rank in range(4):
        plain = decoder_steps(1, ["prefill passed", "decode step 0 passed"], loaded=True)
        files[f"{SPY_RUN}/{rank}/stdout.log"] = "\n".join(plain) + "\n"
        files[f"{SPY_RUN}/{rank}/stderr.log"] = ""
        inner = (
            "read_stop_words (infer.py:135)"
            if rank == 1
            else "all_reduce (torch/distributed/distributed_c10d.py:3252)"
        )
        pid = 21424 + rank
        dumps += f"===== rank {rank} (pid {pid}) =====\n" + _spy(pid, inner) + "\n"
    files["py-spy-dumps.txt"] = dumps
    return pack(tmp_path / "job.tar.gz", files, "job-08634a62")


def test_dumps_of_every_rank_in_one_file_name_the_rank_the_others_wait_for(
    tmp_path: Path,
) -> None:
    diagnosis = analyze(_killed_job(tmp_path), AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [1]
    assert diagnosis.first_error is None


# --- a per-node launch script whose `timeout` stopped every rank at the same checkpoint ------


def _stamped(minute: int, node: int, rank: int, messages: list[str]) -> list[str]:
    return [
        f"2026-12-07 23:{minute:02d}:24,{100 + i:03d} INFO node{node} rank{rank} train: {m}"
        for i, m in enumerate(messages)
    ]


def _one_try(rank: int, node: int, attempt: int, minute: int) -> list[str]:
    messages = [
        f"init process group: backend=gloo rank={rank} world_size=4 local_rank={rank % 2} "
        f"node={node} attempt={attempt}",
        "step 1 start",
    ]
    for layer in range(2):
        messages += ["  norm passed", "  attention passed", "  MoE passed", f"layer {layer} passed"]
    messages += ["step 1 done, loss=0.0058", "step 2 start", "  norm passed", "  attention passed"]
    return _stamped(minute, node, rank, messages)


def _traceback(rank: int, error: str) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/train/train.py", line 94, in main',
        f"[rank{rank}]:     dist.all_reduce(x)",
        f"[rank{rank}]: {error}",
    ]


def _timed_out_job(
    tmp_path: Path,
    tries: int = 1,
    lost_in_retry: tuple[int, ...] = (),
    own: str = "",
    own_try: int = 0,
) -> Path:
    """Two nodes' launch scripts, two ranks each, every rank under `timeout 45`; rank 2 sits
    before the MoE all_reduce of step 2 and the others wait in it, until `timeout` stops all.
    With `own`, rank 3 raises that error in try `own_try` instead and ends with status 1."""
    files: dict[str, str] = {}
    for node in (0, 1):
        launch: list[str] = []
        for attempt in range(tries):
            minute = 58 + attempt
            launch.append(
                f"2026-12-07 23:{minute - 1:02d}:44 [launch] node {node} try {attempt + 1}/{tries}:"
                f" starting ranks {2 * node}..{2 * node + 1} master=127.0.0.1:29963"
            )
            for rank in (2 * node, 2 * node + 1):
                code = 1 if own and rank == 3 and attempt == own_try else 124
                launch.append(
                    f"2026-12-07 23:{minute:02d}:29 [launch] node {node} rank {rank} "
                    f"(pid {14227 + 10 * attempt + rank}) exited with code {code}"
                )
            launch.append(
                f"2026-12-07 23:{minute:02d}:30 [launch] node {node} try {attempt + 1} failed"
            )
        launch.append(f"2026-12-07 23:59:33 [launch] node {node}: giving up after {tries} tries")
        files[f"node{node}/launch.log"] = "\n".join(launch) + "\n"
        for rank in (2 * node, 2 * node + 1):
            lines: list[str] = []
            for attempt in range(tries):
                lines += _one_try(rank, node, attempt, 58 + attempt)
                if attempt == own_try and own and rank == 3:
                    lines += _traceback(rank, own)
                if attempt == 1 and rank in lost_in_retry:
                    lines += _traceback(rank, f"RuntimeError: {CLOSED}")
            files[f"node{node}/rank{rank}.txt"] = "\n".join(lines) + "\n"
    return pack(tmp_path / "job.tar.gz", files, "job-1bff5cc7")


def test_every_rank_a_timeout_stopped_at_one_checkpoint_is_a_hang_that_blames_nobody(
    tmp_path: Path,
) -> None:
    report = analyze(_timed_out_job(tmp_path), AnalyzeOptions(workers=1))
    assert report.diagnosis.category == "hang"
    assert report.diagnosis.culprit_ranks == []
    assert report.diagnosis.first_error is None
    assert {r.last_checkpoint_qualified for r in report.ranks} == {
        "step 2 / layer 0 / attention passed"
    }


def test_peers_lost_in_the_retry_as_the_timeouts_reached_them_keep_the_first_tries_stop(
    tmp_path: Path,
) -> None:
    """The retry hung the same way; `timeout` stopped its ranks a moment apart, so ranks 0 and
    3 lost peers stopped before them. The first try had no error: it is still a hang."""
    job = _timed_out_job(tmp_path, tries=2, lost_in_retry=(0, 3))
    diagnosis = analyze(job, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == []
    assert diagnosis.first_error is None


@pytest.mark.parametrize("tries", [1, 2])
def test_a_rank_that_raised_in_the_first_try_is_the_first_error_not_the_timeouts(
    tmp_path: Path, tries: int
) -> None:
    """Rank 3 raised in the first try and ended with status 1 while `timeout` stopped the
    others (status 124): its own exception is the first error and it is the culprit. The
    script's `exited with code 124` records of the ranks left waiting for it are no failure of
    their own, however early the script logged them."""
    job = _timed_out_job(tmp_path, tries=tries, own="KeyError: 'expert_7'")
    diagnosis = analyze(job, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "other"
    assert diagnosis.culprit_ranks == [3]
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text.endswith("KeyError: 'expert_7'")
    assert diagnosis.first_error.rank == 3


def test_a_rank_that_raised_only_in_the_retry_leaves_the_first_tries_hang(
    tmp_path: Path,
) -> None:
    """Counterexample: every rank of the first try was stopped by `timeout` with no error of
    its own; rank 3's exception in the retry does not make the first try's stop its failure."""
    job = _timed_out_job(tmp_path, tries=2, own="KeyError: 'expert_7'", own_try=1)
    diagnosis = analyze(job, AnalyzeOptions(workers=1)).diagnosis
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == []
    assert diagnosis.first_error is None
