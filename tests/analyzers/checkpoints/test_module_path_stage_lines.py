"""A layer named by its module path with the stage it finished after it, as a trainer that logs
each block of its forward prints it (`step 3 | layers.2 forward done`), behind a logger's tag in
brackets before the time (`[titan] 2026-12-07 19:02:30,790 - root - INFO - ...`): the part of
that layer, read as `layer 2 / forward done`. The counter in front numbers the prints (a bare
loss line closes no step), so the last one is qualified by its layer alone."""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher, strip_prefixes
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("step 3 | layers.2 forward done", "layer 2 / forward done"),
        (
            "[titan] 2026-12-07 19:02:30,790 - root - INFO - step 3 | layers.2 forward done",
            "layer 2 / forward done",
        ),
        (
            "2026-12-07 19:01:16,001 [RANK 3] INFO: step 1 | layers.0 forward done",
            "layer 0 / forward done",
        ),
        ("model.layers.11 backward finished (3.1 ms)", "layer 11 / backward finished"),
        ("blocks.4 fwd ok", "layer 4 / fwd ok"),
        # counterexamples: a stage that did not finish, a sentence after the verb, a path with
        # no layer container
        ("step 3 | layers.2 forward failed", None),
        ("layers.2 forward done loading weights", None),
        ("layers.2 is done", None),
        ("layers.2 forward not done", None),
        ("experts.5 forward done", None),
    ],
)
def test_module_path_stage_lines(line, expected):
    assert CheckpointMatcher().match(line) == expected


def test_a_bracketed_tag_before_the_time_is_cut():
    line = "[titan] 2026-12-07 19:02:30,790 - root - INFO - waiting for all ranks"
    assert strip_prefixes(line) == "waiting for all ranks"
    # counterexample: a bracketed word with no time after it stays in the message
    assert strip_prefixes("[titan] starting") == "[titan] starting"


def test_the_last_module_path_stage_is_qualified_by_its_layer(tmp_path):
    def log(rank: int, layers: int) -> str:
        lines = [f"Starting job: rank={rank} world_size=2"]
        for step in (1, 2):
            lines += [f"step {step} | layers.{i} forward done" for i in range(3)]
            lines.append(f"step: {step:2d}  loss: 4.1234  memory: 0.01GiB(0.00%)  tps: 1,024")
        lines += [f"step 3 | layers.{i} forward done" for i in range(layers)]
        lines.append(f"[rank{rank}]: RuntimeError: boom")
        return "\n".join(lines) + "\n"

    files = {"log_0.log": log(0, 3), "log_1.log": log(1, 2)}
    report = analyze(pack(tmp_path / "job.tar.gz", files, top="job-1"), AnalyzeOptions(workers=1))
    got = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert got == {0: "layer 2 / forward done", 1: "layer 1 / forward done"}
