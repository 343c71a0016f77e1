"""Every Celery worker runs the sweeper (incidents.runs.sweeper) on a thread of its main process.

Why not Celery beat: beat only sends a message, and that message would wait in the
queue behind every analysis ahead of it, sometimes for hours, exactly when a sweep is
needed. The worker's main process never runs tasks, so a thread there sweeps on time
however busy the pool is, and nothing extra has to be started: `make run`,
docker-compose and the tests start workers anyway. Several workers sweeping at once is
safe because every change the sweeper makes is a conditional UPDATE.
"""

from __future__ import annotations

import logging
import threading

from celery import bootsteps

log = logging.getLogger(__name__)


class SweeperStep(bootsteps.StartStopStep):
    requires = {"celery.worker.components:Pool"}  # the pool's processes are forked first

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, parent) -> None:
        from django.conf import settings

        interval = settings.RANKLENS_SWEEP_SECONDS
        if interval <= 0:
            return
        self._thread = threading.Thread(
            target=self._loop, args=(parent.app, interval), name="run-sweeper", daemon=True
        )
        self._thread.start()
        log.info("run sweeper: every %ss", interval)

    def stop(self, parent) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _loop(self, app, interval: float) -> None:
        while not self._stop.is_set():
            sweep_once(app)
            self._stop.wait(interval)


def sweep_once(app) -> None:
    """One sweep; any failure (the database is away) waits for the next one."""
    from django.db import connection

    from incidents.runs import broker, sweeper
    from incidents.runs.tasks import analyze_bundle

    try:
        counts = sweeper.sweep(
            send=lambda run_id: analyze_bundle.delay(run_id),
            in_flight=lambda: broker.runs_in_flight(app, about=sweeper.queued_run_ids()),
        )
        acted = {action.value: n for action, n in counts.items() if n}
        if acted:
            log.warning("run sweeper: %s", acted)
    except Exception:
        log.exception("run sweeper: this pass failed; trying again later")
    finally:
        connection.close()  # a fresh connection each pass survives database restarts
