"""Collector prefixes on every line, written as the tools write them: a container runtime's log
file (CRI), `kubectl logs --prefix` (with and without `--timestamps`) and rsyslog's
high-precision file format. Each is peeled like the prefixes `formats.wrappers` already knew:
the line behind it reads as it would alone, the prefix names the writer, and its time is kept
like a collector's."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.outer_prefix import OUTER, match_behind

LINE = "[rank3]: RuntimeError: CUDA error: an illegal memory access was encountered"


@pytest.mark.parametrize(
    ("prefixed", "writer", "collected"),
    [
        # containerd / CRI-O: /var/log/pods/<ns>_<pod>_<uid>/<container>/0.log
        (
            f"2025-03-02T08:14:51.120334567Z stderr F {LINE}",
            "stderr",
            "2025-03-02T08:14:51.120334567Z",
        ),
        (
            f"2025-03-02T16:14:51.12033+08:00 stdout F {LINE}",
            "stdout",
            "2025-03-02T16:14:51.12033+08:00",
        ),
        # kubectl logs --prefix, then with --timestamps as well
        (f"[pod/trainer-worker-0/pytorch] {LINE}", "[pod/trainer-worker-0/pytorch]", None),
        (
            f"[pod/trainer-worker-0/pytorch] 2025-03-02T08:14:51.120334567Z {LINE}",
            "[pod/trainer-worker-0/pytorch]",
            "2025-03-02T08:14:51.120334567Z",
        ),
        # rsyslog's RSYSLOG_FileFormat (Debian/Ubuntu /var/log/syslog)
        (
            f"2025-03-02T08:14:51.120334+00:00 gpu-node-07 python3[4121]: {LINE}",
            "gpu-node-07 python3[4121]",
            "2025-03-02T08:14:51.120334+00:00",
        ),
        # Jenkins' Timestamper: the time each line reached the console, in brackets, in UTC
        (f"[2025-03-02T08:14:51.120Z] {LINE}", "", "2025-03-02T08:14:51.120Z"),
        (f"[2025-03-02T16:14:51+08:00] {LINE}", "", "2025-03-02T16:14:51+08:00"),
    ],
)
def test_a_collectors_prefix_is_peeled(prefixed, writer, collected):
    line = parse_line(prefixed)
    plain = parse_line(LINE)
    assert line.message == plain.message
    assert line.rank == 3
    assert line.stream_key.startswith(writer)
    assert line.tags.get("collector_time") == collected
    assert line.collected == (collected is not None)


def test_rsyslog_names_the_pid():
    line = parse_line(f"2025-03-02T08:14:51.120334+00:00 gpu-node-07 python3[4121]: {LINE}")
    assert line.pid == 4121


@pytest.mark.parametrize(
    "text",
    [
        # a program's own header after a collector's time: a level and a logger, no pid
        "2025-03-02T08:14:51.120334Z INFO root: loading weights",
        # a word that only starts like a stream
        "2025-03-02T08:14:51.120334Z stdoutput F ok",
        # a bracketed path that is not kubectl's
        "[pods/trainer-0/pytorch] starting",
    ],
)
def test_lookalikes_stay_the_programs_own(text):
    line = parse_line(text)
    assert line.stream_key == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Rust's env_logger: the time, the level and the target share the brackets
        (
            "[2025-03-02T08:14:51Z ERROR trainer] loading weights failed",
            "[2025-03-02T08:14:51Z ERROR trainer] loading weights failed",
        ),
        # DeepSpeed's logger: a local time with no zone, then its own level and place
        (
            "[2025-03-02 08:14:51,120] [ERROR] [engine.py:88:step] loading weights failed",
            "[engine.py:88:step] loading weights failed",
        ),
    ],
)
def test_a_programs_own_bracketed_time_is_no_collectors(text, message):
    line = parse_line(text)
    assert "collector_time" not in line.tags
    assert line.message == message


@pytest.mark.parametrize(
    "prefix",
    [
        b"2025-03-02T08:14:51.120334567Z stderr F ",
        b"2025-03-02T08:14:51.120334567Z stdout P ",
        b"[pod/trainer-worker-0/pytorch] ",
        b"[pod/trainer-worker-0/pytorch] 2025-03-02T08:14:51.120334567Z ",
        b"2025-03-02T08:14:51.120334+00:00 gpu-node-07 python3[4121]: ",
        b"[2025-03-02T08:14:51.120Z] ",
    ],
)
def test_raw_readers_see_past_the_prefix(prefix):
    found = re.match(OUTER + rb"\[default1\]:", prefix + b"[default1]:[rank3]: x")
    assert found is not None


@pytest.mark.parametrize(
    ("prefixed", "writer"),
    [
        # nektos/act, a step's output without a terminal: the job's name, three spaces, a bar
        (f"[CI/train]   | {LINE}", "[CI/train]"),
        # on a terminal act writes the bar alone in the job's colour (ESC[34m|ESC[0m), which
        # reaches the parser as `| ` once the colour codes are dropped
        (f"| {LINE}", ""),
    ],
)
def test_a_ci_runners_step_prefix_is_peeled(prefixed, writer):
    line = parse_line(prefixed)
    assert line.message == parse_line(LINE).message
    assert line.rank == 3
    assert line.stream_key.startswith(writer)


def test_a_plog_thread_id_before_a_tables_bar_is_no_ci_step():
    """act names a step by its workflow and job; HCCL writes its thread id in brackets and
    may draw a table after it, three blanks on."""
    line = parse_line(
        "[ERROR] HCCL(59420,python3):2025-01-24-11:24:07.908.539 [comm_base.cc:969][107626]   "
        "|  dest_ip(rank_id)  |  src_ip(rank_id)   |   Role   |   Status   |"
    )
    assert line.level == "ERROR"
    assert line.stream_key == ""
    assert line.message.startswith("[107626]   |  dest_ip(rank_id)")


def test_a_tables_row_keeps_its_bar():
    row = "| 0     910B3               | OK            | 93.4        40                0    / 0  |"
    assert parse_line(row).message == row


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # moreutils' `ts` (default format) before a line that counts something: no journal's host
        # and program, so the count stays the line's own
        ("Mar 02 08:14:51 layer 2: norm done", "layer 2: norm done"),
        ("Mar 02 08:14:51 step 12: loss 0.31", "step 12: loss 0.31"),
        # the journal itself still names its host and program
        ("Mar 02 08:14:51 node7 python3[4121]: layer 2: norm done", "layer 2: norm done"),
    ],
)
def test_ts_before_a_counted_line_is_no_journal(text, message):
    assert parse_line(text).message == message


@pytest.mark.parametrize(
    "stamp",
    [
        "2026-03-01T10:22:33.120334",  # ts '%Y-%m-%dT%H:%M:%.S'
        "2026-03-01T10:22:33",  # ts '%FT%T'
        "2026-03-01T10:22:33+0800",  # ts '%FT%T%z'
    ],
)
def test_ts_with_an_iso_time_is_peeled(stamp):
    line = parse_line(f"{stamp} {LINE}")
    assert line.message == parse_line(LINE).message
    assert line.rank == 3
    assert line.stream_key == "[rank3]:"
    assert line.tags["collector_time"] == stamp
    assert line.collected


@pytest.mark.parametrize(
    ("text", "stamped"),
    [
        # the CANN runtime's record and a glog line keep their own headers behind the stamp
        (
            "[ERROR] RUNTIME(4121,python3):2026-03-01-10:22:33.120.334 [stream.cc:1043]4121 "
            "SyncStream: Stream synchronize failed",
            "2026-03-01T10:22:33.120334 ",
        ),
        (
            "[ERROR] TSCH(-1,null):2023-06-10-13:16:11.401.438 11 (dieid:0,cpuid:0) "
            "hwts_plat.c:1931 int_process_hwts_timeout_exception: hwts timeout",
            "2026-03-01T10:22:33.120334 ",
        ),
        (
            "[ERROR] 2025-05-16-20:08:19 (PID:9649388, Device:2, RankID:2) ERR00100 PTA call acl "
            "api failed",
            "2026-03-01T10:22:33.120334 ",
        ),
        (
            "E1203 10:22:33.123456 12345 ProcessGroupNCCL.cpp:1663] Check failed: x",
            "2026-03-01T10:22:33 ",
        ),
        # vLLM's level is followed by its own time, so the stamp before it is ts's
        ("ERROR 10-10 09:15:47 [core.py:815] EngineCore failed to start.", "2026-03-01T10:22:33 "),
        # logging's basicConfig record has no time of its own
        ("ERROR:root:loading weights failed", "2026-03-01T10:22:33.120334 "),
    ],
    ids=["cann-runtime", "cann-tsch", "torch_npu", "glog", "vllm", "basicConfig"],
)
def test_a_line_behind_an_iso_ts_stamp_reads_as_it_would_alone(text, stamped):
    line, plain = parse_line(stamped + text), parse_line(text)
    assert (line.message, line.level, line.source) == (plain.message, plain.level, plain.source)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # a program's own logging header opens with the same time, then its level
        (
            "2026-03-01T10:22:33.123 ERROR root: loading weights failed",
            "root: loading weights failed",
        ),
        (
            "2026-03-01T10:22:33.123456 - trainer - ERROR - loading weights failed",
            "loading weights failed",
        ),
        ("2026-03-01T10:22:33.123 [rank3] INFO layer 0 passed", "layer 0 passed"),
        ("2026-03-01T10:22:33.123 pid=17350 INFO layer 0 passed", "layer 0 passed"),
    ],
)
def test_a_programs_own_iso_time_stays_its_header(text, message):
    line = parse_line(text)
    assert line.message == message
    assert line.level in ("ERROR", "INFO")
    assert not line.collected


@pytest.mark.parametrize(
    "prefix",
    [
        b"2026-03-01T10:22:33.120334 ",
        b"2026-03-01T10:22:33+0800 ",
        b"[CI/train]   | ",
        b"\x1b[34m|\x1b[0m ",
        b"Mar 02 08:14:51 ",  # moreutils' ts
    ],
)
def test_raw_readers_see_past_a_ci_step_or_ts(prefix):
    assert re.match(OUTER + rb"\[default1\]:", prefix + b"[default1]:[rank3]: x") is not None


@pytest.mark.parametrize(
    "text",
    [
        "[default1]:[rank3]: RuntimeError: x",
        "trainer-1  | [default1]:[rank3]: RuntimeError: x",
        "2025-03-02T08:14:51.120334567Z stderr F [default1]:[rank3]: RuntimeError: x",
        "[pod/trainer-0/pytorch] [default1]:[rank3]: RuntimeError: x",
        "| [default1]:[rank3]: RuntimeError: x",  # act's coloured bar, colours dropped
    ],
)
def test_a_tag_is_found_behind_a_collectors_prefix(text):
    tag = re.compile(r"\[default(\d+)\]:\[rank(\d+)\]: ")
    found = match_behind(tag, text, ("[default",))
    assert found is not None
    assert found.groups() == ("1", "3")


def test_a_tag_inside_a_programs_own_words_is_not_behind_a_prefix():
    tag = re.compile(r"\[default(\d+)\]:")
    assert match_behind(tag, "copied from [default1]: the launcher", ("[default",)) is None


@pytest.mark.parametrize(
    ("text", "host"),
    [
        # the journal (`journalctl -u train`) and a copy of /var/log/syslog
        ("Dec 07 00:12:01 node-3 python3[4121]: [rank5]: RuntimeError: boom", "node-3"),
        ("Dec  7 00:12:01 gpu-node-07 torchrun[88]: [default1]:layer 0 passed", "gpu-node-07"),
        # rsyslog's high-precision file format
        ("2026-12-07T00:12:01.120334+00:00 cn-0418 python3[4121]: [rank5]: boom", "cn-0418"),
        # pdsh relaying a host's journal: the label inside names where the line began
        ("Dec 07 00:12:01 login-1 pdsh[900]: node-3: [rank5]: boom", "node-3"),
        # moreutils' `ts` before a program's own level and logger is no journal's host
        ("Dec 07 00:12:01 INFO root: layer 0 passed", None),
    ],
)
def test_the_journal_names_the_host_a_line_was_logged_on(text, host):
    assert parse_line(text).tags.get("host") == host
