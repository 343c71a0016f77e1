"""A running analysis proves it is alive by writing `AnalysisRun.heartbeat_at`.

The progress callback beats whenever it writes; this thread beats on a timer as well,
because one phase (a single huge member) can run for many minutes without a progress
call. When a beat finds that the run is no longer ours (the sweeper gave it to another
worker), `lost` is set and the analysis stops at its next progress call.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)


class Heartbeat:
    """`beat()` returns how many rows it touched: 0 means the claim is gone."""

    def __init__(self, beat: Callable[[], int], *, interval_s: float) -> None:
        self._beat = beat
        self._interval_s = interval_s
        self._stop = threading.Event()
        self.lost = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        # Inside a transaction (tests) the run's row is locked by this thread's
        # connection; a second connection would wait on it, so only the callback beats.
        if self._interval_s > 0 and not connection.in_atomic_block:
            self._thread = threading.Thread(target=self._loop, name="heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self._interval_s + 10)

    def _loop(self) -> None:
        try:
            while not self._stop.wait(self._interval_s):
                self._beat_once()
        finally:
            connection.close()  # this thread's own connection

    def _beat_once(self) -> None:
        try:
            if self._beat() == 0:
                self.lost.set()
        except DatabaseError as error:
            # The database is away; the sweeper judges the silence, not this thread.
            log.warning("heartbeat not written: %s", error)
            connection.close()
