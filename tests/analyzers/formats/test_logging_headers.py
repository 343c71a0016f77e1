"""The logging headers the common frameworks write, read into the time, level and rank they
carry; the message is what follows the header."""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats import pylogging
from analyzers.formats.lines import parse_line
from analyzers.formats.logging_headers import HEADERS


@pytest.mark.parametrize(
    ("text", "level", "rank", "message"),
    [
        pytest.param(
            "[gpu-node-2:3/8] 2025-06-03 09:13:02,116 (trainer:617) WARNING: The grad norm is nan.",
            "WARNING",
            3,
            "The grad norm is nan.",
            id="espnet host and rank over world size",
        ),
        pytest.param(
            "submitit INFO (2026-12-04 19:00:48,994) - Starting with JobEnvironment(job_id=1)",
            "INFO",
            None,
            "Starting with JobEnvironment(job_id=1)",
            id="submitit time in parentheses",
        ),
        pytest.param(
            "[WARNING|trainer.py:1021] 2026-12-04 10:11:12,345 >> grad overflow",
            "WARNING",
            None,
            "grad overflow",
            id="transformers level and file in one bracket",
        ),
        pytest.param(
            "[2026-12-04 19:46:19.112: C smp/torch/worker.py:110] [17] Hit an exception",
            "CRITICAL",
            17,
            "Hit an exception",
            id="sagemaker letter C and the rank after",
        ),
        pytest.param(
            "INFO 2026-12-06 05:42:42.726 rank6 train:73] layer 2 passed",
            "INFO",
            6,
            "layer 2 passed",
            id="glog order with a rank word",
        ),
        pytest.param(
            "2026-12-05 21:58:30,587 [local_rank0] ERROR model run failed: boom",
            "ERROR",
            None,
            "model run failed: boom",
            id="a local rank tag is no rank",
        ),
        pytest.param(
            "[2026-12-04 15:30:16.361] rank 5: model run failed: boom",
            None,
            5,
            "model run failed: boom",
            id="a job's own print with its rank label and no level",
        ),
        pytest.param(
            "2026-12-07 23:58:24,863 INFO node1 rank4 train:   norm passed",
            "INFO",
            4,
            "  norm passed",
            id="a multi-node format: host and rank words after the level, then the logger",
        ),
        pytest.param(
            "2026-12-07 23:58:25,389 ERROR gpu-n02 rank 5 trainer.loop: step 2 failed",
            "ERROR",
            5,
            "step 2 failed",
            id="the host's own name and a dotted logger after the rank",
        ),
    ],
)
def test_a_frameworks_header_gives_level_rank_and_message(text, level, rank, message):
    line = parse_line(text)
    assert line.source == pylogging.NAME
    assert (line.level, line.rank, line.message) == (level, rank, message)


def test_the_header_time_is_the_records_own():
    line = parse_line("12/04/2026 10:11:12 - ERROR - __main__ - model run failed")
    assert line.time == datetime(2026, 12, 4, 10, 11, 12)
    assert line.level == "ERROR"


def test_vllm_and_sglang_headers_keep_their_own_names_and_worker_tags():
    vllm = parse_line(
        "(VllmWorkerProcess pid=3802570) ERROR 07-19 22:15:30 multiproc_worker_utils.py:725] boom"
    )
    sglang = parse_line("[2025-05-14 09:12:40 DP1 TP3 EP3] Scheduler hit an exception: boom")
    assert (vllm.source, vllm.message) == (pylogging.VLLM, "boom")
    assert (sglang.source, sglang.tags["worker"]) == (pylogging.SGLANG, "sglang:DP1_TP3_EP3")


def test_the_renderers_headers_stand_in_the_table():
    assert HEADERS[:2] == pylogging.OWN_STAMP_PEELED_FIRST
    assert pylogging.LOGFMT_ANY_ORDER in HEADERS


def test_a_word_before_the_rank_that_names_no_host_is_the_message():
    """Only a host word with a digit in it (`node1`, `gpu-n02`) opens the multi-node header:
    `model rank 3 failed:` is a sentence, and its words stay in the message."""
    line = parse_line("2026-12-07 23:58:25,389 ERROR model rank 3 failed: bad shard")
    assert line.message == "model rank 3 failed: bad shard"
