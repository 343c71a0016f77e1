"""torchrun tags the lines it copies from a local rank with the agent's role: `[default3]:`
unless the launch names one (`torchrun --role trainer --tee 3` writes `[trainer3]:`). A console
with no per-rank files beside it is then the only place the ranks' lines are, so the role tag
must place them like the default one does.

The console below is written in the shape of a real single-node run (torch 2.13, gloo, four
ranks, Python logging with timestamps, `--role trainer --tee 3`): rank 2 raises a shape error
in layer 1's attention, its peers lose the connection, and the agent reports the failed child.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzers.core.options import AnalyzeOptions
from analyzers.core.types import EventKind
from analyzers.formats.glued import split_glued
from analyzers.formats.hints import HeadHints
from analyzers.formats.lines import parse_line
from analyzers.formats.outer_prefix import AGENT_ROLE, AGENT_TAG, AGENT_TAG_LITERALS, match_behind
from analyzers.formats.worker_tags import TagHints
from analyzers.pipeline import analyze
from analyzers.scan.member import MAX_EVENTS
from tests.analyzers.excerpts import scan_text

SHAPE = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x8 and 32x32)"
LOST = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:553] "
    "Connection closed by peer [127.0.0.1]:41702. This is typically caused by a remote worker "
    "crashing. Check the logs of the remote worker before reporting an error."
)
STEPS = ["prefill start: 8 tokens", " norm passed", " attention passed", " MoE passed"]
STEPS += ["layer 0 passed", " norm passed"]


def _console(role: str) -> str:
    api = "torch/distributed/elastic/multiprocessing/api.py"
    lines = []
    for rank in range(4):
        head = f"[{role}{rank}]:2026-12-06 14:02:1{rank},2{rank}0 [rank{rank}]"
        lines.append(f"{head} INFO init process group: backend=gloo rank={rank} world_size=4")
        lines += [f"{head} INFO {step}" for step in STEPS]
    for rank in (2, 0, 1, 3):
        head = f"[{role}{rank}]:2026-12-06 14:02:15,{400 + rank:03d} [rank{rank}]"
        error = SHAPE if rank == 2 else LOST
        lines += [
            f"{head} ERROR model run failed: {error.split(': ', 1)[1]}",
            f"[{role}{rank}]:Traceback (most recent call last):",
            f'[{role}{rank}]:  File "/srv/serve/infer.py", line 201, in forward',
            f"[{role}{rank}]:    x = layer(x, verbose)",
            f"[{role}{rank}]:{error}",
        ]
        if rank == 2:
            lines.append(f"[{role}2]:[rank2]: {SHAPE}")
    lines += [
        f"W1206 14:02:15.611000 5120 {api}:1028] Sending process 5201 closing signal SIGTERM",
        f"E1206 14:02:15.902000 5120 {api}:1002] failed (exitcode: 1) local_rank: 2 "
        "(pid: 5203) of binary: /usr/bin/python3",
    ]
    return "\n".join(lines) + "\n"


def _bundle(root: Path, role: str) -> Path:
    job = root / "serve-job"
    job.mkdir()
    (job / "launcher.log").write_text(_console(role))
    return job


def test_a_named_role_places_the_console_lines_like_the_default_tag(tmp_path: Path) -> None:
    report = analyze(_bundle(tmp_path, "trainer"), AnalyzeOptions(workers=1))
    assert report.diagnosis.category == "shape_mismatch"
    assert report.diagnosis.culprit_ranks == [2]
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {r: "layer 1 / norm passed" for r in range(4)}


def test_the_default_tag_reads_the_same(tmp_path: Path) -> None:
    report = analyze(_bundle(tmp_path, "default"), AnalyzeOptions(workers=1))
    assert report.diagnosis.culprit_ranks == [2]


def test_a_role_is_a_name_and_not_a_counter() -> None:
    """Counterexample: torch's global `[rankN]:` and a program's bracketed counters are not an
    agent's role tag."""
    tag = re.compile(r"\[" + AGENT_ROLE + r"(\d+)\]:")
    for line in ("[trainer3]:x", "[decoder12]:x", "[default0]:x", "[rl-actor1]:x"):
        assert tag.match(line), line
    for line in ("[rank3]: x", "[epoch1]: loss 0.3", "[step20]: ok", "[node1]: up", "[E1206 x"):
        assert not tag.match(line), line


# The readers that search a block's raw bytes before its lines are parsed know the role tag too:
# the console's head, a line two children's copies were written onto, an error storm's twins,
# an srun task relaying a node's children, and the prefixes peeled in front of the tag.

ROLES = ["default", "trainer", "rl-actor"]


def _started(role: str, prefix: str = "") -> bytes:
    """Four children of a second node's agent stating their global ranks as they start."""
    return "".join(
        f"{prefix}[{role}{local}]:2026-12-06 14:02:10,2{local}0 [rank{local + 4}] INFO init "
        f"process group: backend=gloo rank={local + 4} world_size=8\n"
        for local in range(4)
    ).encode()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("prefix", ["", "trainer-1  | ", "2026-12-06T14:02:10.210334Z stderr F "])
def test_the_head_maps_each_tagged_child_to_the_rank_it_states(role, prefix):
    hints = HeadHints(None)
    head = _started(role, prefix)
    hints.read(head, head.lower())
    assert hints.local_named == {0: 4, 1: 5, 2: 6, 3: 7}


@pytest.mark.parametrize("role", ROLES)
def test_the_head_reads_a_tagged_childs_rank_over_the_world(role):
    hints = HeadHints(None)
    head = f"[{role}3]:[rank 3/8] starting\n".encode()
    hints.read(head, head.lower())
    assert hints.world_sizes == [8]


@pytest.mark.parametrize("role", ROLES)
def test_two_childrens_copies_written_onto_one_line_are_split(role):
    first, second = f"[{role}0]:      \x1b[A", f"[{role}2]:  attention passed"
    assert split_glued((first + second).encode()) == [first.encode(), second.encode()]


def test_a_bracketed_name_in_a_childs_own_text_is_no_second_copy():
    raw = b"[trainer0]:route table [dpx1]: 4 experts"
    assert split_glued(raw) == [raw]


@pytest.mark.parametrize("role", ROLES)
def test_an_srun_task_relaying_tagged_children_states_no_rank_of_its_own(role):
    hints = TagHints()
    head = f"1: [{role}1]:init process group: backend=nccl rank=5 world_size=8\n".encode()
    hints.read(head, head.lower())
    assert hints.stated == {}


@pytest.mark.parametrize(
    "line",
    [
        "2025-06-11 09:02:44 [trainer3]:RuntimeError: boom",  # a console's local time
        "[80746] [trainer3]:RuntimeError: boom",  # a viewer's bracketed line number
    ],
)
def test_a_prefix_in_front_of_a_role_tag_is_peeled(line):
    parsed = parse_line(line)
    assert (parsed.local_rank, parsed.message) == (3, "RuntimeError: boom")


def test_a_role_tag_is_found_behind_the_journals_prefix():
    text = "Dec  7 00:12:01 node-3 python3[4121]: [trainer2]:RuntimeError: boom"
    found = match_behind(re.compile(AGENT_TAG), text, AGENT_TAG_LITERALS)
    assert found is not None
    assert found.group(0) == "[trainer2]:"


def test_a_storm_of_one_child_does_not_swallow_another_childs_lines():
    """Past the event caps a line is counted like its earlier twin; another child's tag makes
    another line, so a child that only shows up in the storm is still seen."""
    cap = MAX_EVENTS[EventKind.ERROR]
    line = (
        "[trainer{local}]:[E1206 14:02:{s:02d}.{s:06d} ProcessGroupGloo.cpp:144] Gloo "
        "connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] "
        "no error\n"
    )
    storm = "".join(line.format(local=1, s=seq % 60) for seq in range(cap + 100))
    storm += "".join(line.format(local=3, s=seq % 60) for seq in range(50))
    result = scan_text("serve-job/launcher.log", storm)
    assert result.facts["events_dropped"] == {"error": 150}
    assert {event.rank for event in result.events} == {1}
    assert "rank_hint" not in result.facts  # two children wrote here, not one
