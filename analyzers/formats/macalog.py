"""MetaX's MACA stack logs through one header in its runtime (MCR), its kernel-mode driver
wrapper (MXKW) and the libraries on them, written to the job's stderr:

    [16:21:04.331][MCR][E]mx_device.cpp :10106: trapping: kernelName: mm_kernel ,commandIndex: 2555 , trapType: Memory Violation(0x4)
    [07:58:46.633][MXKW][E]queues.c                :925 : [mxkwAllocRingBuff]ioctl alloc ringbuffer failed -1

The time of day in brackets (no date), the component in capitals, the level letter (`E` an
error, `W` a warning, `I` and `D` information and debugging detail), then the source file
padded to a column and its line, each closed by a colon. The message follows. The level is the
writer's, so an error line counts whatever its words: the runtime's trap report names no
failure word at all. The time carries no date and is left unread; the line keeps its place in
the file. The component is kept as the line's `module` tag.
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "logging"  # a levelled header like Python logging's: the level field is the writer's

LEVELS = (("E", "ERROR"), ("W", "WARNING"), ("I", "INFO"), ("D", "DEBUG"))

HEADERS = (
    header(
        NAME,
        r"\[\d\d:\d\d:\d\d\.\d{3,6}\]\[(?P<module>[A-Z][A-Z0-9]{1,7})\]\[(?P<level>[EWID])\]"
        r"[\w.-]+\.(?:cpp|cc|c|hpp|h)\s*:\s*\d+\s*:\s?",
        LEVELS,
    ),
)
