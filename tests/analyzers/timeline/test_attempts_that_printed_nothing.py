"""A restarted job whose last attempt died at start-up, before any rank printed a checkpoint
(connecting to a store the failed attempt left, a port still held, a rendezvous already
closed): where the ranks stopped is read from the latest attempt that printed checkpoints, in
each layout the attempts come in (torchrun's `attempt_<n>/` folders, the launcher's console, a
file cut by `analyzers.checkpoints.restarts`). A later attempt in which even one rank printed a
checkpoint is still the one read. docs/labelling.md#a-job-its-launcher-restarted.

The bundles are written in the shape of real torch 2.13 runs on gloo (held-out
`data_assert_restart`, `gather_object_generator_restart`): `--log-dir` keeps
`<rdzv id>_<random>/attempt_<n>/<local rank>/{stdout,stderr}.log`; without it the workers
write into torchrun's console behind `[default<local rank>]:`.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.pipeline import analyze
from tests.analyzers.timeline.log_tree import write_lines

FIRST_RUN = ["load weights passed", " norm passed", " attention passed", "layer 0 passed"]
START = "init process group: backend=gloo rank={rank} world_size=2 master=127.0.0.1:29607"
REFUSED = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/"
    "transport/tcp/pair.cc:152] timed out connecting: SO_ERROR: Connection refused"
)
CORRUPT = "RuntimeError: corrupted batch header (magic 0x0000) in shard 5"
AGENT_REPORT = (
    "E1206 05:41:25.517000 24819 torch/distributed/elastic/multiprocessing/api.py:1002] "
    "failed (exitcode: 1) local_rank: {rank} (pid: 24999) of binary: /srv/venv/bin/python3"
)


def _traceback(rank: int, error: str) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/home/user/train/train.py", line 405, in main',
        f"[rank{rank}]:     fn()",
        f"[rank{rank}]: {error}",
    ]


def _attempt(root: Path, number: int, outputs: dict[int, tuple[list[str], list[str]]]) -> None:
    for rank, (out, err) in outputs.items():
        tree = f"job-8dae/torchrun_logs/job-8dae_tyge/attempt_{number}/{rank}"
        write_lines(root, f"{tree}/stdout.log", out)
        write_lines(root, f"{tree}/stderr.log", err)


def _died_connecting(rank: int) -> tuple[list[str], list[str]]:
    """A restarted rank that states its start and fails to connect: no checkpoint."""
    return [START.format(rank=rank)], _traceback(rank, REFUSED)


def _ranks(report: Report) -> dict[int, tuple[str | None, int]]:
    return {r.rank: (r.last_checkpoint, r.checkpoints) for r in report.ranks}


def _first_error(report: Report) -> str:
    assert report.diagnosis.first_error is not None
    return report.diagnosis.first_error.text


def test_attempt_folders_are_read_from_the_attempt_before_one_that_printed_nothing(
    tmp_path: Path,
) -> None:
    """Attempt 0: rank 1 fails on a corrupt batch after layer 0. Attempt 1: both ranks die in
    connectFullMesh. The ranks stopped where attempt 0 left them."""
    _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, CORRUPT))})
    _attempt(tmp_path, 1, {0: _died_connecting(0), 1: _died_connecting(1)})

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("layer 0 passed", 4), 1: ("layer 0 passed", 4)}
    assert "corrupted batch header" in _first_error(report)


def test_the_latest_attempt_that_printed_checkpoints_is_read_not_the_first(
    tmp_path: Path,
) -> None:
    """Three attempts: attempt 1 got as far as the norm before failing again, attempt 2 died at
    start-up. Attempt 1 is where the ranks stopped, not attempt 0's further progress."""
    _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, CORRUPT))})
    _attempt(tmp_path, 1, {0: (FIRST_RUN[:2], []), 1: (FIRST_RUN[:2], _traceback(1, CORRUPT))})
    _attempt(tmp_path, 2, {0: _died_connecting(0), 1: _died_connecting(1)})

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("norm passed", 2), 1: ("norm passed", 2)}


def test_a_last_attempt_in_which_one_rank_printed_a_checkpoint_is_still_read(
    tmp_path: Path,
) -> None:
    """Counterexample: in attempt 1 rank 0 loaded its weights before rank 1's connection was
    refused. That attempt ran, so it is where the ranks stopped: rank 1 has no checkpoint."""
    _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, CORRUPT))})
    _attempt(tmp_path, 1, {0: ([START.format(rank=0), FIRST_RUN[0]], []), 1: _died_connecting(1)})

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("load weights passed", 1), 1: (None, 0)}


def test_a_console_whose_last_attempt_printed_nothing_is_read_from_the_attempt_before(
    tmp_path: Path,
) -> None:
    """Without `--log-dir` the workers write into torchrun's console. The agent (pid 24819)
    reports a failed child once per run: its second report says attempt 1 ran, and in it the
    ranks printed only their start and the refused connection."""
    first = [f"[default{r}]:{line}" for r in (0, 1) for line in FIRST_RUN]
    first += [f"[default1]:{line}" for line in _traceback(1, CORRUPT)]
    first.append(AGENT_REPORT.format(rank=1))
    second = [f"[default{r}]:{START.format(rank=r)}" for r in (0, 1)]
    second += [f"[default0]:{line}" for line in _traceback(0, REFUSED)]
    second.append(AGENT_REPORT.format(rank=0))
    write_lines(tmp_path, "job-8dae/stdout.log", first + second)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("layer 0 passed", 4), 1: ("layer 0 passed", 4)}
    assert "corrupted batch header" in _first_error(report)


def _own_log(rank: int, attempt: int, lines: list[str]) -> list[str]:
    stamp = f"2026-12-06 05:41:{20 + 6 * attempt:02d}"
    return [
        f"{stamp},022 [rank{rank}] INFO {START.format(rank=rank)} attempt={attempt}",
        *(f"{stamp},100 [rank{rank}] INFO {text}" for text in lines),
    ]


def test_a_ranks_own_log_appended_by_every_attempt_is_read_from_the_attempt_that_ran(
    tmp_path: Path,
) -> None:
    """A job logging to its own `log_<rank>.log` in append mode, restarted once: attempt 0
    fails on rank 1's corrupt batch, attempt 1 opens with each rank's start line again and
    gets no further. Each file is cut at that start line; the part before it is read."""
    write_lines(
        tmp_path,
        "job-8dae/log_0.log",
        [*_own_log(0, 0, FIRST_RUN), *_own_log(0, 1, []), *_traceback(0, REFUSED)],
    )
    write_lines(
        tmp_path,
        "job-8dae/log_1.log",
        [*_own_log(1, 0, FIRST_RUN), *_traceback(1, CORRUPT), *_own_log(1, 1, [])],
    )

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("layer 0 passed", 4), 1: ("layer 0 passed", 4)}
    assert "corrupted batch header" in _first_error(report)


SIGTERM = (
    "W1207 00:33:14.325000 26987 torch/distributed/elastic/multiprocessing/api.py:1028] "
    "Sending process {pid} closing signal SIGTERM"
)
SEGV = (
    "E1207 00:33:14.151000 26968 torch/distributed/elastic/multiprocessing/api.py:1002] "
    "failed (exitcode: -11) local_rank: 1 (pid: 27072) of binary: /srv/venv/bin/python3"
)


def _timed(rank: int, attempt: int, lines: list[str]) -> list[str]:
    """A rank's Python logging records as torchrun's `--tee` copies them: start line first."""
    stamp = f"2026-12-07 00:3{3 + attempt}:12"
    start = START.replace("world_size=2", "world_size=4").format(rank=rank)
    return [
        f"{stamp},022 [rank{rank}] INFO {start}",
        *(f"{stamp},100 [rank{rank}] INFO {text}" for text in lines),
    ]


def _two_node_restart(root: Path, console_path: str) -> None:
    node0, node1 = "job-29a9/node0/torchrun_logs/j_e5n4", "job-29a9/node1/torchrun_logs/j_iovp"
    ahead = [*FIRST_RUN, " norm passed"]
    for rank, run in ((0, ahead), (1, FIRST_RUN[:3])):
        write_lines(root, f"{node0}/attempt_0/{rank}/stdout.log", _timed(rank, 0, run))
        write_lines(root, f"{node0}/attempt_1/{rank}/stdout.log", _timed(rank, 1, []))
        write_lines(root, f"{node0}/attempt_1/{rank}/stderr.log", _traceback(rank, REFUSED))
    write_lines(root, "job-29a9/node0/launcher.log", [SEGV])
    console = []
    for local, rank in ((0, 2), (1, 3)):
        write_lines(root, f"{node1}/attempt_0/{local}/stdout.log", _timed(rank, 1, []))
        write_lines(root, f"{node1}/attempt_0/{local}/stderr.log", _traceback(rank, REFUSED))
        console += [f"[default{local}]:{line}" for line in _timed(rank, 0, ahead)]
    console += [SIGTERM.format(pid=pid) for pid in (27070, 27073)]
    for local, rank in ((0, 2), (1, 3)):
        console += [f"[default{local}]:{line}" for line in _timed(rank, 1, [])]
        console += [f"[default{local}]:{line}" for line in _traceback(rank, REFUSED)]
    write_lines(root, console_path, console)


def test_an_agent_restarted_by_another_node_is_read_from_its_console_cut_at_the_run_wanted(
    tmp_path: Path,
) -> None:
    """Two nodes on one c10d rendezvous, --max-restarts 1. Node0's rank 1 dies of SIGSEGV in
    attempt 0, so node0's agent writes `attempt_1/`; node1's agent, restarted by the membership
    change, rewrites `attempt_0/` with the last run (its ranks only state their start before
    the refused connection). No rank printed a checkpoint in that last run, so the ranks stopped
    in the run before it: node1's console still holds it, cut from the last run by the ranks'
    start lines again, and places ranks 2 and 3 where they were when their agent stopped them."""
    _two_node_restart(tmp_path, "job-29a9/node1/launcher.log")

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {
        0: ("norm passed", 5),
        1: ("attention passed", 3),
        2: ("norm passed", 5),
        3: ("norm passed", 5),
    }


def test_a_console_above_both_nodes_trees_is_not_read_for_one_of_them(tmp_path: Path) -> None:
    """Counterexample: the same console kept at the job's top, above both agents' trees, cannot
    be told for one agent's: it stays left out and node1's ranks show no checkpoint."""
    _two_node_restart(tmp_path, "job-29a9/launcher.log")

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report)[2] == (None, 0)
    assert _ranks(report)[3] == (None, 0)
