"""An exception line whose type and message another writer's frame line came between.

Python prints a traceback's last line in pieces (the type, then `: ` and the message). Two
ranks that share one console and fail at once can leave one rank's type with the other rank's
next frame line glued after it, and the `: <message>` on the line below. The message is read
with the type it was cut from. Excerpts in the shape of a finetuning console on several GPUs;
paths, numbers and wording of our own.
"""

from __future__ import annotations

from analyzers.core.types import EventKind
from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

PARTED_NO_ENGINE = """\
  File "/opt/env/lib/python3.10/site-packages/torch/nn/modules/conv.py", line 454, in _conv_forward
    return F.conv2d(input, weight, bias, self.stride,
    return forward_call(*args, **kwargs)
RuntimeError  File "/opt/env/lib/python3.10/site-packages/sat/model/base_model.py", line 144, in forward
: GET was unable to find an engine to execute this computation
    return self._call_impl(*args, **kwargs)
  File "/opt/env/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1511, in _wrapped_call_impl
"""

PARTED_VALUE_ERROR = """\
ValueError  File "/srv/job/train.py", line 88, in step
: too many values to unpack (expected 2)
"""

# Counterexample: a line that opens with `: ` under an ordinary record is no exception.
COLON_LINE_ALONE = """\
2026-03-01 10:00:01 INFO settings loaded
: mode finetune, stage 2
"""

# Counterexample: a frame line whose function name ends in Error is no parted type.
NAMED_FRAME = """\
  File "/srv/job/train.py", line 12, in ReportError
: mode finetune, stage 2
"""


def _errors(text: str) -> list[str]:
    scan = scan_text("logs/train.log", text)
    return [event.message for event in scan.events if event.kind == EventKind.ERROR]


def test_the_message_below_is_read_with_its_type() -> None:
    diagnosis = diagnose_text("logs/train.log", PARTED_NO_ENGINE)
    assert_reads(diagnosis, "operator", first_error="unable to find an engine")


def test_the_joined_exception_names_its_type() -> None:
    errors = _errors(PARTED_VALUE_ERROR)
    assert errors == ["ValueError: too many values to unpack (expected 2)"]


def test_a_colon_line_under_an_ordinary_record_is_no_error() -> None:
    assert _errors(COLON_LINE_ALONE) == []


def test_a_frame_named_like_an_error_parts_nothing() -> None:
    assert _errors(NAMED_FRAME) == []
