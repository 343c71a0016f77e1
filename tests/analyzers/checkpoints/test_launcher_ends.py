"""Launcher lines that say how ranks ended: every rule's own examples and counterexamples,
the node a line names, Slurm's node failure, spawn's per-node numbering and a launch script's
shell naming the rank its command passes."""

from __future__ import annotations

import re

import pytest

from analyzers.checkpoints.checkpoint_rules import load_knowledge
from analyzers.checkpoints.launcher_ends import match_end, read_end_rule
from analyzers.checkpoints.patterns import launcher_end

KNOWLEDGE_DATA = load_knowledge()


@pytest.mark.parametrize(
    ("line", "ranks", "exitcode", "signal"),
    [tuple(example) for rule in KNOWLEDGE_DATA.launcher_ends for example in rule.examples],
)
def test_launcher_end_examples(line, ranks, exitcode, signal):
    end = launcher_end(line)
    assert end is not None
    assert (list(end.ranks), end.exitcode, end.signal) == (ranks, exitcode, signal)


@pytest.mark.parametrize(
    "line",
    [
        "srun: error: Unable to create step for job 88123: Requested node configuration",
        "exitcode  : -15 (pid: 26690)  (SIGTERM)",
        "rank 3 passed layer 2",
        *(line for rule in KNOWLEDGE_DATA.launcher_ends for line in rule.counterexamples),
    ],
)
def test_not_launcher_ends(line):
    assert launcher_end(line) is None


def test_every_launcher_end_has_an_example_and_a_counterexample():
    assert all(rule.examples and rule.counterexamples for rule in KNOWLEDGE_DATA.launcher_ends)


@pytest.mark.parametrize(
    ("line", "host"),
    [
        ("srun: error: nid004217: tasks 4-7: Killed", "nid004217"),
        (
            "mpirun noticed that process rank 3 with PID 18900 on node gpu-node-2 exited on signal 9 (Killed).",
            "gpu-node-2",
        ),
        (
            "x1203c0s5b0n0.hsn.cm.example.org: rank 0 died from signal 15",
            "x1203c0s5b0n0.hsn.cm.example.org",
        ),
        ("rank 1304 died from signal 9", None),
    ],
)
def test_launcher_ends_name_the_node_their_ranks_ran_on(line, host):
    end = launcher_end(line)
    assert end is not None
    assert end.host == host


def test_slurms_node_failure_line_names_a_node_and_its_time_not_ranks():
    end = launcher_end(
        "slurmstepd: error: *** STEP 5520931.0 ON trn-node-17 CANCELLED AT "
        "2023-03-06T03:17:51 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"
    )
    assert end is not None
    assert (end.whole_host, end.host, end.at, end.ranks) == (
        True,
        "trn-node-17",
        "2023-03-06T03:17:51",
        (),
    )


def test_a_spawn_line_numbers_its_processes_on_its_node():
    end = launcher_end("ProcessExitedException: process 1 terminated with signal SIGKILL")
    assert end is not None
    assert (end.local, end.ranks, end.signal) == (True, (1,), "SIGKILL")


@pytest.mark.parametrize(
    ("entry", "complaint"),
    [
        ({"id": "no_ranks", "keywords": ["died"]}, "no ranks group"),
        ({"id": "no_end", "keywords": ["died"], "ranks": True}, "no end"),
        ({"id": "no_words", "keywords": [], "ranks": True, "end": True}, "no keywords"),
        (
            {"id": "odd", "keywords": ["died"], "ranks": True, "signal": "SIGNOPE"},
            "unknown signal",
        ),
    ],
)
def test_a_broken_launcher_end_entry_fails_at_load(tmp_path, entry, complaint):
    ranks = r"rank (?P<ranks>\d+)" if entry.pop("ranks", False) else r"rank \d+"
    end = r" died from signal (?P<signum>\d+)" if entry.pop("end", False) else " died"
    entry["pattern"] = ranks + end
    with pytest.raises(ValueError, match=complaint):
        read_end_rule(entry, re.compile(entry["pattern"]), tmp_path / "checkpoints.yaml")


# A launch script's shell reports a child a signal ended with the command as the script wrote
# it (bash 5.2's job report); the rank is the one that command passes literally.
@pytest.mark.parametrize(
    ("line", "ranks", "local", "signal"),
    [
        (
            "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py --local_rank 3",
            (3,),
            True,
            "SIGSEGV",
        ),
        (
            "./run_train.sh: line 10: 19460 Killed                  python train.py --rank=2",
            (2,),
            False,
            "SIGKILL",
        ),
        ("[2]+  Floating point exceptionpython train.py --local-rank 4", (4,), True, "SIGFPE"),
        (
            "./run_train.sh: 第 10 行：22323 段错误               （核心已转储）python train.py --local_rank 3",
            (3,),
            True,
            "SIGSEGV",
        ),
        (
            "./run_train.sh: Zeile 10: 20908 Abgebrochen             python train.py --rank 0",
            (0,),
            False,
            "SIGABRT",
        ),
        (
            "./run_train.sh: Zeile 10: 20906 Getötet                python train.py --rank 2",
            (2,),
            False,
            "SIGKILL",
        ),
    ],
)
def test_a_shell_job_report_names_the_rank_its_command_passes(line, ranks, local, signal):
    end = launcher_end(line)
    assert end is not None
    assert (end.ranks, end.local, end.signal) == (ranks, local, signal)


# Counterexamples: a command that passes its rank in a shell variable (bash prints the command
# unexpanded), a node's rank, a report that names no rank, and SIGTERM, which a script's shell
# does not report.
@pytest.mark.parametrize(
    "line",
    [
        "./run_train.sh: line 10: 19458 Segmentation fault      (core dumped) python train.py --local_rank $i",
        "run.sh: line 19: 34410 Killed                  python -m sglang.launch_server --nnodes 1 --node-rank 0 --tp-size 8",
        "./run_train.sh: line 19:  9779 Segmentation fault      (core dumped) python train.py",
        "[3]   Terminated              python train.py --rank 3",
    ],
)
def test_a_shell_job_report_without_a_literal_rank_names_none(line):
    assert launcher_end(line) is None


@pytest.mark.parametrize(
    "line",
    [
        *(example[0] for rule in KNOWLEDGE_DATA.launcher_ends for example in rule.examples),
        *(line for rule in KNOWLEDGE_DATA.launcher_ends for line in rule.counterexamples),
        "[rank3]: RuntimeError: NCCL communicator was aborted",
    ],
)
def test_the_keyword_gate_answers_as_the_rules_one_by_one(line):
    # a list of the rules skips the gate and tries each rule's keywords in turn
    assert launcher_end(line) == match_end(list(KNOWLEDGE_DATA.launcher_ends), line)
