"""What a job log says at its end once the scan is through: a traceback the paste cut
before its exception, and a last line cut inside its prefix."""

import io

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import EventKind, FileInfo, FileKind
from analyzers.scan.member import scan_file

MATCHER = CheckpointMatcher()


def scan_text(text: str | bytes, kind=FileKind.RANK_LOG, rank=None, path="log_0.log"):
    data = text.encode() if isinstance(text, str) else text
    return scan_file(io.BytesIO(data), FileInfo(path, kind, rank), MATCHER)


def problems(result):
    return [e for e in result.events if e.kind != EventKind.CHECKPOINT]


def test_a_cut_traceback_whose_cut_last_line_has_no_line_end_is_read_at_its_frame():
    """The paste stops inside the worker prefix of a line after the frames and the file has
    no final line end: the last line is no error, the deepest frame is read in its place."""
    prefix = "(Worker_DP2 pid=4100) ERROR 03-04 05:06:07 [multiproc_executor.py:880]"
    body = "\n".join(
        [
            f'{prefix}   File "/srv/engine/runner.py", line 310, in step',
            f"{prefix}     out = self._forward(batch)",
            f'{prefix}   File "/srv/engine/graph.py", line 88, in replay',
            f"{prefix}     self.stream.wait_done()",
            "(Worker_DP2 pid=4100) ERROR 03-04 05:06:07 [multi",
        ]
    )
    errors = [e for e in problems(scan_text(body)) if e.kind == EventKind.ERROR]
    assert len(errors) == 1
    assert "graph.py" in errors[0].text
    assert "wait_done" in errors[0].text


CUT_BEFORE_ITS_EXCEPTION = """\
step 3 loss=2.1
Traceback (most recent call last):
  File "/srv/job/train.py", line 88, in step
    loss = model(batch)
"""


def test_a_log_that_ends_in_frames_is_read_at_its_deepest_frame():
    [event] = problems(scan_text(CUT_BEFORE_ITS_EXCEPTION))
    assert (event.line, event.kind, event.source) == (3, EventKind.ERROR, "traceback_cut")
    assert event.text == 'File "/srv/job/train.py", line 88, in step loss = model(batch)'


def test_a_log_with_an_error_line_is_not_read_at_its_end():
    text = CUT_BEFORE_ITS_EXCEPTION.replace(
        "step 3 loss=2.1\n", "RuntimeError: the loader stopped\n"
    )
    assert [(e.line, e.source) for e in problems(scan_text(text))] == [(1, "traceback")]
