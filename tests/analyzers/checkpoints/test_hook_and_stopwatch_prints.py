"""Bisection prints that forward hooks, stopwatches and check marks write.

A forward hook registered on every module prints the module's qualified name when its forward
returns, often with the stage and the output's shape (`[rank2] model.layers.3.self_attn forward
done, out=(16, 64)`, `model.layers.5.mlp finished`): a part of the layer the path names, read
as `layer 3 / self_attn forward done`, and the layer's own hook closes it (`model.layers.1
finished` is `layer 1 finished`). A stopwatch print gives the time since the previous print
with a sign (`layer 2 attention done (+0.019s)`) and a progress share in brackets (`layer 1 done
(+0.000s) [33.3%]`): measurements, left out of the text. A check mark before a part with no verb
(`✅ layer 4 mlp`) is the verb its peers write (`>>> layer 4 mlp ok`)."""

from __future__ import annotations

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.patterns import CheckpointMatcher
from tests.analyzers.job_bundles import pack


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "[rank2] model.layers.3.self_attn forward done, out=(16, 64)",
            "layer 3 / self_attn forward done",
        ),
        (
            "[rank0] model.layers.0.input_layernorm forward done",
            "layer 0 / input_layernorm forward done",
        ),
        (
            "2026-12-07 21:09:26,998 [INFO] rank0: model.layers.5.self_attn finished",
            "layer 5 / self_attn finished",
        ),
        ("transformer.h.2.mlp done (0.4 ms)", "layer 2 / mlp done"),
        ("2026-12-07 21:09:26,901 [INFO] rank4: model.layers.1 finished", "layer 1 finished"),
        ("blocks.3 done", "layer 3 done"),
        ("rank 0: layer 2 attention done (+0.019s)", "layer 2 / attention done"),
        ("rank 1: layer 1 done (+0.000s) [33.3%]", "layer 1 done"),
        ("layer 6 done (+0.013s)", "layer 6 done"),
        ("✅ layer 4 mlp", "layer 4 / mlp ok"),
        ("✅ layer 5 attention", "layer 5 / attention ok"),
        (">>> layer 4 mlp ok", "layer 4 / mlp ok"),
        ("✅ layer 4 ok", "layer 4 ok"),
        ("✅ layer 4 mlp ok", "layer 4 / mlp ok"),
        # counterexamples: a hook line that says the module failed or goes on into a sentence,
        # a path with no layer container, a check mark before a layer with no part, a cross
        ("[rank2] model.layers.3.self_attn forward failed", None),
        ("model.layers.3.mlp finished loading weights", None),
        ("model.layers.3 not finished", None),
        ("experts.5.w1 forward done", None),
        ("layer 2 attention done (+-)", None),
        ("layer 2 attention done [loss]", None),
        ("❌ layer 4 mlp", None),
        ("✅ layer 4 mlp weights missing", None),
    ],
)
def test_hook_stopwatch_and_check_mark_prints(line, expected):
    assert CheckpointMatcher().match(line) == expected


def test_a_rank_that_marks_its_lines_shares_the_common_checkpoint(tmp_path):
    def log(rank: int) -> str:
        mark, ok = ("✅ ", "") if rank == 0 else (">>> ", " ok")
        lines = []
        for i in range(2):
            lines += [f"{mark}layer {i} {part}{ok}" for part in ("norm", "attention", "mlp")]
            lines.append(f"{'✅' if rank == 0 else '>>>'} layer {i} ok")
        lines += [f"{mark}layer 2 norm{ok}", f"{mark}layer 2 attention{ok}"]
        return "\n".join(lines) + "\n"

    files = {f"log_{r}.log": log(r) for r in range(3)}
    report = analyze(pack(tmp_path / "job.tar.gz", files, top="job-1"), AnalyzeOptions(workers=1))
    got = {r.rank: (r.last_checkpoint_qualified, r.checkpoints) for r in report.ranks}
    assert got == {r: ("layer 2 / attention ok", 10) for r in range(3)}
    assert report.correlation["last_common_checkpoint_qualified"] == "layer 2 / attention ok"
