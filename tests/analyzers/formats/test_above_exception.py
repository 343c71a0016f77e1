"""What Python printed above an exception line: the `assert` statement a bare
AssertionError failed, and the frames of a traceback seen without its header."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


def test_a_bare_assertion_error_is_read_with_the_statement_that_failed():
    """docs/labelling.md#config-driver_env-or-weight_load: a bare assertion says nothing by
    itself; the `assert` line above it (carets skipped, writer prefix removed) is what failed."""
    prefix = "(Worker_TP1 pid=7140) ERROR 05-11 10:42:19 [multiproc_executor.py:611] "
    text = (
        prefix
        + '  File "/opt/venv/lib/python3.11/site-packages/plugin/comm.py", line 71, in __init__\n'
        + prefix
        + "    assert isinstance(device, torch.device)\n"
        + prefix
        + "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        + prefix
        + "AssertionError\n"
    )
    assert errors(scan(text)) == [
        (4, "traceback", "AssertionError (assert isinstance(device, torch.device))")
    ]


def test_an_assertion_with_its_own_message_or_another_bare_exception_is_left_as_printed():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/train/model.py", line 40, in load\n'
        '    assert a.shape == b.shape, f"{a.shape} != {b.shape}"\n'
        "AssertionError: torch.Size([8]) != torch.Size([4])\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/train/loop.py", line 9, in step\n'
        "    raise AssertionError\n"
        "AssertionError\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/train/queue.py", line 12, in get\n'
        "    assert not self.closed\n"
        "TimeoutError\n"
    )
    assert [message for _, _, message in errors(scan(text))] == [
        "AssertionError: torch.Size([8]) != torch.Size([4])",
        "AssertionError",
        "TimeoutError",
    ]


# A paste that starts in the middle of a traceback keeps no `Traceback (most recent call
# last):` header, but the frames above the exception are still the ones that raised it.
HEADERLESS_IN_A_LIBRARY = """\
  File "/opt/venv/lib/python3.10/site-packages/accelerate/accelerator.py", line 2001, in backward
    self.deepspeed_engine_wrapped.backward(loss, **kwargs)
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2049, in step
    self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
RuntimeError: device mismatch in the optimizer step
"""


# Counterexample: frames of an earlier exception, above a log line that ended it, are not the
# frames of a later bare exception line.
FRAMES_OF_AN_EARLIER_RECORD = """\
  File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2049, in step
    self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
[2026-05-02 10:11:12,001] [INFO] [engine.py:310:step] retrying the step on rank 0
RuntimeError: device mismatch in the optimizer step
"""


def test_a_traceback_without_its_header_keeps_the_library_frames_above_the_exception():
    record = scan(HEADERLESS_IN_A_LIBRARY).facts["tracebacks"][0]
    assert record["line"] == 6
    assert record["inner_packages"] == [
        'File "/opt/venv/lib/python3.10/site-packages/accelerate/accelerator.py", '
        "line 2001, in backward",
        'File "/opt/venv/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", '
        "line 2049, in step",
    ]


def test_frames_cut_off_by_another_log_line_are_not_the_bare_exceptions():
    record = scan(FRAMES_OF_AN_EARLIER_RECORD).facts["tracebacks"][0]
    assert record["line"] == 4
    assert record["inner_packages"] == []
