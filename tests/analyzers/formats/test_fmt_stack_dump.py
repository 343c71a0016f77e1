"""Stacks Python's faulthandler dumps while a job hangs (`formats.stack_dump`).

The timer's dump opens with `Timeout (0:00:05)!`, a signal's with the thread header alone;
neither is an error line, and each thread's frames are kept as the fact `stack_dumps`
(docs/labelling.md, "Stacks a hung job dumped"). py-spy's dumps are read the same way.
"""

from __future__ import annotations

import io

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind, FileInfo, FileKind, FileScan
from analyzers.formats.stack_dump import FACT
from analyzers.scan.member import scan_file

C10D = "/srv/venv/lib/python3.11/site-packages/torch/distributed"
TIMER_DUMP = f"""\
2026-11-29 07:24:22,245 [rank1] INFO  norm passed
Timeout (0:00:05)!
Thread 0x00007f421ae0ab80 (most recent call first):
  File "{C10D}/distributed_c10d.py", line 3252 in all_reduce
  File "{C10D}/c10d_logger.py", line 83 in wrapper
  File "/home/user/llm-infer/infer.py", line 128 in forward
  File "/home/user/llm-infer/infer.py", line 162 in main
  File "/home/user/llm-infer/infer.py", line 176 in <module>
"""
SIGNAL_DUMP_TEED = """\
[default2]: attention passed
[default2]:Current thread 0x00007fa85624bb80 (most recent call first):
[default0]:Current thread 0x00007f1b69bceb80 (most recent call first):
[default2]:  File "/home/user/llm-infer/infer.py", line 83 in _spin
[default0]:  File "/srv/venv/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 4287 in all_gather
[default2]:  File "/home/user/llm-infer/infer.py", line 176 in <module>
[default0]:  File "/home/user/llm-infer/infer.py", line 176 in <module>
[default1]: attention passed
"""
CRASH_DUMP = """\
Fatal Python error: Segmentation fault

Current thread 0x00007f0c1b2fd740 (most recent call first):
  File "/home/user/llm-infer/infer.py", line 97 in forward
  File "/home/user/llm-infer/infer.py", line 176 in <module>
"""


def scan(text: str, name: str = "log_1.log", rank: int | None = 1) -> FileScan:
    kind = FileKind.RANK_LOG if rank is not None else FileKind.LAUNCHER
    info = FileInfo(path=f"job/{name}", kind=kind, rank=rank)
    return scan_file(io.BytesIO(text.encode()), info, CheckpointMatcher())


def test_a_timer_dump_is_no_error_and_keeps_its_frames() -> None:
    found = scan(TIMER_DUMP)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    (stack,) = found.facts[FACT]
    assert stack["rank"] == 1
    assert stack["main"] is True
    assert stack["frames"][0].endswith("line 3252 in all_reduce")


def test_a_signal_dump_teed_by_the_launcher_is_read_per_rank() -> None:
    found = scan(SIGNAL_DUMP_TEED, "launcher.log", None)
    stacks = {stack["rank"]: stack["frames"][0] for stack in found.facts[FACT]}
    assert stacks[2].endswith("in _spin")
    assert stacks[0].endswith("in all_gather")


def test_the_fatal_error_before_a_crash_dump_stays_an_error() -> None:
    found = scan(CRASH_DUMP)
    errors = [e.message for e in found.events if e.kind == EventKind.ERROR]
    assert errors == ["Fatal Python error: Segmentation fault"]
    assert found.facts[FACT][0]["frames"][0].endswith("in forward")


def test_a_timeout_error_is_no_dump() -> None:
    found = scan("TimeoutError: Timed out waiting for the model to download (0:00:05)\n")
    assert [e.kind for e in found.events] == [EventKind.ERROR]
    assert FACT not in found.facts


def test_a_dump_behind_srun_labels_keeps_its_frames() -> None:
    """`srun --label` puts ` 0: ` before every line, the frames' indent kept after it: the
    frames are the labelled task's, as its thread header is."""
    labelled = "".join(f"0: {line}\n" for line in TIMER_DUMP.splitlines())
    found = scan(labelled)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    (stack,) = found.facts[FACT]
    assert stack["main"] is True
    assert stack["frames"][0].endswith("line 3252 in all_reduce")


PY_SPY_DUMP = """\
Process 5120: /srv/venv/bin/python3 -u train.py --nnodes 2
Python v3.10.12 (/srv/venv/bin/python3.10)

Thread 5120 (idle): "MainThread"
    _invoke_run (torch/distributed/elastic/agent/server/api.py:879)
    wrapper (torch/distributed/elastic/multiprocessing/errors/__init__.py:357)
    <module> (torch/distributed/run.py:905)

Thread 5188 (active): "MainThread"
    broadcast (torch/distributed/distributed_c10d.py:2824)
    wrapper (torch/distributed/c10d_logger.py:81)
    _rollout (trainer/rollout.py:481)
Thread 5190 (idle): "QueueFeederThread"
    wait (threading.py:327)
        Arguments:
            timeout: None
    _feed (multiprocessing/queues.py:231)
"""


def test_a_py_spy_dump_is_no_error_and_keeps_its_frames() -> None:
    """A frame under a package folder named `errors` is a path, not a failure."""
    found = scan(PY_SPY_DUMP, "py-spy.txt", None)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    stacks = found.facts[FACT]
    assert [s["frames"][0] for s in stacks] == [
        "_invoke_run (torch/distributed/elastic/agent/server/api.py:879)",
        "broadcast (torch/distributed/distributed_c10d.py:2824)",
        "wait (threading.py:327)",
    ]
    assert [s["main"] for s in stacks] == [True, True, False]
    assert len(stacks[2]["frames"]) == 2


def test_a_line_after_a_py_spy_dump_is_read_again() -> None:
    """Counterexample: the dump ends at the first line that is no frame; an error after it
    keeps its own reading."""
    text = PY_SPY_DUMP + "RuntimeError: NCCL communicator was aborted on rank 1.\n"
    found = scan(text, "py-spy.txt", None)
    errors = [e.message for e in found.events if e.kind == EventKind.ERROR]
    assert errors == ["RuntimeError: NCCL communicator was aborted on rank 1."]


def test_a_py_spy_preamble_whose_command_line_carries_error_words_is_no_error() -> None:
    """The preamble's command line holds the job's options, error words among them; the
    preamble is part of the dump and the stacks under it are still kept."""
    text = PY_SPY_DUMP.replace(
        "-u train.py --nnodes 2",
        "-u infer.py --rank 0 --world 6 --timeout 60 --fault-tolerance --max-failures 3",
    )
    found = scan(text, "py-spy_rank0_pid5120.txt", 0)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    assert len(found.facts[FACT]) == 3


def test_a_log_line_that_starts_like_a_py_spy_preamble_keeps_its_reading() -> None:
    """Counterexample: `Process 7:` followed by no command line is a log's own line."""
    found = scan("Process 7: RuntimeError: worker crashed with a fault\n")
    errors = [e.message for e in found.events if e.kind == EventKind.ERROR]
    assert errors == ["Process 7: RuntimeError: worker crashed with a fault"]


BATON_WAIT = """\
Timeout (0:02:00)!
Thread 0x00007f421ae0ab80 (most recent call first):
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 47 in wait
  File "/srv/venv/lib/python3.11/site-packages/torch/utils/cpp_extension.py", line 1735 in _jit_compile
  File "/srv/train.py", line 9 in <module>
"""


def test_the_innermost_frame_of_a_timer_dump_is_left_to_the_rules() -> None:
    found = scan(BATON_WAIT)
    errors = [e for e in found.events if e.kind == EventKind.ERROR]
    assert [e.text.strip() for e in errors] == [
        'File "/srv/venv/lib/python3.11/site-packages/torch/utils/file_baton.py", line 47 in wait'
    ]
    (stack,) = found.facts[FACT]
    assert stack["frames"][0].endswith("line 47 in wait")
    assert stack["main"] is True


# gdb attached to a rank that hangs, its Python stack printed with `py-bt`: innermost first,
# traceback-style frames with their statements, the C call the thread is blocked in on top.
GDB_PY_BT = f"""\
(gdb) py-bt
Traceback (most recent call first):
  <built-in method broadcast of PyCapsule object at remote 0x7f3a0c2d1e40>
  File "{C10D}/distributed_c10d.py", line 2412, in broadcast
    work = group.broadcast([tensor], opts)
  File "/home/user/llm-infer/engine/weights.py", line 57, in sync_weights
    dist.broadcast(param.data, src=0)
  File "/home/user/llm-infer/infer.py", line 140, in <module>
    sync_weights(model)
"""


def test_a_gdb_py_bt_dump_is_no_error_and_keeps_its_frames() -> None:
    """docs/labelling.md#stacks-a-hung-job-dumped: gdb's Python stack is a dump, not a
    traceback cut before its exception, and its frames are read like faulthandler's."""
    found = scan(GDB_PY_BT)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    (stack,) = found.facts[FACT]
    assert stack["frames"][0].endswith("line 2412 in broadcast")
    assert stack["main"] is True


def test_a_gdb_dump_cut_inside_a_frame_is_no_error() -> None:
    """A paste that stops inside the dump's frames leaves no cut traceback to cite."""
    text = "".join(GDB_PY_BT.splitlines(keepends=True)[:6])
    found = scan(text + '  File "/home/user/llm-infer/engine/weights.py", line 57, in sync_w\n')
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    assert found.facts[FACT]


def test_a_python_traceback_is_no_gdb_dump() -> None:
    """Counterexample: Python's own traceback (`most recent call last`) ending in its exception
    keeps its reading, and a c10 native trace header opens no dump."""
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/user/llm-infer/infer.py", line 140, in <module>\n'
        "    sync_weights(model)\n"
        "RuntimeError: weights differ across ranks\n"
        "Exception raised from run at /pytorch/torch/csrc/distributed/c10d/Work.cpp:88 "
        "(most recent call first):\n"
    )
    found = scan(text)
    assert [e for e in found.events if e.kind == EventKind.ERROR]
    assert not found.facts.get(FACT)


def _spy_under_header(header: str, pid: int, inner: str) -> str:
    return (
        f"{header}\n"
        f"Process {pid}: /opt/venv/bin/python3 -u infer.py\n"
        "Python v3.11.7 (/usr/bin/python3.11)\n\n"
        f'Thread {pid} (idle): "MainThread"\n'
        f"    {inner}\n"
        "    run_decoder (infer.py:217)\n"
        "    <module> (infer.py:260)\n\n"
    )


def test_py_spy_dumps_of_several_ranks_in_one_file_take_the_rank_their_header_names() -> None:
    """An operator's loop over the ranks' pids writes every dump into one file, each under
    a line that names the rank; the file's path names none."""
    text = "".join(
        _spy_under_header(
            f"===== rank {rank} (pid {21424 + rank}) =====",
            21424 + rank,
            "read_stop_words (infer.py:135)"
            if rank == 1
            else "all_reduce (torch/distributed/distributed_c10d.py:3252)",
        )
        for rank in range(4)
    )
    found = scan(text, "py-spy-dumps.txt", None)
    assert not [e for e in found.events if e.kind == EventKind.ERROR]
    stacks = found.facts[FACT]
    assert [s["rank"] for s in stacks] == [0, 1, 2, 3]
    assert stacks[1]["frames"][0] == "read_stop_words (infer.py:135)"


def test_a_line_that_only_mentions_a_rank_is_no_dump_header() -> None:
    """Counterexample: a sentence about a rank before a dump names no writer of it."""
    text = _spy_under_header("rank 1 looks stuck, dumping all ranks", 21425, "f (infer.py:1)")
    found = scan(text, "py-spy-dumps.txt", None)
    assert [s["rank"] for s in found.facts[FACT]] == [None]
