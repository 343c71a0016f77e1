"""MetaX's MACA runtime and driver header (`[time][COMPONENT][E]file.cpp :line: ...`): the
level letter is the writer's, so an error line counts whatever its words and an information
line does not. docs/labelling.md#runtimes-of-other-accelerators
"""

from __future__ import annotations

import pytest

from analyzers.core.types import EventKind
from analyzers.formats.blockfilter import FOLD, BlockFilter
from analyzers.formats.lines import parse_line
from analyzers.formats.severity import classify, load_prefilter

TRAP = (
    "[02:17:45.093][MCR][E]mx_device.cpp :10106: trapping: kernelName: rms_norm_kernel"
    " ,commandIndex: 88 , trapType: Memory Violation(0x4)"
)
DRIVER = (
    "[02:17:46.110][MXKW][E]queues.c                :925 : [mxkwAllocRingBuff]ioctl alloc"
    " ringbuffer failed -1"
)
INFO = "[02:17:40.002][MCR][I]mx_device.cpp :412 : device 3 opened, 64 GiB"
WARNING = "[02:17:40.007][MCR][W]mc_runtime_api.cpp :87 : queue depth capped at 16"


@pytest.mark.parametrize(
    ("text", "level", "module", "message_start"),
    [
        (TRAP, "ERROR", "MCR", "trapping: kernelName: rms_norm_kernel"),
        (DRIVER, "ERROR", "MXKW", "[mxkwAllocRingBuff]ioctl"),
        (INFO, "INFO", "MCR", "device 3 opened"),
        (WARNING, "WARNING", "MCR", "queue depth capped"),
    ],
)
def test_the_level_letter_and_component_are_read(
    text: str, level: str, module: str, message_start: str
) -> None:
    line = parse_line(text)
    assert line.level == level
    assert line.tags.get("module") == module
    assert line.message.startswith(message_start)


def test_an_error_line_without_error_words_is_an_error() -> None:
    assert classify(parse_line(TRAP), load_prefilter()) is EventKind.ERROR


def test_an_information_line_is_noise() -> None:
    assert classify(parse_line(INFO), load_prefilter()) is None


def test_an_error_line_with_a_short_line_number_is_a_prefilter_candidate() -> None:
    line = "[02:17:45.093][MCR][E]mx_device.cpp :61: stream 2 stopped by the device\n"
    block = f"warm-up step 4 done\n{line}".encode()
    hits = BlockFilter.build(load_prefilter(), None).candidates(block.translate(FOLD))
    assert block.index(line.encode()) in hits


def test_a_bracketed_index_in_code_is_not_the_header() -> None:
    line = parse_line("grid[i][E] = value  # mx_device.cpp :12:")
    assert line.level is None
