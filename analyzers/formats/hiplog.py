"""The ROCm runtime's own debug log (HIP and ROCclr, switched on with `AMD_LOG_LEVEL=N`):

    :1:hip_fatbin.cpp           :117 : 8802962845 us: [pid:19349 tid:0x14dec9d33080] Missing CO for these ISAs -
    :3:hip_platform.cpp         :715 : 8802962852 us: [pid:19349 tid:0x14dec9d33080] init: Returned hipErrorNoBinaryForGpu : continue parsing remaining modules

The number between the first two colons is the level the runtime wrote the line at: 1 an
error, 2 a warning, 3 information (every API call and what it returned, errors included, as
the runtime goes on), 4 and 5 debugging detail. 0 is what the runtime prints whatever the
setting (its abort callback among them), so such a line has no level and its words decide.
Then the source file padded to a column, its line, a microsecond counter that is no wall-clock
time, and the process and thread (`tid: 0x...` in some releases).
"""

from __future__ import annotations

from analyzers.formats.base import header

NAME = "hiplog"

LEVELS = (("1", "ERROR"), ("2", "WARNING"), ("3", "INFO"), ("4", "DEBUG"), ("5", "DEBUG"))

HEADERS = (
    header(
        NAME,
        r":(?P<level>[0-5]):[\w.-]+\.(?:cpp|cc|hpp|h)\s*:\s*\d+\s*:\s*\d+ us:\s*"
        r"(?:\[pid:(?P<pid>\d+) tid:\s*0x[0-9a-f]+\]\s?)?",
        LEVELS,
    ),
)
