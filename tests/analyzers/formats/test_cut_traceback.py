"""A log that ends inside a Python traceback (`formats.cut_traceback`): the frame to read in
place of the exception line the paste lost, and the headers that announce such a traceback."""

from __future__ import annotations

import pytest

from analyzers.formats.cut_traceback import (
    cut_frame,
    cut_in_prefix,
    first_frame_line,
    headed_by,
    is_header,
)
from analyzers.formats.lines import parse_line


def tail(text: str, first: int = 1):
    """The file's last lines as the scanner keeps them: (line number, parsed line)."""
    return [(number, parse_line(line)) for number, line in enumerate(text.splitlines(), first)]


# the paste stops in the frames of the job's loader, under `subprocess`
CUT_IN_LOADER = """\
Traceback (most recent call last):
  File "/srv/job/launch.py", line 12, in <module>
    init_backend()
  File "/srv/job/backend.py", line 57, in init_backend
    version = probe_driver()
  File "/srv/job/backend.py", line 31, in probe_driver
    out = subprocess.check_output(["npu-smi", "info"])
  File "/usr/lib/python3.10/subprocess.py", line 421, in check_output
    return run(*popenargs, stdout=PIPE, timeout=timeout, check=True,
  File "/usr/lib/python3.10/subprocess.py", line 503, in run
    with Popen(*popenargs, **kwargs) as process:
"""


def test_the_deepest_frame_outside_the_standard_library_is_read():
    found = cut_frame(tail(CUT_IN_LOADER, first=200))
    assert found is not None
    lineno, _frame, cited = found
    assert lineno == 205
    assert cited == (
        'File "/srv/job/backend.py", line 31, in probe_driver'
        ' out = subprocess.check_output(["npu-smi", "info"])'
    )


def test_a_frame_the_terminal_wrapped_after_its_path_is_read_as_one():
    text = (
        '  File "/srv/job/route.py", line 268, in task_distribute\n'
        "    self.dispatch(batch)\n"
        '  File "/srv/job/route.py",\n'
        "line 301, in dispatch\n"
        "    queue.put(batch, timeout=5)\n"
    )
    found = cut_frame(tail(text))
    assert found is not None
    assert found[2] == 'File "/srv/job/route.py", line 301, in dispatch queue.put(batch, timeout=5)'


def test_a_last_line_cut_inside_the_next_frames_path_is_left_out():
    text = (
        '  File "/srv/job/train.py", line 90, in main\n'
        "    trainer.fit(model)\n"
        '  File "/usr/lib/python3.12/site\n'
    )
    found = cut_frame(tail(text))
    assert found is not None
    assert found[0] == 1


@pytest.mark.parametrize(
    "text",
    [
        # the exception line is there: not a cut traceback
        '  File "/srv/job/train.py", line 90, in main\n'
        "    trainer.fit(model)\n"
        "ValueError: batch size must be positive\n",
        # faulthandler's dump of a hanging thread (no comma before `in`)
        "Thread 0x00007f3a (most recent call first):\n"
        '  File "/srv/job/train.py", line 90 in main\n',
        # a stack named by thread, printed on purpose
        "Current thread 0x00007f3a:\n"
        '  File "/srv/job/train.py", line 90, in main\n'
        "    trainer.fit(model)\n",
        # no frame at all
        "step 400 loss 2.113\nstep 401 loss 2.108\n",
    ],
    ids=["has-exception", "faulthandler", "thread-dump", "no-frames"],
)
def test_tails_that_are_no_cut_traceback(text):
    assert cut_frame(tail(text)) is None


def test_the_first_frame_of_the_tail():
    lines = tail("step 12 done\n" + CUT_IN_LOADER, first=40)
    assert first_frame_line(lines) == 42


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Exception raised in creation task: The actor died because of an error raised in its"
            " creation task, ray::Rollout.__init__() (pid=8123, ip=10.1.4.2)",
            True,
        ),
        ("EngineCore failed to start.", True),
        ("WorkerProc hit an exception.", True),
        ("CheckpointException ranks:dict_keys([0, 1, 5])", True),
        ("RayTaskError(OutOfMemoryError): ray::Worker.generate() (pid=8123)", False),
        ("EngineCore failed to start. Retrying in 5s", False),
    ],
    ids=["ray-creation", "vllm-engine", "vllm-worker", "dcp", "ray-task-names-type", "more-text"],
)
def test_headers_that_name_no_exception_type(message, expected):
    assert is_header(message) == expected


def test_only_traceback_lines_may_stand_between_a_header_and_the_frames():
    between = [
        parse_line(line)
        for line in (
            "",
            "Traceback (most recent call last): (RANK 5)",
            '  File "/srv/job/save.py", line 77, in save_shard',
            "    writer.write(state)",
            "    ^^^^^^^^^^^^^^^^^^^",
        )
    ]
    assert headed_by(between)
    assert not headed_by([*between, parse_line("INFO saving optimizer state")])


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        ("(EngineCore_DP0 pid=7) ERROR 11-25 12:06:16 [c", True),
        ("(EngineCore_DP0 pid=7) ERR", True),
        # a line with a message of its own
        ("(EngineCore_DP0 pid=7) ERROR 11-25 12:06:16 [core.py:515]     raise", False),
        # another writer's start
        ("(Worker_TP1 pid=9) ERR", False),
    ],
)
def test_a_last_line_cut_inside_the_previous_lines_prefix(last, expected):
    previous = parse_line(
        '(EngineCore_DP0 pid=7) ERROR 11-25 12:06:16 [core.py:515]   File "/srv/x.py", line 3, in f'
    )
    assert cut_in_prefix(parse_line(last), previous) == expected
