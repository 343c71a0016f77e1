"""Scan bundle members on all cores while the archive is read exactly once.

A `.tar.gz` can only be read front to back, so the parent process decompresses and streams
each member's bytes through a pipe to one worker process, which runs `scan_file` on them as
if reading a file. Each new member goes to the worker with the fewest bytes still queued,
so one huge rank log does not stall the others. Nothing is written to disk and each worker
holds only one chunk at a time.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import multiprocessing as mp
import os
import queue
import threading
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, BinaryIO

from analyzers.bundle import Member
from analyzers.checkpoints import CheckpointMatcher
from analyzers.layout import classify_path
from analyzers.lifetime import children_allowed, tie_to_parent
from analyzers.linestore import LineStoreWriter, TeeReader
from analyzers.memtune import reuse_freed_buffers
from analyzers.scan import scan_file
from analyzers.types import FileInfo, FileScan

CHUNK = 1024 * 1024
POLL_S = 1.0  # how often a waiting parent checks that its workers are alive
BUFFER_CHUNKS = 32  # per worker: how far (in MiB) the parent may read ahead of it
# Members smaller than this are scanned in the parent: the pipe round trip would cost more.
INLINE_LIMIT = 256 * 1024

OnScanned = Callable[[FileScan], None]


def member_info(member: Member) -> FileInfo:
    kind, rank = classify_path(member.path)
    return FileInfo(path=member.path, kind=kind, rank=rank, size_bytes=member.size)


@dataclass(frozen=True, slots=True)
class ScanSettings:
    patterns: tuple[str, ...] = ()
    store_dir: str | None = None  # where to keep a seekable copy of each file (log viewer)


def scan_members(
    members: Iterable[Member],
    settings: ScanSettings,
    workers: int,
    on_scanned: OnScanned | None = None,
) -> list[FileScan]:
    """Scan every member; results come back in bundle order."""
    workers = workers or usable_cpus()
    reuse_freed_buffers()  # forked scanners inherit the setting
    if workers <= 1:
        return _scan_inline(members, settings, on_scanned)
    with _WorkerPool(workers, settings) as pool:
        return pool.scan_all(members, on_scanned)


def usable_cpus() -> int:
    """CPUs this process may run on: a container's cpuset, not the host's count."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def scan_one(
    stream: BinaryIO, info: FileInfo, matcher: CheckpointMatcher, store_dir: str | None
) -> FileScan:
    """Scan one stream, teeing its bytes into the line store when one is wanted."""
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


def _scan_inline(
    members: Iterable[Member], settings: ScanSettings, on_scanned: OnScanned | None
) -> list[FileScan]:
    matcher = CheckpointMatcher(settings.patterns)
    scans = []
    for member in members:
        with member.open() as stream:
            scan = scan_one(stream, member_info(member), matcher, settings.store_dir)
        scans.append(scan)
        if on_scanned:
            on_scanned(scan)
    return scans


class _PipeReader(io.RawIOBase):
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


def _worker_main(conn: Connection, results: Any, settings: ScanSettings, parent_pid: int) -> None:
    tie_to_parent(parent_pid)  # never outlive a parent killed at a time limit
    results.cancel_join_thread()  # exiting must not wait for a parent that stopped reading
    matcher = CheckpointMatcher(settings.patterns)
    while True:
        job = conn.recv()
        if job is None:
            return
        order, info = job
        reader = _PipeReader(conn)
        try:
            stream = io.BufferedReader(reader, CHUNK)
            scan = scan_one(stream, info, matcher, settings.store_dir)
            results.put((order, scan, None))
        except Exception:
            results.put((order, None, f"{info.path}: {traceback.format_exc()}"))
        reader.drain()


class _Notifying(dict[int, FileScan]):
    """Calls back as each scan arrives, whichever process finished it."""

    def __init__(self, on_scanned: OnScanned | None) -> None:
        super().__init__()
        self._on_scanned = on_scanned

    def __setitem__(self, order: int, scan: FileScan) -> None:
        super().__setitem__(order, scan)
        if self._on_scanned:
            self._on_scanned(scan)


class _Worker:
    """One scanner process, fed by a thread so the parent never waits on a busy worker.

    The parent decompresses the archive once, in order; if it wrote each member straight
    into a pipe, it would stall whenever the receiving worker was busy while the other one
    idled. Each worker has a bounded outbox instead (BUFFER_CHUNKS MiB at most), emptied
    into its pipe by a sender thread.
    """

    def __init__(self, process: Any, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.queued = 0  # bytes handed to this worker and not yet scanned
        self._outbox: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=BUFFER_CHUNKS)
        self._sender = threading.Thread(target=self._send_loop, daemon=True)
        self._sender.start()

    def put_job(self, job: Any) -> None:
        self._put(("job", job))

    def put_bytes(self, chunk: bytes) -> None:
        self._put(("bytes", chunk))

    def raise_if_dead(self) -> None:
        if not self.process.is_alive():
            raise RuntimeError(
                f"a log scanner process died (exit code {self.process.exitcode}): "
                "it was killed, perhaps by the out-of-memory killer"
            )

    def _put(self, item: tuple[str, Any]) -> None:
        while True:
            try:
                self._outbox.put(item, timeout=POLL_S)
                return
            except queue.Full:
                self.raise_if_dead()

    def close(self) -> None:
        with contextlib.suppress(queue.Full):  # a dead worker's outbox may stay full
            self._outbox.put(("job", None), timeout=POLL_S)
        self._sender.join(timeout=30)

    def _send_loop(self) -> None:
        while True:
            what, item = self._outbox.get()
            try:
                if what == "bytes":
                    self.conn.send_bytes(item)
                else:
                    self.conn.send(item)
            except (BrokenPipeError, OSError):
                return  # the worker died; the parent notices the missing result
            if what == "job" and item is None:
                return


def _widen(conn: Connection) -> None:
    """Grow a pipe to hold a whole chunk (Linux): with the default 64 KiB, every MiB sent
    costs 16 wake-ups of the reader."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(conn.fileno(), fcntl.F_SETPIPE_SZ, CHUNK)


class _WorkerPool:
    def __init__(self, size: int, settings: ScanSettings) -> None:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self._results = ctx.Queue()
        self._settings = settings
        self._matcher = CheckpointMatcher(settings.patterns)
        self._workers = [self._start(ctx) for _ in range(size)]
        self._pending: dict[int, tuple[int, int]] = {}

    def _start(self, ctx: Any) -> _Worker:
        child, parent = ctx.Pipe(duplex=False)  # one way: the parent only sends
        _widen(parent)
        args = (child, self._results, self._settings, os.getpid())
        process = ctx.Process(target=_worker_main, args=args, daemon=True)
        with children_allowed():  # e.g. in a Celery pool child: see analyzers/lifetime.py
            process.start()
        child.close()
        return _Worker(process, parent)

    def __enter__(self) -> _WorkerPool:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:  # failed or interrupted (a soft time limit): stop them now
            for worker in self._workers:
                worker.process.terminate()
        for worker in self._workers:
            worker.close()
        for worker in self._workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.terminate()

    def scan_all(self, members: Iterable[Member], on_scanned: OnScanned | None) -> list[FileScan]:
        done: dict[int, FileScan] = _Notifying(on_scanned)
        total = 0
        for order, member in enumerate(members):
            total = order + 1
            info = member_info(member)
            if 0 < member.size < INLINE_LIMIT:
                with member.open() as stream:
                    done[order] = scan_one(stream, info, self._matcher, self._settings.store_dir)
            else:
                self._send(order, member, info)
            self._collect(done, block=False)
        while len(done) < total:
            self._collect(done, block=True)
        return [done[i] for i in range(total)]

    def _check_alive(self) -> None:
        """A worker killed mid-file (OOM killer, SIGKILL) sends no result: fail, don't hang."""
        for worker in self._workers:
            worker.raise_if_dead()

    def _send(self, order: int, member: Member, info: FileInfo) -> None:
        index = min(range(len(self._workers)), key=lambda i: self._workers[i].queued)
        worker = self._workers[index]
        worker.put_job((order, info))
        sent = 0
        with member.open() as stream:
            while chunk := stream.read(CHUNK):
                worker.put_bytes(chunk)
                sent += len(chunk)
                worker.queued += len(chunk)
        worker.put_bytes(b"")
        self._pending[order] = (index, sent)

    def _collect(self, done: dict[int, FileScan], *, block: bool) -> None:
        while block or not self._results.empty():
            try:
                order, scan, error = self._results.get(timeout=POLL_S)
            except queue.Empty:
                self._check_alive()
                continue
            if error:
                raise RuntimeError(f"scanning failed in a worker process: {error}")
            done[order] = scan
            index, sent = self._pending.pop(order)
            self._workers[index].queued -= sent
            block = False
