"""One page of a bundle file around a line: the evidence log viewer's model.

Lines come from the run's line store when the analysis kept one (a seek and one
block's decompression, however big the file), otherwise by streaming the member out
of the stored bundle, which is slow for big files and says so on the page.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol

from django.utils.translation import gettext

from analyzers import BundleError
from analyzers.ingest.bundle import open_member
from analyzers.scan.linestore import LineStoreReader
from incidents.evidence import ansi

PAGE_LINES = 200
LINE_CHARS = 4000  # a longer line is cut on the page (it is still whole in the file)
STREAM_LIMIT_BYTES = 256 * 1024 * 1024  # without an index, read at most this far in
ERROR_MARK = "error"
ROW_MARKS = ("error", "warning", "checkpoint")


class FileNotInBundle(LookupError):
    """The path names no file of the bundle (or one the analysis never saw)."""


class LineSource(Protocol):
    total_lines: int | None  # None when unknown (streaming without an index)
    marks: Mapping[str, Sequence[int]]  # kind → sorted line numbers
    note: str

    def lines(self, start: int, count: int) -> tuple[list[tuple[int, str]], bool]:
        """Lines start..start+count-1 and whether more follow."""


@dataclass(slots=True)
class StoreSource:
    """The seekable copy written while the analysis scanned the file."""

    reader: LineStoreReader
    note: str = ""
    marks: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.marks = {kind: sorted(lines) for kind, lines in self.reader.marks.items()}

    @property
    def total_lines(self) -> int:
        return self.reader.total_lines

    def lines(self, start: int, count: int) -> tuple[list[tuple[int, str]], bool]:
        rows = self.reader.lines(start, count)
        return rows, start + count <= self.reader.total_lines


@dataclass(slots=True)
class BundleSource:
    """Streams the member from the bundle archive: no index, so reading is linear."""

    bundle_path: str
    member: str
    marks: dict[str, list[int]]
    total_lines: int | None = None
    note: str = field(
        default_factory=lambda: gettext(
            "Line index not available for this analysis: the file is read from the bundle, "
            "which is slow for big files. Analyze again to build the index."
        )
    )

    def lines(self, start: int, count: int) -> tuple[list[tuple[int, str]], bool]:
        try:
            with open_member(self.bundle_path, self.member) as stream:
                return _window(_numbered_lines(stream), start, count)
        except BundleError as error:
            raise FileNotInBundle(str(error)) from error


def _numbered_lines(stream: BinaryIO) -> Iterator[tuple[int, str]]:
    consumed = 0
    for number, raw in enumerate(stream, start=1):
        consumed += len(raw)
        if consumed > STREAM_LIMIT_BYTES:
            raise StreamLimitReached(number)
        yield number, raw.rstrip(b"\r\n").decode("utf-8", "replace")


class StreamLimitReached(Exception):
    """Line `args[0]` lies beyond what is read without an index."""


def _window(
    numbered: Iterator[tuple[int, str]], start: int, count: int
) -> tuple[list[tuple[int, str]], bool]:
    rows: list[tuple[int, str]] = []
    for number, text in numbered:
        if number < start:
            continue
        if len(rows) == count:
            return rows, True
        rows.append((number, text))
    return rows, False


# --- the page ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    number: int
    segments: list[ansi.Segment]
    css: str  # "target", "mark-error", ...
    cut: int = 0  # characters not shown


@dataclass(slots=True)
class Page:
    rows: list[Row]
    start: int
    target: int | None
    total_lines: int | None
    has_more: bool
    prev_start: int | None
    next_start: int | None
    last_start: int | None
    prev_error: int | None
    next_error: int | None
    error_count: int
    note: str = ""


def first_line_of_page(target: int | None, start: int | None, total: int | None) -> int:
    """The window's first line: `start` if given, else `target` in the window's middle."""
    if start is None:
        start = target - PAGE_LINES // 2 if target else 1
    if total is not None:
        start = min(start, total - PAGE_LINES + 1)
    return max(1, start)


def build_page(source: LineSource, target: int | None, start: int | None) -> Page:
    first = first_line_of_page(target, start, source.total_lines)
    try:
        numbered, has_more = source.lines(first, PAGE_LINES)
        note = source.note
    except StreamLimitReached as limit:
        numbered, has_more = [], False
        note = gettext("Line %(line)s and later cannot be read without the line index.") % {
            "line": limit.args[0]
        }
    errors = source.marks.get(ERROR_MARK, [])
    prev_error, next_error = error_neighbours(errors, target or first)
    total = source.total_lines
    return Page(
        rows=[_row(number, text, target, source.marks) for number, text in numbered],
        start=first,
        target=target,
        total_lines=total,
        has_more=has_more,
        prev_start=max(1, first - PAGE_LINES) if first > 1 else None,
        next_start=first + PAGE_LINES if has_more else None,
        last_start=max(1, total - PAGE_LINES + 1) if total and has_more else None,
        prev_error=prev_error,
        next_error=next_error,
        error_count=len(errors),
        note=note,
    )


def error_neighbours(errors: Sequence[int], anchor: int) -> tuple[int | None, int | None]:
    """The error lines just before and just after `anchor` (sorted `errors`)."""
    i = bisect.bisect_left(errors, anchor)
    j = bisect.bisect_right(errors, anchor)
    return (errors[i - 1] if i > 0 else None, errors[j] if j < len(errors) else None)


def _row(number: int, text: str, target: int | None, marks: Mapping[str, Sequence[int]]) -> Row:
    cut = max(0, len(text) - LINE_CHARS)
    classes = [f"mark-{kind}" for kind in ROW_MARKS if _has(marks.get(kind, ()), number)]
    if number == target:
        classes.insert(0, "target")
    return Row(number, ansi.segments(text[:LINE_CHARS]), " ".join(classes), cut)


def _has(lines: Sequence[int], number: int) -> bool:
    i = bisect.bisect_left(lines, number)
    return i < len(lines) and lines[i] == number


# --- finding the source of a member --------------------------------------------------------


def marks_from_report(report: Mapping[str, Any] | None, member: str) -> dict[str, list[int]]:
    """Error lines the report cites in one file: the fallback when no index exists."""
    if not report:
        return {}
    refs: list[Mapping[str, Any]] = []
    diagnosis = report.get("diagnosis") or {}
    refs.append(diagnosis.get("first_error") or {})
    refs += [r.get("first_error") or {} for r in report.get("ranks") or []]
    refs += [e.get("ref") or {} for e in diagnosis.get("evidence") or []]
    lines = {int(r["line"]) for r in refs if r.get("file") == member and r.get("line")}
    return {ERROR_MARK: sorted(lines)} if lines else {}
