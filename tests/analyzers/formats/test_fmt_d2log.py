"""detectron2's and fvcore's logger header (`[03/12 10:11:12 d2.engine.launch]: ...`): its month
and day with the time, the logger's name, and the level word only for a warning or an error.
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter
from analyzers.formats.timestamps import PartialTime
from analyzers.ingest.textio import clean_text

ERROR = "ERROR [03/12 10:11:12 d2.engine.launch]: Process group URL: tcp://127.0.0.1:50152"
WARNING = (
    "WARNING [03/12 10:11:13 fvcore.common.checkpoint]: Some model parameters or buffers are"
    " not found in the checkpoint:"
)
INFO = "[03/12 10:11:14 d2.engine.train_loop]: Starting training from iteration 0"
FILE = "[03/12 10:11:15] d2.engine.hooks INFO: Overall training speed: 8 iterations"


@pytest.mark.parametrize(
    ("text", "level", "module", "message_start", "second"),
    [
        (ERROR, "ERROR", "d2.engine.launch", "Process group URL", 12),
        (WARNING, "WARNING", "fvcore.common.checkpoint", "Some model parameters", 13),
        (INFO, "INFO", "d2.engine.train_loop", "Starting training", 14),
        (FILE, "INFO", "d2.engine.hooks", "Overall training speed", 15),
    ],
    ids=["console-error", "console-warning", "console-info", "log-file"],
)
def test_the_level_time_and_logger_are_read(
    text: str, level: str, module: str, message_start: str, second: int
) -> None:
    line = parse_line(text)
    assert line.level == level
    assert line.tags.get("module") == module
    assert line.message.startswith(message_start)
    assert line.time == PartialTime(3, 12, 10, 11, second)


def test_a_coloured_console_line_reads_like_a_plain_one() -> None:
    coloured = "\x1b[5m\x1b[31mERROR\x1b[0m \x1b[32m[03/12 10:11:12 d2.engine.launch]: \x1b[0mboom"
    line = parse_line(clean_text(coloured))
    assert (line.level, line.message) == ("ERROR", "boom")


def test_an_information_line_is_noise() -> None:
    assert classify(parse_line(INFO), load_prefilter()) is None


def test_a_bracketed_time_of_another_writer_is_left_alone() -> None:
    assert parse_line("[03/12 10:11:12 rank 3] hello").source is None


def test_an_error_line_counts_by_its_level_word() -> None:
    assert classify(parse_line(ERROR), load_prefilter()) is EventKind.ERROR
