"""A torchrun job restarted with `--max-restarts`: where the ranks stopped is read from the last
attempt (from the latest that printed checkpoints when the last printed none:
test_attempts_that_printed_nothing.py), while every attempt's errors stay evidence.

The bundles are written in the shape of real torch 2.13 runs on gloo: `--log-dir` keeps
`<rdzv id>_<random>/attempt_<n>/<local rank>/{stdout,stderr}.log`, the ranks print their
checkpoints, and `--tee 3` repeats every line of every attempt in `launcher.log` behind
`[default<local rank>]:` with nothing between the attempts.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.pipeline import analyze
from analyzers.timeline.attempts import Attempts
from tests.analyzers.excerpts import scan_text
from tests.analyzers.timeline.log_tree import write_lines

FIRST_RUN = ["load weights passed", " norm passed", " attention passed", "layer 0 passed"]
REFUSED = (
    "RuntimeError: Gloo connectFullMesh failed with [/__w/pytorch/pytorch/third_party/gloo/gloo/"
    "transport/tcp/pair.cc:144] no error"
)
CORRUPT = "RuntimeError: corrupted batch header (magic 0x0000) in shard 5"


def _traceback(rank: int, error: str) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/srv/infer/run.py", line 71, in main',
        f"[rank{rank}]:     out = model(batch)",
        f"[rank{rank}]: {error}",
    ]


def _attempt(root: Path, number: int, outputs: dict[int, tuple[list[str], list[str]]]) -> list[str]:
    """Write one attempt's tree; return the launcher's copies of its lines."""
    copies = []
    for rank, (out, err) in outputs.items():
        tree = f"job-47d2/torchrun_logs/none_3z76/attempt_{number}/{rank}"
        write_lines(root, f"{tree}/stdout.log", out)
        write_lines(root, f"{tree}/stderr.log", err)
        copies += [f"[default{rank}]:{line}" for line in out + err]
    return copies


def _ranks(report: Report) -> dict[int, tuple[str | None, int]]:
    return {r.rank: (r.last_checkpoint, r.checkpoints) for r in report.ranks}


def test_a_restarted_job_is_placed_by_its_last_attempt(tmp_path: Path) -> None:
    launcher = _attempt(
        tmp_path,
        0,
        {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, CORRUPT))},
    )
    launcher += [
        "E1204 13:17:09.517000 24819 torch/distributed/elastic/multiprocessing/api.py:1002] "
        "failed (exitcode: 1) local_rank: 1 (pid: 24999) of binary: /srv/venv/bin/python3"
    ]
    launcher += _attempt(
        tmp_path,
        1,
        {0: (["load weights passed"], _traceback(0, REFUSED)), 1: (["load weights passed"], [])},
    )
    write_lines(tmp_path, "job-47d2/launcher.log", launcher)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("load weights passed", 1), 1: ("load weights passed", 1)}
    cited = [e.ref.text for e in report.diagnosis.evidence]
    assert any("corrupted batch header" in text for text in cited)


def test_a_single_attempt_keeps_the_launchers_copies(tmp_path: Path) -> None:
    """Counterexample: with one attempt the launcher's copy is read as before (it can hold
    the lines of a rank whose own files were not collected)."""
    launcher = _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, [])})
    launcher += ["[default2]:" + line for line in FIRST_RUN[:2]]
    write_lines(tmp_path, "job-47d2/launcher.log", launcher)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report)[2] == ("norm passed", 2)


def test_the_first_attempts_failure_is_the_first_error(tmp_path: Path) -> None:
    """docs/labelling.md#a-job-its-launcher-restarted: the restarted group dying at start-up
    (connecting to the failed attempt's addresses) is what the restart made of the failure."""
    launcher = _attempt(
        tmp_path,
        0,
        {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, CORRUPT))},
    )
    launcher += _attempt(
        tmp_path,
        1,
        {0: (["load weights passed"], _traceback(0, REFUSED)), 1: (["load weights passed"], [])},
    )
    write_lines(tmp_path, "job-47d2/launcher.log", launcher)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.first_error is not None
    assert "corrupted batch header" in report.diagnosis.first_error.text
    assert report.diagnosis.culprit_ranks == [1]


SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)"
WHOLE_RUN = [*FIRST_RUN, " MoE passed", "layer 0 passed", "model run success"]
AGENT_REPORT = (
    "E1204 13:17:09.517000 24819 torch/distributed/elastic/multiprocessing/api.py:1002] "
    "failed (exitcode: 1) local_rank: 1 (pid: 24999) of binary: /srv/venv/bin/python3"
)


def test_a_console_every_attempt_wrote_into_is_read_from_its_last_attempt(tmp_path: Path) -> None:
    """Without `--log-dir` the workers inherit torchrun's console: attempt 1's lines follow
    the agent's report of attempt 0's failed child in the same file."""
    first = [f"[default{r}]:{line}" for r in (0, 1) for line in WHOLE_RUN[:4]]
    first += [f"[default1]:[rank1]: {SHAPE}", AGENT_REPORT]
    second = [f"[default{r}]:{line}" for r in (0, 1) for line in FIRST_RUN[:3]]
    write_lines(tmp_path, "job-47d2/stdout.log", first + second)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {0: ("attention passed", 3), 1: ("attention passed", 3)}
    assert report.diagnosis.first_error is not None
    assert SHAPE in report.diagnosis.first_error.text


def test_a_restarted_job_whose_last_attempt_finished_is_healthy(tmp_path: Path) -> None:
    """docs/labelling.md#a-job-its-launcher-restarted: attempt 0 failed, attempt 1 ran to
    every rank's success line."""
    launcher = _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, SHAPE))})
    launcher += [AGENT_REPORT]
    launcher += _attempt(tmp_path, 1, {0: (WHOLE_RUN, []), 1: (WHOLE_RUN, [])})
    write_lines(tmp_path, "job-47d2/launcher.log", launcher)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.category == "healthy"
    assert report.diagnosis.culprit_ranks == []


def test_a_restarted_job_whose_last_attempt_failed_again_is_not_healthy(tmp_path: Path) -> None:
    """Counterexample: attempt 1 stopped before its success line, so attempt 0's failure
    names the job."""
    launcher = _attempt(tmp_path, 0, {0: (FIRST_RUN, []), 1: (FIRST_RUN, _traceback(1, SHAPE))})
    launcher += [AGENT_REPORT]
    launcher += _attempt(
        tmp_path, 1, {0: (WHOLE_RUN[:-1], []), 1: (FIRST_RUN, _traceback(1, SHAPE))}
    )
    write_lines(tmp_path, "job-47d2/launcher.log", launcher)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert report.diagnosis.category == "shape_mismatch"
    assert report.diagnosis.culprit_ranks == [1]


def test_an_agent_restarted_by_another_nodes_restart_is_read_from_its_own_tree(
    tmp_path: Path,
) -> None:
    """docs/labelling.md#a-job-its-launcher-restarted: on two nodes only the agent whose child
    failed counts the restart (`attempt_1/`); the other agent, restarted by the membership
    change, rewrites `attempt_0/` (its last run) and its `--tee` console keeps every run. The
    last run printed no checkpoint, so the ranks are placed by the run before it: node1's
    `attempt_0/`; node0 kept that run only in its console, which is left out: its lines state
    no start to cut its runs apart by (test_attempts_that_printed_nothing.py has the console
    that does)."""
    node0, node1 = "job-5e1a/node0/torchrun_logs/j_a1", "job-5e1a/node1/torchrun_logs/j_b2"
    for rank in (0, 1):  # node0's last run: its ranks died connecting, before any checkpoint
        write_lines(tmp_path, f"{node0}/attempt_0/{rank}/stdout.log", ["init process group"])
        write_lines(tmp_path, f"{node0}/attempt_0/{rank}/stderr.log", _traceback(rank, REFUSED))
    for local, rank in ((0, 2), (1, 3)):
        write_lines(tmp_path, f"{node1}/attempt_0/{local}/stdout.log", FIRST_RUN)
        write_lines(tmp_path, f"{node1}/attempt_0/{local}/stderr.log", _traceback(rank, CORRUPT))
        write_lines(tmp_path, f"{node1}/attempt_1/{local}/stdout.log", ["init process group"])
        write_lines(tmp_path, f"{node1}/attempt_1/{local}/stderr.log", _traceback(rank, REFUSED))
    console = [
        f"[default{r}]:{line}" for r in (0, 1) for line in ["init process group", *FIRST_RUN]
    ]
    console += [
        "W1204 13:17:09.517000 24819 torch/distributed/elastic/multiprocessing/api.py:1028] "
        f"Sending process {pid} closing signal SIGTERM"
        for pid in (24998, 24999)
    ]
    console += [f"[default{r}]:init process group" for r in (0, 1)]
    console += [f"[default{r}]:{line}" for r in (0, 1) for line in _traceback(r, REFUSED)]
    write_lines(tmp_path, "job-5e1a/node0/launcher.log", console)

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {
        0: (None, 0),
        1: (None, 0),
        2: ("layer 0 passed", 4),
        3: ("layer 0 passed", 4),
    }
    assert report.diagnosis.first_error is not None
    assert "corrupted batch header" in report.diagnosis.first_error.text


def _own_log(rank: int, attempt: int, lines: list[str]) -> list[str]:
    start = (
        f"2026-12-05 13:18:{14 + 14 * attempt:02d},022 [rank{rank}] INFO init process group: "
        f"backend=gloo rank={rank} world_size=2 master=localhost:35005 attempt={attempt}"
    )
    return [
        start,
        *(f"2026-12-05 13:18:{15 + 14 * attempt:02d},100 [rank{rank}] {t}" for t in lines),
    ]


def test_ranks_own_appended_logs_are_placed_by_the_attempt_before_one_that_printed_nothing(
    tmp_path: Path,
) -> None:
    """torchrun --max-restarts 1 without --log-dir, the job logging to its own `log_<rank>.log`
    in append mode: in attempt 0 rank 1 stalls, rank 0 times out and the agent stops rank 1;
    attempt 1 never gets past `init_process_group`. No rank reached a checkpoint in the run that
    ended the job, so attempt 0 (cut off by the start lines) is where they stopped, and its
    timeout stays the first error."""
    progress = [f"INFO {t}" for t in FIRST_RUN]
    timeout = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
        "unbound_buffer.cc:78] Timed out waiting 6000ms for recv operation to complete"
    )
    write_lines(
        tmp_path,
        "job-9a1c/log_0.log",
        [*_own_log(0, 0, [*progress, "ERROR model run failed"]), timeout, *_own_log(0, 1, [])],
    )
    write_lines(tmp_path, "job-9a1c/log_1.log", [*_own_log(1, 0, progress), *_own_log(1, 1, [])])
    write_lines(
        tmp_path,
        "job-9a1c/launcher.log",
        [f"[rank0]: {timeout}", AGENT_REPORT.replace("local_rank: 1", "local_rank: 0")] * 2,
    )

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert {r.rank: r.last_checkpoint for r in report.ranks} == {
        0: "layer 0 passed",
        1: "layer 0 passed",
    }
    assert report.diagnosis.first_error is not None
    assert "Timed out waiting 6000ms" in report.diagnosis.first_error.text


def test_the_line_that_begins_a_later_attempt_is_that_attempts(tmp_path: Path) -> None:
    """Where a file is cut, the cut line is the first of the next attempt, as the checkpoints
    are read: here the restarted rank's first line comes right after the agent reported the
    failed child a second time made a cut there."""
    second = "E1204 13:17:19.517000 24819 " + AGENT_REPORT.split(" 24819 ", 1)[1]
    lines = [
        *(f"[default{r}]:{line}" for r in (0, 1) for line in WHOLE_RUN[:4]),
        f"[default1]:[rank1]: {SHAPE}",
        AGENT_REPORT,
        "[default1]:[E1204 13:17:12.860861587 socket.cpp:1028] [c10d] The client socket has "
        "timed out after 3000ms while trying to connect to (127.0.0.1, 53151).",
        second.replace("local_rank: 1 (pid: 24999)", "local_rank: 1 (pid: 25111)"),
    ]
    scan = scan_text("job-47d2/stdout.log", "".join(f"{line}\n" for line in lines))

    attempts = Attempts([scan])

    report = lines.index(AGENT_REPORT) + 1
    assert [attempts.of(scan.info.path, line) for line in (report, report + 1)] == [0, 1]


def _hosts_run(host: str, ranks: dict[int, int], lines: list[str]) -> list[str]:
    """One run of a host's workers in pdsh's console: host label, agent's local tag, line."""
    return [
        f"{host}: [default{local}]:{text.format(rank=rank, local=local)}"
        for local, rank in ranks.items()
        for text in lines
    ]


def test_a_console_of_every_host_that_kept_more_runs_than_the_trees_places_the_ranks(
    tmp_path: Path,
) -> None:
    """docs/labelling.md#a-job-its-launcher-restarted: pdsh's console of two hosts' agents
    copies three runs; node-0's agent, restarted by node-1's restart, rewrote `attempt_0/` with
    the second run and `attempt_1/` with the third, neither of which printed a checkpoint. Only
    the console still holds the first run, where node-0's ranks passed their weight load."""
    start = (
        "2026-12-07 04:16:20,123 [rank{rank}] INFO init process group: backend=gloo "
        "rank={rank} local_rank={local} node=node-0 world_size=4 master=localhost:32557"
    )
    passed = "2026-12-07 04:16:20,414 [rank{rank}] INFO load weights passed"
    closed = (
        "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
        "Connection closed by peer [127.0.0.1]:5783."
    )
    node0, node1 = {0: 0, 1: 1}, {0: 2, 1: 3}
    console = _hosts_run("node-0", node0, [start, passed]) + _hosts_run("node-1", node1, [start])
    console += _hosts_run("node-1", {0: 2}, [passed, f"[rank2]: {closed}"])
    console += _hosts_run("node-1", {1: 3}, [f"[rank3]: {CORRUPT}"])
    console += _hosts_run("node-0", node0, ["[rank{rank}]: " + closed])
    for _ in range(2):  # two more runs, each dying while connecting
        console += _hosts_run("node-0", node0, [start, "[rank{rank}]: " + REFUSED])
        console += _hosts_run("node-1", node1, [start])
    write_lines(tmp_path, "job-abe8/console.log", console)
    trees = {"node-0": ("j_v8id", node0), "node-1": ("j_hhrz", node1)}
    for host, (tree, ranks) in trees.items():
        for number in (0, 1):
            for local, rank in ranks.items():
                folder = f"job-abe8/{host}/torchrun_logs/{tree}/attempt_{number}/{local}"
                text = [start.format(rank=rank, local=local)]
                if host == "node-1" and number == 0:  # node-1's first run survives in its tree
                    text += [passed.format(rank=rank)] if rank == 2 else []
                    text += _traceback(rank, closed if rank == 2 else CORRUPT)
                elif rank in node0:
                    text += _traceback(rank, REFUSED)
                write_lines(tmp_path, f"{folder}/stderr.log", text)
                write_lines(tmp_path, f"{folder}/stdout.log", [])

    report = analyze(tmp_path, AnalyzeOptions(workers=1))

    assert _ranks(report) == {
        0: ("load weights passed", 1),
        1: ("load weights passed", 1),
        2: ("load weights passed", 1),
        3: (None, 0),
    }
