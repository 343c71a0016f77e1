"""The tags launchers and multiplexers put before each process's line
(`formats.launcher_tags`): each names the writer, and some the rank or the host."""

from __future__ import annotations

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.launcher_tags import (
    peel_ci_bar,
    peel_ci_step,
    peel_compose,
    peel_host,
    peel_kubectl,
    peel_mpi_tag,
    peel_srun_label,
    peel_stage_tag,
    peel_torchrun,
)

OWN = "RuntimeError: HCCL AllGather timed out after 1800000 ms"


def peeled(peel, text: str) -> ParsedLine | None:
    """The line after `peel`, or None when the peeler left it alone."""
    line = ParsedLine(text=text, message=text)
    return line if peel(line, text) else None


def test_torchs_rank_tag_names_the_global_rank():
    line = peeled(peel_torchrun, f"[rank11]: {OWN}")
    assert line is not None
    assert (line.rank, line.local_rank, line.stream_key, line.message) == (
        11,
        None,
        "[rank11]:",
        OWN,
    )


@pytest.mark.parametrize(("tag", "local_rank"), [("[default6]:", 6), ("[trainer2]:", 2)])
def test_torchruns_tag_names_the_local_rank(tag, local_rank):
    line = peeled(peel_torchrun, f"{tag}{OWN}")
    assert line is not None
    assert (line.rank, line.local_rank, line.message) == (None, local_rank, OWN)


def test_torchs_rank_replaces_the_rank_mpi_gave_the_launching_process():
    line = peeled(peel_mpi_tag, f"[1,2]<stderr>:[rank10]: {OWN}")
    assert line is not None
    assert (line.rank, line.tags["mpi_rank"]) == (2, "2")
    assert peel_torchrun(line, line.message)
    assert line.rank == 10
    assert "mpi_rank" not in line.tags
    assert line.stream_key == "[1,2]<stderr>:[rank10]:"


@pytest.mark.parametrize(
    ("text", "writer", "worker", "message"),
    [
        (f" 3: {OWN}", "srun3:", "srun:task=3", OWN),
        (f"12: {OWN}", "srun12:", "srun:task=12", OWN),
        # a frame keeps its indent of whole pairs of spaces
        (
            '3:   File "/srv/job/train.py", line 40, in main',
            "srun3:",
            "srun:task=3",
            '  File "/srv/job/train.py", line 40, in main',
        ),
        # an empty line of the task
        ("3:", "srun3:", "srun:task=3", ""),
        # one space of indent, or grep -n before two: the number goes (the spaces stay), no
        # writer is named
        ("3:  norm passed", "", "srun:task=3", "  norm passed"),
    ],
    ids=["padded", "two-digits", "frame", "empty", "odd-indent"],
)
def test_srun_label(text, writer, worker, message):
    line = peeled(peel_srun_label, text)
    assert line is not None
    assert (line.stream_key, line.tags["worker"], line.message) == (writer, worker, message)
    assert line.rank is None


def test_a_time_of_day_is_no_srun_label():
    assert peeled(peel_srun_label, "12:30:01 step 4 done") is None


@pytest.mark.parametrize(
    ("label", "host"),
    [("gpu-node-07", "gpu-node-07"), ("10.20.0.5", "10.20.0.5"), ("worker3", "worker3")],
)
def test_pdsh_names_the_host(label, host):
    line = peeled(peel_host, f"{label}: [rank2]: {OWN}")
    assert line is not None
    assert (line.tags["host"], line.stream_key, line.message) == (
        host,
        f"{label}:",
        f"[rank2]: {OWN}",
    )


@pytest.mark.parametrize("text", ["layer3: norm passed", "req-7: prefill done", "step12: loss 2.1"])
def test_a_programs_own_counter_is_no_host(text):
    assert peeled(peel_host, text) is None


def test_kubectl_prefix_names_pod_and_container():
    line = peeled(peel_kubectl, f"[pod/sft-worker-1/pytorch] {OWN}")
    assert line is not None
    assert (line.stream_key, line.message) == ("[pod/sft-worker-1/pytorch]", OWN)


def test_a_ci_step_names_the_job():
    line = peeled(peel_ci_step, f"[Nightly/npu-smoke]   | {OWN}")
    assert line is not None
    assert (line.stream_key, line.message) == ("[Nightly/npu-smoke]", OWN)


def test_a_bracketed_thread_id_is_no_ci_job():
    assert peeled(peel_ci_step, "[107626]   | 0 | 910B |") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [(f"| {OWN}", OWN), ("| ", "")],
    ids=["line", "blank-line"],
)
def test_a_ci_runners_bare_bar_names_no_writer(text, message):
    line = peeled(peel_ci_bar, text)
    assert line is not None
    assert (line.stream_key, line.message) == ("", message)


def test_a_table_row_keeps_its_bars():
    assert peeled(peel_ci_bar, "| 0     910B3  | OK            | 95.1  |") is None


def test_docker_compose_names_the_service():
    line = peeled(peel_compose, f"trainer-1   | {OWN}")
    assert line is not None
    assert (line.stream_key, line.message) == ("trainer-1   |", OWN)


def test_a_stage_tag_names_the_stage():
    line = peeled(peel_stage_tag, "[Stage-1] INFO 03-04 10:12:09 [gpu_worker.py:88] ready")
    assert line is not None
    assert (line.stream_key, line.message) == (
        "[Stage-1]",
        "INFO 03-04 10:12:09 [gpu_worker.py:88] ready",
    )


def test_a_stage_counter_in_words_is_no_stage_tag():
    assert peeled(peel_stage_tag, "[Stage 2/4] building engine") is None
