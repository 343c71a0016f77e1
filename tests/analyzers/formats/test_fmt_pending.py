"""A job log that stops on a line announcing a step it never reports on.

docs/labelling.md#a-success-line-that-was-not-the-end: a success line followed, as the log's
last line, by the announcement of another step is a stop inside that step (`hang`); an
announcement of the end itself, or a summary after the success, leaves the job `healthy`.
Fixtures follow the shape of a diffusion serving engine's offline script; values are made up.
"""

from __future__ import annotations

import pytest

from analyzers.formats.lines import parse_line
from analyzers.formats.pending import pending_at_end
from analyzers.formats.severity import load_prefilter
from tests.analyzers.excerpts import diagnose_text

DONE = """\
[Stage-0] INFO 02-09 10:11:12 [diffusion_engine.py:86] Generation completed successfully.
[Stage-0] INFO 02-09 10:11:12 [diffusion_engine.py:109] Post-processing completed in 0.3021 seconds
"""


@pytest.mark.parametrize(
    ("message", "pending"),
    [
        ("warm up.......", True),
        ("Loading model weights...", True),
        ("INFO 02-09 10:11:13 [runner.py:40] Generating images\u2026", True),
        ("Shutting down...", False),
        ("Cleaning up resources...", False),
        ("...", False),
        ("Post-processing completed in 0.3021 seconds", False),
        ("", False),
    ],
)
def test_only_announcements_of_a_new_step_are_pending(message: str, pending: bool) -> None:
    line = parse_line(message)
    assert (pending_at_end([(7, line)], load_prefilter()) == (7, line)) is pending


def test_blank_lines_after_the_announcement_are_skipped() -> None:
    tail = [(n, parse_line(text)) for n, text in enumerate(["done", "warm up......", "", " "], 1)]
    assert pending_at_end(tail, load_prefilter()) == tail[1]


def test_a_step_announced_after_the_success_line_is_a_stop_inside_it() -> None:
    diagnosis = diagnose_text("run/offline.log", DONE + "warm up.......\n")
    assert diagnosis.category == "hang"
    assert diagnosis.first_error is None
    assert "warm up" in diagnosis.root_cause


def test_a_shutdown_announced_after_the_success_line_leaves_the_job_finished() -> None:
    diagnosis = diagnose_text("run/offline.log", DONE + "Shutting down...\n")
    assert diagnosis.category == "healthy"


def test_a_summary_after_the_success_line_leaves_the_job_finished() -> None:
    diagnosis = diagnose_text("run/offline.log", DONE + "[Summary] requests: 1, images: 1\n")
    assert diagnosis.category == "healthy"
