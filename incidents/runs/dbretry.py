"""Survive a database that went away for a moment: reconnect, wait, try again.

A worker holds its connection for minutes while it analyzes. If PostgreSQL restarted or
an operator terminated the backend in between, the first query after that fails with
OperationalError/InterfaceError although the database is back. Writes that must not be
lost (a run's outcome) go through `retrying`; writes that may be skipped (progress) use
`reconnect` after a failure so that the next one starts on a fresh connection.

A database that refuses writes for a while is retried the same way: a failover leaves
sessions on a read-only standby ("cannot execute UPDATE in a read-only transaction"), and
only a new connection reaches the new primary.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connection

log = logging.getLogger(__name__)

T = TypeVar("T")

# About half a minute in all: long enough for a database restart, short enough that a
# worker gives up while the sweeper still has the run's heartbeat to go by.
RETRY_DELAYS_S: Sequence[float] = (0.5, 1, 2, 4, 8, 15)

DISCONNECTED = (OperationalError, InterfaceError)
# SQLSTATEs of a refusal that passes: read_only_sql_transaction (a standby, or a database
# set read-only), serialization_failure and deadlock_detected (try the transaction again).
PASSING_REFUSALS = frozenset({"25006", "40001", "40P01"})


def is_transient(error: BaseException) -> bool:
    """True for a failure another try on a new connection may not meet."""
    if isinstance(error, DISCONNECTED):
        return True
    return getattr(error.__cause__, "sqlstate", None) in PASSING_REFUSALS


def reconnect() -> None:
    """Drop this thread's connection so the next query opens a new one.

    Inside a transaction the connection cannot be swapped (the transaction would be
    lost silently), so there the error is left to the caller.
    """
    if not connection.in_atomic_block:
        connection.close()


def retrying(write: Callable[[], T], *, what: str) -> T:
    """Call `write` until it gets through a lost connection or a passing refusal; the last
    failure is raised."""
    for delay in (*RETRY_DELAYS_S, None):
        try:
            return write()
        except DatabaseError as error:
            if not is_transient(error) or delay is None or connection.in_atomic_block:
                raise
            log.warning(
                "%s: database connection lost or writes refused (%s); retrying in %ss",
                *(what, error, delay),
            )
            reconnect()
            time.sleep(delay)
    raise AssertionError("unreachable")
