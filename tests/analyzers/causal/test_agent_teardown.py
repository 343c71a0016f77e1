"""docs/labelling.md, "A launcher's own kill of the survivors", read in the rank comparison.

When the first error is a torchrun summary record of a rank's plain exit status whose own
output the paste cut short (its traceback head is there, its exception is not), the record is
not promoted to the rank's own failure and the culprits come from comparing the ranks. The
rank the agent killed with SIGKILL half a minute later, while it stopped the survivors, is no
suspect there: that kill is the teardown, not why the job stopped. A SIGKILL recorded before
any rank's own exit keeps its reading as a kill from outside.
"""

from __future__ import annotations

from analyzers.causal.agent_teardown import agent_stopped, teardown_killed
from tests.analyzers.excerpts import diagnose_files, diagnose_text, scan_text

RULE = "-" * 60


def _record(index: int, time: str, rank: int, exitcode: str) -> list[str]:
    return [
        f"[{index}]:",
        f"  time      : 2026-10-14_{time}",
        "  host      : npu-node-07",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {exitcode}",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    ]


def _job(failures: list[list[str]], root: list[str]) -> str:
    """A rank's traceback cut before its exception, then torchrun's closing report, the paste
    ending inside its `Root Cause` record (before the record's exit status)."""
    lines = [
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "/srv/pretrain/run_sft.py", line 41, in <module>',
        "[rank3]:     trainer.fit()",
        '[rank3]:   File "/srv/pretrain/trainer.py", line 212, in fit',
        "[rank3]:",
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/launcher/api.py", '
        "line 286, in launch_agent",
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=" * 60,
        "/srv/pretrain/run_sft.py FAILED",
        RULE,
        "Failures:",
    ]
    for record in failures:
        lines += record
    lines += [RULE, "Root Cause (first observed failure):", *root]
    return "\n".join(lines) + "\n"


def _cut_root(time: str, rank: int) -> list[str]:
    return [
        "[0]:",
        f"  time      : 2026-10-14_{time}",
        "  host      : npu-node-07",
        f"  rank      : {rank} (local_rank: {rank})",
    ]


# ranks 1 and 3 exit with status 1 in the same second (torchrun names rank 1 first); the
# agent sends the others SIGTERM, rank 2 stops, rank 0 is still running 30 s later and the
# agent kills it
STOPPED_AFTER_A_FAILURE = _job(
    [
        _record(1, "08:15:42", 3, "1 (pid: 7703)"),
        _record(2, "08:16:13", 0, "-9 (pid: 7700)"),
        _record(3, "08:16:13", 2, "-15 (pid: 7702)"),
    ],
    _cut_root("08:15:42", 1),
)
# rank 0 is killed first (the host's OOM killer); rank 3 exits 1 after losing it
KILLED_BEFORE_ANY_FAILURE = _job(
    [
        _record(1, "08:15:42", 0, "-9 (pid: 7700)"),
        _record(2, "08:15:49", 3, "1 (pid: 7703)"),
    ],
    _cut_root("08:15:42", 0),
)
CONSOLE = "train_sft_npu.log"


def test_the_agents_kill_of_a_survivor_is_no_suspect() -> None:
    diagnosis = diagnose_text(CONSOLE, STOPPED_AFTER_A_FAILURE)
    assert diagnosis.first_error is not None
    assert "exitcode  : 1 (pid: 7703)" in diagnosis.first_error.text
    assert 0 not in diagnosis.culprit_ranks


def test_a_kill_recorded_before_any_failure_keeps_its_reading() -> None:
    diagnosis = diagnose_text(CONSOLE, KILLED_BEFORE_ANY_FAILURE)
    assert diagnosis.culprit_ranks == [0]


def test_teardown_killed_names_only_a_kill_after_another_ranks_own_exit() -> None:
    after = scan_text(CONSOLE, STOPPED_AFTER_A_FAILURE)
    before = scan_text(CONSOLE, KILLED_BEFORE_ANY_FAILURE)
    assert teardown_killed([after]) == {0}
    assert teardown_killed([before]) == set()


# --- the agent's own lines say which children it stopped ------------------------------------

AGENT = "W1014 18:40:36.{ms} 16292 torch/distributed/elastic/multiprocessing/api.py:1028]"
CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:18051. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _agent_report(stopped: list[int], stopped_in_summary: list[int]) -> str:
    """torchrun's console: the agent stops the children of pids `stopped` with SIGTERM after
    rank 0 exited 1, then its summary records rank 0 and the ranks `stopped_in_summary` (pid
    7700 + rank) in the same second."""
    lines = [
        f"{AGENT.format(ms=f'{696 + i:03d}000')} Sending process {pid} closing signal SIGTERM"
        for i, pid in enumerate(stopped)
    ]
    lines += [
        "E1014 18:40:36.833000 16292 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 0 (pid: 7700) of binary: /opt/venv/bin/python3",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "=" * 60,
        "/srv/train/train.py FAILED",
        RULE,
        "Failures:",
    ]
    for index, rank in enumerate(stopped_in_summary, 1):
        lines += _record(index, "18:40:36", rank, f"-15 (pid: {7700 + rank})  (SIGTERM)")
    lines += [RULE, "Root Cause (first observed failure):"]
    lines += _record(0, "18:40:36", 0, "1 (pid: 7700)")
    return "\n".join(lines) + "\n"


def test_ranks_the_agent_says_it_stopped_are_its_teardown_in_a_summary_of_one_second() -> None:
    """Every record of the summary carries the same second, so its times cannot tell the kill
    from the exit it answered; the agent's `Sending process <pid> closing signal SIGTERM`
    lines can."""
    scan = scan_text("launcher.log", _agent_report([7701, 7702], [1, 2]))
    assert agent_stopped([scan]) == {1, 2}


def test_a_stopped_rank_the_agent_did_not_name_keeps_its_reading() -> None:
    """Counterexample: rank 2's SIGTERM came from somewhere else (the agent named only rank
    1's pid), so it may be why the job stopped."""
    scan = scan_text("launcher.log", _agent_report([7701], [1, 2]))
    assert agent_stopped([scan]) == {1}


def test_a_rank_that_left_while_the_agent_stopped_the_others_is_the_lost_peer() -> None:
    """Rank 3 left early with exit 0 (torchrun lists no record of it) and its peers lost it:
    rank 0 reported the closed connection, the agent stopped ranks 1 and 2 without a word from
    them. Only rank 3 went quiet by itself: the lost peer's `hccl`, rank 3 its culprit, not a
    dead rank."""
    root = "job-b79d/torchrun_logs/job_x1/attempt_0"
    steps = [f"2026-10-14 18:40:3{s},100 INFO [rank{{r}}] epoch 1 step {s} done" for s in (1, 2)]
    files = {
        "job-b79d/launcher.log": _agent_report([7701, 7702], [1, 2]),
        **{
            f"{root}/{r}/stdout.log": "\n".join(t.format(r=r) for t in steps) + "\n"
            for r in range(4)
        },
        f"{root}/0/stderr.log": "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/srv/train/train.py", line 102, in average_gradients\n'
        f"[rank0]: {CLOSED}\n",
        **{f"{root}/{r}/stderr.log": "" for r in (1, 2, 3)},
    }
    diagnosis = diagnose_files(files)
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [3]
