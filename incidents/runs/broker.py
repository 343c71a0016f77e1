"""Which analysis runs have a message waiting in the broker (Redis or the local folder).

The sweeper sends a queued run's message again only if the broker lost it; a run that
waits its turn behind long analyses must not collect duplicates. Kombu's Redis transport
keeps waiting messages in one list per queue and priority, and delivered but unacknowledged
ones (acks_late: every running task) in the `unacked` hash, all as JSON.

A delivered message counts however old it is while a live worker holds it (running it,
or reserved behind the analysis ahead of it: it prefetches again after a reconnect to
Redis). A worker killed whole (SIGKILL, a lost node) before it claimed the run leaves its
message in `unacked` until the visibility timeout, over an hour; the workers that answer
the broadcast `reserved`/`active` (`tasks_held`) do not name it, so it does not count and
the sweeper sends the run again. If no answer can be had, delivered messages count.

The filesystem transport (`make run` without REDIS_URL) keeps one JSON file per waiting
message in its queue folder and forgets a message once a worker has taken it.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from celery import Celery

log = logging.getLogger(__name__)

TASK_NAME = "incidents.tasks.analyze_bundle"


HELD_TIMEOUT_S = 1.0  # how long the workers have to answer the broadcast


def runs_in_flight(
    app: Celery,
    held: Callable[[], set[str] | None] | None = None,
    about: Collection[int] | None = None,
) -> set[int] | None:
    """Run ids with a message waiting in the broker or delivered to a live worker and not
    yet acknowledged; None when that cannot be known. `held`: the task ids live workers
    hold, or None when they cannot be asked (default `tasks_held`). `about`: the runs the
    caller cares for (queued ones); the workers are asked only when a delivered message
    names one of them, not for every running analysis."""
    try:
        with app.connection_for_read() as conn:
            queue = app.conf.task_default_queue
            if conn.transport.driver_type == "redis":
                waiting = list(_waiting(conn.default_channel, queue))
                delivered = list(_delivered(conn.default_channel))
            elif conn.transport.driver_type == "filesystem":
                return set(_run_ids(_folder_messages(conn.default_channel, queue)))
            else:
                return None
    except Exception as error:  # a broker that cannot answer cannot vouch for anything
        log.warning("could not list the broker's messages: %s", error)
        return None
    held = held or (lambda: tasks_held(app))
    return set(_run_ids([*waiting, *held_only(delivered, held, about)]))


def held_only(
    delivered: list[dict],
    held: Callable[[], set[str] | None],
    about: Collection[int] | None = None,
) -> list[dict]:
    """The delivered messages a live worker still holds (all of them if that is unknown,
    or if none of them is about a run in `about`)."""
    asked = set(_run_ids(delivered))
    if about is not None:
        asked &= set(about)
    if not asked:
        return delivered  # nothing to ask about
    holding = held()
    if holding is None:
        return delivered
    return [m for m in delivered if m.get("headers", {}).get("id") in holding]


def tasks_held(app: Celery, timeout: float = HELD_TIMEOUT_S) -> set[str] | None:
    """Ids of the tasks live workers have reserved or are running; None if the broadcast
    failed. Reserved is asked first: a task moves from reserved to active, not back."""
    try:
        inspect = app.control.inspect(timeout=timeout)
        replies = [inspect.reserved() or {}, inspect.active() or {}]
    except Exception as error:
        log.warning("could not ask the workers which tasks they hold: %s", error)
        return None
    return {
        task["id"]
        for reply in replies
        for tasks in reply.values()
        for task in tasks or ()
        if isinstance(task, dict) and "id" in task
    }


def _waiting(channel, queue: str) -> Iterable[dict]:
    client = channel.client
    for priority in channel.priority_steps:
        for raw in client.lrange(channel._q_for_pri(queue, priority), 0, -1):
            yield json.loads(raw)


def _delivered(channel) -> Iterable[dict]:
    for raw in channel.client.hvals(channel.unacked_key):
        yield json.loads(raw)[0]


def _folder_messages(channel, queue: str) -> Iterable[dict]:
    for path in Path(channel.data_folder_in).glob(f"*.{queue}.msg"):
        try:
            yield json.loads(path.read_bytes())
        except (OSError, ValueError):  # taken by a worker while we looked
            continue


def _is_analysis(message: dict) -> bool:
    return message.get("headers", {}).get("task") == TASK_NAME


def _run_ids(messages: Iterable[dict]) -> Iterable[int]:
    for message in messages:
        if not _is_analysis(message):
            continue
        run_id = _first_arg(message)
        if run_id is not None:
            yield run_id


def _first_arg(message: dict) -> int | None:
    body = message.get("body", "")
    try:
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0])
    except (binascii.Error, ValueError, TypeError, IndexError, KeyError):
        return None
