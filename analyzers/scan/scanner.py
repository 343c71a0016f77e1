"""The scanner side of `analyzers.scan.parallel`: what one scanner process runs.

A scanner reads jobs (a file's info, then its bytes in chunks, then an empty chunk) from
its job pipe and writes each result to its own result pipe. Results go out through a
thread, so the scanner never blocks on a parent that is busy feeding it the next file; the
result pipe has one writer (this process), so its death shows as end-of-file to the
parent instead of a half-written message on a queue shared with the other scanners.
"""

from __future__ import annotations

import io
import queue
import threading
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, BinaryIO

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.types import FileInfo, FileScan
from analyzers.ingest.bare_cr import BareCrLines
from analyzers.ingest.gb18030 import Gb18030Text
from analyzers.ingest.utf16 import Utf16Text
from analyzers.scan.lifetime import tie_to_parent
from analyzers.scan.linestore import LineStoreWriter, TeeReader
from analyzers.scan.member import scan_file

CHUNK = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ScanSettings:
    patterns: tuple[str, ...] = ()
    store_dir: str | None = None  # where to keep a seekable copy of each file (log viewer)


def scan_one(
    stream: BinaryIO, info: FileInfo, matcher: CheckpointMatcher, store_dir: str | None
) -> FileScan:
    """Scan one stream, teeing its bytes into the line store when one is wanted. Both see
    the same lines: a file whose line ends are bare carriage returns is read as lines
    before either splits it, and so is a UTF-16, GBK or GB18030 file (as the UTF-8 text it
    holds)."""
    stream = BareCrLines(Gb18030Text(Utf16Text(stream)))  # type: ignore[assignment]
    if store_dir is None:
        return scan_file(stream, info, matcher)
    writer = LineStoreWriter(store_dir, info.path)
    tee = TeeReader(stream, writer)
    scan = scan_file(tee, info, matcher)  # type: ignore[arg-type]
    while tee.read(CHUNK):  # keep the copy whole even if the scanner stopped early
        pass
    writer.close(_marks(scan))
    return scan


def _marks(scan: FileScan) -> dict[str, list[int]]:
    marks: dict[str, list[int]] = {}
    for event in scan.events:
        marks.setdefault(str(event.kind), []).append(event.line)
    return marks


def worker_main(
    jobs: Connection, results: Connection, settings: ScanSettings, parent_pid: int
) -> None:
    tie_to_parent(parent_pid)  # never outlive a parent killed at a time limit
    sender = _ResultSender(results)
    matcher = CheckpointMatcher(settings.patterns)
    while (job := jobs.recv()) is not None:
        order, info, store_dir = job  # store_dir: None once the line store's budget is spent
        reader = PipeReader(jobs)
        try:
            scan = scan_one(io.BufferedReader(reader, CHUNK), info, matcher, store_dir)
            sender.put((order, scan, None))
        except Exception:
            sender.put((order, None, f"{info.path}: {traceback.format_exc()}"))
        reader.drain()
    sender.finish()


class PipeReader(io.RawIOBase):
    """A read-only file over chunks sent through a pipe, ended by an empty chunk."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._buffer = b""
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self._buffer and not self._done:
            self._buffer = self._conn.recv_bytes()
            self._done = not self._buffer
        size = min(len(target), len(self._buffer))
        target[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size

    def drain(self) -> None:
        while not self._done:
            self._done = not self._conn.recv_bytes()


class _ResultSender:
    _END = object()

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def put(self, result: tuple[int, FileScan | None, str | None]) -> None:
        self._queue.put(result)

    def finish(self) -> None:
        """Wait until every result is written (the parent reads them all before it asks
        the scanner to stop, so this returns at once in practice)."""
        self._queue.put(self._END)
        self._thread.join()

    def _run(self) -> None:
        while (item := self._queue.get()) is not self._END:
            try:
                self._conn.send(item)
            except OSError:
                return  # the parent is gone; tie_to_parent ends this process
