"""A job log with no error line that ends on a refusal worded without any error word."""

from __future__ import annotations

import io

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind, FileInfo
from analyzers.formats.lines import parse_line
from analyzers.formats.refusal import last_refusal
from analyzers.formats.severity import load_prefilter
from analyzers.ingest.layout import classify_path
from analyzers.scan.member import scan_file
from tests.analyzers.excerpts import assert_reads, diagnose_files, diagnose_text

BARE_ROPE = (
    "`rope_scaling` must be a dictionary with two fields, `type` and `factor`, "
    "got {'factor': 32.0, 'beta_fast': 32, 'rope_type': 'yarn'}"
)
# torch's broadcasting refusal pasted on its own, without the exception name before it
SIZE_ALONE = (
    "The size of tensor a (12288) must match the size of tensor b (3072) at non-singleton "
    "dimension 0"
)


@pytest.mark.parametrize(
    ("message", "refused"),
    [
        (BARE_ROPE, True),
        ("tensor_parallel_size should be a divisor of num_attention_heads (28), got 8", True),
        ("quantization method 'awq_marlin' is not supported on this platform", True),
        ("expected one of ['bfloat16', 'float16'] for dtype, got 'float32'", True),
        (SIZE_ALONE, True),
        ("checking that the shard sizes match the index", False),
        ("INFO 03-14 09:12:01 engine.py:210] Avg prompt throughput: 0.0 tokens/s", False),
        ("INFO 03-14 09:12:01 config.py:88] max_num_seqs should be raised for throughput", False),
        ("UserWarning: the input array should be writable, got a read-only view", False),
        ("loading shard 3 of 9", False),
        # a statement of a traceback quoting the sentence it raises is code, not a refusal
        ('    raise NotImplementedError("balancer is not supported.")', False),
        (' raise ValueError(f"group size must be a power of two, got {n}")', False),
        # a traced shell's echo of the command it runs next (`set -x`) is no refusal either
        ("+ echo 'rope_scaling must be a dictionary with two fields'", False),
        ("", False),
    ],
)
def test_refusal_words_pick_plain_worded_refusals_only(message: str, refused: bool) -> None:
    line = parse_line(message)
    assert (last_refusal([(12, line)], load_prefilter()) == (12, line)) is refused


def test_the_last_refusal_of_the_tail_is_the_one_cited() -> None:
    texts = ["fields must be set before start", BARE_ROPE, "bye"]
    tail = [(n, parse_line(text)) for n, text in enumerate(texts, 1)]
    assert last_refusal(tail, load_prefilter()) == tail[1]


def test_a_bare_config_refusal_that_ends_a_log_is_a_config_error_not_a_hang() -> None:
    diagnosis = diagnose_text("comfy/console.log", BARE_ROPE + "\n")
    assert_reads(diagnosis, "config", first_error="must be a dictionary")


def test_a_log_with_an_error_line_gets_no_extra_event_from_its_tail() -> None:
    text = "ValueError: tokenizer returned an empty prompt\nretry should be disabled\n"
    kind, rank = classify_path("serve/engine.log")
    info = FileInfo(path="serve/engine.log", kind=kind, rank=rank, size_bytes=len(text))
    scan = scan_file(io.BytesIO(text.encode()), info, CheckpointMatcher(()))
    errors = [e.line for e in scan.events if e.kind == EventKind.ERROR]
    assert errors == [1]


def test_a_log_that_stops_mid_progress_still_reads_as_a_hang() -> None:
    text = (
        "INFO 03-14 09:12:01 engine.py:210] Avg prompt throughput: 0.0 tokens/s, Running: 4 reqs\n"
        "INFO 03-14 09:12:11 engine.py:210] Avg prompt throughput: 0.0 tokens/s, Running: 4 reqs\n"
    )
    diagnosis = diagnose_text("serve/engine.log", text)
    assert (diagnosis.category, diagnosis.first_error) == ("hang", None)


def test_a_size_refusal_quoted_alone_beside_a_cut_traceback_is_the_error() -> None:
    """A reporter quoting the error line apart from a log whose traceback the paste cut: the
    quoted refusal says what failed, the cut frame only where."""
    cut = (
        "Process Process-1:\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/multiprocessing/process.py", line 314, in _bootstrap\n'
        "    self.run()\n"
    )
    diagnosis = diagnose_files({"logs/convert.log": cut, "logs/error.txt": SIZE_ALONE + "\n"})
    assert_reads(diagnosis, "shape_mismatch", first_error="must match the size of tensor b")
