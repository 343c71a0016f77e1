"""Peeling the prefixes around a process's line (`formats.wrappers.strip_wrappers`): they
nest, so they are taken off outermost first, each recording what it says."""

from __future__ import annotations

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.wrappers import strip_wrappers

OWN = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 4; 60.97 GiB total)"


def stripped(text: str) -> ParsedLine:
    line = ParsedLine(text=text, message=text)
    strip_wrappers(line)
    return line


def test_a_plain_line_is_left_as_it_is():
    line = stripped(OWN)
    assert (line.message, line.stream_key, line.tags, line.rank) == (OWN, "", {}, None)


def test_nested_prefixes_come_off_outermost_first():
    line = stripped(
        "2026-06-02T03:11:40.211Z [pod/grpo-trainer-1/main] npu-node-12: [rank12]: " + OWN
    )
    assert line.message == OWN
    assert line.tags["collector_time"] == "2026-06-02T03:11:40.211Z"
    assert line.tags["host"] == "npu-node-12"
    assert line.rank == 12
    assert line.stream_key == "[pod/grpo-trainer-1/main]npu-node-12:[rank12]:"


def test_a_ray_workers_line_in_a_ci_step_behind_a_quote():
    line = stripped(f"> [CI/e2e]   | (Worker_DP0_TP4 pid=51302) {OWN}")
    assert line.message == OWN
    assert (line.pid, line.rank) == (51302, 4)
    assert line.stream_key == ">[CI/e2e](Worker_DP0_TP4 51302)"


def test_a_journal_line_from_srun_tasks():
    line = stripped(f"Jun 02 03:11:40 npu-node-12 srun[9921]:  5: {OWN}")
    assert line.message == OWN
    assert line.tags["host"] == "npu-node-12"
    assert line.tags["worker"] == "srun:task=5"
    assert line.pid == 9921


def test_a_viewers_table_row_is_read_before_its_cells():
    line = stripped(f"| 2026-06-02 03:11:40.211 | [rank3]: {OWN} |")
    assert line.message == OWN
    assert line.rank == 3
    assert line.tags["collector_time"] == "2026-06-02 03:11:40.211"


def test_at_most_six_prefixes_are_peeled():
    line = stripped("> " * 8 + OWN)
    assert line.message == "> > " + OWN


def test_rays_repeat_count_goes_after_the_prefixes():
    line = stripped(f"(Worker_DP0_TP1 pid=51299) {OWN} [repeated 3x across cluster]")
    assert line.message == OWN


@pytest.mark.parametrize(
    "text",
    [
        # a program's own logging header after a time of day
        "2026-06-02 03:11:40,211 - trainer - ERROR - " + OWN,
        # a counter of the program's own, in pdsh's shape
        "step12: loss 2.113",
        # glog's level letter
        "E0602 03:11:40.211302 51302 socket.cpp:922] [c10d] connect failed",
    ],
    ids=["logging-header", "counter", "glog"],
)
def test_a_programs_own_header_is_not_a_prefix(text):
    assert stripped(text).message == text
