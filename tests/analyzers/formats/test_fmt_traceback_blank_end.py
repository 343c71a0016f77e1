"""An exception message that itself ends in a blank, followed by the C++ runtime's own line.

A paste that wraps a long message at its spaces leaves a blank at the end of each piece, so the
line below at the same depth is read as the rest of the message (`formats.traceback`). Some
messages end in a blank as printed, though: torch's report of a data loader worker killed by a
signal leaves one after its full stop. When the line below is a message that stands on its own
(the C++ runtime's `terminate called ...`, Python's `Exception ignored in ...`, a shell's
`Aborted (core dumped)`), it is no piece of the one above, and the cited line stays whole.
Excerpts in the shape of a multi-GPU speech fine-tune; paths, numbers and wording of our own.
"""

from __future__ import annotations

from analyzers.core.types import EventKind
from tests.analyzers.excerpts import assert_reads, diagnose_text, scan_text

WORKER_ABORTED = """\
  File "/srv/asr/.venv/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 51870) is killed by signal: Aborted. 
terminate called without an active exception
terminate called without an active exception
Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f00aa11c0d0>
"""

WORKER_ABORTED_THEN_IGNORED = """\
  File "/srv/asr/.venv/lib/python3.11/site-packages/torch/utils/data/_utils/signal_handling.py", line 73, in handler
    _error_if_any_worker_fails()
RuntimeError: DataLoader worker (pid 51870) is killed by signal: Aborted. 
Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f00aa11c0d0>
"""

# Counterexample: a message an editor wrapped at its spaces still reads on across the cut.
WRAPPED_AT_SPACES = """\
Traceback (most recent call last):
  File "/srv/job/train.py", line 12, in <module>
    import fused_ops
OSError: Fail to open library: 
/srv/job/build/libfused_ops.so 
with error: undefined symbol: fused_ops_launch
"""


def _errors(text: str) -> list[str]:
    scan = scan_text("logs/train.log", text)
    return [event.message for event in scan.events if event.kind == EventKind.ERROR]


def test_a_runtime_line_below_a_blank_end_is_its_own_message() -> None:
    diagnosis = diagnose_text("logs/train.log", WORKER_ABORTED)
    assert_reads(diagnosis, "device_fault", first_error="is killed by signal: Aborted.")
    assert diagnosis.first_error is not None
    assert "terminate called" not in diagnosis.first_error.text


def test_an_ignored_exception_below_a_blank_end_is_its_own_message() -> None:
    errors = _errors(WORKER_ABORTED_THEN_IGNORED)
    assert not any("killed by signal" in error and "Exception ignored" in error for error in errors)


def test_a_message_wrapped_at_spaces_still_reads_on() -> None:
    errors = _errors(WRAPPED_AT_SPACES)
    assert any("libfused_ops.so" in error and "undefined symbol" in error for error in errors)
