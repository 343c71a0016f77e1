"""tt-metal's `time | level | component |` logger (`formats.ttlog`), under ttnn, tt-xla and
vLLM's Tenstorrent worker. docs/labelling.md#runtimes-of-other-accelerators
"""

from __future__ import annotations

from datetime import datetime

import pytest

from analyzers.formats.lines import parse_line

TT_CRITICAL = (
    "2026-01-09 14:02:11.876 | critical |          Always | Error during physical chip"
    " discovery: missing connections in 2D mesh. Please check ethernet connection status"
    " (assert.hpp:103)"
)
TT_INFO = (
    "2026-01-09 14:02:10.311 | info     |          Device | Opening user mode device driver"
    " (tt_cluster.cpp:189)"
)


@pytest.mark.parametrize(
    ("line", "level", "message_start"),
    [
        (TT_CRITICAL, "CRITICAL", "Error during physical chip discovery"),
        (TT_INFO, "INFO", "Opening user mode device driver"),
    ],
)
def test_the_header_gives_level_and_message(line, level, message_start):
    parsed = parse_line(line)
    assert parsed.level == level
    assert parsed.message.startswith(message_start), parsed.message


def test_the_time_is_read():
    assert parse_line(TT_CRITICAL).time == datetime(2026, 1, 9, 14, 2, 11, 876000)
