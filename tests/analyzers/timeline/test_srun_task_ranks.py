"""An `srun --label` task that states its rank gives its plain prints that rank, and moreutils'
`ts` ISO time in front of a writer's tag is a collector's time (docs/labelling.md#an-srun-task-that-states-its-rank).

The jobs are written for these tests in the shapes of a held-out batch of real gloo runs: one
shared `job.out` whose every line carries the task's `N: ` label (plain prints, a step left
out by one task), and a torchrun console piped through `ts '%Y-%m-%dT%H:%M:%.S'`.
"""

from __future__ import annotations

from pathlib import Path

from analyzers import AnalyzeOptions, analyze
from analyzers.formats.lines import parse_line
from analyzers.formats.worker_tags import TagHints
from tests.analyzers.job_bundles import pack

_CLOSED = (
    "[rank{r}]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "pair.cc:553] Connection closed by peer [127.0.0.1]:{port}. This is typically caused by a "
    "remote worker crashing. Check the logs of the remote worker before reporting an error."
)


def _task_lines(rank: int, steps: int, world: int = 4) -> list[str]:
    lines = [
        f"init process group: backend=gloo rank={rank} world_size={world} "
        "master=127.0.0.1:29500 timeout=10s",
        "load weights passed",
    ]
    for step in range(steps):
        lines += [f"train step {step} start", " data passed", " forward passed"]
        lines += [" backward passed", " grad all_reduce passed", f"train step {step} done loss=3.7"]
    return lines


def _srun_out(short: int = 2) -> str:
    """Four tasks of plain prints in one file; task `short` runs one step fewer and leaves."""
    out: list[str] = []
    for rank in range(4):
        lines = _task_lines(rank, 3)
        if rank == short:
            lines.append("model run success")
        else:
            lines += [
                "train step 3 start",
                " data passed",
                _CLOSED.format(r=rank, port=40000 + rank),
            ]
        out += [f"{rank}: {line}" for line in lines]
    return "\n".join(out) + "\n"


def test_a_task_that_states_its_rank_gives_its_prints_that_rank(tmp_path: Path) -> None:
    path = pack(tmp_path / "job.tar.gz", {"job.out": _srun_out()}, top="job-1")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert ranks == {
        0: "step 3 / data passed",
        1: "step 3 / data passed",
        2: "model run success",
        3: "step 3 / data passed",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] == "train step 2 done"
    assert report["diagnosis"]["category"] == "hccl"
    assert report["diagnosis"]["culprit_ranks"] == [2]


def test_a_task_that_relays_a_launcher_s_children_states_no_rank() -> None:
    """`srun -l torchrun ...`: task 0 is a node, its children's start lines are theirs."""
    block = "\n".join(
        [
            "0: [default0]:init process group: backend=gloo rank=0 world_size=8",
            "0: [default1]:init process group: backend=gloo rank=1 world_size=8",
            "1: init process group: backend=gloo rank=5 world_size=8",
        ]
    ).encode()
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.stated == {"srun:task=1": {5}}


def test_a_task_that_states_two_ranks_is_no_rank_s() -> None:
    block = b"0: init rank=0 world_size=4\n0: init rank=1 world_size=4\n"
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.stated == {"srun:task=0": {0, 1}}  # timeline.worker_ranks keeps one-rank tags


def test_a_status_line_with_sizes_is_no_statement() -> None:
    block = b"0: step 400 rank=1 world_size=4 loss=2.1\n"
    hints = TagHints()
    hints.read(block, block.lower())
    assert hints.stated == {}


def test_a_task_line_with_one_space_of_indent_keeps_its_task() -> None:
    line = parse_line("2:  norm passed")
    assert line.tags.get("worker") == "srun:task=2"
    assert line.message.strip() == "norm passed"
    grepped = parse_line('118:  File "/srv/decoder.py", line 169, in main')
    assert grepped.stream_key == ""  # grep's numbers are no writers
    assert grepped.message == '  File "/srv/decoder.py", line 169, in main'


def test_a_ts_iso_time_before_a_writer_s_tag_is_a_collector_s() -> None:
    for text, rank in [
        ("2026-12-06T02:47:19.790216 [default6]:[rank6]: RuntimeError: x", 6),
        ("2026-12-06T02:45:27.411550 0: [rank0]: RuntimeError: x", 0),
        ("2026-12-06T02:45:17.039119 4: 2026-12-06 02:45:17,038 [rank4] INFO x", 4),
    ]:
        line = parse_line(text)
        assert line.rank == rank
        assert line.tags["collector_time"] == text.split(" ", 1)[0]
        assert line.message.endswith("x")


def test_a_ts_iso_time_before_a_plain_print_is_the_collector_s_and_dates_the_line() -> None:
    line = parse_line("2026-12-06T02:43:03.077699 layer 0 passed")
    assert line.tags["collector_time"] == "2026-12-06T02:43:03.077699"
    assert line.message == "layer 0 passed"
    assert line.time is not None
    assert (line.time.hour, line.time.minute) == (2, 43)


def test_a_torchrun_console_through_ts_names_its_ranks(tmp_path: Path) -> None:
    lines = []
    for rank in range(4):
        lines += [f"[default{rank}]:init process group: backend=gloo rank={rank} world_size=4"]
        lines += [
            f"[default{rank}]:load weights passed",
            f"[default{rank}]:prefill start: 8 tokens",
        ]
        lines += [f"[default{rank}]: norm passed", f"[default{rank}]: attention passed"]
    lines.append(
        "[default2]:[rank2]: RuntimeError: The size of tensor a (8) must match the size of "
        "tensor b (6) at non-singleton dimension 0"
    )
    lines += [f"[default{r}]:" + _CLOSED.format(r=r, port=41000 + r) for r in (0, 1, 3)]
    stamped = [f"2026-12-06T02:47:19.{n:06d} {line}" for n, line in enumerate(lines)]
    path = pack(tmp_path / "job.tar.gz", {"launcher.log": "\n".join(stamped) + "\n"}, top="job-2")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    assert report["diagnosis"]["category"] == "shape_mismatch"
    assert report["diagnosis"]["culprit_ranks"] == [2]
    ranks = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert ranks == {r: "layer 0 / attention passed" for r in range(4)}


def _logged_task(rank: int, layers: int, error: str) -> list[str]:
    """A task that logs its progress through Python logging and states no rank as it starts:
    only torch's own `[rankN]:` prefix on the traceback it dies with names its rank."""
    lines = []
    for layer in range(layers):
        for part in ("norm", "attention", "mlp"):
            lines.append(f"2026-12-07 21:34:19,66{layer} INFO bisect: layer {layer} {part} passed")
    lines.append(f"2026-12-07 21:34:19,700 INFO bisect: layer {layers} norm passed")
    lines += [f"[rank{rank}]: Traceback (most recent call last):", f"[rank{rank}]: {error}"]
    return lines


def test_a_task_whose_traceback_carries_torch_s_rank_tag_gives_its_prints_that_rank(
    tmp_path: Path,
) -> None:
    timeout = "RuntimeError: Timed out waiting 15000ms for recv operation to complete"
    out: list[str] = []
    for rank in (1, 0, 3, 2):  # task numbers in the order srun's collector wrote them
        layers = 3 if rank == 2 else 2
        out += [f"{rank}: {line}" for line in _logged_task(rank, layers, timeout)]
    out.append("srun: error: node-0: task 0: Exited with exit code 1")
    path = pack(tmp_path / "job.tar.gz", {"slurm-1.out": "\n".join(out) + "\n"}, top="job-1")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert ranks == {
        0: "layer 2 / norm passed",
        1: "layer 2 / norm passed",
        2: "layer 3 / norm passed",
        3: "layer 2 / norm passed",
    }


def test_a_task_whose_lines_carry_two_torch_rank_tags_is_no_rank_s(tmp_path: Path) -> None:
    """A task that relays two ranks' tracebacks (a node's launcher) names neither."""
    out = ["0: layer 0 attention passed", "1: layer 0 attention passed"]
    out += ["0: [rank0]: RuntimeError: x failed", "0: [rank1]: RuntimeError: x failed"]
    out += ["1: [rank2]: RuntimeError: x failed"]
    path = pack(tmp_path / "job.tar.gz", {"slurm-1.out": "\n".join(out) + "\n"}, top="job-1")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert ranks.get(0) is None
    assert ranks.get(1) is None
    assert ranks.get(2) == "layer 0 / attention passed"


def test_a_pdsh_host_whose_traceback_carries_one_torch_rank_tag_gives_its_prints_that_rank(
    tmp_path: Path,
) -> None:
    """pdsh over hosts that run one rank each: the host label is read like an srun task's."""
    out: list[str] = []
    for rank in range(4):
        lines = [f"step {3 * layer + 1:03d} | L{layer}.attention ok" for layer in range(2)]
        if rank == 1:
            lines += ["[rank1]: RuntimeError: ProcessGroupGloo::allgather: invalid tensor size"]
        else:
            lines += [_CLOSED.format(r=rank, port=41000 + rank)]
        out += [f"node-{rank}: {line}" for line in lines]
    out += [f"pdsh@login-0: node-{rank}: ssh exited with exit code 1" for rank in range(4)]
    path = pack(tmp_path / "job.tar.gz", {"pdsh.log": "\n".join(out) + "\n"}, top="job-1")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    ranks = {r["rank"]: r.get("last_checkpoint_qualified") for r in report["ranks"]}
    assert ranks == {rank: "layer 1 / attention ok" for rank in range(4)}


def test_a_pdsh_host_that_relays_several_ranks_names_none(tmp_path: Path) -> None:
    out = ["node-0: layer 0 attention passed", "node-1: layer 0 attention passed"]
    out += ["node-0: [rank0]: RuntimeError: x failed", "node-0: [rank1]: RuntimeError: x failed"]
    out += ["node-1: [rank2]: RuntimeError: x failed", "node-1: [rank3]: RuntimeError: x failed"]
    path = pack(tmp_path / "job.tar.gz", {"pdsh.log": "\n".join(out) + "\n"}, top="job-1")
    report = analyze(path, AnalyzeOptions(workers=1)).to_dict()
    assert all(r.get("last_checkpoint_qualified") is None for r in report["ranks"])
