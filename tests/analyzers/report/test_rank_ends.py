"""How each rank's process ended, in the rank table (`analyzers.report.rank_ends`).

Bundles are shaped like the corpus's torchrun runs (`../shared/corpus/torch/killed_rank`,
held-out `sigkill`): each rank's `--log-dir` files under `attempt_0/<rank>/`, and the
agent's console (`launcher.log`) with its SIGTERMs, its `failed (exitcode: N)` line and the
`ChildFailedError` summary.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from tests.analyzers.causal.test_culprits_nodes import PARTS, STOP, lost_peer, progress
from tests.analyzers.job_bundles import CLOSED, ENV, START, RankLog, pack

RUN = "job-7d5d4e8f/torchrun_logs/job-7d5d4e8f_bibleht6/attempt_0"
AGENT = "W1129 {time} 26576 torch/distributed/elastic/multiprocessing/api.py:1028]"
FAILED = "E1129 {time} 26576 torch/distributed/elastic/multiprocessing/api.py:1002]"
SIGNAL_EXCEPTION = "torch.distributed.elastic.multiprocessing.api.SignalException"


def _glog(moment: datetime) -> str:
    return moment.strftime("%H:%M:%S.%f")


def _record(number: int, rank: int, exitcode: int, moment: datetime) -> list[str]:
    named = {-9: "SIGKILL", -15: "SIGTERM", -11: "SIGSEGV"}.get(exitcode)
    why = (
        f"Signal {-exitcode} ({named}) received by PID {26690 + rank}"
        if named
        else "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
    )
    return [
        f"[{number}]:",
        f"  time      : {moment:%Y-%m-%d_%H:%M:%S}",
        "  host      : localhost",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {exitcode} (pid: {26690 + rank})" + (f"  ({named})" if named else " "),
        "  error_file: <N/A>",
        f"  traceback : {why}",
    ]


def _launcher(root: tuple[int, int], stopped: dict[int, int], moment: datetime) -> str:
    """The agent's console: SIGTERM to the survivors, its line for the child that ended
    first, the traceback of `torchrun` and the summary (`stopped` rank -> exitcode)."""
    lines = [
        f"{AGENT.format(time=_glog(moment))} Sending process {26690 + r} closing signal SIGTERM"
        for r in stopped
    ]
    rank, code = root
    lines += [
        f"{FAILED.format(time=_glog(moment + timedelta(milliseconds=200)))} failed (exitcode: "
        f"{code}) local_rank: {rank} (pid: {26690 + rank}) of binary: /opt/venv/bin/python",
        "Traceback (most recent call last):",
        '  File "/opt/venv/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "/home/user/llm-infer/infer.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
    ]
    for number, (other, other_code) in enumerate(stopped.items(), start=1):
        lines += _record(number, other, other_code, moment)
    lines += ["------------------------------------------------------------"]
    lines += ["Root Cause (first observed failure):", *_record(0, rank, code, moment)]
    return "\n".join([*lines, "============================================================"])


def _torchrun_job(
    tmp_path: Path, logs: list[RankLog], root: tuple[int, int], stopped: dict[int, int]
) -> dict[int, str]:
    """The rank table's statuses for a torchrun job whose agent stopped `stopped` when the
    child `root` ended, one second after the last line any rank wrote."""
    last = START + timedelta(milliseconds=max(log.ms for log in logs) + 1000)
    files = {f"{RUN}/{log.rank}/stdout.log": log.text() for log in logs}
    files |= {f"{RUN}/{log.rank}/stderr.log": "" for log in logs}
    files["job-7d5d4e8f/launcher.log"] = _launcher(root, stopped, last) + "\n"
    files["job-7d5d4e8f/env.txt"] = ENV.format(size=len(logs))
    report = analyze(pack(tmp_path / "job.tar.gz", files), AnalyzeOptions(workers=1))
    return {r.rank: str(r.status) for r in report.ranks}


def _in_layer_two(rank: int) -> RankLog:
    return RankLog(rank, 4).layers(2, then=(" norm passed",))


def test_survivors_the_agent_stopped_mid_step_were_killed_not_hung(tmp_path: Path) -> None:
    """Rank 1 is SIGKILLed in layer 2; ranks 0 and 2 lose it, rank 3 prints nothing more
    before the agent's SIGTERM a second later. Rank 3 was advancing up to the stop: killed."""
    logs = [_in_layer_two(rank) for rank in range(4)]
    for rank in (0, 2):
        logs[rank].fails(f"RuntimeError: {CLOSED}", frame="attention")
    statuses = _torchrun_job(tmp_path, logs, (1, -9), {0: -15, 2: -15, 3: -15})
    assert statuses == {0: "error", 1: "killed", 2: "error", 3: "killed"}


def test_a_rank_stuck_long_before_the_agents_sigterm_stays_hung(tmp_path: Path) -> None:
    """Counterexample: rank 3's last progress line is 40 s before the stop; the SIGTERM only
    ended a rank that had stopped advancing."""
    logs = [_in_layer_two(rank) for rank in range(4)]
    for rank in (0, 1, 2):
        logs[rank].at(40_000).info("decode step 1 passed")
    logs[0].fails(f"RuntimeError: {CLOSED}", frame="attention")
    statuses = _torchrun_job(tmp_path, logs, (2, -9), {0: -15, 1: -15, 3: -15})
    assert statuses[3] == "hung"


@pytest.mark.parametrize(
    "teardown",
    [pytest.param(-15, id="sigterm"), pytest.param(-9, id="sigkill-after-the-grace-period")],
)
def test_a_rank_that_logged_its_success_before_the_teardown_is_ok(
    tmp_path: Path, teardown: int
) -> None:
    """Rank 3 finished (`model run success`) and was still shutting down when rank 1 failed;
    the agent's teardown signal ended a rank whose work was done."""
    logs = [_in_layer_two(rank) for rank in range(4)]
    logs[3].info("model run success")
    logs[1].fails("ValueError: bad token id 131125", frame="decode")
    statuses = _torchrun_job(tmp_path, logs, (1, 1), {0: -15, 2: -15, 3: teardown})
    assert statuses[3] == "ok"


def _plain_job(tmp_path: Path, launcher_line: str) -> dict[int, str]:
    """Four plain per-rank logs (`log_<rank>.log`, Python logging) and the launcher's own
    output: ranks 0-2 lose rank 3, which prints nothing after its last progress line."""
    logs = [_in_layer_two(rank) for rank in range(4)]
    for rank in (0, 1, 2):
        logs[rank].fails(f"RuntimeError: {CLOSED}", frame="attention")
    files = {f"log_{log.rank}.log": log.text() for log in logs}
    files["slurm-88123.out"] = launcher_line + "\n"
    files["env.txt"] = ENV.format(size=4)
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-5c1d"), AnalyzeOptions(workers=1))
    return {r.rank: str(r.status) for r in report.ranks}


@pytest.mark.parametrize(
    "line",
    [
        "srun: error: node-1: task 3: Killed",
        "srun: error: node-1: tasks 3-3: Killed",
        "srun: error: node-1: task 3: Out Of Memory",
        "srun: error: node-1: task 3: Aborted (core dumped)",
        "launch.sh: rank 3 (pid 21159) exited with status 137",
        "mpirun noticed that process rank 3 with PID 21159 on node node-1 exited on signal 9 "
        "(Killed).",
        "node-1.hsn.example.org: rank 3 died from signal 9",
        "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal "
        "SIGKILL",
    ],
)
def test_a_rank_its_launcher_reports_killed_by_sigkill_is_killed(tmp_path: Path, line: str) -> None:
    assert _plain_job(tmp_path, line)[3] == "killed"


@pytest.mark.parametrize(
    "line",
    [
        "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py "
        "--local_rank 3",
        "./run_train.sh: line 19:  9779 Killed                  python train.py --rank 3",
        "./run_train.sh: 第 19 行： 9779 总线错误            （核心已转储）python train.py "
        "--local_rank 3",
    ],
)
def test_a_rank_its_launch_scripts_shell_reports_crashed_is_killed(
    tmp_path: Path, line: str
) -> None:
    """The script that started the ranks as background jobs (`python train.py --local_rank 3
    &`, then `wait`) reports the one a signal ended, with the command that names its rank."""
    assert _plain_job(tmp_path, line)[3] == "killed"


def test_a_shell_job_report_whose_command_names_no_rank_leaves_the_ranks_alone(
    tmp_path: Path,
) -> None:
    """Counterexample: bash prints the command as the script wrote it, so a rank passed in a
    variable (`--local_rank $i`) names no rank, and rank 3 is still only silent."""
    line = (
        "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py "
        "--local_rank $i"
    )
    assert _plain_job(tmp_path, line)[3] == "hung"


def test_a_rank_its_launcher_reports_terminated_without_times_stays_hung(tmp_path: Path) -> None:
    """Counterexample: srun's `Terminated` has no time, so nothing says rank 3 was still
    advancing when it was stopped."""
    assert _plain_job(tmp_path, "srun: error: node-1: task 3: Terminated")[3] == "hung"


def test_ranks_of_a_node_that_went_down_together_were_killed(tmp_path: Path) -> None:
    """Labelling guide, "A node that drops out": node1's ranks stop a line short of node0's,
    whose ranks lose them; the diagnosis reads node1's processes as gone, and so does the
    rank table."""
    lost = [
        f"[rank{r}]: {line}"
        for r in (0, 1)
        for line in (
            "Traceback (most recent call last):",
            '  File "/srv/infer/model.py", line 88, in attention',
            f"RuntimeError: {CLOSED}",
        )
    ]
    files = {
        "env.txt": "WORLD_SIZE=4\nMASTER_ADDR=127.0.0.1\n",
        "node0/stdout.log": "\n".join(progress(0) + progress(1) + lost) + "\n",
        "node1/stdout.log": "\n".join(progress(2)[:-1] + progress(3)[: len(PARTS) - 1]) + "\n",
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-4a1c"), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2, 3]
    assert {r.rank: str(r.status) for r in report.ranks} == {
        0: "error",
        1: "error",
        2: "killed",
        3: "killed",
    }


def test_corpus_killed_rank_survivor_stopped_by_the_agent_is_killed(corpus: Path) -> None:
    """The real run: rank 1 dies of SIGSEGV, torchrun SIGTERMs the others in the same second;
    rank 3, which had not yet logged the lost peer, was killed mid-step."""
    report = analyze(corpus / "torch" / "killed_rank.tar.gz", AnalyzeOptions(workers=1))
    assert {r.rank: str(r.status) for r in report.ranks} == {
        0: "error",
        1: "killed",
        2: "error",
        3: "killed",
    }


def test_a_rank_its_launcher_reports_exited_0_left_on_purpose(tmp_path: Path) -> None:
    """Rank 3 stopped generating and exited 0 by the launch script's record: it was not
    waiting for anything."""
    assert _plain_job(tmp_path, "rank 3 (pid 19666) exited with status 0")[3] == "ok"


@pytest.mark.parametrize(
    ("last_second", "status"),
    [pytest.param(20, "killed", id="mid-step"), pytest.param(1, "hung", id="quiet-long-before")],
)
def test_ranks_of_a_node_whose_agent_was_stopped_mid_step_were_killed(
    tmp_path: Path, last_second: int, status: str
) -> None:
    """Labelling guide, "A node that drops out": node1's agent logs `Received 15 death
    signal` at 18:01:20.19 and its ranks' files stop; node0's ranks lose them. Ranks whose
    last progress line came within the clocks' tolerance before the stop were taken down by
    it; ranks quiet long before had stalled, and the stop only ended the hang."""
    node0 = [f"[default{r}]:{line}" for r in (0, 1) for line in progress(r)]
    node0 += [line for r in (0, 1) for line in lost_peer(r, f"[default{r}]:")]
    node1 = [f"[default{r - 2}]:{line}" for r in (2, 3) for line in progress(r, last_second)]
    node1 += [STOP, f"{SIGNAL_EXCEPTION}: Process 7001 got signal: 15"]
    files = {
        "node0/console.log": "\n".join(node0) + "\n",
        "node1/console.log": "\n".join(node1) + "\n",
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-4a1c"), AnalyzeOptions(workers=1))
    statuses = {r.rank: str(r.status) for r in report.ranks}
    assert (statuses[2], statuses[3]) == (status, status)


NODE_FAILURE = (
    "slurmstepd: error: *** STEP 88123.0 ON {node} CANCELLED AT {at} DUE TO NODE FAILURE, SEE "
    "SLURMCTLD LOG FOR DETAILS ***"
)


@pytest.mark.parametrize(
    ("node", "at", "status"),
    [
        pytest.param("node-1", "2026-11-29T07:24:22", "killed", id="its-node-mid-step"),
        pytest.param("node-1.cluster", "2026-11-29T07:24:22", "killed", id="its-node-by-fqdn"),
        pytest.param("node-1", "2026-11-29T07:26:00", "hung", id="its-node-quiet-long-before"),
        pytest.param("node-2", "2026-11-29T07:24:22", "hung", id="another-node"),
    ],
)
def test_slurm_cancelling_a_node_for_a_node_failure_stopped_the_ranks_placed_on_it(
    tmp_path: Path, node: str, at: str, status: str
) -> None:
    """srun's `Terminated` (no time) places rank 3 on node-1; slurmstepd's cancellation of
    node-1's step at a stated second stops the ranks there. Rank 3 was advancing up to that
    second: killed; quiet long before, or on another node: it stays hung."""
    lines = ["srun: error: node-1: task 3: Terminated", NODE_FAILURE.format(node=node, at=at)]
    assert _plain_job(tmp_path, "\n".join(lines))[3] == status


def test_a_node_failure_line_leaves_ranks_alone_when_nothing_places_them(tmp_path: Path) -> None:
    """Counterexample: the bundle never says which ranks ran on node-1, so the line changes
    no status even though rank 3 was advancing at that second."""
    line = NODE_FAILURE.format(node="node-1", at="2026-11-29T07:24:22")
    assert _plain_job(tmp_path, line)[3] == "hung"


def test_a_spawn_index_names_the_rank_of_its_nodes_block(tmp_path: Path) -> None:
    """One node's console of a two-node spawn run: ranks 4-7 print their progress, the
    spawn's `process 3` is the node's fourth child, rank 7, which it reports SIGKILLed."""
    logs = [_in_layer_two(rank) for rank in range(8)]
    for rank in range(7):
        logs[rank].fails(f"RuntimeError: {CLOSED}", frame="attention")
    spawn = (
        "torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal "
        "SIGKILL"
    )
    files = {
        "node0/console.log": "\n".join(
            f"[rank{r}]: {line}" for r in range(4) for line in logs[r].text().splitlines()
        )
        + "\n",
        "node1/console.log": "\n".join(
            [
                *(
                    f"[rank{r}]: {line}"
                    for r in range(4, 8)
                    for line in logs[r].text().splitlines()
                ),
                spawn,
            ]
        )
        + "\n",
        "env.txt": ENV.format(size=8),
    }
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-5c1d"), AnalyzeOptions(workers=1))
    statuses = {r.rank: str(r.status) for r in report.ranks}
    assert (statuses[3], statuses[7]) == ("error", "killed")


REAL_SPAWN = Path(__file__).resolve().parents[2] / "fixtures" / "launcher_ends"


def test_a_real_spawn_run_whose_process_sigkilled_itself_mid_collective(tmp_path: Path) -> None:
    """The real run (fixture README): spawn's exception names process 1 killed; ranks 0 and
    2 were waiting in the all-reduce it never joined, and spawn's SIGTERMs name pids, not
    ranks, so they stay hung."""
    console = (REAL_SPAWN / "spawn_sigkill_console.log").read_text()
    bundle = pack(tmp_path / "job.tar.gz", {"console.log": console}, "job-spawn")
    report = analyze(bundle, AnalyzeOptions(workers=1))
    assert {r.rank: str(r.status) for r in report.ranks} == {0: "hung", 1: "killed", 2: "hung"}
