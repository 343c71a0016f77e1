"""The time a collector, a platform or a relaying server stamps before a line
(`formats.collector_stamps`): each peeler keeps it as the collector's time, and the writer
only when the stamp names one."""

from __future__ import annotations

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.collector_stamps import (
    MONTH_INITIALS,
    peel_bracketed_time,
    peel_collector_time,
    peel_journal,
    peel_local_collector_time,
    peel_model_server_relay,
    peel_scheduler_trial,
    peel_ts_local_iso,
)

OWN = "[rank5]: torch.OutOfMemoryError: NPU out of memory. Tried to allocate 1.50 GiB"


def peeled(peel, text: str) -> ParsedLine | None:
    """The line after `peel`, or None when the peeler left it alone."""
    line = ParsedLine(text=text, message=text)
    return line if peel(line, text) else None


@pytest.mark.parametrize(
    ("prefix", "stamp", "writer"),
    [
        ("2026-02-09T17:21:08.449021337Z ", "2026-02-09T17:21:08.449021337Z", ""),
        ("2026-02-09T17:21:08.449021337Z stderr F ", "2026-02-09T17:21:08.449021337Z", "stderr"),
        ("2026-02-10T01:21:08.449+08:00 stdout P ", "2026-02-10T01:21:08.449+08:00", "stdout"),
        (
            "2026-02-09T17:21:08.449021+00:00 npu-host-3 python3[7720]: ",
            "2026-02-09T17:21:08.449021+00:00",
            "npu-host-3 python3[7720]",
        ),
    ],
    ids=["kubectl-timestamps", "cri-whole", "cri-part", "rsyslog"],
)
def test_a_collectors_zoned_time(prefix, stamp, writer):
    line = peeled(peel_collector_time, prefix + OWN)
    assert line is not None
    assert (line.message, line.tags["collector_time"], line.stream_key) == (OWN, stamp, writer)


def test_rsyslog_names_the_host_and_pid():
    line = peeled(
        peel_collector_time, f"2026-02-09T17:21:08.449021+00:00 npu-host-3 python3[7720]: {OWN}"
    )
    assert line is not None
    assert (line.tags["host"], line.pid) == ("npu-host-3", 7720)


def test_jenkins_timestamper_brackets_the_time():
    line = peeled(peel_bracketed_time, f"[2026-02-09T17:21:08.449Z] {OWN}")
    assert line is not None
    assert (line.message, line.tags["collector_time"]) == (OWN, "2026-02-09T17:21:08.449Z")


def test_a_bracketed_time_without_a_zone_is_the_programs_own():
    assert peeled(peel_bracketed_time, "[2026-02-09 17:21:08,449] [ERROR] [engine.py:88] x") is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (f"2026-02-10T01:21:08.449021 {OWN}", True),
        ("2026-02-10T01:21:08 norm passed", True),
        # a program's logging header opens with the same time: a level follows
        ("2026-02-10T01:21:08.449021 ERROR trainer: NaN in grad", False),
        ("2026-02-10T01:21:08.449021 - trainer - ERROR - NaN in grad", False),
        ("2026-02-10T01:21:08 [rank3] INFO step 20", False),
        # vLLM's header keeps its own time after the level: the stamp is `ts`'s
        ("2026-02-10T01:21:08.449021 ERROR 02-10 01:21:08 [core.py:515] EngineCore failed", True),
    ],
    ids=["rank-tag", "plain-words", "level-logger", "dash-logger", "rank-level", "vllm"],
)
def test_moreutils_ts_with_an_iso_time_and_no_zone(text, kept):
    line = peeled(peel_ts_local_iso, text)
    assert (line is not None) == kept
    if line is not None:
        assert line.tags["collector_time"] == text.split(" ")[0]
        assert line.stream_key == ""


@pytest.mark.parametrize(
    ("text", "stamp", "message"),
    [
        (f"2026-02-10 01:21 {OWN}", "2026-02-10 01:21", OWN),
        (f" 2026-02-10 01:21:08 {OWN}", "2026-02-10 01:21:08", OWN),
        (f"01:21:08.449 {OWN}", "01:21:08.449", OWN),
        (
            "2026-02-10 01:21:08 WARNING:filelock:Lock 140213 not released",
            "2026-02-10 01:21:08",
            "WARNING:filelock:Lock 140213 not released",
        ),
    ],
    ids=["minutes", "leading-space", "time-of-day", "logging-default"],
)
def test_a_platforms_local_time_before_another_writers_line(text, stamp, message):
    line = peeled(peel_local_collector_time, text)
    assert line is not None
    assert (line.tags["collector_time"], line.message) == (stamp, message)


def test_a_local_time_before_a_level_is_the_programs_own_header():
    assert peeled(peel_local_collector_time, "2026-02-10 01:21:08 ERROR NaN in grad") is None


def test_the_journal_names_host_program_and_pid():
    line = peeled(peel_journal, f"Feb 10 01:21:08 npu-host-3 python3[7720]: {OWN}")
    assert line is not None
    assert line.message == OWN
    assert line.tags["collector_time"] == "Feb 10 01:21:08"
    assert (line.tags["host"], line.pid, line.stream_key) == (
        "npu-host-3",
        7720,
        "npu-host-3 python3[7720]",
    )


def test_a_level_word_in_the_journals_host_place_is_no_host():
    line = peeled(peel_journal, "Feb 10 01:21:08 INFO root: loading weights")
    assert line is not None
    assert "host" not in line.tags


def test_a_count_after_moreutils_ts_time_is_no_journal_program():
    assert peeled(peel_journal, "Feb 10 01:21:08 step 12: loss 0.3071") is None


def test_the_journal_is_tried_only_after_a_months_initial():
    assert {month[0] for month in ("Jan", "Feb", "Mar", "Sep", "Oct", "Dec")} <= MONTH_INITIALS
    assert not {"E", "[", "("} & MONTH_INITIALS


@pytest.mark.parametrize(
    ("prefix", "rank", "writer"),
    [
        ("[2026-02-09T17:21:08.449021Z] 7c1e40ab [rank=5] || ", 5, "7c1e40ab[rank=5]"),
        ("[2026-02-09T17:21:08.449021Z] 7c1e40ab || ", None, "7c1e40ab[rank=]"),
    ],
    ids=["trainer", "launcher"],
)
def test_a_schedulers_trial_log(prefix, rank, writer):
    line = peeled(peel_scheduler_trial, prefix + "WARNING:torch.distributed.run: setting OMP")
    assert line is not None
    assert (line.rank, line.stream_key) == (rank, writer)
    assert line.tags["collector_time"] == "2026-02-09T17:21:08.449021Z"


def test_a_model_servers_relayed_worker_line_drops_the_relays_level():
    text = (
        "2026-02-10T01:21:08,118 [WARN ] W-9003-llama_2.0-stderr MODEL_LOG - "
        "RuntimeError: NPU function error: aclrtMalloc, error code is 207001"
    )
    line = peeled(peel_model_server_relay, text)
    assert line is not None
    assert line.message == "RuntimeError: NPU function error: aclrtMalloc, error code is 207001"
    assert line.stream_key == "W-9003-llama_2.0-stderr"
    assert line.tags["collector_time"] == "2026-02-10T01:21:08,118"
    assert line.level is None


def test_a_model_servers_own_record_is_not_a_relay():
    text = "2026-02-10T01:21:08,118 [ERROR] W-9003-llama_2.0 org.pytorch.serve.wlm.WorkerThread - x"
    assert peeled(peel_model_server_relay, text) is None
