"""Uploading a bundle through the web page."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest
from django.urls import reverse

from incidents.models import AnalysisRun, Bundle, Incident, RunState
from incidents.runs import blobstore

pytestmark = pytest.mark.django_db

UPLOAD_URL = reverse("incidents:upload")
PNG_BYTES = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8


def stored_blobs(media_root: Path) -> list[Path]:
    bundles = media_root / "bundles"
    return sorted(p for p in bundles.rglob("*") if p.is_file()) if bundles.exists() else []


def post_bundle(client, path: Path, **fields):
    with path.open("rb") as fh:
        return client.post(UPLOAD_URL, {"bundle": fh, **fields})


def test_upload_page_offers_drop_zone_and_file_picker(alice_client):
    response = alice_client.get(UPLOAD_URL)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="dropzone"' in html
    assert 'type="file"' in html
    assert "js/incident_upload.js" in html
    assert "<script>" not in html  # behaviour comes from the static file only


def test_upload_creates_incident_and_queues_a_run(alice_client, alice, crash_bundle, media_root):
    response = post_bundle(alice_client, crash_bundle)

    incident = Incident.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/incidents/INC-{incident.pk}/"
    assert incident.title == "crash_one_rank"
    assert incident.created_by == alice
    assert incident.status == RunState.QUEUED
    assert AnalysisRun.objects.get().state == RunState.QUEUED
    bundle = incident.bundle
    assert bundle.original_name == "crash_one_rank.tar.gz"
    assert bundle.size_bytes == crash_bundle.stat().st_size
    assert bundle.path.read_bytes() == crash_bundle.read_bytes()
    assert bundle.path == media_root / "bundles" / bundle.sha256[:2] / bundle.sha256


def test_upload_keeps_the_given_title(alice_client, crash_bundle):
    post_bundle(alice_client, crash_bundle, title="Nightly 8-rank job died at layer 1")

    assert Incident.objects.get().title == "Nightly 8-rank job died at layer 1"


def test_same_bytes_uploaded_twice_are_stored_once(alice_client, crash_bundle, media_root):
    post_bundle(alice_client, crash_bundle)
    post_bundle(alice_client, crash_bundle)

    assert Incident.objects.count() == 2
    assert len({b.sha256 for b in Bundle.objects.all()}) == 1
    assert stored_blobs(media_root) == [Bundle.objects.first().path]


def test_upload_accepts_a_single_log_file(alice_client, corpus):
    response = post_bundle(alice_client, corpus / "cases" / "d01" / "log.txt")

    assert response.status_code == 302
    assert Incident.objects.get().bundle.original_name == "log.txt"


def repack(source: Path, target: Path) -> Path:
    """The same real logs as `source`, packed the way `target`'s name says."""
    with tarfile.open(source) as tar:
        members = [(m.name, tar.extractfile(m).read()) for m in tar.getmembers() if m.isfile()]
    if target.suffix == ".zip":
        with zipfile.ZipFile(target, "w") as archive:
            for name, data in members:
                archive.writestr(name, data)
    elif target.name.endswith((".tar", ".tgz")):
        with tarfile.open(target, "w:gz" if target.suffix == ".tgz" else "w") as archive:
            for name, data in members:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    else:  # a single rank log, gzip-compressed
        target.write_bytes(gzip.compress(dict(members)["job-f0dddebb/log_3.log"]))
    return target


@pytest.mark.parametrize("name", ["job.tar", "job.tgz", "job.zip", "log_3.log.gz"])
def test_upload_accepts_each_bundle_format(alice_client, crash_bundle, tmp_path, name):
    response = post_bundle(alice_client, repack(crash_bundle, tmp_path / name))

    assert response.status_code == 302
    assert Incident.objects.get().bundle.original_name == name


def test_upload_rejects_non_archive_and_stores_nothing(alice_client, media_root):
    picture = io.BytesIO(PNG_BYTES)
    picture.name = "screenshot.png"

    response = alice_client.post(UPLOAD_URL, {"bundle": picture})

    assert response.status_code == 400
    assert "screenshot.png: not a log bundle" in response.content.decode()
    assert not Incident.objects.exists()
    assert stored_blobs(media_root) == []
    assert list((media_root / "incoming").glob("*")) == []


def test_upload_refuses_a_zip_cut_short_and_stores_nothing(
    alice_client, crash_bundle, tmp_path, media_root
):
    whole = repack(crash_bundle, tmp_path / "job.zip").read_bytes()
    cut = tmp_path / "cut" / "job.zip"
    cut.parent.mkdir()
    cut.write_bytes(whole[: len(whole) // 2])

    response = post_bundle(alice_client, cut)

    assert response.status_code == 400
    assert "job.zip: the zip has no central directory" in response.content.decode()
    assert not Incident.objects.exists()
    assert stored_blobs(media_root) == []
    assert list((media_root / "incoming").glob("*")) == []


def test_upload_refuses_a_zip_listing_more_files_than_an_analysis_opens(
    alice_client, tmp_path, media_root, monkeypatch
):
    monkeypatch.setenv("RANKLENS_LIMIT_MEMBERS", "2")  # at most 8 entries
    bundle = tmp_path / "many.zip"
    with zipfile.ZipFile(bundle, "w") as zf:
        for rank in range(9):
            zf.writestr(f"log_{rank}.log", f"[rank{rank}] step 1 done\n")

    response = post_bundle(alice_client, bundle)

    assert response.status_code == 400
    assert "many.zip: a zip of 9 entries; at most 8 are accepted" in response.content.decode()
    assert not Incident.objects.exists()
    assert stored_blobs(media_root) == []


def test_upload_over_the_cap_answers_413(alice_client, settings, crash_bundle, media_root):
    settings.RANKLENS_MAX_UPLOAD_BYTES = crash_bundle.stat().st_size - 1

    response = post_bundle(alice_client, crash_bundle)

    assert response.status_code == 413
    assert "too large" in response.content.decode()
    assert not Incident.objects.exists()
    assert stored_blobs(media_root) == []


def test_request_far_over_the_cap_is_refused_before_reading_the_body(alice_client, settings):
    settings.RANKLENS_MAX_UPLOAD_BYTES = 1024
    body = b"x" * (200 * 1024)

    response = alice_client.post(
        UPLOAD_URL, data=body, content_type="multipart/form-data; boundary=BoUnDaRy"
    )

    assert response.status_code == 413
    assert "too large" in response.content.decode()


def test_xhr_upload_gets_json_with_the_incident_url(alice_client, crash_bundle):
    with crash_bundle.open("rb") as fh:
        response = alice_client.post(
            UPLOAD_URL, {"bundle": fh}, headers={"Accept": "application/json"}
        )

    incident = Incident.objects.get()
    assert response.status_code == 201
    assert response.json() == {"id": incident.short_id, "url": incident.get_absolute_url()}


def test_xhr_upload_of_non_archive_gets_json_error(alice_client):
    picture = io.BytesIO(PNG_BYTES)
    picture.name = "screenshot.png"

    response = alice_client.post(
        UPLOAD_URL, {"bundle": picture}, headers={"Accept": "application/json"}
    )

    assert response.status_code == 400
    assert "not a log bundle" in response.json()["error"]


def test_upload_needs_login(client, crash_bundle):
    response = post_bundle(client, crash_bundle)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Incident.objects.exists()


def test_blob_path_is_content_addressed(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    sha = "ab" + "0" * 62

    assert blobstore.path_for(sha) == tmp_path / "bundles" / "ab" / sha


def test_upload_refuses_an_empty_file_and_stores_nothing(alice_client, media_root):
    empty = io.BytesIO(b"")
    empty.name = "rank0.log"

    response = alice_client.post(UPLOAD_URL, {"bundle": empty})

    assert response.status_code == 400
    assert "empty" in response.content.decode()
    assert not Incident.objects.exists()
    assert stored_blobs(media_root) == []


def test_upload_of_an_empty_archive_is_refused_saying_it_holds_no_log_text(
    alice_client, media_root
):
    archive = io.BytesIO(gzip.compress(b"\0" * 10240))  # `tar -czf logs.tar.gz` of no files
    archive.name = "logs.tar.gz"

    response = alice_client.post(UPLOAD_URL, {"bundle": archive}, HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 400
    assert "logs.tar.gz：日志包里没有日志文本：其中没有文件，或只有文件夹和空文件" in (
        response.content.decode()
    )
    assert stored_blobs(media_root) == []


def test_upload_of_a_log_of_nul_bytes_only_says_it_holds_no_log_text(alice_client, media_root):
    log = io.BytesIO(b"\0" * (200 * 1024))  # a crashed writer's preallocated, never-written log
    log.name = "rank0.log"

    response = alice_client.post(UPLOAD_URL, {"bundle": log})

    assert response.status_code == 400
    assert "rank0.log: the bundle holds no log text: its 204,800 bytes are all NUL bytes" in (
        response.content.decode()
    )
    assert stored_blobs(media_root) == []


def test_upload_of_a_7z_archive_names_the_format_and_what_to_send(alice_client, media_root):
    archive = io.BytesIO(b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(range(256)))
    archive.name = "logs.7z"

    response = alice_client.post(UPLOAD_URL, {"bundle": archive})

    page = response.content.decode()
    assert response.status_code == 400
    assert "logs.7z: a 7-Zip archive, which is not read here" in page
    assert ".tar.gz" in page
    assert stored_blobs(media_root) == []
