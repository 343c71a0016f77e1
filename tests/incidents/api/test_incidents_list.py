"""`GET /api/incidents/`: the incident list's filters as query parameters, paginated."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from incidents.models import Incident

pytestmark = pytest.mark.django_db

URL = "/api/incidents/"


def titles(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["title"] for row in response.json()["results"]]


def test_lists_newest_first_with_a_count(client, triaged, token_headers):
    response = client.get(URL, headers=token_headers)

    assert titles(response) == ["queued job", "hccl job", "shape job"]
    body = response.json()
    assert body["count"] == 3
    assert (body["next"], body["previous"]) == (None, None)


def test_a_row_carries_analysis_and_triage_columns(client, triaged, token_headers):
    hccl = triaged["hccl"]

    rows = client.get(URL, {"q": f"INC-{hccl.pk}"}, headers=token_headers).json()["results"]

    assert rows == [
        {
            "id": f"INC-{hccl.pk}",
            "number": hccl.pk,
            "title": "hccl job",
            "status": "done",
            "triage_status": "investigating",
            "category": "hccl",
            "culprit_ranks": [2],
            "first_error": hccl.first_error,
            "owner": "bob",
            "tags": ["moe"],
            "tickets": [{"url": "https://jira.example.com/browse/NPU-77", "key": "NPU-77"}],
            "created_at": hccl.created_at.isoformat(),
            "updated_at": hccl.updated_at.isoformat(),
            "url": f"http://testserver/incidents/INC-{hccl.pk}/",
        }
    ]
    assert "HcclAllReduce" in rows[0]["first_error"]


def test_status_is_the_analysis_state_never_the_triage_state(client, triaged, token_headers):
    rows = client.get(URL, headers=token_headers).json()["results"]

    by_title = {row["title"]: (row["status"], row["triage_status"]) for row in rows}
    assert by_title == {
        "queued job": ("queued", "new"),
        "hccl job": ("done", "investigating"),
        "shape job": ("done", "resolved"),
    }


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"category": "hccl"}, ["hccl job"]),
        ({"category": "hccl,shape_mismatch"}, ["hccl job", "shape job"]),
        ({"triage_status": "new,investigating"}, ["queued job", "hccl job"]),
        ({"triage_status": ["new", "resolved"]}, ["queued job", "shape job"]),
        ({"status": "queued"}, ["queued job"]),
        ({"status": "done,queued"}, ["queued job", "hccl job", "shape job"]),
        ({"owner": "bob"}, ["hccl job"]),
        ({"owner": "none"}, ["queued job", "shape job"]),
        ({"owner": "bob,none"}, ["queued job", "hccl job", "shape job"]),
        ({"tag": "MOE"}, ["hccl job"]),
        ({"code": "EI0006"}, ["hccl job"]),
        ({"code": "EI0006,507014"}, ["hccl job"]),
        ({"ticket": "NPU-77"}, ["hccl job"]),
        ({"q": "HcclAllReduce"}, ["hccl job"]),
        ({"q": "mat1 shapes"}, ["shape job"]),
        ({"sort": "title"}, ["hccl job", "queued job", "shape job"]),
        ({"sort": "-category"}, ["shape job", "hccl job", "queued job"]),
        ({"triage_status": "new,investigating", "sort": "title"}, ["hccl job", "queued job"]),
    ],
    ids=lambda value: str(value) if not isinstance(value, list) else "",
)
def test_each_filter_narrows_the_list(client, triaged, token_headers, params, expected):
    assert titles(client.get(URL, params, headers=token_headers)) == expected


def test_dates_bound_the_upload_day(client, triaged, token_headers):
    ten_days_ago = timezone.now() - dt.timedelta(days=10)
    Incident.objects.filter(pk=triaged["shape"].pk).update(created_at=ten_days_ago)
    today = timezone.now().date()

    since = client.get(URL, {"since": today.isoformat()}, headers=token_headers)
    until = client.get(
        URL, {"until": (today - dt.timedelta(days=9)).isoformat()}, headers=token_headers
    )

    assert titles(since) == ["queued job", "hccl job"]
    assert titles(until) == ["shape job"]


def test_next_follows_to_the_following_page_keeping_the_filters(client, triaged, token_headers):
    first = client.get(URL, {"status": "done,queued", "per_page": 2}, headers=token_headers)

    body = first.json()
    assert body["count"] == 3
    assert titles(first) == ["queued job", "hccl job"]
    assert body["previous"] is None
    parts = urlsplit(body["next"])
    assert (parts.scheme, parts.netloc, parts.path) == ("http", "testserver", URL)
    assert parse_qs(parts.query) == {"status": ["done,queued"], "page": ["2"], "per_page": ["2"]}

    second = client.get(body["next"], headers=token_headers)

    assert titles(second) == ["shape job"]
    assert second.json()["next"] is None
    assert parse_qs(urlsplit(second.json()["previous"]).query)["page"] == ["1"]


def test_a_page_past_the_end_is_empty(client, triaged, token_headers):
    body = client.get(URL, {"page": 9}, headers=token_headers).json()

    assert body["results"] == []
    assert body["count"] == 3
    assert body["next"] is None


def test_a_page_beyond_any_database_offset_is_empty_not_a_500(client, triaged, token_headers):
    page = "99999999999999999999"
    # Its offset does not fit the database's 64-bit OFFSET: asked, SQLite answered
    # "datatype mismatch" and the API a 500.
    response = client.get(URL, {"page": page}, headers=token_headers)

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["results"], body["count"], body["next"]) == ([], 3, None)
    assert parse_qs(urlsplit(body["previous"]).query)["page"] == [str(int(page) - 1)]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"triage_status": "new,closed"}, "triage_status"),
        ({"status": "finished"}, "status"),
        ({"since": "last-week"}, "since"),
        ({"until": "2026-13-40"}, "until"),
        ({"sort": "priority"}, "sort"),
        ({"page": "0"}, "page"),
        ({"page": "two"}, "page"),
        ({"per_page": "many"}, "per_page"),
    ],
)
def test_a_bad_value_answers_422_naming_its_field(client, triaged, token_headers, params, field):
    response = client.get(URL, params, headers=token_headers)

    assert response.status_code == 422
    body = response.json()
    assert body["status"] == 422
    assert body["field"] == field
    assert body["error"].startswith(f"{field}: ")


def test_an_unknown_triage_state_lists_the_known_ones(client, triaged, token_headers):
    body = client.get(URL, {"triage_status": "foo"}, headers=token_headers).json()

    assert body["error"].startswith("triage_status: 'foo' is not one of new, investigating")


def test_needs_a_login_or_a_token(alice_client, triaged):
    refused = Client().get(URL)

    assert refused.status_code == 401
    assert refused["WWW-Authenticate"].startswith("Bearer")
    assert titles(alice_client.get(URL)) == ["queued job", "hccl job", "shape job"]


def test_upload_still_needs_a_token_on_the_same_path(alice_client, crash_bundle):
    with crash_bundle.open("rb") as fh:
        response = alice_client.post(URL, {"bundle": fh})

    assert response.status_code == 401
    assert not Incident.objects.exists()
