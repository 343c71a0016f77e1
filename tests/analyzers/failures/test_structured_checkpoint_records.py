"""Checkpoints written as structured records rather than printed sentences.

A job that logs with structlog names its events as identifiers, as structlog advises, and
keeps the numbers in fields of their own: `{"event": "layer_passed", "layer": 7}` in JSON
lines, `msg="norm passed" layer=7` in logfmt. A record is read as the line it stands for
(`layer 7 passed`, `layer 7 norm passed`), so its checkpoints count and qualify like printed
ones. structlog's LogfmtRenderer writes the pairs in the order it was given
(`key_order=["ts", "rank", "level", "msg"]`), a level may be missing altogether, and the
exception it was handed follows the message as a pair (`error="RuntimeError: ..."`), which
is read as part of the message. Values are our own, in the formats real torch 2.13 runs on
gloo wrote with structlog 26 (JSON lines and LogfmtRenderer).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.formats.lines import parse_line
from tests.analyzers.job_bundles import pack

TIMEOUT = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
    "unbound_buffer.cc:129] Timed out waiting 20000ms for send operation to complete"
)


@pytest.mark.parametrize(
    ("text", "rank", "level", "message"),
    [
        (
            '{"ts": "2026-12-05T21:01:33.995+00:00", "rank": 3, "level": "info", '
            '"event": "layer_passed", "layer": 7}',
            3,
            "INFO",
            "layer 7 passed",
        ),
        (
            '{"ts": "2026-12-05T21:01:33.995+00:00", "rank": 0, "level": "info", '
            '"event": "attention_passed", "layer": 2}',
            0,
            "INFO",
            "layer 2 attention passed",
        ),
        (
            '{"rank": 1, "level": "info", "event": "model_run_success"}',
            1,
            "INFO",
            "model run success",
        ),
        (
            '{"rank": 2, "level": "error", "event": "model_run_failed", "error": "'
            + TIMEOUT.replace('"', '\\"')
            + '"}',
            2,
            "ERROR",
            "model run failed: " + TIMEOUT,
        ),
        (
            'ts=2026-12-05T21:04:00.222511Z rank=3 level=info msg="layer 1 passed"',
            3,
            "INFO",
            "layer 1 passed",
        ),
        ('ts=2026-12-05T21:04:00.222511Z rank=3 msg="layer 7 passed"', 3, None, "layer 7 passed"),
        (
            'ts=2026-12-05T21:04:00.222457Z rank=0 level=info msg="MoE passed" layer=1',
            0,
            "INFO",
            "layer 1 MoE passed",
        ),
        (
            f'ts=2026-12-05T21:04:20.234863Z rank=0 level=error msg="model run failed" '
            f'error="{TIMEOUT}"',
            0,
            "ERROR",
            "model run failed: " + TIMEOUT,
        ),
    ],
)
def test_a_structured_record_reads_as_the_line_it_stands_for(text, rank, level, message):
    line = parse_line(text)
    assert (line.rank, line.level, line.message) == (rank, level, message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a message in words keeps them, and a layer field only joins a progress event
        (
            '{"level": "info", "message": "loaded weights_v2.bin", "layer": 3}',
            "loaded weights_v2.bin",
        ),
        ('{"level": "info", "event": "kv_cache_allocated", "layer": 3}', "kv cache allocated"),
        # a message that names its layer keeps its own
        ('ts=2026-12-05T21:04:00Z rank=1 msg="layer 2 passed" layer=9', "layer 2 passed"),
        # a pair that is no layer field adds nothing
        ('ts=2026-12-05T21:04:00Z rank=1 msg="norm passed" player=9', "norm passed"),
    ],
)
def test_a_record_without_a_progress_event_keeps_its_words(text, message):
    assert parse_line(text).message == message


def _jsonl(rank: int, layers: int, success: bool) -> str:
    rows = [{"rank": rank, "level": "info", "event": "prefill_start"}]
    for layer in range(layers):
        rows += [
            {"rank": rank, "level": "info", "event": f"{part}_passed", "layer": layer}
            for part in ("norm", "attention", "mlp")
        ]
        rows.append({"rank": rank, "level": "info", "event": "layer_passed", "layer": layer})
    if success:
        rows.append({"rank": rank, "level": "info", "event": "model_run_success"})
    return "".join(
        json.dumps({"ts": f"2026-12-05T21:01:34.{i:03d}+00:00", **row}) + "\n"
        for i, row in enumerate(rows)
    )


def _report(tmp_path: Path, files: dict[str, str]) -> dict:
    bundle = pack(tmp_path / "job.tar.gz", files, "job-xq")
    return analyze(bundle, AnalyzeOptions(workers=1)).to_dict()


def test_a_healthy_run_logged_in_json_lines_is_healthy(tmp_path):
    report = _report(tmp_path, {f"log_{r}.log": _jsonl(r, 4, True) for r in range(4)})
    assert report["diagnosis"]["category"] == "healthy"
    assert {r["rank"]: r["status"] for r in report["ranks"]} == dict.fromkeys(range(4), "ok")
    assert report["correlation"]["last_common_checkpoint_qualified"] == "model run success"


def test_a_json_lines_part_is_read_in_the_layer_its_field_names(tmp_path):
    files = {f"log_{r}.log": _jsonl(r, 3, False) for r in range(3)}
    files["log_3.log"] = _jsonl(3, 2, False) + json.dumps(
        {"rank": 3, "level": "info", "event": "norm_passed", "layer": 2}
    )
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in _report(tmp_path, files)["ranks"]}
    assert last == {
        0: "layer 2 passed",
        1: "layer 2 passed",
        2: "layer 2 passed",
        3: "layer 2 / norm passed",
    }


def _stage(rank: int, first: int, stop: int | None = None) -> list[str]:
    """One pipeline stage's logfmt lines: it runs layers `first` and `first + 1` (each part
    with its layer as a pair), stopping after `stop` lines when given."""
    lines = [f'ts=2026-12-05T21:04:44.{100 + rank}00Z rank={rank} level=info msg="prefill start"']
    for layer in (first, first + 1):
        lines += [
            f'ts=2026-12-05T21:04:44.{100 + rank}10Z rank={rank} level=info msg="{part} passed" layer={layer}'
            for part in ("norm", "attention", "MoE")
        ]
        lines.append(
            f'ts=2026-12-05T21:04:44.{100 + rank}20Z rank={rank} level=info msg="layer {layer} passed"'
        )
    return lines[:stop]


def test_pipeline_stages_that_name_their_layers_share_no_checkpoint(tmp_path):
    """Each stage runs layers of its own: stage 2's parts are in layers 4 and 5, not in a
    layer 0 counted from its first line, and no point is common to all stages."""
    files = {f"log_{r}.log": "\n".join(_stage(r, 2 * r)) + "\n" for r in (0, 1, 3)}
    files["log_2.log"] = (
        "\n".join(
            [
                *_stage(2, 4, 7),
                'ts=2026-12-05T21:04:44.167504Z rank=2 level=error msg="model run failed" '
                'error="RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 32x16)"',
            ]
        )
        + "\n"
    )
    report = _report(tmp_path, files)
    last = {r["rank"]: r["last_checkpoint_qualified"] for r in report["ranks"]}
    assert last == {
        0: "layer 1 passed",
        1: "layer 3 passed",
        2: "layer 5 / attention passed",
        3: "layer 7 passed",
    }
    assert report["correlation"]["last_common_checkpoint_qualified"] is None
    assert "mat1 and mat2 shapes cannot be multiplied" in report["diagnosis"]["first_error"]["text"]
