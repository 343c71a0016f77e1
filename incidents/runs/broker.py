"""Which analysis runs have a message waiting in the broker (Redis or the local folder).

The sweeper sends a queued run's message again only if the broker lost it; a run that
waits its turn behind long analyses must not collect duplicates. Kombu's Redis transport
keeps waiting messages in one list per queue and priority, and delivered but unacknowledged
ones (acks_late: every running task) in the `unacked` hash, all as JSON.

A delivered message counts however old it is: a worker may hold one for as long as the
analysis ahead of it runs (it prefetches again after a reconnect to Redis). If that
worker dies, Redis hands the message out again after the visibility timeout.

The filesystem transport (`make run` without REDIS_URL) keeps one JSON file per waiting
message in its queue folder and forgets a message once a worker has taken it.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Iterable
from pathlib import Path

from celery import Celery

log = logging.getLogger(__name__)

TASK_NAME = "incidents.tasks.analyze_bundle"


def runs_in_flight(app: Celery) -> set[int] | None:
    """Run ids with a message waiting in the broker or delivered and not yet
    acknowledged; None when that cannot be known."""
    try:
        with app.connection_for_read() as conn:
            queue = app.conf.task_default_queue
            if conn.transport.driver_type == "redis":
                return set(_run_ids(_messages(conn.default_channel, queue)))
            if conn.transport.driver_type == "filesystem":
                return set(_run_ids(_folder_messages(conn.default_channel, queue)))
            return None
    except Exception as error:  # a broker that cannot answer cannot vouch for anything
        log.warning("could not list the broker's messages: %s", error)
        return None


def _messages(channel, queue: str) -> Iterable[dict]:
    client = channel.client
    for priority in channel.priority_steps:
        for raw in client.lrange(channel._q_for_pri(queue, priority), 0, -1):
            yield json.loads(raw)
    for raw in client.hvals(channel.unacked_key):
        yield json.loads(raw)[0]


def _folder_messages(channel, queue: str) -> Iterable[dict]:
    for path in Path(channel.data_folder_in).glob(f"*.{queue}.msg"):
        try:
            yield json.loads(path.read_bytes())
        except (OSError, ValueError):  # taken by a worker while we looked
            continue


def _run_ids(messages: Iterable[dict]) -> Iterable[int]:
    for message in messages:
        if message.get("headers", {}).get("task") != TASK_NAME:
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
