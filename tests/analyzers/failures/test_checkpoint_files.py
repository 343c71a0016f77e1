"""Checkpoint files a resume cannot use: a shard or metadata file that is not there, and an
archive whose tensor records are not what was saved. docs/labelling.md#a-checkpoint-file-that-is-not-there
"""

from __future__ import annotations

import pytest

from tests.analyzers.excerpts import diagnose_text


@pytest.mark.parametrize(
    "line",
    [
        "[rank2]: FileNotFoundError: [Errno 2] No such file or directory: "
        "'/ckpt/run7/model_tp02-of-04.pt'",
        "2026-12-04 10:00:00,123 [rank5] ERROR resume failed: [Errno 2] No such file or "
        "directory: '/shared/ckpt/iter_0001000/mp_rank_05/model_optim_rng.pt'",
        "AssertionError: metadata is None; global metadata read failed: [Errno 2] No such file "
        "or directory: '/ckpt/step200/.metadata'; rank local metadata read failed: [Errno 2] No "
        "such file or directory: '/ckpt/step200/__0.metadata'",
    ],
)
def test_a_missing_checkpoint_file_is_the_checkpoint(line: str) -> None:
    diagnosis = diagnose_text("log_2.log", line + "\n")
    assert diagnosis.category == "weight_load"
    assert "config" in [alt.category for alt in diagnosis.alternatives]
    assert diagnosis.first_error is not None
    assert "No such file or directory" in diagnosis.first_error.text


def test_a_missing_config_file_stays_the_jobs_setting() -> None:
    line = (
        "FileNotFoundError: [Errno 2] No such file or directory: '/models/x/parallel_config.json'"
    )
    assert diagnose_text("log_2.log", line + "\n").category == "config"


def test_a_tensor_record_of_another_size_is_an_unreadable_checkpoint() -> None:
    """All ranks saved to one path at once; the verifying load finds a record longer than
    the tensor its pickle describes."""
    text = (
        "verifying checkpoint /ckpt/model_latest.pt\n"
        "[rank0]: RuntimeError: record size (6400000 bytes) does not match expected size "
        "(1600000 bytes = 1600000 elements * 1 bytes/element) for dtype Byte\n"
    )
    diagnosis = diagnose_text("log_0.log", text)
    assert diagnosis.category == "weight_load"
    assert diagnosis.first_error is not None
    assert "record size (6400000 bytes)" in diagnosis.first_error.text
