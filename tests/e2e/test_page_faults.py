"""Page views and API reads whose PostgreSQL connection an operator ended
(`pg_terminate_backend`), as a restart or failover does: they answer 503 with
Retry-After, which readers reload and `ranklens --wait` asks again, not 500."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests.db_faults import needs_postgresql, terminate_connections

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def logged_in(alice) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client


def _end_the_connection() -> None:
    """The connection a request will use is open, then the database ends it."""
    connection.ensure_connection()
    assert terminate_connections() >= 1


@pytest.mark.parametrize("path", ["/incidents/", "/api/incidents/"])
def test_a_read_whose_connection_was_ended_answers_503_and_the_next_one_works(logged_in, path):
    needs_postgresql()
    assert logged_in.get(path).status_code == 200
    _end_the_connection()

    cut = logged_in.get(path)
    connection.close()  # what the end of a real request does (the test client skips it)
    again = logged_in.get(path)

    assert cut.status_code == 503
    assert cut["Retry-After"] == "5"
    assert again.status_code == 200
