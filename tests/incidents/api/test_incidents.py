"""The JSON API that CI jobs use: bearer token, upload, poll."""

from __future__ import annotations

import gzip
import io

import pytest
import zstandard

from incidents.models import ApiToken, Incident, RunState
from incidents.runs.analysis import analyze_run

pytestmark = pytest.mark.django_db

API_URL = "/api/incidents/"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def api_upload(client, path, token: str, **fields):
    with path.open("rb") as fh:
        return client.post(API_URL, {"bundle": fh, **fields}, headers=bearer(token))


def test_api_upload_answers_201_with_links(client, alice, alice_token, crash_bundle):
    response = api_upload(client, crash_bundle, alice_token, title="from CI")

    incident = Incident.objects.get()
    assert response.status_code == 201
    assert response.json() == {
        "id": f"INC-{incident.pk}",
        "url": f"http://testserver/incidents/INC-{incident.pk}/",
        "status_url": f"http://testserver/api/incidents/INC-{incident.pk}/",
    }
    assert incident.title == "from CI"
    assert incident.created_by == alice


def test_api_upload_needs_a_token(client, crash_bundle):
    with crash_bundle.open("rb") as fh:
        response = client.post(API_URL, {"bundle": fh})

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "Bearer" in response.json()["error"]
    assert not Incident.objects.exists()


@pytest.mark.parametrize(
    "header",
    ["Bearer rl_not-a-real-token", "Token {token}", "Bearer", "{token}"],
)
def test_api_refuses_wrong_or_malformed_tokens(client, alice_token, crash_bundle, header):
    with crash_bundle.open("rb") as fh:
        response = client.post(
            API_URL, {"bundle": fh}, headers={"Authorization": header.format(token=alice_token)}
        )

    assert response.status_code == 401
    assert not Incident.objects.exists()


def test_api_refuses_token_of_deactivated_user(client, alice, alice_token, crash_bundle):
    alice.is_active = False
    alice.save()

    response = api_upload(client, crash_bundle, alice_token)

    assert response.status_code == 401


def test_tokens_are_stored_only_as_digests(alice_token):
    stored = ApiToken.objects.get()

    assert alice_token not in (stored.digest, stored.prefix)
    assert alice_token.startswith(stored.prefix)


def test_api_rejects_non_archive_with_400_and_stores_nothing(client, alice_token, media_root):
    junk = io.BytesIO(bytes(range(256)) * 64)
    junk.name = "core.dump"

    response = client.post(API_URL, {"bundle": junk}, headers=bearer(alice_token))

    assert response.status_code == 400
    assert "not a log bundle" in response.json()["error"]
    assert not Incident.objects.exists()
    assert not (media_root / "bundles").exists()


def test_api_refuses_a_damaged_zip_with_400_and_stores_nothing(client, alice_token, media_root):
    damaged = io.BytesIO(b"PK\x03\x04" + bytes(range(256)) * 64)  # a zip's start, no end
    damaged.name = "job.zip"

    response = client.post(API_URL, {"bundle": damaged}, headers=bearer(alice_token))

    assert response.status_code == 400
    assert response.json()["error"].startswith("job.zip: the zip has no central directory")
    assert not Incident.objects.exists()
    assert not (media_root / "bundles").exists()


def test_api_requires_the_bundle_field(client, alice_token):
    response = client.post(API_URL, {"title": "no file"}, headers=bearer(alice_token))

    assert response.status_code == 400
    assert response.json()["errors"]["bundle"][0]["code"] == "required"


def test_api_upload_over_the_cap_answers_413(client, settings, alice_token, crash_bundle):
    settings.RANKLENS_MAX_UPLOAD_BYTES = 100

    response = api_upload(client, crash_bundle, alice_token)

    assert response.status_code == 413
    assert "too large" in response.json()["error"]
    assert not Incident.objects.exists()


def test_status_of_a_queued_incident(client, alice_token, crash_bundle):
    status_url = api_upload(client, crash_bundle, alice_token).json()["status_url"]

    response = client.get(status_url, headers=bearer(alice_token))

    data = response.json()
    assert response.status_code == 200
    assert (data["status"], data["progress"], data["error"], data["report"]) == (
        RunState.QUEUED,
        0,
        None,
        None,
    )


def test_status_of_a_finished_incident_carries_the_report(client, alice_token, crash_bundle):
    created = api_upload(client, crash_bundle, alice_token).json()
    analyze_run(run_id=Incident.objects.get().latest_run().pk)

    data = client.get(created["status_url"], headers=bearer(alice_token)).json()

    assert data["status"] == RunState.DONE
    assert data["progress"] == 100
    assert data["error"] is None
    assert data["report"]["bundle"]["name"] == "crash_one_rank.tar.gz"
    assert {r["rank"] for r in data["report"]["ranks"]} == {0, 1, 2, 3}


def test_status_by_plain_number_matches_status_by_id(client, alice_token, crash_bundle):
    api_upload(client, crash_bundle, alice_token)
    pk = Incident.objects.get().pk

    by_id = client.get(f"/api/incidents/INC-{pk}/", headers=bearer(alice_token))
    by_number = client.get(f"/api/incidents/{pk}/", headers=bearer(alice_token))

    assert by_id.json() == by_number.json()


def test_status_needs_a_token(client, alice_token, crash_bundle):
    status_url = api_upload(client, crash_bundle, alice_token).json()["status_url"]

    assert client.get(status_url).status_code == 401


def test_status_of_unknown_incident_is_404(client, alice_token):
    response = client.get("/api/incidents/INC-999999/", headers=bearer(alice_token))

    assert response.status_code == 404


def test_a_zstd_compressed_tar_from_ci_is_analysed_like_a_tgz(
    client, alice_token, crash_bundle, tmp_path
):
    plain = gzip.decompress(crash_bundle.read_bytes())
    bundle = tmp_path / "crash_one_rank.tar.zst"
    bundle.write_bytes(zstandard.ZstdCompressor().compress(plain))

    created = api_upload(client, bundle, alice_token).json()
    analyze_run(run_id=Incident.objects.get().latest_run().pk)
    data = client.get(created["status_url"], headers=bearer(alice_token)).json()

    assert data["status"] == RunState.DONE
    assert Incident.objects.get().title == "crash_one_rank"
    assert {r["rank"] for r in data["report"]["ranks"]} == {0, 1, 2, 3}
    assert data["report"]["diagnosis"]["category"] == "shape_mismatch"


def test_a_zstd_file_holding_one_log_is_refused_with_what_to_send(client, alice_token, tmp_path):
    bundle = tmp_path / "log_0.log.zst"
    bundle.write_bytes(zstandard.ZstdCompressor().compress(b"[rank0]: RuntimeError: boom\n"))

    response = api_upload(client, bundle, alice_token)

    assert response.status_code == 400
    assert "holds no tar archive" in str(response.json())
    assert not Incident.objects.exists()


def test_api_refuses_an_empty_file_with_400_and_stores_nothing(client, alice_token, media_root):
    empty = io.BytesIO(b"")
    empty.name = "rank0.log"

    response = client.post(API_URL, {"bundle": empty}, headers=bearer(alice_token))

    assert response.status_code == 400
    assert response.json()["errors"]["bundle"][0]["code"] == "empty"
    assert not Incident.objects.exists()
    assert not (media_root / "bundles").exists()


def test_api_answers_a_json_body_with_400_asking_for_the_bundle_field(client, alice_token):
    response = client.post(
        API_URL,
        {"bundle": "rank0.log"},
        content_type="application/json",
        headers=bearer(alice_token),
    )

    assert response.status_code == 400
    assert response.json()["errors"]["bundle"][0]["code"] == "required"
    assert not Incident.objects.exists()
