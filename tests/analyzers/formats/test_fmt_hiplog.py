"""The ROCm runtime's debug log (`AMD_LOG_LEVEL`): the number after the first colon is the
level the runtime chose, so an error line is an error whatever its words and an information
line that quotes a returned error code is not.
docs/labelling.md#operator-installation-or-platform-limit
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter

ERROR_LINE = (
    ":1:hip_fatbin.cpp           :117 : 4411020301 us: [pid:5120 tid:0x7f11c2a4b740]"
    " Missing CO for these ISAs - "
)
INFO_RETURN = (
    ":3:hip_platform.cpp         :715 : 4411020310 us: [pid:5120 tid:0x7f11c2a4b740]"
    " init: Returned hipErrorNoBinaryForGpu : continue parsing remaining modules"
)
SPACED_TID = (
    ":2:rocdevice.cpp            :3010: 4411020400 us: [pid:5120 tid: 0x7f11c2a4b740]"
    " queue is nearly full"
)
ALWAYS_PRINTED = (
    ":0:rocdevice.cpp            :3020: 4411020500 us: [pid:5120 tid: 0x7f0ff3fff640]"
    " Callback: Queue 0x7f0e8c200000 aborting with error : HSA_STATUS_ERROR_EXCEPTION:"
    " An HSAIL operation resulted in a hardware exception. code: 0x1016"
)


@pytest.mark.parametrize(
    ("text", "level", "message_start"),
    [
        (ERROR_LINE, "ERROR", "Missing CO for these ISAs"),
        (INFO_RETURN, "INFO", "init: Returned hipErrorNoBinaryForGpu"),
        (SPACED_TID, "WARNING", "queue is nearly full"),
        (ALWAYS_PRINTED, None, "Callback: Queue"),
    ],
)
def test_the_runtime_level_number_is_read(text: str, level: str | None, message_start: str) -> None:
    line = parse_line(text)
    assert line.level == level
    assert line.message.startswith(message_start)
    assert line.pid == 5120


def test_an_error_line_without_error_words_is_an_error() -> None:
    assert classify(parse_line(ERROR_LINE), load_prefilter()) is EventKind.ERROR


def test_an_information_line_that_quotes_a_returned_code_is_noise() -> None:
    assert classify(parse_line(INFO_RETURN), load_prefilter()) is None


def test_a_line_printed_at_every_setting_is_read_by_its_words() -> None:
    assert classify(parse_line(ALWAYS_PRINTED), load_prefilter()) is EventKind.ERROR


def test_a_line_that_only_starts_with_a_colon_and_a_digit_is_not_the_runtime_log() -> None:
    line = parse_line(":1: warning: unused variable 'x'")
    assert line.source != "hiplog"
