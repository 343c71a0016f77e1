"""scan.lazy_tail: a file's last lines are parsed only when a reader asks for them."""

from __future__ import annotations

import pytest

from analyzers.formats.lines import parse_line
from analyzers.scan.lazy_tail import LazyTail

RAW = [
    (7, b"[default0]:2026-11-29 07:24:00,023 [rank0] INFO  norm passed"),
    (8, b"[default0]:2026-11-29 07:24:00,031 [rank0] ERROR step 9 failed"),
]


def _tail() -> tuple[LazyTail, list[bytes]]:
    parsed: list[bytes] = []

    def parse(raw: bytes):  # type: ignore[no-untyped-def]
        parsed.append(raw)
        return parse_line(raw.decode())

    return LazyTail(RAW, parse), parsed


def test_only_the_lines_asked_for_are_parsed_and_each_once() -> None:
    tail, parsed = _tail()
    assert tail[-1][0] == 8
    assert tail[1][1].level == "ERROR"
    assert parsed == [RAW[1][1]]


def test_it_reads_like_the_list_of_parsed_lines() -> None:
    tail, _ = _tail()
    assert len(tail) == 2
    assert [n for n, _ in tail] == [7, 8]
    assert [n for n, _ in reversed(tail)] == [8, 7]
    assert [n for n, _ in tail[1:]] == [8]
    with pytest.raises(IndexError):
        tail[2]
