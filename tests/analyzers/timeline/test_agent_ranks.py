"""Two torchrun agents, each numbering its --log-dir tree from 0 (labelling guide, "A second
launcher agent numbers its ranks from 0").

The bundles below are written for these tests in the shape of real two-node runs (torch 2.13,
gloo, `--nnodes 2 --rdzv_backend c10d`): per node a `launcher.log` and
`torchrun_logs/<rdzv id>_<random>/attempt_0/<local rank>/{stdout,stderr}.log`; the ranks log
with Python logging (`2026-12-03 16:55:59,023 [rank6] ERROR ...`) or plain prints, torch's
`[rankN]:` copy of the traceback goes to stderr, and `--tee 3` repeats every line in the
launcher log behind `[default<local rank>]:`. A c10d rendezvous hands out group ranks in its
own order, so node0's tree may hold global ranks 2 and 3.
"""

from __future__ import annotations

from pathlib import Path

from analyzers.core.options import AnalyzeOptions
from analyzers.core.report import Report
from analyzers.pipeline import analyze
from tests.analyzers.timeline.log_tree import write_lines

CLOSED = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:20692. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error. GLHF!"
)
TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78]"
    " Timed out waiting 10000ms for recv operation to complete"
)
CAT = (
    "RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 8 but got "
    "size 32 for tensor number 1 in the list."
)
STEPS = [
    "load weights passed",
    " norm passed",
    " attention passed",
    " MoE passed",
    "layer 0 passed",
    " norm passed",
]


def _logged(rank: int, messages: list[str], second: int = 58) -> list[str]:
    return [
        f"2026-12-03 16:55:{second},{100 + i:03d} [rank{rank}] INFO {m}"
        for i, m in enumerate(messages)
    ]


def _init(rank: int, world: int) -> str:
    return f"init process group: backend=gloo rank={rank} world_size={world} master=localhost:33529 timeout=10s"


def _traceback(rank: int, error: str) -> list[str]:
    return [
        f"[rank{rank}]: Traceback (most recent call last):",
        f'[rank{rank}]:   File "/home/user/llm-infer/infer.py", line 88, in forward',
        f"[rank{rank}]:     dist.all_reduce(out)",
        f"[rank{rank}]: {error}",
    ]


def _tree(node: str, tag: str) -> str:
    return f"job-e48c/{node}/torchrun_logs/job-e48c_{tag}/attempt_0"


def _run(root: Path) -> Report:
    return analyze(root, AnalyzeOptions(workers=1))


def _files_of(report: Report, rank: int) -> list[str]:
    return next(r.files for r in report.ranks if r.rank == rank)


def _std_rank(root: Path, tree: str, local: int, rank: int, error: str | None) -> None:
    lines = _logged(rank, [_init(rank, 4), *STEPS])
    if error is not None:
        lines += [f"2026-12-03 16:55:59,023 [rank{rank}] ERROR model run failed: {error[14:]}"]
        lines += _traceback(rank, error)
    write_lines(root, f"{tree}/{local}/stderr.log", lines)
    write_lines(root, f"{tree}/{local}/stdout.log", [])


def test_a_second_agents_tree_is_read_as_the_global_ranks_its_lines_name(tmp_path):
    """node0's tree holds global ranks 2 and 3: rank 3 fails, and no rank 1 appears twice."""
    node0, node1 = _tree("node0", "5zh920i6"), _tree("node1", "hu1c3ri")
    _std_rank(tmp_path, node0, 0, 2, CLOSED)
    _std_rank(tmp_path, node0, 1, 3, CAT)
    _std_rank(tmp_path, node1, 0, 0, CLOSED)
    _std_rank(tmp_path, node1, 1, 1, CLOSED)
    report = _run(tmp_path)
    assert report.diagnosis.culprit_ranks == [3]
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]
    assert all(f.startswith(f"{node0}/1/") for f in _files_of(report, 3))
    assert all(f.startswith(f"{node1}/1/") for f in _files_of(report, 1))


def test_a_silent_rank_of_the_second_agent_keeps_its_checkpoints(tmp_path):
    """Plain prints and --tee: node1's local rank 0 is global rank 2, stuck after `norm
    passed`; only its start line names it, and its sibling's traceback fixes the offset."""
    node0, node1 = _tree("node0", "yvgfjudy"), _tree("node1", "_yoxd7ef")
    launcher = []
    for local, rank, error in ((0, 0, CLOSED), (1, 1, TIMEOUT), (0, 2, None), (1, 3, TIMEOUT)):
        tree = node0 if rank < 2 else node1
        out = [_init(rank, 4), *STEPS]
        write_lines(tmp_path, f"{tree}/{local}/stdout.log", out)
        write_lines(
            tmp_path, f"{tree}/{local}/stderr.log", _traceback(rank, error) if error else []
        )
        if rank >= 2:
            launcher += [f"[default{local}]:{line}" for line in out]
            launcher += [
                f"[default{local}]:{line}" for line in (_traceback(rank, error) if error else [])
            ]
    write_lines(tmp_path, "job-e48c/node1/launcher.log", launcher)
    report = _run(tmp_path)
    stuck = next(r for r in report.ranks if r.rank == 2)
    assert stuck.checkpoints == len(STEPS)
    assert f"{node1}/0/stdout.log" in stuck.files
    assert not any(f.startswith(f"{node1}/") for f in _files_of(report, 0))
    assert report.diagnosis.culprit_ranks == [2]


def test_one_agent_keeps_its_directory_numbers(tmp_path):
    """Counterexample: a single agent's tree numbers ranks from 0 and they are global."""
    tree = _tree("node0", "bibleht6")
    for rank in range(4):
        _std_rank(tmp_path, tree, rank, rank, CAT if rank == 1 else CLOSED)
    report = _run(tmp_path)
    assert report.diagnosis.culprit_ranks == [1]
    assert all(f.startswith(f"{tree}/1/") for f in _files_of(report, 1))


def test_files_that_disagree_on_the_offset_keep_their_directory_numbers(tmp_path):
    """Counterexample: one file names rank 2 in directory 0, its sibling rank 1 in directory
    1 (offsets 2 and 0): not one contiguous block, so nothing is moved."""
    tree = _tree("node1", "q8m3z0aa")
    _std_rank(tmp_path, tree, 0, 2, CAT)
    _std_rank(tmp_path, tree, 1, 1, CLOSED)
    report = _run(tmp_path)
    assert f"{tree}/0/stderr.log" in _files_of(report, 0)
    assert f"{tree}/1/stderr.log" in _files_of(report, 1)


def test_a_second_nodes_combined_stdout_is_read_as_its_global_ranks(tmp_path):
    """`--tee 3` without --log-dir, each node's stdout saved as `node-<n>.out`: node-1.out
    tags global ranks 2 and 3 `[default0]:`/`[default1]:`; torch's `[rankN]:` copies of the
    tracebacks fix the offset, so node1's checkpoints are not merged into ranks 0 and 1."""
    for node, ranks in (("node-0.out", (0, 1)), ("node-1.out", (2, 3))):
        lines = []
        for local, rank in enumerate(ranks):
            steps = STEPS if rank == 1 else STEPS[:4]
            lines += [f"[default{local}]:{m}" for m in (_init(rank, 4), *steps)]
        for local, rank in enumerate(ranks):
            error = CAT if rank == 1 else CLOSED
            lines += [f"[default{local}]:{m}" for m in _traceback(rank, error)]
        write_lines(tmp_path, f"run_20261204_a2/{node}", lines)
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]
    assert [r.checkpoints for r in report.ranks] == [4, 6, 4, 4]


SUMMARY = """\
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
=======================================================
infer.py FAILED
-------------------------------------------------------
Failures:
[1]:
  time      : 2026-12-04_15:26:45
  host      : localhost
  rank      : 2 (local_rank: 0)
  exitcode  : -15 (pid: 15524)  (SIGTERM)
  error_file: <N/A>
  traceback : Signal 15 (SIGTERM) received by PID 15524
-------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2026-12-04_15:26:45
  host      : localhost
  rank      : 3 (local_rank: 1)
  exitcode  : -9 (pid: 15526)  (SIGKILL)
  error_file: <N/A>
  traceback : Signal 9 (SIGKILL) received by PID 15526
=======================================================
"""


def test_a_second_nodes_combined_stdout_without_tracebacks_is_read_from_its_start_lines(
    tmp_path,
):
    """The same layout when node1's ranks left no `[rankN]:` line: global rank 3 is killed
    (SIGKILL) and its agent stops rank 2 with SIGTERM before either logs an error. The rank
    each child logged at start (`rank=2`, `rank=3` under `[default0]:`/`[default1]:`) fixes
    the offset, so node1's checkpoints are not merged into ranks 0 and 1."""
    agent = (
        "E1204 15:26:45.333000 15507 torch/distributed/elastic/multiprocessing/api.py:1002]"
        " failed (exitcode: -9) local_rank: 1 (pid: 15526) of binary: /opt/venv/bin/python3"
    )
    for node, ranks in (("node-0.out", (0, 1)), ("node-1.out", (2, 3))):
        lines = []
        for local, rank in enumerate(ranks):
            steps = STEPS[:4] if rank == 3 else STEPS[:5]
            lines += [f"[default{local}]:{m}" for m in (_init(rank, 4), *steps)]
        if node == "node-0.out":
            lines += [
                f"[default{local}]:{m}" for local in (0, 1) for m in _traceback(local, CLOSED)
            ]
        else:
            lines += [agent, *SUMMARY.splitlines()]
        write_lines(tmp_path, f"run_20261204_a3/{node}", lines)
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]
    assert [r.checkpoints for r in report.ranks] == [5, 5, 5, 4]
    assert report.diagnosis.culprit_ranks == [3]


def _local_tagged(root: Path, tree: str, local: int, tail: list[str]) -> None:
    """A rank that logs only its LOCAL_RANK (`[local_rank1]`), as torch 2.13 workers of a
    multi-node job do with `%(asctime)s [local_rank{LOCAL_RANK}] %(levelname)s`: no line of
    the file names its global rank."""
    lines = [
        f"2026-12-05 21:56:40,{100 + i:03d} [local_rank{local}] INFO {m}"
        for i, m in enumerate(["prefill start", *STEPS, *tail])
    ]
    write_lines(root, f"{tree}/{local}/stdout.log", lines)
    write_lines(root, f"{tree}/{local}/stderr.log", [])


def test_two_nodes_whose_ranks_name_only_local_ranks_are_stacked_in_node_order(tmp_path):
    """2 nodes x 4 ranks, every rank healthy and tagged only by its local rank: node1's tree
    is read as ranks 4 to 7, not merged into node0's ranks 0 to 3."""
    node0, node1 = _tree("node0", "k2v1b0aa"), _tree("node1", "q81zzc0d")
    for tree in (node0, node1):
        for local in range(4):
            _local_tagged(tmp_path, tree, local, ["model run success"])
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == list(range(8))
    assert all(f.startswith(f"{node1}/2/") for f in _files_of(report, 6))
    assert all(f.startswith(f"{node0}/2/") for f in _files_of(report, 2))
    assert report.diagnosis.category == "healthy"


def test_a_named_tree_keeps_its_block_and_the_silent_tree_takes_the_next(tmp_path):
    """node0's tree names ranks 2 and 3 (its tracebacks), node1's names none: node1 takes
    the free block 0 and 1 beside it, not node0's numbers."""
    node0, node1 = _tree("node0", "5zh920i6"), _tree("node1", "hu1c3ri")
    _std_rank(tmp_path, node0, 0, 2, CLOSED)
    _std_rank(tmp_path, node0, 1, 3, CAT)
    for local in range(2):
        _local_tagged(tmp_path, node1, local, [])
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]
    assert all(f.startswith(f"{node1}/1/") for f in _files_of(report, 1))
    assert all(f.startswith(f"{node0}/1/") for f in _files_of(report, 3))


def test_two_runs_under_one_nodes_log_dir_are_not_stacked(tmp_path):
    """Counterexample: two torchrun runs' trees under one node's --log-dir (a job started
    twice) are the same ranks twice, not two nodes: they keep their directory numbers."""
    first = "job-e48c/node0/torchrun_logs/job-e48c_aaaa1111/attempt_0"
    second = "job-e48c/node0/torchrun_logs/job-e48c_bbbb2222/attempt_0"
    for tree in (first, second):
        for local in range(2):
            _local_tagged(tmp_path, tree, local, ["model run success"])
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == [0, 1]


# A pdsh-style launch: a script on each host starts one process per rank, pdsh puts the host's
# name in front of every line, and each host keeps its ranks' output as `log_<local rank>.log`
# in its own folder (labelling guide, "A second launcher agent numbers its ranks from 0").
GLOO_RANK = "RuntimeError: [enforce fail at /__w/pytorch/pytorch/third_party/gloo/gloo/context.cc:23] rank < size. {rank} vs 4"


def _pdsh_rank(root: Path, node: int, local: int, rank: int, world: int, error: str) -> None:
    lines = [
        f"starting on node{node}: rank={rank} local_rank={local} world_size={world}",
        "Traceback (most recent call last):",
        '  File "/home/user/sft/train.py", line 93, in main',
        '    dist.init_process_group("gloo")',
        error,
    ]
    write_lines(root, f"sft-2node/node{node}/log_{local}.log", [f"node{node}: {x}" for x in lines])


def test_a_second_hosts_files_numbered_per_node_are_read_as_the_ranks_they_state(tmp_path):
    """node1's `log_0.log` .. `log_3.log` state ranks 4 to 7 in their start lines (node1 was
    given WORLD_SIZE=4, and gloo refused each of them); node0's four waited in the store. The
    refusing ranks are 4 to 7, not node0's own 0 to 3."""
    wait = "torch.distributed.DistStoreError: wait timeout after 15000ms, keys: /default_pg/0//cpu//0/4"
    for local in range(4):
        _pdsh_rank(tmp_path, 0, local, local, 8, wait)
        _pdsh_rank(tmp_path, 1, local, 4 + local, 4, GLOO_RANK.format(rank=4 + local))
    report = _run(tmp_path)
    assert report.diagnosis.culprit_ranks == [4, 5, 6, 7]
    assert [r.rank for r in report.ranks] == list(range(8))
    assert _files_of(report, 5) == ["sft-2node/node1/log_1.log"]


def test_a_hosts_files_numbered_globally_keep_their_numbers(tmp_path):
    """Counterexample: node1's files are `log_4.log` .. `log_7.log` and state ranks 4 to 7:
    the file numbers are already global and nothing moves."""
    for local in range(4):
        _pdsh_rank(tmp_path, 0, local, local, 8, CLOSED)
    for rank in range(4, 8):
        error = CAT if rank == 6 else CLOSED
        lines = [f"starting on node1: rank={rank} local_rank={rank - 4} world_size=8", error]
        write_lines(tmp_path, f"sft-2node/node1/log_{rank}.log", [f"node1: {x}" for x in lines])
    report = _run(tmp_path)
    assert [r.rank for r in report.ranks] == list(range(8))
    assert _files_of(report, 6) == ["sft-2node/node1/log_6.log"]
    assert report.diagnosis.culprit_ranks == [6]


def test_a_second_hosts_stdout_files_named_by_local_rank_are_read_as_the_ranks_they_state(
    tmp_path,
):
    """A launch script's `> node1/local_rank_$l.stdout` redirect: node1's `local_rank_0.stdout`
    states rank 2 and raises the collective timeout; it is rank 2's file alone, not a second
    file of node0's rank 0."""
    for node in (0, 1):
        for local in (0, 1):
            rank = 2 * node + local
            lines = [f"23:59:52.672 {_init(rank, 4)}", "23:59:53.807 step 1 start", *STEPS[1:]]
            if rank != 1:
                lines += _traceback(rank, TIMEOUT)
            write_lines(tmp_path, f"job-ad08/node{node}/local_rank_{local}.stdout", lines)
    report = _run(tmp_path)
    assert _files_of(report, 0) == ["job-ad08/node0/local_rank_0.stdout"]
    assert _files_of(report, 2) == ["job-ad08/node1/local_rank_0.stdout"]
    assert [r.rank for r in report.ranks] == [0, 1, 2, 3]


def test_a_stdout_file_in_a_node_folder_numbered_globally_keeps_its_number(tmp_path):
    """Counterexample: node1's `rank_2.stdout` and `rank_3.stdout` state ranks 2 and 3."""
    for rank in range(4):
        lines = [_init(rank, 4), *STEPS[1:], *(_traceback(rank, CAT) if rank == 3 else [])]
        write_lines(tmp_path, f"job-ad08/node{rank // 2}/rank_{rank}.stdout", lines)
    report = _run(tmp_path)
    assert _files_of(report, 3) == ["job-ad08/node1/rank_3.stdout"]
    assert report.diagnosis.culprit_ranks == [3]


# --- two agents' consoles in one file, told apart by srun's task label ---------------------

_CLOSED_LINE = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:38614. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)


def _srun_console(killed_node: int) -> str:
    """`srun -l torchrun ...` with one task per node and two ranks per node: every line is
    `<task>: [default<local>]:...`; the node `killed_node` stops after iteration 5 without a
    word, the other node's ranks print iteration 6 and lose their peers."""
    lines = []
    for it in range(1, 7):
        for node in (0, 1):
            if node == killed_node and it == 6:
                continue
            lines += [f"{node}: [default{local}]:iter {it} | done" for local in (0, 1)]
    live = 1 - killed_node
    for local in (0, 1):
        rank = 2 * live + local
        lines += [
            f"{live}: [default{local}]:[rank{rank}]: Traceback (most recent call last):",
            f"{live}: [default{local}]:[rank{rank}]: {_CLOSED_LINE}",
        ]
    return "".join(line + "\n" for line in lines)


def test_each_srun_task_of_one_console_is_placed_by_its_own_lines(tmp_path: Path) -> None:
    """Task 1's copies name ranks 2 and 3 beside `[default0]`/`[default1]`, so its plain
    copies are ranks 2 and 3 too; task 0 has no such line and keeps 0 and 1. Node 0 went away."""
    job = tmp_path / "job-5e1"
    job.mkdir()
    (job / "output.log").write_text(_srun_console(killed_node=0), encoding="utf-8")
    report = analyze(job, AnalyzeOptions(workers=1))
    last = {r.rank: r.last_checkpoint for r in report.ranks}
    assert last == {0: "iter 5 done", 1: "iter 5 done", 2: "iter 6 done", 3: "iter 6 done"}
    assert report.diagnosis.culprit_ranks == [0, 1]
