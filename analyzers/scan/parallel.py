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
import gc
import multiprocessing as mp
import os
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, BinaryIO, NoReturn

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.checkpoints.track import CheckpointTrack
from analyzers.core.cpus import usable_cpus
from analyzers.core.types import FileInfo, FileScan
from analyzers.ingest.bundle import Member
from analyzers.ingest.layout import classify_path
from analyzers.scan.lifetime import children_allowed
from analyzers.scan.memtune import reuse_freed_buffers
from analyzers.scan.scanner import CHUNK, ScanSettings, scan_one, worker_main
from analyzers.scan.store_budget import UNLIMITED, StoreBudget

POLL_S = 1.0  # how often a waiting parent checks that its workers are alive
# Per worker: how far (in MiB) the parent may read ahead of it. A few MiB keep both scanners
# busy (a member is handed whole to the least-loaded one); each MiB more is parent memory.
BUFFER_CHUNKS = 8
# Members smaller than this are scanned in the parent: the pipe round trip would cost more.
# (A 100 KiB log of checkpoint lines takes milliseconds to read: worth a scanner process.)
INLINE_LIMIT = 32 * 1024

OnScanned = Callable[[FileScan], None]


def member_info(member: Member) -> FileInfo:
    kind, rank = classify_path(member.path)
    return FileInfo(
        path=member.path, kind=kind, rank=rank, size_bytes=member.size, modified=member.modified
    )


def listed_size(info: FileInfo, stream: BinaryIO) -> None:
    """A member read through an inflater (a `.gz` log, gzip under a plain name) is listed at
    the size it inflated to: its stated size is that of its compressed bytes, or 0 for a
    `.gz` member, and says nothing of the text that was read."""
    inflated = getattr(stream, "inflated_size", None)
    if inflated is not None:
        info.size_bytes = inflated


def scan_members(
    members: Iterable[Member],
    settings: ScanSettings,
    workers: int,
    on_scanned: OnScanned | None = None,
    store: StoreBudget | None = None,
) -> list[FileScan]:
    """Scan every member; results come back in bundle order. `store` decides which files
    get a copy in the line store (default: all, into `settings.store_dir`)."""
    workers = workers or usable_cpus()
    store = store or StoreBudget(settings.store_dir, UNLIMITED)
    reuse_freed_buffers()  # forked scanners inherit the setting
    if workers <= 1:
        return _scan_inline(members, settings, on_scanned, store)
    with _WorkerPool(workers, settings, store) as pool:
        scans = pool.scan_all(members, on_scanned)
    # Tracks arrive compressed and stay so while the scanners live (the analysis's peak).
    for scan in scans:
        if isinstance(track := scan.facts.get("checkpoints"), CheckpointTrack):
            track.unpack()
    return scans


def _scan_inline(
    members: Iterable[Member],
    settings: ScanSettings,
    on_scanned: OnScanned | None,
    store: StoreBudget,
) -> list[FileScan]:
    matcher = CheckpointMatcher(settings.patterns)
    scans = []
    for member in members:
        store_dir = store.dir_for(member.path)
        with member.open() as stream:
            scan = scan_one(stream, member_info(member), matcher, store_dir)
            listed_size(scan.info, stream)
        store.add(member.path, store_dir)
        scans.append(scan)
        if on_scanned:
            on_scanned(scan)
    return scans


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

    def __init__(self, process: Any, conn: Connection, results: Connection) -> None:
        self.process = process
        self.conn = conn
        self.results = results
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
            self.raise_died()

    def raise_died(self) -> NoReturn:
        self.process.join(timeout=POLL_S)  # for its exit code
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


@contextlib.contextmanager
def _frozen_heap() -> Iterator[None]:
    """Fork scanners with the parent's objects out of the garbage collector's reach: a
    scanner's collections would otherwise write to every inherited object's header and turn
    each shared page into a private copy (tens of MB per scanner)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()  # the parent collects as before; each scanner keeps its frozen copy


def _widen(conn: Connection) -> None:
    """Grow a pipe to hold a whole chunk (Linux): with the default 64 KiB, every MiB sent
    costs 16 wake-ups of the reader."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(conn.fileno(), fcntl.F_SETPIPE_SZ, CHUNK)


class _WorkerPool:
    def __init__(self, size: int, settings: ScanSettings, store: StoreBudget) -> None:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self._settings = settings
        self._store = store
        self._matcher = CheckpointMatcher(settings.patterns)
        with _frozen_heap():
            self._workers = [self._start(ctx) for _ in range(size)]
        self._pending: dict[int, tuple[int, int, str | None, int | None]] = {}

    def _start(self, ctx: Any) -> _Worker:
        jobs_out, jobs_in = ctx.Pipe(duplex=False)  # (reader, writer): the scanner reads
        results_in, results_out = ctx.Pipe(duplex=False)  # the scanner writes, we read
        _widen(jobs_in)
        args = (jobs_out, results_out, self._settings, os.getpid())
        process = ctx.Process(target=worker_main, args=args, daemon=True)
        with children_allowed():  # e.g. in a Celery pool child: see analyzers/scan/lifetime.py
            process.start()
        # Only the scanner may hold these ends: its death must read as end-of-file here.
        jobs_out.close()
        results_out.close()
        return _Worker(process, jobs_in, results_in)

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
            store_dir = self._store.dir_for(member.path)
            if 0 < member.size < INLINE_LIMIT:
                with member.open() as stream:
                    done[order] = scan_one(stream, info, self._matcher, store_dir)
                    listed_size(done[order].info, stream)
                self._store.add(member.path, store_dir)
            else:
                self._send(order, member, info, store_dir)
            self._collect(done, block=False)
        while len(done) < total:
            self._collect(done, block=True)
        return [done[i] for i in range(total)]

    def _check_alive(self) -> None:
        """A worker killed mid-file (OOM killer, SIGKILL) sends no result: fail, don't hang."""
        for worker in self._workers:
            worker.raise_if_dead()

    def _send(self, order: int, member: Member, info: FileInfo, store_dir: str | None) -> None:
        index = min(range(len(self._workers)), key=lambda i: self._workers[i].queued)
        worker = self._workers[index]
        worker.put_job((order, info, store_dir))
        sent = 0
        with member.open() as stream:
            while chunk := stream.read(CHUNK):
                worker.put_bytes(chunk)
                sent += len(chunk)
                worker.queued += len(chunk)
            inflated = getattr(stream, "inflated_size", None)
        worker.put_bytes(b"")
        self._pending[order] = (index, sent, store_dir, inflated)

    def _collect(self, done: dict[int, FileScan], *, block: bool) -> None:
        """Take the results that are ready; with `block`, wait for at least one."""
        by_conn = {worker.results: worker for worker in self._workers}
        while True:
            ready = wait(list(by_conn), timeout=POLL_S if block else 0)
            if not ready:
                if not block:
                    return
                self._check_alive()
                continue
            for conn in ready:
                try:
                    order, scan, error = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    by_conn[conn].raise_died()  # type: ignore[index]
                if error:
                    raise RuntimeError(f"scanning failed in a worker process: {error}")
                done[order] = scan
                index, sent, store_dir, inflated = self._pending.pop(order)
                if inflated is not None:
                    scan.info.size_bytes = inflated  # as `listed_size` does
                self._workers[index].queued -= sent
                self._store.add(scan.info.path, store_dir)
            block = False
