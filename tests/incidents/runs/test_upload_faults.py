"""Uploads when the server fails: a full disk is 507, a lost database 503, nothing left over."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.db import connection

from incidents.models import AnalysisRun, Bundle, Incident
from tests.db_faults import needs_postgresql

LOG = b"rank 0: step 1 passed\n" * 20_000  # ~440 KB: several upload chunks


@pytest.fixture
def log_file(tmp_path) -> Path:
    path = tmp_path / "job.log"
    path.write_bytes(LOG)
    return path


@pytest.fixture
def disk_fills_up(monkeypatch):
    """The second chunk written to the temporary upload file finds the disk full."""
    real = TemporaryFileUploadHandler.receive_data_chunk

    def write_until_full(self, raw_data, start):
        if start > 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, raw_data, start)

    monkeypatch.setattr(TemporaryFileUploadHandler, "receive_data_chunk", write_until_full)


@pytest.fixture
def database_drops_mid_upload(settings):
    needs_postgresql()
    settings.FILE_UPLOAD_HANDLERS = [
        "tests.db_faults.TerminatingUploadHandler",
        *settings.FILE_UPLOAD_HANDLERS,
    ]


def files_under(root: Path) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file()]


def assert_nothing_stored(media_root: Path) -> None:
    assert files_under(media_root) == []
    assert (Incident.objects.count(), Bundle.objects.count(), AnalysisRun.objects.count()) == (
        0,
        0,
        0,
    )


def api_upload(client, token: str, path: Path):
    with path.open("rb") as fh:
        return client.post(
            "/api/incidents/", {"bundle": fh}, headers={"Authorization": f"Bearer {token}"}
        )


@pytest.mark.django_db
def test_api_upload_onto_a_full_disk_is_507_and_the_partial_file_is_removed(
    client, alice_token, log_file, disk_fills_up, media_root
):
    response = api_upload(client, alice_token, log_file)

    assert response.status_code == 507
    assert response.json()["error"].startswith("The server's disk is full")
    assert_nothing_stored(media_root)


@pytest.mark.django_db
def test_page_upload_onto_a_full_disk_is_507_too(alice_client, log_file, disk_fills_up, media_root):
    with log_file.open("rb") as fh:
        response = alice_client.post("/incidents/new/", {"bundle": fh})

    assert response.status_code == 507
    assert response["Content-Type"] == "application/json"
    assert_nothing_stored(media_root)


@pytest.mark.django_db(transaction=True)
def test_api_upload_while_the_database_drops_its_connections_is_503_with_retry_after(
    client, alice_token, log_file, database_drops_mid_upload, media_root
):
    response = api_upload(client, alice_token, log_file)

    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.json()["code"] == "database_unavailable"
    connection.close()  # the test's own connection was terminated too
    assert_nothing_stored(media_root)


@pytest.mark.django_db(transaction=True)
def test_page_upload_while_the_database_drops_its_connections_is_503(
    alice_client, log_file, database_drops_mid_upload, media_root
):
    with log_file.open("rb") as fh:
        response = alice_client.post("/incidents/new/", {"bundle": fh})

    assert response.status_code == 503
    assert response["Retry-After"]
    connection.close()
    assert_nothing_stored(media_root)


@pytest.mark.django_db
def test_an_upload_after_the_fault_is_stored_as_usual(client, alice_token, log_file):
    response = api_upload(client, alice_token, log_file)

    assert response.status_code == 201
    assert Bundle.objects.get().size_bytes == len(LOG)
