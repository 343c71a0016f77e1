"""Encode a big timeline's rank columns as JSON on two cores.

Writing every checkpoint of every rank as JSON is the last serial step of an analysis (about
a second for a job of a million checkpoints) while the cores that scanned the logs sit idle.
A forked child encodes the second half of the ranks into a temporary file while this process
encodes the first half; the file is then copied after it, so the text is the same as a
serial run's. The child shares this process's memory copy-on-write: nothing is pickled or
sent. If the child fails in any way (it died, the disk was full) this process encodes that
half itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from analyzers.core.cpus import usable_cpus

PARALLEL_MIN = 400_000  # checkpoints: below this a fork costs more than it saves
# Above this the timeline's columns are a few hundred MB: the child's copy-on-write view of
# them counts again in its resident size, and a job's memory budget is read as the sum.
PARALLEL_MAX = 2_500_000
COPY_CHUNK = 1 << 20
# The child encodes as much as the parent did: past a few times the parent's own time (and a
# floor for a busy machine) it is taken to be stuck, stopped, and its half encoded here.
WAIT_FLOOR_S = 30.0
WAIT_FACTOR = 4.0
POLL_S = 0.005


def rank_chunks(
    keys: Sequence[str],
    sizes: Sequence[int],
    encode: Callable[[str], str],
    *,
    parallel: bool = True,
) -> Iterator[str]:
    """`encode(key)` for every key, in order. `sizes`: each key's checkpoint count, to split
    the work evenly (one rank may hold most of a job's checkpoints)."""
    split = _split(sizes)
    if not parallel or split is None or not _can_fork():
        yield from map(encode, keys)
        return
    try:
        handle, path = tempfile.mkstemp(prefix="ranklens-ranks-", suffix=".json")
    except OSError:  # no writable temporary directory: one core it is
        yield from map(encode, keys)
        return
    child = _fork_encoder(keys[split:], encode, handle)
    os.close(handle)
    try:
        started = time.monotonic()
        yield from map(encode, keys[:split])
        patience = WAIT_FLOOR_S + WAIT_FACTOR * (time.monotonic() - started)
        done, child = child is not None and _succeeded(child, patience), None
        yield from _read_back(path) if done else map(encode, keys[split:])
    finally:
        if child is not None:  # the reader stopped early: the child's work is not wanted
            _stop(child)
        with contextlib.suppress(OSError):
            os.unlink(path)


ID_COLUMNS = ("text", "label")  # a rank's columns of text ids: few values, each repeated


def id_strings(count: int) -> list[str]:
    """The decimal text of each id below `count`, for `encode_columns`."""
    return [str(number) for number in range(count)]


def encode_columns(columns: dict[str, Any], ids: list[str]) -> str:
    """`json.dumps(columns, separators=(",", ":"))`, the same text. Converting an int to
    decimal is most of the encoder's work on a rank, and a text id column repeats a few
    values a checkpoint each, so its items are taken from `ids` (the texts of its values)."""
    parts = []
    for name, values in columns.items():
        body = None
        if name in ID_COLUMNS and (not values or min(values) >= 0):  # -1 would index
            with contextlib.suppress(IndexError, TypeError):  # not ids: the encoder's text
                body = "[" + ",".join(map(ids.__getitem__, values)) + "]"
        if body is None:
            body = json.dumps(values, separators=(",", ":"))
        parts.append(f"{json.dumps(name)}:{body}")
    return "{" + ",".join(parts) + "}"


def _split(sizes: Sequence[int]) -> int | None:
    """The index that halves the checkpoints, or None when one core is enough."""
    total = sum(sizes)
    if not PARALLEL_MIN <= total <= PARALLEL_MAX or len(sizes) < 2:
        return None
    running = 0
    for index, size in enumerate(sizes):
        running += size
        if running * 2 >= total:
            return max(1, min(index + 1, len(sizes) - 1))
    return None


def _can_fork() -> bool:
    return hasattr(os, "fork") and usable_cpus() > 1


def _fork_encoder(keys: Sequence[str], encode: Callable[[str], str], handle: int) -> int | None:
    """Start the child; its pid, or None when it could not be started."""
    with warnings.catch_warnings():
        # Python 3.12+ warns about fork() beside threads; the child only encodes and writes.
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            pid = os.fork()
        except OSError:
            return None
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers
        code = 1
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                for key in keys:
                    out.write(encode(key))
            code = 0
        finally:
            os._exit(code)
    return pid


def _succeeded(pid: int, patience: float) -> bool:
    """Whether the child finished well within `patience` seconds; one that is still busy by
    then (stuck on a lock some other thread held at the fork, say) is stopped."""
    deadline = time.monotonic() + patience
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return False
        if done:
            return os.waitstatus_to_exitcode(status) == 0
        if time.monotonic() > deadline:
            _stop(pid)
            return False
        time.sleep(POLL_S)


def _stop(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _read_back(path: str) -> Iterator[str]:
    with open(path, encoding="utf-8") as text:
        while chunk := text.read(COPY_CHUNK):
            yield chunk
