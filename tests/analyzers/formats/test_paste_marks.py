"""What a paste or a terminal leaves before a log's lines (`formats.paste_marks`): each goes,
so the line reads as the process wrote it."""

from __future__ import annotations

import time

import pytest

from analyzers.formats.base import ParsedLine
from analyzers.formats.paste_marks import (
    peel_code_span,
    peel_orphan_colour,
    peel_progress,
    peel_progress_dots,
    peel_pytest_failure,
    peel_quote,
)

OWN = "RuntimeError: ACL stream synchronize failed, error code:507035"


def peeled(peel, text: str) -> ParsedLine | None:
    """The line after `peel`, or None when the peeler left it alone."""
    line = ParsedLine(text=text, message=text)
    return line if peel(line, text) else None


@pytest.mark.parametrize("code", ["[0;36m", "[1;36m", "^[[36m"], ids=["dim", "bold", "caret"])
def test_a_colour_code_that_lost_its_esc_byte_goes(code):
    line = peeled(peel_orphan_colour, f"{code}(Worker_TP0 pid=31120)[0;0m {OWN}")
    assert line is not None
    assert line.message == f"(Worker_TP0 pid=31120)[0;0m {OWN}"
    assert line.stream_key == code


def test_a_bracketed_number_is_no_colour_code():
    assert peeled(peel_orphan_colour, "[36] ranks joined") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"> {OWN}", OWN),
        (
            '>     File "/srv/job/train.py", line 40, in main',
            '    File "/srv/job/train.py", line 40, in main',
        ),
        (">", ""),
    ],
    ids=["line", "indented", "blank"],
)
def test_a_markdown_quotes_mark_goes(text, message):
    line = peeled(peel_quote, text)
    assert line is not None
    assert line.message == message


@pytest.mark.parametrize(("text", "message"), [("`Killed`", "Killed"), (f"``{OWN}``  ", OWN)])
def test_a_code_span_over_the_whole_line_goes(text, message):
    line = peeled(peel_code_span, text)
    assert line is not None
    assert line.message == message


@pytest.mark.parametrize(
    "text",
    ["`HCCL_BUFFSIZE` is too small", "`a` and `b`", "```", "```python"],
    ids=["span-in-sentence", "two-spans", "fence", "fence-with-language"],
)
def test_other_backticks_stay(text):
    assert peeled(peel_code_span, text) is None


def test_pytests_failure_marker_goes():
    line = peeled(peel_pytest_failure, f"E       {OWN}")
    assert line is not None
    assert (line.message, line.stream_key) == (OWN, "")


def test_globs_level_letter_stays():
    assert peeled(peel_pytest_failure, "E0407 10:14:52.803113 30211 socket.cpp:922] x") is None


def test_a_progress_bars_last_frame_before_the_next_line_goes():
    bar = " 50%|#####     | 1/2 [00:01<00:01,  1.21s/it]"
    line = peeled(peel_progress, bar + OWN)
    assert line is not None
    assert line.message == OWN


def test_several_redrawn_frames_go_together():
    frames = (
        "Epoch 3:  40%|████      | 4/10 [00:08<00:12,  2.01s/it] "
        "Epoch 3:  40%|████      | 4/10 [00:08<00:12,  2.01s/it, loss=2.31]"
    )
    line = peeled(peel_progress, frames + OWN)
    assert line is not None
    assert line.message == OWN


@pytest.mark.parametrize(
    "text",
    [
        # a bar alone on its line
        " 50%|#####     | 1/2 [00:01<00:01,  1.21s/it]",
        # a frame that shows the loss went non-finite is the news
        " 50%|#####     | 1/2 [00:01<00:01,  8.4s/it, step_loss=nan]" + OWN,
        # a launcher's tag before the bar is peeled first
        "[default0]:Epoch 1:  17%|█▋        | 1/6 [00:02<00:10,  2.0s/it]" + OWN,
        # no bar near the line's start
        OWN,
    ],
    ids=["bar-alone", "nan-loss", "launcher-tag", "no-bar"],
)
def test_bars_that_stay(text):
    assert peeled(peel_progress, text) is None


def _redrawn_frames(count: int) -> str:
    """A bar on stderr that `tqdm.write` cleared and redrew around each line written to
    stdout: frames joined by carriage returns and blanking spaces, no newline between."""
    clear = "\r" + " " * 52 + "\r"
    frames = [
        # before its first update tqdm knows no rate yet: `[00:00<?, ?it/s]`
        f"\rrank5 prefill: {12 * (i // 3):3d}%|{'█' * (i // 3):10}| {i // 3}/8 [00:00<?, ?it/s]"
        for i in range(count)
    ]
    return clear.join(frames)


def test_a_bar_cut_off_by_a_killed_process_stays_a_line_and_is_read_at_once():
    # the process died mid-bar: the frames are the whole line, nothing follows the last one;
    # the frames are read one by one, so a long run of them cannot make the match backtrack
    text = _redrawn_frames(6)
    started = time.perf_counter()
    assert peeled(peel_progress, text) is None
    assert time.perf_counter() - started < 0.5


def test_redrawn_frames_before_the_next_line_still_go():
    line = peeled(peel_progress, _redrawn_frames(5).lstrip("\r") + OWN)
    assert line is not None
    assert line.message == OWN


def test_a_compilers_progress_dots_go():
    line = peeled(peel_progress_dots, ".......EZ3003: [PID: 653] No supported Ops kernel")
    assert line is not None
    assert line.message == "EZ3003: [PID: 653] No supported Ops kernel"


@pytest.mark.parametrize("text", ["..", "... waiting", "......", "../data/train.jsonl"])
def test_other_dots_stay(text):
    assert peeled(peel_progress_dots, text) is None
