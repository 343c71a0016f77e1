"""Progress lines a job prints before its model runs, or around a pass over its layers that is
not the forward pass.

A job that fails while it starts (the store's port taken, a rank that cannot reach the store)
has often printed only its own start-up stages, named as such: `stage tokenizer passed`,
`stage dataset passed`. No layer ran, so they are phases of the run and not parts of layer 0.
A job that checks a restored model layer by layer names that pass in front of the layer
(`restore check layer 2 passed`); the line closes its layer like `layer 2 passed` and keeps
its words, so it is not compared with the forward pass's `layer 2 passed`. Values are our
own, in the formats real torch 2.13 runs on gloo wrote.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.layer_qualification import qualified_names
from analyzers.checkpoints.patterns import CheckpointMatcher, classify_text
from tests.analyzers.job_bundles import pack

LISTEN = (
    "torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
    "network address. port: 29511, useIpv6: false, code: -98, name: EADDRINUSE, message: "
    "address already in use"
)
KEY_WAIT = (
    "torch.distributed.DistStoreError: wait timeout after 15000ms, keys: /default_pg/0//cpu//0/0"
)


def _start_up(rank: int, error: str) -> str:
    stamp = f"2026-12-06 09:14:{10 + rank:02d},{120 + 7 * rank}"
    return "\n".join(
        [
            f"{stamp} INFO [rank{rank}] stage tokenizer passed",
            f"{stamp} INFO [rank{rank}] stage dataset passed",
            f"{stamp} INFO [rank{rank}] init_process_group gloo 10.0.3.7:29511 world=4",
            "Traceback (most recent call last):",
            '  File "/srv/train/main.py", line 41, in <module>',
            '    dist.init_process_group("gloo", rank=rank, world_size=world)',
            error,
            "",
        ]
    )


def _report(tmp_path: Path, files: dict[str, str]) -> dict:
    bundle = pack(tmp_path / "job.tar.gz", files, "job-3e91c0aa")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def test_start_up_stages_are_no_parts_of_a_layer(tmp_path):
    files = {f"log_{r}.log": _start_up(r, LISTEN if r == 0 else KEY_WAIT) for r in range(4)}
    report = _report(tmp_path, files)
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == dict.fromkeys(range(4), "stage dataset passed")
    assert report["correlation"]["last_common_checkpoint_qualified"] == "stage dataset passed"


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (
            ["stage tokenizer passed", "stage dataset passed"],
            ["stage tokenizer passed", "stage dataset passed"],
        ),
        (["phase data passed", "layer 0 passed"], ["phase data passed", "layer 0 passed"]),
        # counterexample: a part with no layer line yet is still layer 0's
        (
            ["norm passed", "attention passed"],
            ["layer 0 / norm passed", "layer 0 / attention passed"],
        ),
    ],
)
def test_a_named_stage_is_a_phase(texts, expected):
    assert qualified_names(texts) == expected


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (
            "[2026-12-06 09:20:41,512] rank 3: restore check layer 2 passed",
            "restore check layer 2 passed",
        ),
        ("2026-12-06 09:20:41 INFO [rank1] warmup layer 11 done", "warmup layer 11 done"),
        ("[rank 0] eval layer 3/24 passed", "eval layer 3 passed"),
    ],
)
def test_a_layer_line_names_the_pass_it_belongs_to(line, text):
    assert CheckpointMatcher().match(line) == text
    assert classify_text(text).role == "layer"


@pytest.mark.parametrize(
    "line",
    [
        "restore check layer 2 failed",
        "skipping layer 2 passed before",
        "not layer 2 passed",
        "stage 2 passed",
        "stage dataset failed",
    ],
)
def test_lines_that_close_no_named_pass(line):
    text = CheckpointMatcher().match(line)
    assert text is None or classify_text(text).role not in {"phase", "layer"}


def test_a_rank_placed_by_its_restore_check(tmp_path):
    refused = (
        "[rank{r}]: ValueError: loaded state dict contains a parameter group that doesn't match "
        "the size of optimizer's group"
    )
    files = {}
    for r in range(4):
        lines = [
            f"[2026-12-06 09:20:4{r},51{r}] rank {r}: resuming from /ckpt/iter_0000200 (iteration 200)"
        ]
        lines += [
            f"[2026-12-06 09:20:4{r},60{i}] rank {r}: restore check layer {i} passed"
            for i in range(4)
        ]
        lines += [f"[rank{r}]: Traceback (most recent call last):", refused.format(r=r), ""]
        files[f"log_{r}.log"] = "\n".join(lines)
    report = _report(tmp_path, files)
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == dict.fromkeys(range(4), "restore check layer 3 passed")
