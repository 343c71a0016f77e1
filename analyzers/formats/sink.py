"""The interface multi-line parsers use to hand results back to the scanner."""

from __future__ import annotations

from typing import Any, Protocol

from analyzers.core.types import Event, EventKind
from analyzers.formats.base import ParsedLine


class Sink(Protocol):
    def emit(
        self,
        lineno: int,
        line: ParsedLine,
        kind: EventKind,
        *,
        source: str | None = None,
        message: str | None = None,
        rank: int | None = None,
    ) -> Event: ...

    def add_fact(self, topic: str, value: Any) -> None: ...

    def lookback(self, lineno: int, count: int) -> list[tuple[int, str]]:
        """Up to `count` physical lines before `lineno`, nearest last (may be fewer)."""
        ...
