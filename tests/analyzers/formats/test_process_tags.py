"""The tags Ray, vLLM and cloud launchers put before their processes' lines
(`formats.process_tags`): the process is the writer, and a worker's name may say its rank."""

from __future__ import annotations

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.process_tags import (
    drop_repeat_count,
    peel_bare_process_tag,
    peel_node_tag,
    peel_process_tag,
    peel_ray_daemon,
)

OWN = "ERROR 04-21 16:03:12 [multiproc_executor.py:146] RuntimeError: NPU out of memory."


def peeled(peel, text: str) -> ParsedLine | None:
    """The line after `peel`, or None when the peeler left it alone."""
    line = ParsedLine(text=text, message=text)
    return line if peel(line, text) else None


def test_a_vllm_workers_tag_names_the_process_and_its_rank():
    line = peeled(peel_process_tag, f"(Worker_DP0_TP3 pid=88362) {OWN}")
    assert line is not None
    assert line.message == OWN
    assert (line.pid, line.rank, line.stream_key) == (88362, 3, "(Worker_DP0_TP3 88362)")
    assert line.tags == {
        "process": "Worker_DP0_TP3",
        "process_pid": "88362",
        "worker": "vllm:DP0_TP3",
    }


def test_a_tp_index_alone_leaves_the_rank_to_the_whole_bundle():
    line = peeled(peel_process_tag, f"(Worker_TP3 pid=88362) {OWN}")
    assert line is not None
    assert (line.tags["worker"], line.rank) == ("vllm:TP3", None)


def test_a_tag_with_an_address_and_no_known_name_keeps_the_process_only():
    line = peeled(peel_process_tag, f"(RolloutActor pid=4121, ip=10.0.7.3) {OWN}")
    assert line is not None
    assert (line.pid, line.rank, line.stream_key) == (4121, None, "(RolloutActor 4121)")
    assert "worker" not in line.tags


def test_a_name_a_paste_split_in_two_is_read_whole():
    line = peeled(peel_process_tag, f"(EngineCore _DP1 pid=274) {OWN}")
    assert line is not None
    assert line.tags["process"] == "EngineCore _DP1"
    assert line.tags["worker"] == "vllm_engine:DP1"


def test_behind_open_mpis_tag_the_workers_own_rank_decides():
    line = ParsedLine(text="", message="", rank=0, tags={"mpi_rank": "0"})
    text = f"(Worker_DP0_TP6 pid=90101) {OWN}"
    assert peel_process_tag(line, text)
    assert line.rank == 6


def test_an_unnamed_ray_workers_tag_gives_the_pid():
    line = peeled(peel_bare_process_tag, f"(pid=40211, ip=10.0.7.3) {OWN}")
    assert line is not None
    assert (line.pid, line.stream_key, line.message) == (40211, "(pid 40211)", OWN)


@pytest.mark.parametrize(
    ("tag", "name", "node_rank", "pid"),
    [
        ("(head, rank=0, pid=5634) ", "head", "0", 5634),
        ("(worker3, rank=3, pid=4888, ip=10.60.0.4) ", "worker3", "3", 4888),
    ],
)
def test_a_cloud_launchers_node_tag_names_no_rank_of_the_job(tag, name, node_rank, pid):
    line = peeled(peel_node_tag, tag + OWN)
    assert line is not None
    assert (line.tags["process"], line.tags["node_rank"], line.pid) == (name, node_rank, pid)
    assert line.rank is None
    assert line.message == OWN


@pytest.mark.parametrize("tag", ["(raylet) ", "(gcs_server, ip=10.0.7.1) "])
def test_rays_own_daemons_are_writers(tag):
    line = peeled(peel_ray_daemon, tag + "[2026-04-21 16:03:12,118 E 311 311] node_manager.cc:1024")
    assert line is not None
    assert line.stream_key == tag.strip()
    assert line.message.startswith("[2026-04-21 16:03:12,118 E 311 311]")


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "RuntimeError: NPU out of memory. [repeated 7x across cluster]",
            "RuntimeError: NPU out of memory.",
        ),
        ("loss 0.21 [cluster]", "loss 0.21 [cluster]"),
    ],
)
def test_rays_count_of_folded_copies_goes(message, kept):
    line = ParsedLine(text=message, message=message)
    drop_repeat_count(line)
    assert line.message == kept
