"""Make the database drop every connection but one we open for the purpose (PostgreSQL)."""

from __future__ import annotations

import psycopg
import pytest
from django.core.files.uploadhandler import FileUploadHandler
from django.db import connection

TERMINATE_OTHERS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


def needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("terminating backends needs PostgreSQL (set DATABASE_URL)")


def terminate_connections() -> int:
    """Terminate every other connection to the test database; how many were terminated."""
    db = connection.settings_dict
    params = {
        "dbname": db["NAME"],
        "user": db["USER"] or None,
        "password": db["PASSWORD"] or None,
        "host": db["HOST"] or "127.0.0.1",
        "port": db["PORT"] or 5432,
    }
    with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as admin:
        return len(admin.execute(TERMINATE_OTHERS).fetchall())


class TerminatingUploadHandler(FileUploadHandler):
    """Put first in FILE_UPLOAD_HANDLERS: the database drops its connections while the
    upload's first bytes arrive. The bytes go on to the next handler unchanged."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start == 0:
            terminate_connections()
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None
