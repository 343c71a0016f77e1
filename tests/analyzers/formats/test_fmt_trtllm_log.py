"""TensorRT-LLM's level tags (`formats.trtllm_log`): the C++ runtime's `[TensorRT-LLM][LEVEL]`
and the Python loggers' `[TRT-LLM] [X]` / `[TRT] [X]`, read as the writer's level.
"""

from __future__ import annotations

import pytest

from analyzers.formats.lines import parse_line
from tests.analyzers.excerpts import diagnose_text

CPP_ERROR = (
    "[TensorRT-LLM][ERROR] Encountered an error in forwardAsync function: [TensorRT-LLM][ERROR]"
    " Assertion failed: 12 != 20 (/src/cpp/tensorrt_llm/layers/someLayer.cpp:61)"
)
CPP_INFO = "[TensorRT-LLM][INFO] NCCL comm created for rank 1 of 4: failed attempts 0"
CPP_WARNING = "[TensorRT-LLM][WARNING] max_num_sequences is not specified, will be set to 8"
PY_INFO = "[05/04/2024-17:40:12] [TRT-LLM] [I] Load engine takes: 41.2 sec"
PY_ERROR = "[03/02/2025-08:11:40] [TRT-LLM] [E] Engine building failed, please check the error log."
TRT_ERROR = "[TRT] [E] 3: [builder.cpp::buildSerializedNetwork::751] Error Code 3: API Usage Error"
# a relay in front: Triton's glog header, then the runtime's own tag inside its message
RELAYED = (
    "E0301 10:00:01.000100 77 model_instance_state.cc:920] [TensorRT-LLM][ERROR]"
    " Assertion failed: 3 != 5"
)


@pytest.mark.parametrize(
    ("line", "level"),
    [
        (CPP_ERROR, "ERROR"),
        (CPP_INFO, "INFO"),
        (CPP_WARNING, "WARNING"),
        (PY_INFO, "INFO"),
        (PY_ERROR, "ERROR"),
        (TRT_ERROR, "ERROR"),
        (RELAYED, "ERROR"),
    ],
)
def test_the_tag_gives_the_level_and_stays_in_the_message(line, level):
    parsed = parse_line(line)
    assert parsed.level == level
    assert "[TensorRT-LLM]" in parsed.message or "[TRT" in parsed.message, parsed.message


def test_an_error_tagged_line_in_unknown_words_is_still_a_failure():
    # an assertion that only compares two numbers names no failure kind in its words
    diagnosis = diagnose_text("server.log", CPP_ERROR + "\n")
    assert diagnosis.first_error is not None
    assert "12 != 20" in diagnosis.first_error.text


def test_an_info_tagged_line_that_counts_failed_attempts_is_no_failure():
    diagnosis = diagnose_text("server.log", CPP_INFO + "\n")
    assert diagnosis.first_error is None
