"""A level alone in brackets before the words, `[ERROR] <prose>`, as a launch script's `echo`
or a small tool's own logger writes it: the writer marked the line an error, so it is one,
weighed like any line a logger marked ERROR in words no rule reads (a bare failure, cited
when nothing says more, below every line a rule reads). The same words at `[INFO]` or
`[WARNING]` are no error, and `[ERROR]` inside a line (a shell's `set -x` echo of the command
that prints it, a config dump naming the prefix) is no level of the line.

The fixtures follow a launch script's console: `set -x`, its own `[INFO]` progress lines, the
trainer's output; names, paths and times are made up.
"""

from __future__ import annotations

import pytest

from analyzers.classify.rules import load_knowledge
from analyzers.classify.tiers import TIER_GENERIC, classify_event
from analyzers.core.types import Event
from analyzers.formats.codes import extract_codes
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from tests.analyzers.excerpts import diagnose_text

KNOWLEDGE = load_knowledge()
START = """\
[INFO] Launching job llama-sft-7b on 8 NPUs (node-3)
[INFO] Using dataset /data/alpaca-zh
"""
NO_SHARDS = '[ERROR] The dataset directory holds no shards for split "train"'
ECHOED = """\
+ echo '[ERROR] The dataset directory holds no shards for split "train"'
"""
HCCL_CAUSE = (
    "[rank1]: EI0006: [PID: 2531699] 2026-02-20-04:04:28.999.536 Getting socket times out. "
    "Reason: Remote Rank did not send the data in time. Please check the reason for the rank "
    "being stuck"
)


def _event(raw: str) -> Event:
    parsed = parse_line(raw)
    kind = classify(parsed, load_prefilter())
    assert kind is not None
    return Event(
        "job/launch.log",
        3,
        raw,
        kind,
        parsed.message,
        source=parsed.source,
        level=parsed.level,
        codes=extract_codes(parsed.message),
    )


def test_a_bare_error_line_is_the_first_error() -> None:
    diagnosis = diagnose_text("job/launch.log", START + NO_SHARDS + "\n")
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == NO_SHARDS


def test_it_weighs_as_a_bare_failure_in_words_no_rule_reads() -> None:
    line = parse_line(NO_SHARDS)
    assert (line.level, line.message) == ("ERROR", NO_SHARDS.removeprefix("[ERROR] "))
    assert classify_event(_event(NO_SHARDS), 0, KNOWLEDGE).tier == TIER_GENERIC


def test_a_line_a_rule_reads_still_comes_first() -> None:
    text = START + NO_SHARDS + "\n" + HCCL_CAUSE + "\n"
    diagnosis = diagnose_text("job/launch.log", text)
    assert diagnosis.category == "hccl"
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == HCCL_CAUSE


def test_the_echoed_command_is_not_cited_before_the_line_it_prints() -> None:
    diagnosis = diagnose_text("job/launch.log", START + ECHOED + NO_SHARDS + "\n")
    assert diagnosis.first_error is not None
    assert diagnosis.first_error.text == NO_SHARDS


@pytest.mark.parametrize("level", ["INFO", "WARNING"])
def test_the_same_words_at_info_or_warning_are_no_error(level: str) -> None:
    quiet = NO_SHARDS.replace("[ERROR]", f"[{level}]")
    assert parse_line(quiet).level == level
    assert diagnose_text("job/launch.log", START + quiet + "\n").first_error is None


@pytest.mark.parametrize(
    "text",
    [
        ECHOED.strip(),
        'log_prefix: "[ERROR] "',
        "RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64",
    ],
    ids=["set-x-echo", "config-dump", "exception-text"],
)
def test_error_in_brackets_inside_a_line_is_no_level_of_it(text: str) -> None:
    assert parse_line(text).level is None


@pytest.mark.parametrize(
    ("text", "source"),
    [
        (
            "[ERROR] RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]326 "
            "ProcLogicCqReport:Task run failed, device_id=3, stream_id=46, task_id=42528",
            "plog",
        ),
        (
            "[ERROR] 2025-05-16-20:08:19 (PID:9649388, Device:2, RankID:2) ERR00100 PTA call acl "
            "api failed",
            "torch_npu",
        ),
    ],
    ids=["cann-log", "torch_npu"],
)
def test_other_formats_opening_with_a_bracketed_level_keep_their_reading(text, source) -> None:
    parse_line(NO_SHARDS)  # the bare form read first: headers are tried last winner first
    assert parse_line(text).source == source


def test_an_operators_tagged_run_keeps_its_reading() -> None:
    """`[ERROR] [AscPlugin] ...`: a writer's tag after the level opens a run of lines read as
    one block (`knowledge/blocks.yaml`); the launch call's return code before the readable
    failure does not take its place."""
    tagged = "[ERROR] [AscPlugin] AscendKernelLaunchWithFlagV2 ret 107000"
    assert parse_line(tagged).level is None
