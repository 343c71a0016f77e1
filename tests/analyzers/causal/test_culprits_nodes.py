"""Culprits on jobs of two nodes, each with its own launcher and its own folder: a node's
launcher numbers its children from 0, a node can lose all its ranks at once, and an agent
stopped from outside runs only its node's ranks (docs/labelling.md, "A node that drops out").
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.core.report import Diagnosis
from tests.analyzers.job_bundles import CLOSED, bundle

PARTS = [" norm passed", " attention passed", " MoE passed", "layer 0 passed", " norm passed"]


def progress(rank: int, second: int = 20, tag: str = "") -> list[str]:
    return [
        f"{tag}2026-12-04 18:01:{second:02d},{100 + 10 * n + rank:03d} [rank{rank}] INFO {part}"
        for n, part in enumerate(PARTS)
    ]


def lost_peer(rank: int, tag: str = "") -> list[str]:
    return [
        f"{tag}[rank{rank}]: Traceback (most recent call last):",
        f'{tag}[rank{rank}]:   File "/srv/infer/model.py", line 88, in attention',
        f"{tag}[rank{rank}]: RuntimeError: {CLOSED}",
    ]


def diagnose(tmp_path: Path, files: dict[str, str]) -> Diagnosis:
    return analyze(bundle(tmp_path, [], 4, files), AnalyzeOptions(workers=1)).diagnosis


# --- a spawn per node: the child's index is its place among the node's ranks -------------

SEGV = (
    "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGSEGV"
)


def spawned(first: int) -> str:
    """One node's stdout: ranks `first` and `first + 1`, the second of them silent after its
    last progress line, the other losing it, then the spawn's report of child 1."""
    lines = progress(first) + progress(first + 1) + lost_peer(first)
    lines += ["Traceback (most recent call last):", '  File "<string>", line 5, in <module>', SEGV]
    return "\n".join(lines) + "\n"


def test_a_spawn_index_on_the_second_node_is_that_nodes_second_rank(tmp_path: Path) -> None:
    files = {
        "node0/stdout.log": "\n".join(progress(0) + progress(1) + lost_peer(0)) + "\n",
        "node1/stdout.log": spawned(2),
    }
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.first_error is not None
    assert "SIGSEGV" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [3]


def test_a_spawn_index_in_a_file_of_ranks_from_zero_is_the_rank_itself(tmp_path: Path) -> None:
    files = {"stdout.log": spawned(0)}
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.culprit_ranks == [1]


# --- one agent reporting several children killed ------------------------------------------

AGENT = "E1204 18:01:21.500000 7001 torch/distributed/elastic/multiprocessing/api.py:1002]"


def report(second_exit: str) -> list[str]:
    """torchrun's failure summary for a node running ranks 2 and 3."""
    return [
        f"{AGENT} failed (exitcode: -9) local_rank: 0 (pid: 7010) of binary: /usr/bin/python3",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "======================================================",
        "infer.py FAILED",
        "------------------------------------------------------",
        "Failures:",
        "[1]:",
        "  time      : 2026-12-04_18:01:21",
        "  host      : node-b",
        "  rank      : 3 (local_rank: 1)",
        f"  exitcode  : {second_exit}",
        "  error_file: <N/A>",
        "------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-12-04_18:01:21",
        "  host      : node-b",
        "  rank      : 2 (local_rank: 0)",
        "  exitcode  : -9 (pid: 7010)  (SIGKILL)",
        "  error_file: <N/A>",
        "  traceback : Signal 9 (SIGKILL) received by PID 7010",
        "======================================================",
    ]


def killed_node(tmp_path: Path, second_exit: str) -> Diagnosis:
    teed = [f"[default{r - 2}]:{line}" for r in (2, 3) for line in progress(r)]
    files = {
        "node0/launcher.log": "\n".join(progress(0) + progress(1) + lost_peer(0)) + "\n",
        "node1/launcher.log": "\n".join(teed + report(second_exit)) + "\n",
    }
    return diagnose(tmp_path, files)


def test_children_one_agent_reports_killed_by_sigkill_are_all_culprits(tmp_path: Path) -> None:
    diagnosis = killed_node(tmp_path, "-9 (pid: 7011)  (SIGKILL)")
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2, 3]


def test_a_child_that_exited_with_a_status_is_not_added(tmp_path: Path) -> None:
    diagnosis = killed_node(tmp_path, "1 (pid: 7011)")
    assert diagnosis.culprit_ranks == [2]


# --- an agent stopped from outside on one node of two -------------------------------------

STOP = (
    "W1204 18:01:20.190000 7001 torch/distributed/elastic/agent/server/api.py:753] "
    "Received 15 death signal, shutting down workers"
)


def stopped_node(tmp_path: Path, node1_second: int) -> Diagnosis:
    """Node 1's agent gets SIGTERM at 18:01:20.19; its ranks' last progress lines are at
    `node1_second`. Node 0's ranks lose them; their lines about it carry no time."""
    node0 = [f"[default{r}]:{line}" for r in (0, 1) for line in progress(r)]
    node0 += [line for r in (0, 1) for line in lost_peer(r, f"[default{r}]:")]
    node1 = [f"[default{r - 2}]:{line}" for r in (2, 3) for line in progress(r, node1_second)]
    node1 += [
        STOP,
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 7001 got signal: 15",
    ]
    files = {
        "node0/console.log": "\n".join(node0) + "\n",
        "node1/console.log": "\n".join(node1) + "\n",
    }
    return diagnose(tmp_path, files)


def test_an_agent_stopped_mid_step_is_the_first_error_and_names_its_ranks(tmp_path: Path) -> None:
    diagnosis = stopped_node(tmp_path, 20)
    assert diagnosis.first_error is not None
    assert "Received 15 death signal" in diagnosis.first_error.text
    assert diagnosis.category != "hang"
    assert diagnosis.culprit_ranks == [2, 3]


def test_ranks_quiet_long_before_the_stop_are_still_read_as_a_stall(tmp_path: Path) -> None:
    diagnosis = stopped_node(tmp_path, 1)
    assert diagnosis.category == "hang"
    assert diagnosis.culprit_ranks == [2, 3]


# --- torchrun --log-dir trees, one per node, written as torch 2.13 runs write them --------

TIMEOUT = (
    "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out "
    "waiting 20000ms for recv operation to complete"
)


def local_progress(local: int, second: int = 20) -> list[str]:
    """Python logging tagged with only the LOCAL_RANK (`[local_rank1]`)."""
    return [
        f"2026-12-04 18:01:{second:02d},{100 + 10 * n + local:03d} [local_rank{local}] INFO {part}"
        for n, part in enumerate(PARTS)
    ]


def tree_files(node: str, tag: str, local: int, out: list[str], err: list[str]) -> dict[str, str]:
    tree = f"{node}/torchrun_logs/job-a1_{tag}/attempt_0/{local}"
    return {
        f"{tree}/stdout.log": "\n".join(out) + "\n",
        f"{tree}/stderr.log": "\n".join(err) + "\n",
    }


def test_a_stopped_agent_comes_before_the_untimed_tracebacks_its_peers_logged_with_a_time(
    tmp_path: Path,
) -> None:
    """node1's agent gets SIGTERM at 18:01:20.190 and stops ranks 2 and 3. Node 0's ranks
    log the closed connection at 18:01:20.210 in their stdout.log (`[local_rankN]`), and
    torch's `[rankN]:` traceback of the same error, which carries no time, in their
    stderr.log: that traceback is the same error, after the stop, not a first error."""
    files: dict[str, str] = {}
    for local in (0, 1):
        failed = f"2026-12-04 18:01:20,{210 + local:03d} [local_rank{local}] ERROR model run failed: {CLOSED}"
        files |= tree_files(
            "node0", "x1", local, [*local_progress(local), failed], lost_peer(local)
        )
        files |= tree_files("node1", "y2", local, local_progress(local), [])
    files["node1/launcher.log"] = (
        "\n".join(
            [
                STOP,
                "W1204 18:01:20.190000 7001 torch/distributed/elastic/multiprocessing/api.py:1028] "
                "Sending process 7012 closing signal SIGTERM",
                "torch.distributed.elastic.multiprocessing.api.SignalException: Process 7001 got signal: 15",
            ]
        )
        + "\n"
    )
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.first_error is not None
    assert "Received 15 death signal" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2, 3]


def test_a_node_whose_ranks_all_went_silent_is_the_culprit(tmp_path: Path) -> None:
    """A machine lost mid-step: node1's ranks 2 and 3 stop after `attention passed` with no
    error and no launcher record, node0's ranks time out 20 s later. Half the ranks went
    quiet, but they are exactly one node's: that node went away."""
    files: dict[str, str] = {}
    for rank in (0, 1):
        failed = (
            f"2026-12-04 18:01:41,{100 + rank:03d} [rank{rank}] ERROR model run failed: {TIMEOUT}"
        )
        err = [f"[rank{rank}]: RuntimeError: {TIMEOUT}"]
        files |= tree_files("node0", "x1", rank, [*progress(rank), failed], err)
    for rank in (2, 3):
        files |= tree_files("node1", "y2", rank - 2, progress(rank), [])
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.category == "hccl"
    assert diagnosis.culprit_ranks == [2, 3]
    assert "node1/" in diagnosis.culprit_reason


def test_half_the_ranks_quiet_in_one_folder_with_the_others_name_no_node(tmp_path: Path) -> None:
    """Counterexample: one node's files side by side (`log_<rank>.log`), ranks 2 and 3 quiet:
    no folder holds just them, so half the job going quiet still singles no node out."""
    files: dict[str, str] = {}
    for rank in range(4):
        lines = progress(rank)
        if rank < 2:
            lines += [
                f"2026-12-04 18:01:41,{100 + rank:03d} [rank{rank}] ERROR model run failed: {TIMEOUT}"
            ]
        files[f"log_{rank}.log"] = "\n".join(lines) + "\n"
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.culprit_ranks != [2, 3]


# --- a node lost whole, one of its ranks a line behind the pack --------------------------

STEPS = [
    "load weights passed",
    "  norm passed",
    "  attention passed",
    "  MoE passed",
    "layer 0 passed",
]


def json_progress(rank: int, upto: int) -> list[str]:
    """JSON records as a job's own formatter writes them, one per checkpoint."""
    return [
        f'{{"ts": "2026-12-05T09:14:07.{100 + 20 * n + rank:03d}", "lvl": "INFO", "rank": {rank}, '
        f'"msg": "{part}"}}'
        for n, part in enumerate(STEPS[:upto])
    ]


def json_lost(rank: int) -> list[str]:
    return [
        f'{{"ts": "2026-12-05T09:14:08.{300 + rank:03d}", "lvl": "ERROR", "rank": {rank}, '
        f'"msg": "model run failed: {CLOSED}"}}'
    ]


def uneven_node(tmp_path: Path, nested: bool) -> Diagnosis:
    """Ranks 0 and 1 lose a peer after their last checkpoint; ranks 2 and 3 print nothing
    more, rank 2 one line short of the others. `nested`: each node's --log-dir tree under a
    folder of its own; otherwise the four ranks' files side by side."""
    files: dict[str, str] = {}
    for rank in range(4):
        out = json_progress(rank, 4 if rank == 2 else 5)
        err: list[str] = []
        if rank < 2:
            out += json_lost(rank)
            err = lost_peer(rank)
        if nested:
            node, tag = ("node0", "k1") if rank < 2 else ("node1", "k2")
            files |= tree_files(node, tag, rank % 2, out, err)
        else:
            files[f"log_{rank}.log"] = "\n".join(out + err) + "\n"
    if nested:
        files["node1/agent.log"] = ""
    return diagnose(tmp_path, files)


def test_a_node_gone_with_one_rank_a_line_behind_loses_both_ranks(tmp_path: Path) -> None:
    """Node1's agent and both its ranks were killed at once: rank 2 had just printed its
    `MoE passed`, rank 3 its `layer 0 passed` like the survivors. The rank behind is not the
    only one that went: the two silent ranks are exactly node1's, so both died."""
    diagnosis = uneven_node(tmp_path, nested=True)
    assert diagnosis.category == "device_fault"
    assert diagnosis.culprit_ranks == [2, 3]


def test_one_rank_behind_among_files_side_by_side_stays_the_lost_peers_reading(
    tmp_path: Path,
) -> None:
    """Counterexample: the same lines in `log_<rank>.log` files of one folder. No node folder
    holds just the silent ranks, so the rank that ended behind keeps the reading of a rank
    that may have left on purpose, alone."""
    diagnosis = uneven_node(tmp_path, nested=False)
    assert diagnosis.culprit_ranks == [2]
    assert diagnosis.category != "device_fault"


# --- an agent's line names a local rank; the global one comes from that agent -------------

ELASTIC = "torch/distributed/elastic/multiprocessing/api.py"


def _agent_lines(
    pid: int, failed: tuple[int, int, int], stopped: list[tuple[int, int]], second: int = 11
) -> list[str]:
    """One agent's console: the line of its failed child (global rank, local rank, exit code),
    its SIGTERM of the others (global, local) and its ChildFailedError summary."""
    rank, local, code = failed
    lines = [
        f"E1206 19:20:{second:02d}.625000 {pid} {ELASTIC}:1002] failed (exitcode: {code}) "
        f"local_rank: {local} (pid: {pid + 10 + local}) of binary: /usr/bin/python3",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "/srv/train.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
    ]
    for i, (other, other_local) in enumerate(stopped, 1):
        lines += [
            f"[{i}]:",
            "  time      : 2026-12-06_19:20:11",
            "  host      : localhost",
            f"  rank      : {other} (local_rank: {other_local})",
            f"  exitcode  : -15 (pid: {pid + 10 + other_local})",
            "  error_file: <N/A>",
            f"  traceback : Signal 15 (SIGTERM) received by PID {pid + 10 + other_local}",
        ]
    lines += [
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2026-12-06_19:20:11",
        "  host      : localhost",
        f"  rank      : {rank} (local_rank: {local})",
        f"  exitcode  : {code} (pid: {pid + 10 + local})",
        "  error_file: <N/A>",
        f"  traceback : Signal {-code} received by PID {pid + 10 + local}",
        "============================================================",
    ]
    return lines


def test_two_agents_in_one_console_keep_their_own_local_ranks(tmp_path: Path) -> None:
    """Both agents' consoles in one file, each line under its `srun --label` task number: node
    1's child with local rank 2 (global 6, by its own summary and pid) was killed; node 0's
    summary also holds a local rank 2 (global 2, stopped by its agent), which names nobody."""
    lines = []
    for node in (0, 1):
        for local in range(4):
            rank = 4 * node + local
            lines += [f"{node}: [default{local}]:[rank{rank}] up local_rank={local} world=8"]
            lines += [f"{node}: [default{local}]:iter {n} done" for n in range(1, 4)]
    lines += [f"1: [default{local}]:{line}" for local in (1, 3) for line in lost_peer(4 + local)]
    lines += ["1: " + line for line in _agent_lines(28419, (6, 2, -9), [(5, 1), (7, 3)])]
    lines += [f"0: [default{local}]:{line}" for local in range(4) for line in lost_peer(local)]
    lines += ["0: " + line for line in _agent_lines(28417, (3, 3, 1), [(0, 0), (1, 1), (2, 2)], 15)]
    diagnosis = diagnose(tmp_path, {"output.log": "\n".join(lines) + "\n"})
    assert diagnosis.first_error is not None
    assert "exitcode: -9" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [6]


def test_an_agent_with_no_summary_maps_its_local_rank_through_its_own_tree(
    tmp_path: Path,
) -> None:
    """node1's agent reported its local rank 0 killed and wrote no summary (it was stopped
    itself); its `--log-dir` tree shows local rank 0 printing as rank 2. node0's summary has a
    local rank 0 too (global 0), which is another process."""
    agent1 = [
        f"E1206 19:20:57.256000 28983 {ELASTIC}:1002] failed (exitcode: -9) local_rank: 0 "
        "(pid: 29118) of binary: /usr/bin/python3",
    ]
    agent0 = _agent_lines(28977, (1, 1, 1), [(0, 0)], 58)
    files = {
        "node0/agent.log": "\n".join(agent0) + "\n",
        "node1/agent.log": "\n".join(agent1) + "\n",
    }
    for node, local, rank in (("node0", 0, 0), ("node0", 1, 1), ("node1", 0, 2), ("node1", 1, 3)):
        tree = f"{node}/torchrun/job_{node}/attempt_0/{local}"
        files[f"{tree}/stdout.log"] = (
            "\n".join(f"[rank{rank}] layer {n} passed" for n in range(4)) + "\n"
        )
        files[f"{tree}/stderr.log"] = "\n".join(lost_peer(rank)) + "\n" if rank != 2 else ""
    diagnosis = diagnose(tmp_path, files)
    assert diagnosis.first_error is not None
    assert "exitcode: -9" in diagnosis.first_error.text
    assert diagnosis.culprit_ranks == [2]
