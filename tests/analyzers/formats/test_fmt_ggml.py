"""llama.cpp's logger (`formats.ggml`): a level letter after the time since the process
started, or after a bracketed wall-clock time (llama-box and other servers built on it)."""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats import ggml
from analyzers.formats.lines import parse_line


@pytest.mark.parametrize(
    ("line", "level", "message"),
    [
        (
            "0.01.208.554 E llama_model_load: error loading model: tensor 'blk.31.ffn_up.weight'"
            " data is not within the file bounds",
            "ERROR",
            "llama_model_load: error loading model: tensor 'blk.31.ffn_up.weight' data is not"
            " within the file bounds",
        ),
        (
            "12.44.903.117 W srv  update_slots: slot 2 context shift is disabled",
            "WARNING",
            "srv  update_slots: slot 2 context shift is disabled",
        ),
        (
            "7.02.000.481 I srv  log_server_request: rid 8812 | POST /v1/completions",
            "INFO",
            "srv  log_server_request: rid 8812 | POST /v1/completions",
        ),
        (
            "0.00.015.330 D ggml_backend_load_best: searching for backends in /opt/llama/lib",
            "DEBUG",
            "ggml_backend_load_best: searching for backends in /opt/llama/lib",
        ),
    ],
    ids=["error", "warning", "info", "debug"],
)
def test_the_elapsed_form_gives_level_and_message(line, level, message):
    parsed = parse_line(line)
    assert (parsed.source, parsed.level, parsed.message) == (ggml.NAME, level, message)


def test_the_elapsed_time_is_no_time_of_day():
    parsed = parse_line("3.17.226.090 E mtmd_init_from_file: clip model failed to load")
    assert parsed.time is None


def test_the_bracketed_form_gives_the_wall_clock_time():
    parsed = parse_line(
        "[2025-11-04 09:31:27.118204] E srv  load_model: failed to load model, '/models/q4.gguf'"
    )
    assert parsed.source == ggml.NAME
    assert parsed.level == "ERROR"
    assert parsed.time == datetime(2025, 11, 4, 9, 31, 27, 118204)
    assert parsed.message == "srv  load_model: failed to load model, '/models/q4.gguf'"


def test_an_error_letter_marks_a_check_with_no_error_word():
    parsed = parse_line(
        "0.02.311.675 E load_model: multimodal projector embedding length is not equal to the model"
    )
    assert parsed.level == "ERROR"


@pytest.mark.parametrize(
    "line",
    [
        # another letter than I, W, E or D
        "0.01.208.554 X llama_model_load: loaded meta data",
        # a version number in a sentence, not at the line's start
        "running llama.cpp 0.01.208.554 E build",
        # the bracketed time without its microseconds
        "[2025-11-04 09:31:27] E srv  load_model: failed",
    ],
    ids=["other-letter", "mid-line", "no-microseconds"],
)
def test_lookalikes_are_not_ggml(line):
    assert parse_line(line).source != ggml.NAME
