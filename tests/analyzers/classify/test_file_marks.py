"""What a file says about its own error lines: read once, then asked per line."""

from __future__ import annotations

from analyzers.classify.file_marks import FileMarks
from tests.analyzers.excerpts import scan_text

RETRIED_RANK_LOG = """\
load weights passed
prefill start: 8 tokens
  norm passed
RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x32 and 8x8)
load weights passed
prefill start: 8 tokens
  norm passed
"""

HANDLER_RAISED = """\
Traceback (most recent call last):
  File "/srv/train/loop.py", line 88, in save_step
    torch.save(state, path)
OSError: [Errno 28] No space left on device

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/srv/train/loop.py", line 91, in save_step
    raise CheckpointLost(path)
loop.CheckpointLost: /ckpt/step_400.pt
"""


def test_a_retried_rank_log_answers_progress_per_attempt() -> None:
    marks = FileMarks.of(scan_text("job/log_1.log", RETRIED_RANK_LOG))

    assert marks.restarts  # the second `load weights passed` began attempt 1
    first_attempt = marks.progress_after(4)  # the error line
    assert all(line <= 3 for line in first_attempt.values())
    assert marks.progress_after(7) == marks.by_attempt[-1]


def test_a_log_of_one_attempt_answers_its_last_progress() -> None:
    marks = FileMarks.of(scan_text("job/log_1.log", RETRIED_RANK_LOG.split("Runtime")[0]))

    assert marks.restarts == []
    assert marks.progress_after(2) == marks.progress


def test_an_exception_raised_in_a_handler_is_marked_reraised() -> None:
    marks = FileMarks.of(scan_text("job/log_0.log", HANDLER_RAISED))

    lines = HANDLER_RAISED.splitlines()
    lost = 1 + next(n for n, line in enumerate(lines) if line.startswith("loop.CheckpointLost"))
    disk_full = 1 + next(n for n, line in enumerate(lines) if "No space left" in line)
    assert lost in marks.reraised
    assert disk_full not in marks.reraised
    assert not marks.raised_in(disk_full)  # frames of the job's own code only


def test_an_exception_raised_inside_an_installed_package_names_it() -> None:
    text = """\
Traceback (most recent call last):
  File "/work/job/serve.py", line 40, in main
    agent.add_peer(blob)
  File "/opt/venv/lib/python3.12/site-packages/kvlink/agent.py", line 318, in add_peer
    name = self._agent.load_peer(blob)
kvlink.errors.PeerRejectedError: peer metadata rejected
"""
    marks = FileMarks.of(scan_text("job/decode_0.log", text))

    assert any("site-packages/kvlink/agent.py" in frame for frame in marks.raised_in(6))
