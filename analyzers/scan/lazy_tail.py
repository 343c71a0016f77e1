"""A file's last lines, each parsed only when a reader asks for it.

The end readers look at the lines a file ends on (`formats.native_frames` reads a plog's
from its end and stops at its first line that is no frame); a job's thousand plogs each
parsing the tail they keep, where one or two lines decide, was a fortieth of its analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import overload

from analyzers.formats.base import ParsedLine


class LazyTail(Sequence[tuple[int, ParsedLine]]):
    """`(line number, parsed line)` of each `(line number, raw line)`, parsed once when
    first asked for."""

    def __init__(
        self, raw: Sequence[tuple[int, bytes]], parse: Callable[[bytes], ParsedLine]
    ) -> None:
        self._raw = raw
        self._parse = parse
        self._parsed: dict[int, tuple[int, ParsedLine]] = {}

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> tuple[int, ParsedLine]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, ParsedLine]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ParsedLine] | list:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # negative indexes, and IndexError past the end
        found = self._parsed.get(index)
        if found is None:
            number, raw = self._raw[index]
            found = self._parsed[index] = (number, self._parse(raw))
        return found
