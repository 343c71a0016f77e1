"""A traceback the reader is inside: which frame it keeps, and which lines are source code
rather than the exception that ends it."""

import io

from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file


def scan(text: str, rank: int | None = None):
    return scan_file(io.BytesIO(text.encode()), FileInfo("log_0.log", FileKind.RANK_LOG, rank))


def errors(result):
    return [(e.line, e.source, e.message) for e in result.events if e.kind == EventKind.ERROR]


# An unknown exception raised inside Python's own json module, called by the job's loader.
STDLIB_RAISE = """\
Traceback (most recent call last):
  File "/srv/app/weights.py", line 40, in load_checkpoint_index
    index = json.load(handle)
  File "/usr/lib/python3.10/json/__init__.py", line 293, in load
    return loads(fp.read(),
  File "<string>", line 2, in loads
  File "/usr/lib/python3.10/json/decoder.py", line 355, in raw_decode
    raise JSONDecodeError("Expecting value", s, err.value) from None
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def test_the_frame_kept_for_an_exception_is_the_deepest_outside_the_standard_library():
    frames = [e for e in scan(STDLIB_RAISE).events if e.source == "traceback_frame"]
    assert [(e.line, e.message) for e in frames] == [
        (2, 'File "/srv/app/weights.py", line 40, in load_checkpoint_index')
    ]


def test_a_traceback_only_through_the_standard_library_keeps_its_innermost_frame():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
        '  File "/usr/lib/python3.11/socket.py", line 836, in create_connection\n'
        "ConnectionRefusedError: [Errno 111] Connection refused\n"
    )
    frames = [e.line for e in scan(text).events if e.source == "traceback_frame"]
    assert frames == [3]


# Before Python 3.12 a comprehension runs in a frame of its own, named for its kind, in the
# function that wrote it; the statement printed under both frames is the same.
COMPREHENSION_RAISE = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in parse_slots
    return [int(x) for x in text.split(",")]
  File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in <listcomp>
    return [int(x) for x in text.split(",")]
ValueError: invalid literal for int() with base 10: ''
"""


def test_a_comprehension_frame_is_kept_as_the_function_that_wrote_it():
    frames = [e for e in scan(COMPREHENSION_RAISE).events if e.source == "traceback_frame"]
    assert [(e.line, e.message) for e in frames] == [
        (
            2,
            'File "/opt/venv/lib/python3.10/site-packages/demo_launcher/hosts.py", line 88, in parse_slots',
        )
    ]


def test_a_traceback_whose_only_frame_is_a_comprehension_keeps_it():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/job/prep.py", line 12, in <genexpr>\n'
        "ValueError: invalid literal for int() with base 10: 'x'\n"
    )
    frames = [e.line for e in scan(text).events if e.source == "traceback_frame"]
    assert frames == [2]


def test_source_lines_of_a_logged_traceback_are_not_errors():
    text = (
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169] Traceback (most recent call last):\n"
        '(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]   File "/w/x.py", line 568, in loop\n'
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]     output = func(*args, **kwargs)\n"
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169]              ^^^^^^^^^^^^^\n"
        "(Worker_TP5 pid=509) ERROR 02-23 03:33:01 [multiproc_executor.py:169] RuntimeError: The size of "
        "tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0\n"
    )
    assert [line for line, _, _ in errors(scan(text))] == [5]


FLATTENED = """\
[rank0]: Traceback (most recent call last):
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/utils.py", line 2017, in wrap_fake_exception
[rank0]: return fn()
[rank0]: ^^^^
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_dynamo/utils.py", line 2472, in <lambda>
[rank0]: lambda: run_node(tx.output, node, args, kwargs, nnmodule)
[rank0]: ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
[rank0]: File "/opt/venv/lib/python3.11/site-packages/torch/_decomp/decompositions.py", line 4102, in mv
[rank0]: else: torch._check(
[rank0]: torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in method matmul of type object at 0x7f00c0ffee00>(*(FakeTensor(..., size=(2, s1, 64)), FakeTensor(..., size=(0,))), **{}):
"""


def test_a_keyword_led_source_line_of_a_flattened_traceback_is_not_its_exception():
    # a forum paste lost the traceback's indentation: source lines sit at the frames' depth,
    # and `lambda: ...` or `else: ...` read like `Type: text` but no class is named by a keyword
    assert errors(scan(FLATTENED)) == [
        (
            10,
            "traceback",
            "torch._dynamo.exc.TorchRuntimeError: Failed running call_function <built-in "
            "method matmul of type object at 0x7f00c0ffee00>(*(FakeTensor(..., size=(2, s1, 64)), "
            "FakeTensor(..., size=(0,))), **{}):",
        )
    ]


# A traceback quoted as a whole (a test report, an indented paste): every line carries the
# same extra indent, so the exception line is indented like the header, not deeper.
QUOTED = """\
    Traceback (most recent call last):
      File "/opt/venv/lib/python3.11/site-packages/mylib/check.py", line 88, in compare
        if torch.all(same):
    RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:51 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035
    [ERROR] 2026-03-02-10:11:12 (PID:41021, Device:3, RankID:-1) ERR00100 PTA call acl api failed
    EZ9999: Inner Error!
"""


def test_a_uniformly_indented_traceback_still_ends_at_its_exception():
    result = scan(QUOTED)
    found = errors(result)
    assert found[0][:2] == (4, "traceback")
    assert found[0][2].endswith("error code is 507035")  # the lines after it are not joined
    assert [line for line, _, _ in found][1:3] == [5, 6]  # and are read as their own events
    assert result.facts["tracebacks"][0]["frame_line"] == 2


# A paste that lost the break between a frame's source line and the exception under it: two
# blanks, then the exception. The line carries the error, inside an open traceback or after a
# frame cut at its start. Values of our own.
SOURCE_JOINED_TO_EXCEPTION = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.8/site-packages/apex/parallel/distributed.py", line 226, in __init__
    flat_dist_call(coalesced, dist.broadcast, (0,))  RuntimeError: NCCL error in: /opt/pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:290, unhandled system error
"""


def test_an_exception_joined_to_its_source_line_is_read():
    found = [(line, message) for line, _, message in errors(scan(SOURCE_JOINED_TO_EXCEPTION))]
    assert any(line == 3 and "unhandled system error" in message for line, message in found)


def test_an_exception_joined_to_a_source_line_under_a_cut_frame_is_read():
    text = "\n".join(SOURCE_JOINED_TO_EXCEPTION.splitlines()[1:]) + "\n"
    found = [(line, message) for line, _, message in errors(scan(text))]
    assert any(line == 2 and "unhandled system error" in message for line, message in found)


def test_a_source_line_that_names_an_exception_stays_source():
    text = (
        "Traceback (most recent call last):\n"
        '  File "/opt/app/train.py", line 40, in step\n'
        "    raise RuntimeError(f'step failed: {reason}')\n"
        "RuntimeError: step failed: loss went non-finite\n"
    )
    assert [line for line, _, _ in errors(scan(text))] == [4]
