"""An exception's message over the lines below its own: deeper lines, a line cut at `Type:`
or at a headline's colon, a native check's source place, a rich box's width, and a line cut at
a blank.

A paste that wraps a long message at its spaces leaves a blank at the end of each piece, so the
line below at the same depth is read as the rest of the message. Some messages end in a blank
as printed, though: torch's report of a data loader worker killed by a signal leaves one after
its full stop. When the line below is a message that stands on its own (the C++ runtime's
`terminate called ...`, Python's `Exception ignored in ...`, a shell's `Aborted (core dumped)`),
it is no piece of the one above, and the cited line stays whole. Excerpts in the shape of a
multi-GPU speech fine-tune; paths, numbers and wording of our own.
"""

from __future__ import annotations

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file
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


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


def test_a_multi_line_exception_message_is_joined():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/app/load.py", line 40, in load\n'
        "    model.load_state_dict(state)\n"
        "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n"
        '\tMissing key(s) in state_dict: "model.layers.0.self_attn.q_proj.weight".\n'
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([151936, 4096])\n"
        "2026-11-29 07:25:37,254 [rank0] INFO next record\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.line == 4
    assert event.message == (
        "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM: "
        'Missing key(s) in state_dict: "model.layers.0.self_attn.q_proj.weight". '
        "size mismatch for lm_head.weight: copying a param with shape torch.Size([151936, 4096])"
    )


def test_an_ordinary_line_after_an_exception_is_not_joined():
    text = "ValueError: bad value\nEpoch 3 starting\n"
    [event] = scan(text).events
    assert event.message == "ValueError: bad value"


def test_a_native_source_place_under_an_exception_is_joined_to_its_message():
    """A native check that throws the runtime's message puts the failed call's place on the
    next line, unindented; the place is part of what the exception says."""
    text = (
        "RuntimeError: an illegal memory access was encountered\n"
        "/build/kernels/csrc/allreduce/two_shot_allreduce.cuh:212\n"
        "Epoch 3 starting\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.line == 1
    assert event.message == (
        "RuntimeError: an illegal memory access was encountered "
        "/build/kernels/csrc/allreduce/two_shot_allreduce.cuh:212"
    )


def test_a_source_place_after_the_first_continuation_or_a_python_file_is_not_joined():
    text = (
        "ValueError: bad value\n"
        "/opt/app/train.py:40\n"
        "RuntimeError: Error(s) in loading state_dict for M:\n"
        "\tMissing key(s) in state_dict: w.\n"
        "/build/csrc/loader.cpp:12\n"
    )
    messages = [e.message for e in scan(text).events if e.source == "traceback"]
    assert messages == [
        "ValueError: bad value",
        "RuntimeError: Error(s) in loading state_dict for M: Missing key(s) in state_dict: w.",
    ]


def test_an_indented_cann_trace_line_after_an_exception_is_not_joined():
    text = (
        "[rank0]: RuntimeError: copy_d2d:torch_npu/csrc/aten/common/CopyKernel.cpp:274 NPU function "
        "error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507001\n"
        "[rank0]:         The error from device(chipId:1, dieId:0), serial number is 3. there is a "
        "sdma error, sdma channel is 5, irqStatus=0x220000, cqeStatus=0x3 "
        "[FUNC:ProcessStarsSdmaErrorInfo][FILE:device_error_proc.cc][LINE:1498]\n"
    )
    events = scan(text).events
    assert events[0].message.endswith("error code is 507001")
    assert any(e.line == 2 and "there is a sdma error" in e.message for e in events)


def test_an_indented_line_without_a_cann_trace_tag_is_still_joined():
    text = (
        "RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n"
        "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([32000, 4096])\n"
    )
    [event] = scan(text).events
    assert event.message.endswith("copying a param with shape torch.Size([32000, 4096])")


def test_an_exception_line_that_stops_at_its_type_is_cited_with_the_lines_below():
    """The line alone would cite `RuntimeError:`; the reason printed under it is what failed."""
    text = (
        "RuntimeError: \n"
        "        Stage 1 could not run its backward:\n"
        "        gradient: Tensor(torch.Size([2, 8]))\n"
        "Epoch 3 starting\n"
    )
    [event] = scan(text).events
    assert event.text == (
        "RuntimeError: Stage 1 could not run its backward: gradient: Tensor(torch.Size([2, 8]))"
    )
    assert event.ref().text == event.text


def test_an_exception_headline_that_ends_at_its_colon_is_cited_with_its_first_reason():
    """`Error(s) in loading state_dict for Net:` says only that loading failed; the first
    line below says what, so the cited line carries it (the rest stays in the message)."""
    text = (
        "RuntimeError: Error(s) in loading state_dict for Net:\n"
        '\tMissing key(s) in state_dict: "fc.weight".\n'
        '\tUnexpected key(s) in state_dict: "head.weight".\n'
    )
    [event] = scan(text).events
    assert event.text == (
        "RuntimeError: Error(s) in loading state_dict for Net: Missing key(s) in state_dict: "
        '"fc.weight".'
    )
    assert event.message.endswith('"head.weight".')


def test_an_exception_line_with_its_own_text_is_cited_as_it_stands():
    text = "ValueError: bad value for lr: -1\n    (from config.yaml)\n"
    [event] = scan(text).events
    assert event.text == "ValueError: bad value for lr: -1"
    assert event.message.endswith("(from config.yaml)")


# rich's RichHandler(rich_tracebacks=True) under `log.exception("model run failed")`: the box
# and the exception behind the blank time and level columns, the message cut at the width
RICH_BOX = """\
[12/05/26 09:12:41] ERROR    model run failed                                  decoder.py:211
                             ╭──────── Traceback (most recent call last) ────────╮
                             │ /srv/decoder/run.py:209 in <module>               │
                             │                                                   │
                             │ ❱ 209 │   │   main()                              │
                             │                                                   │
                             │ /srv/decoder/moe.py:88 in dispatch                │
                             │                                                   │
                             │ ❱  88 │   buf = torch.empty(capacity, hidden)     │
                             ╰───────────────────────────────────────────────────╯
                             RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0.
                             DefaultCPUAllocator: can't allocate memory: you tried to
                             allocate 70368744177664 bytes. Error code 12 (Cannot allocate
                             memory)
[12/05/26 09:12:42] INFO     shutting down                                     decoder.py:215
"""


def test_a_rich_boxed_traceback_gives_its_exception_with_the_whole_wrapped_message():
    [event] = [e for e in scan(RICH_BOX).events if e.source == "traceback"]
    assert event.line == 11
    assert event.text == (
        "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
        "can't allocate memory: you tried to allocate 70368744177664 bytes. Error code 12 "
        "(Cannot allocate memory)"
    )


def test_the_rows_of_a_rich_box_and_the_pieces_of_its_message_are_no_errors_of_their_own():
    lines = {line for line, _source, _message in errors(scan(RICH_BOX))}
    assert lines <= {1, 11}


def test_a_line_after_a_plain_traceback_at_the_exceptions_indent_is_not_joined():
    """Only rich cuts a message at the console's width: after a plain traceback a line at
    the exception's own indentation is the next thing printed."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/decoder/moe.py", line 88, in dispatch\n'
        "    buf = torch.empty(capacity, hidden)\n"
        "RuntimeError: DefaultCPUAllocator: can't allocate memory\n"
        "terminate called without an active exception\n"
    )
    [event] = [e for e in scan(text).events if e.source == "traceback"]
    assert event.text == "RuntimeError: DefaultCPUAllocator: can't allocate memory"
