"""Checkpoints behind whatever prefix a tool puts in front of a rank's lines.

One small multi-rank bundle per prefix style: each rank loads weights, runs a few layers
(sub-modules, then `layer N passed`) and finishes with `model run success`; one rank stops
early with an error. Every line of a file goes through the same prefix, as a real logger
writes them, with some chatter and sentences that merely end in "passed".
"""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from analyzers import AnalyzeOptions, analyze
from analyzers.checkpoints.checkpoint_rules import load_knowledge
from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.scan.checkpoint_prefix import MIN_REPEATS, CheckpointPrefix
from tests.analyzers.excerpts import scan_text
from tests.analyzers.job_bundles import pack

START = datetime(2026, 11, 29, 7, 25, 36, 861000)
LAYERS = 3
SUBMODULES = ("norm", "attention", "MoE")
# (rank, time, level, message) -> the whole line
Render = Callable[[int, datetime, str, str], str]


@dataclass(frozen=True)
class Style:
    render: Render
    ranks: int = 4
    early: int = 2  # the rank that stops after `layer 1 / attention passed`


def _ms(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.") + f"{t.microsecond // 1000:03d}"


def _json(r: int, t: datetime, level: str, msg: str) -> str:
    fields = {"time": t.isoformat(timespec="milliseconds"), "rank": r, "level": level}
    return json.dumps({**fields, "message": msg})


def _json_variant(r: int, t: datetime, level: str, msg: str) -> str:
    fields = {"@timestamp": t.timestamp(), "levelname": level, "global_rank": str(r)}
    return json.dumps({**fields, "msg": msg, "logger": "toy_decoder"})


STYLES = {
    "python_logging_default": Style(lambda r, t, lv, m: f"{lv}:root:{m}"),
    "python_logging_named": Style(lambda r, t, lv, m: f"{lv}:toy_decoder:{m}"),
    "bracketed_logger_label": Style(
        lambda r, t, lv, m: f"[{_ms(t)}] [RANK {r}] [{lv}] toy_decoder: {m}"
    ),
    "deepspeed": Style(
        lambda r, t, lv, m: (
            f"[{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}] [{lv}] "
            f"[bisect.py:57:forward] [Rank {r}] {m}"
        )
    ),
    "glog": Style(
        lambda r, t, lv, m: f"{lv[0]}{t:%m%d %H:%M:%S.%f}  {31337 + r} bisect.cc:212] {m}"
    ),
    "glog_year_nanoseconds": Style(
        lambda r, t, lv, m: f"{lv[0]}{t:%Y%m%d %H:%M:%S.%f}123 {4100 + r} hooks.cpp:88] {m}"
    ),
    "torchrun_local_rank": Style(lambda r, t, lv, m: f"[default{r}]:{m}"),
    "torchrun_with_logging": Style(
        lambda r, t, lv, m: (
            f"[default{r}]:{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} toy_decoder {lv}: {m}"
        )
    ),
    "vllm_worker": Style(
        lambda r, t, lv, m: (
            f"(VllmWorker rank={r} pid={2345 + r}) {lv} {t:%m-%d %H:%M:%S} [model_runner.py:88] {m}"
        )
    ),
    "vllm_v1_worker_tp": Style(
        lambda r, t, lv, m: (
            f"(Worker_DP0_TP{r}_EP{r} pid={270 + r}) {lv} {t:%m-%d %H:%M:%S} "
            f"[gpu_model_runner.py:2312] {m}"
        )
    ),
    "sglang_tp": Style(lambda r, t, lv, m: f"[{t:%Y-%m-%d %H:%M:%S} TP{r}] {m}"),
    "megatron_print": Style(lambda r, t, lv, m: f" [{t:%Y-%m-%d %H:%M:%S}] {m}"),
    "megatron_logger": Style(
        lambda r, t, lv, m: f"[{t:%Y-%m-%d %H:%M:%S}] [{lv} | megatron.core.bisect]: {m}"
    ),
    "mindspeed_logger_label": Style(
        lambda r, t, lv, m: f"{_ms(t)} | {lv:<8} | mindspeed_llm.bisect | {m}"
    ),
    "loguru": Style(lambda r, t, lv, m: f"{_ms(t)} | {lv:<8} | toy.model:forward:42 - {m}"),
    "lmdeploy": Style(
        lambda r, t, lv, m: (
            f"{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d} - lmdeploy - "
            f"{lv} - bisect.py:57 - {m}"
        )
    ),
    "json_lines": Style(_json),
    "json_lines_key_variants": Style(_json_variant),
    "cann_time": Style(
        lambda r, t, lv, m: f"{t:%Y-%m-%d-%H:%M:%S}.{t.microsecond // 1000:03d}.{r:03d} bisect: {m}"
    ),
    "pta_time": Style(lambda r, t, lv, m: f"[{lv}] {t:%Y-%m-%d-%H:%M:%S} (PID:{9649 + r}) {m}"),
    "elastic_time": Style(lambda r, t, lv, m: f"{t:%Y-%m-%d_%H:%M:%S} bisect - {m}"),
    "watchdog_time": Style(
        lambda r, t, lv, m: (
            f"[{8000 + r}] [{t:%Y-%m-%d %H:%M:%S}:{t.microsecond // 1000:03d}] bisect: [{lv}] {m}"
        )
    ),
    "level_first_iso_rank_tag": Style(
        lambda r, t, lv, m: (
            f"{lv:<5} {t:%Y-%m-%dT%H:%M:%S}.{t.microsecond // 1000:03d}Z r{r} serve.worker | {m}"
        )
    ),
    "iso_zone_time": Style(lambda r, t, lv, m: f"{t:%Y-%m-%dT%H:%M:%S}+08:00 {lv} bisect: {m}"),
    "slash_date": Style(lambda r, t, lv, m: f"{t:%Y/%m/%d %H:%M:%S} [{lv}] bisect: {m}"),
    "time_of_day": Style(lambda r, t, lv, m: f"{t:%H:%M:%S} {lv:<7} bisect | {m}"),
    "ansi_colour": Style(
        lambda r, t, lv, m: (
            f"\x1b[32m{_ms(t)}\x1b[0m \x1b[1m{lv}\x1b[0m \x1b[36mtoy_decoder\x1b[0m: {m}"
        )
    ),
    "ansi_vllm_worker": Style(
        lambda r, t, lv, m: (
            f"\x1b[1;36m(VllmWorker rank={r} pid={900 + r})\x1b[0;0m {lv} "
            f"{t:%m-%d %H:%M:%S} [model_runner.py:88] {m}"
        )
    ),
    "syslog": Style(lambda r, t, lv, m: f"{t:%b %d %H:%M:%S} node-{r} bisect.sh[{3100 + r}]: {m}"),
    # logging's datefmt="%d-%b-%y %H:%M:%S" (Python's logging docs) under a per-rank logger
    "day_month_name": Style(
        lambda r, t, lv, m: f"{t:%d-%b-%y %H:%M:%S} - {lv} - infer.rank{r} - {m}"
    ),
    "hydra": Style(
        lambda r, t, lv, m: (
            f"[{t:%Y-%m-%d %H:%M:%S},{t.microsecond // 1000:03d}][toy_decoder][{lv}] - {m}"
        )
    ),
    "key_value_fields": Style(lambda r, t, lv, m: f"{_ms(t)} rank={r} pid={77 + r} {lv} {m}"),
    "two_ranks": Style(
        lambda r, t, lv, m: f"[{_ms(t)}] [RANK {r}] [{lv}] toy_decoder: {m}", ranks=2, early=1
    ),
}


def _messages(early: bool) -> list[tuple[str, str]]:
    """(level, message) lines of one rank; the early rank dies in layer 1."""
    out = [
        ("INFO", "building toy decoder: layers=3 hidden=32 experts=8"),
        ("INFO", "load weights passed"),
        ("INFO", "skipping layer 3 because it passed before"),
        ("INFO", "prefill start: 8 tokens"),
    ]
    for layer in range(LAYERS):
        for part in SUBMODULES:
            out.append(("INFO", f"  {part} passed"))
            if early and layer == 1 and part == "attention":
                out.append(
                    ("ERROR", "RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB")
                )
                return out
        out.append(("INFO", f"layer {layer} passed"))
    out.append(("INFO", "the check that every shard of the weights on this node passed"))
    out.append(("INFO", "model run success"))
    return out


def _bundle(tmp_path: Path, style: Style) -> Path:
    path = tmp_path / "job.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for rank in range(style.ranks):
            lines = []
            for i, (level, message) in enumerate(_messages(rank == style.early)):
                time = START + timedelta(milliseconds=53 * i + rank)
                lines.append(style.render(rank, time, level, message))
            data = ("\n".join(lines) + "\n").encode()
            member = tarfile.TarInfo(f"job-9/log_{rank}.log")
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return path


FULL = 2 + LAYERS * (len(SUBMODULES) + 1)  # load weights + layers + model run success
EARLY = 1 + (len(SUBMODULES) + 1) + 2  # load weights, layer 0, norm and attention of layer 1


@pytest.mark.parametrize("name", list(STYLES))
def test_checkpoints_behind_each_prefix_style(tmp_path, name):
    style = STYLES[name]
    report = analyze(_bundle(tmp_path, style), AnalyzeOptions(workers=1)).to_dict()
    ranks = {entry["rank"]: entry for entry in report["ranks"]}
    expected = {r: EARLY if r == style.early else FULL for r in range(style.ranks)}
    assert {r: ranks[r]["checkpoints"] for r in ranks} == expected
    last = {r: ranks[r]["last_checkpoint_qualified"] for r in ranks}
    assert last[style.early] == "layer 1 / attention passed"
    assert all(last[r] == "model run success" for r in ranks if r != style.early)
    assert ranks[style.early]["last_checkpoint_occurrence"] == 2
    diagnosis = report["diagnosis"]
    assert diagnosis["last_common_checkpoint"] == "attention passed"
    assert diagnosis["last_common_checkpoint_occurrence"] == 2
    assert diagnosis["last_common_checkpoint_qualified"] == "layer 1 / attention passed"
    assert report["correlation"]["divergence"] is None


@pytest.mark.parametrize("name", ["json_lines", "json_lines_key_variants"])
def test_an_error_in_json_lines_is_the_first_error(tmp_path, name):
    style = STYLES[name]
    report = analyze(_bundle(tmp_path, style), AnalyzeOptions(workers=1)).to_dict()
    first = report["diagnosis"]["first_error"]
    assert (first["rank"], first["line"]) == (style.early, 11)
    assert "RuntimeError: NPU out of memory" in first["text"]
    assert report["diagnosis"]["category"] == "oom"


# --- the learner alone -------------------------------------------------------------------

LABELLED = "[2026-11-29 07:25:43.583] [RANK 0] [INFO] toy_decoder:  norm passed"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("[2026-11-29 07:25:43 TP3]   attention passed", "  attention passed"),
        ("[engine.py:12:forward] [Rank 0] layer 2 passed", "layer 2 passed"),
        ("2025-05-16-20:08:19.072.297 | INFO | decode step 7 passed", "decode step 7 passed"),
        ("(rank 3) WARNING: prefill passed", "prefill passed"),
        ("WARNING 2026-11-29T07:25:43.583Z rank3 layer 2 passed", "layer 2 passed"),
        ("rank 3 layer 2 passed", "rank 3 layer 2 passed"),
        ("2026-12-05 02:58:17,966 - rank 3 - INFO -   norm passed", "  norm passed"),
        ("2026-12-05 02:58:17,966 | Rank 12 | INFO | layer 2 passed", "layer 2 passed"),
        ("rank 3 passed the barrier", "rank 3 passed the barrier"),
        ("rerun3 layer 2 passed", "rerun3 layer 2 passed"),
        ("  attention passed", "  attention passed"),
        ("skipping layer 3 because it passed before", "skipping layer 3 because it passed before"),
        ("weights loaded: embed rows [0, 32782)", "weights loaded: embed rows [0, 32782)"),
        ("==> layer 0 passed", "layer 0 passed"),
        ("2026-12-05 05:14:02,310 INFO --> layer 3 passed", "layer 3 passed"),
        (">>> layer 1 passed", "layer 1 passed"),
        ("» attention passed", "attention passed"),
        ("->x layer 1 passed", "->x layer 1 passed"),
    ],
)
def test_structural_tokens_are_cut_at_once(message, expected):
    assert CheckpointPrefix().strip(message) == expected


def test_a_layer_field_stops_the_cut_after_a_step_field():
    # rich's continuation row under a repeated second; the step and layer as key=value fields
    row = "                    INFO     step=2 layer=1 tp_allreduce passed          train.py:120"
    assert CheckpointPrefix().strip(row) == "layer=1 tp_allreduce passed          train.py:120"
    assert CheckpointMatcher().match(row) == "layer 1 / tp_allreduce passed"
    # counterexample: a field that names no layer is cut as before
    fields = "step=2 rank=1   norm passed"
    assert CheckpointPrefix().strip(fields) == "  norm passed"


def test_a_layer_field_keeps_its_layer_across_a_file(tmp_path):
    files = {}
    for rank in range(2):
        rows = [f"[12/08/26 00:18:45] INFO     init done: rank={rank} world=2       train.py:49"]
        for step in range(2):
            for layer in range(3 if rank == 0 or step == 0 else 1):
                rows.append(
                    f"                    INFO     step={step} layer={layer} tp_allreduce"
                    " passed            train.py:120"
                )
        files[f"logs/none_q1/attempt_0/{rank}/stdout.log"] = "\n".join(rows) + "\n"
    report = analyze(pack(tmp_path / "job.tar.gz", files, "job-4be1"), AnalyzeOptions(workers=1))
    last = {r.rank: r.last_checkpoint_qualified for r in report.ranks}
    assert last == {0: "layer 2 / tp_allreduce passed", 1: "layer 0 / tp_allreduce passed"}


def test_a_label_is_cut_once_it_led_enough_lines():
    learner = CheckpointPrefix()
    seen = [learner.strip(LABELLED) for _ in range(MIN_REPEATS)]
    assert seen[: MIN_REPEATS - 1] == ["toy_decoder:  norm passed"] * (MIN_REPEATS - 1)
    assert seen[-1] == " norm passed"


def test_a_spelt_apart_rank_field_after_a_logger_name_is_cut():
    # logging.Formatter("%(asctime)s - infer - rank 3 - %(levelname)s - %(message)s"), with a
    # record of two lines (a stats line under the checkpoint) between the checkpoints
    lines = [
        "2026-12-05 02:58:17,964 - infer - rank 3 - INFO - init process group: backend=gloo",
        "2026-12-05 02:58:17,966 - infer - rank 3 - INFO - prefill start",
        "2026-12-05 02:58:17,966 - infer - rank 3 - INFO -   norm passed",
        "    out: mean=0.0000 std=1.0020 shape=(8, 32)",
    ]
    block = "\n".join(lines).encode()
    assert CheckpointPrefix().strip(lines[2], block) == "  norm passed"


def test_the_block_around_a_line_counts_for_its_label():
    block = "\n".join([LABELLED.replace("norm passed", "prefill start")] * MIN_REPEATS).encode()
    assert CheckpointPrefix().strip(LABELLED, block) == " norm passed"


# a coloured console logger (loguru's default layout): the escapes sit inside the label,
# between the logger's name and its function, not only after it
COLOURED = [
    "\x1b[32m2026-12-07 01:41:06.619\x1b[0m | \x1b[32m\x1b[1mINFO    \x1b[0m | "
    "\x1b[36mrank0\x1b[0m:\x1b[36minfo\x1b[0m - \x1b[32mload weights passed\x1b[0m",
    "\x1b[32m2026-12-07 01:41:06.685\x1b[0m | \x1b[32m\x1b[1mINFO    \x1b[0m | "
    "\x1b[36mrank0\x1b[0m:\x1b[36minfo\x1b[0m - \x1b[32mprefill start: 8 tokens\x1b[0m",
    "\x1b[32m2026-12-07 01:41:06.686\x1b[0m | \x1b[32m\x1b[1mINFO    \x1b[0m | "
    "\x1b[36mrank0\x1b[0m:\x1b[36minfo\x1b[0m - \x1b[32m  norm passed\x1b[0m",
]


def test_the_block_around_a_line_counts_for_a_label_coloured_inside():
    block = "\n".join(COLOURED).encode()
    assert CheckpointPrefix().strip("rank0:info - load weights passed", block) == (
        "load weights passed"
    )


def test_a_label_whose_line_number_changes_counts_the_block_around_its_first_line():
    # logging.Formatter("%(asctime)s | rank=%(rank)d | %(levelname)s | %(name)s:%(lineno)d |
    # %(message)s"): each record names its own source line, so no other line of the block
    # holds the first line's label as it is written; digits masked, they all do
    lines = [
        "2026-12-03 08:12:40.118 | rank=2 | INFO  | restore:31 | stage config passed",
        "2026-12-03 08:12:41.020 | rank=2 | INFO  | restore:33 | stage process_group passed",
        "2026-12-03 08:12:41.027 | rank=2 | INFO  | restore:36 | stage model passed",
    ]
    block = "\n".join(lines).encode()
    assert CheckpointPrefix().strip(lines[0], block) == "stage config passed"


def test_a_label_whose_number_changes_but_leads_no_other_line_is_kept():
    # counterexample: the same name with other numbers, but inside the messages
    block = b"\n".join(
        [
            b"2026-12-03 08:12:40.118 INFO restore:31 | stage config passed",
            b"2026-12-03 08:12:41.020 INFO loaded from restore:33",
            b"2026-12-03 08:12:41.027 INFO see restore:36 for details",
        ]
    )
    message = "restore:31 | stage config passed"
    assert CheckpointPrefix().strip(message, block) is message


def test_a_label_seen_once_is_kept():
    block = b"INFO rank 0 ready\nNote: attention passed\nINFO: weights loaded\n"
    message = "Note: attention passed"
    assert CheckpointPrefix().strip(message, block) is message


def test_a_label_counts_only_where_it_leads_the_line():
    block = b"\n".join([b"toy_decoder is ready", b"using toy_decoder: v2", b"x toy_decoder: y"])
    assert CheckpointPrefix().strip("toy_decoder: layer 2 passed", block).startswith("toy_")


COUNTEREXAMPLES = [text for rule in load_knowledge().rules for text in rule.counterexamples]


@pytest.mark.parametrize("label", ["bisect:", "toy_decoder |", "[2026-11-29 07:25:43 TP3]"])
@pytest.mark.parametrize("message", COUNTEREXAMPLES)
def test_knowledge_counterexamples_stay_no_checkpoints_behind_a_learned_prefix(label, message):
    learner, matcher = CheckpointPrefix(), CheckpointMatcher()
    for _ in range(MIN_REPEATS):
        learner.strip(f"{label} {message}")
    assert matcher.match(learner.strip(f"{label} {message}")) is None


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("[rank2] INFO [req 2] decode step 0 passed", "[req 2] decode step 0 passed"),
        ("rank=3 request_id=7 prefill passed", "request_id=7 prefill passed"),
        (
            "2026-12-05 03:52:50,454 [rank0] INFO (request #3) decode step 1 passed",
            "(request #3) decode step 1 passed",
        ),
        # counterexample: a tag that only starts like one is still cut
        ("[requeue 2] layer 2 passed", "layer 2 passed"),
    ],
)
def test_a_request_tag_is_left_to_the_message(message, expected):
    """A server tells its requests' checkpoints apart by the tag: it is never cut."""
    assert CheckpointPrefix().strip(message) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("[rank2] INFO [layer 2] attention passed", "[layer 2] attention passed"),
        ("2026-12-05 16:40:02,118 [rank1] INFO [L2] norm passed", "[L2] norm passed"),
        ("[rank2] INFO L2: norm passed", "L2: norm passed"),
        # counterexamples: tags that only start like one are still cut
        ("[layers] norm passed", "norm passed"),
        ("[Llama] norm passed", "norm passed"),
        ("[L2 cache] norm passed", "norm passed"),
    ],
)
def test_a_layer_tag_is_left_to_the_message(message, expected):
    """A part line that names its layer in a tag is read in that layer: cut, the tag would
    leave a bare part for the lines before it to place."""
    assert CheckpointPrefix().strip(message) == expected


def test_a_layer_label_is_left_to_the_message_once_learned():
    learner, message = CheckpointPrefix(), "layer2: norm passed"
    for _ in range(MIN_REPEATS):
        learner.strip(message)
    assert learner.strip(message) == message


@pytest.mark.parametrize("count", [1, 2, 4])
def test_a_short_log_of_step_prefixed_padded_lines_is_read(count):
    """A rank's stdout under torchrun's `--log-dir` that holds only a few of the job's
    zero-padded prints (`[step 001] rank 0 layer 02 norm ok`, as the held-out SIGTERM case
    writes them): the step tag and the rank label are cut before any line repeated them, and
    the padded layer reads as its value, as inside a whole log."""
    lines = [
        "[step 001] rank 0 layer 02 norm ok",
        "[step 001] rank 0 layer 02 attention ok",
        "[step 001] rank 0 layer 02 mlp ok",
        "[step 001] rank 0 layer 02 ok",
    ][:count]
    text = "".join(f"{line}\n" for line in lines)
    track = scan_text("job/torchrun_logs/none_x/attempt_0/0/stdout.log", text).facts["checkpoints"]
    assert len(track) == count


def test_a_step_prefixed_line_with_no_checkpoint_after_its_tags_is_none():
    """Counterexample: the tags alone before words that are no checkpoint read as nothing."""
    text = "[step 001] rank 0 waiting for peers\n"
    track = scan_text("job/torchrun_logs/none_x/attempt_0/0/stdout.log", text).facts.get(
        "checkpoints"
    )
    assert track is None or len(track) == 0
