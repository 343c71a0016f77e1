"""A kernel's bad access as CUDA's memory checker reports it, read as one event.

    ========= COMPUTE-SANITIZER
    ========= Invalid __global__ read of size 4 bytes                  <- the report: what failed
    =========     at ncclDevKernel_AllReduce_Sum_u8_RING_LL(...)+0x1ad0 <- whose kernel
    =========     by thread (0,0,0) in block (0,0,0)                   <- where in the grid
    =========     Address 0x7f4ac0200000 is out of bounds              <- why the address is bad
    =========     Saved host backtrace up to driver entry point ...    <- host frames: not kept

compute-sanitizer (cuda-memcheck in older toolkits) prefixes every line it writes with
`=========`; a report's detail lines are indented further under that prefix. The first line
states the failure with no error word, and the kernel it names is only on the next line, so
the report becomes one ERROR event at its first line whose message carries the kernel, the
thread and the address reason too (the cited text stays the first line). The rule that reads
it (`dev.memory_checker_invalid_access`) offers the collective layer when that kernel is a
collective library's own. docs/labelling.md#a-kernel-access-a-memory-checker-reports
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzers.core.types import EventKind
from analyzers.formats.base import QUIET_LEVELS, ParsedLine
from analyzers.formats.sink import Sink

_REPORT = re.compile(
    r"^\s*=+\s+(?:Invalid __(?:global|shared|local|generic)__ (?:read|write|atomic) of size \d+"
    r" bytes?\b|(?:Misaligned|Out-of-range) Shared or Local Address\b)"
)
_DETAIL = re.compile(r"^\s*=+ {2,}(?P<detail>\S.*?)\s*$")
_HOST_FRAMES = "Saved host backtrace"  # the host side of the launch: where, not what failed
_MAX_DETAILS = 4


@dataclass(slots=True)
class _Open:
    lineno: int
    line: ParsedLine
    details: list[str] = field(default_factory=list)


class MemoryCheckerTracker:
    def __init__(self) -> None:
        self._open: dict[str, _Open] = {}

    def wants_more(self) -> bool:
        return bool(self._open)

    def feed(self, lineno: int, line: ParsedLine, sink: Sink) -> bool:
        key, message = line.stream_key, line.message
        head = self._open.get(key)
        if head is not None:
            detail = _DETAIL.match(message)
            if detail is not None and not detail["detail"].startswith(_HOST_FRAMES):
                if len(head.details) < _MAX_DETAILS:
                    head.details.append(detail["detail"])
                return True
            self.close(key, sink)
        if line.level in QUIET_LEVELS or not _REPORT.match(message):
            return False
        self._open[key] = _Open(lineno, line)
        return True

    def close(self, key: str, sink: Sink) -> None:
        head = self._open.pop(key, None)
        if head is None:
            return
        message = " ".join([head.line.message.strip(), *head.details])
        sink.emit(head.lineno, head.line, EventKind.ERROR, message=message)

    def close_all(self, sink: Sink) -> None:
        for key in list(self._open):
            self.close(key, sink)
