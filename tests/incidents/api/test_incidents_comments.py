"""`/api/incidents/INC-n/comments/`: add a Markdown comment, list them oldest first."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from incidents.models import Comment

pytestmark = pytest.mark.django_db


def url(incident) -> str:
    return f"/api/incidents/INC-{incident.pk}/comments/"


def post(client, incident, body, headers=None):
    return client.post(
        url(incident), json.dumps(body), content_type="application/json", headers=headers or {}
    )


def test_adding_a_comment_answers_201_with_it(client, triaged, token_headers):
    response = post(client, triaged["hccl"], {"body": "Seen on **A2** too"}, token_headers)

    assert response.status_code == 201
    data = response.json()
    comment = Comment.objects.get()
    assert data == {
        "id": comment.pk,
        "author": "alice",
        "body": "Seen on **A2** too",
        "body_html": data["body_html"],
        "created_at": comment.created_at.isoformat(),
    }
    assert "<strong>A2</strong>" in data["body_html"]


def test_html_in_a_comment_is_not_rendered(client, triaged, token_headers):
    data = post(
        client, triaged["hccl"], {"body": "<script>alert(1)</script> hi"}, token_headers
    ).json()

    assert "<script>" not in data["body_html"]
    assert data["body"] == "<script>alert(1)</script> hi"


def test_comments_are_listed_oldest_first(client, triaged, token_headers):
    for text in ("first", "second"):
        post(client, triaged["hccl"], {"body": text}, token_headers)
    post(client, triaged["shape"], {"body": "elsewhere"}, token_headers)

    response = client.get(url(triaged["hccl"]), headers=token_headers)

    assert response.status_code == 200
    assert [c["body"] for c in response.json()] == ["first", "second"]
    assert {c["author"] for c in response.json()} == {"alice"}


def test_no_comments_is_an_empty_list(client, triaged, token_headers):
    assert client.get(url(triaged["queued"]), headers=token_headers).json() == []


@pytest.mark.parametrize("body", [{"body": "   "}, {}, {"body": 5}, {"body": "x", "pin": True}])
def test_a_bad_comment_answers_422_naming_the_field(client, triaged, token_headers, body):
    response = post(client, triaged["hccl"], body, token_headers)

    assert response.status_code == 422
    data = response.json()
    assert data["field"] == ("pin" if "pin" in body else "body")
    assert data["error"].startswith(f"{data['field']}: ")
    assert not Comment.objects.exists()


def test_comments_need_a_login_or_a_token(triaged):
    anonymous = Client()

    assert post(anonymous, triaged["hccl"], {"body": "x"}).status_code == 401
    assert anonymous.get(url(triaged["hccl"])).status_code == 401
    assert not Comment.objects.exists()


def test_a_logged_in_user_reads_and_writes_comments(alice_client, triaged):
    assert post(alice_client, triaged["hccl"], {"body": "from the page"}).status_code == 201
    assert alice_client.get(url(triaged["hccl"])).json()[0]["body"] == "from the page"


def test_comments_of_an_unknown_incident_are_json_404(client, token_headers):
    response = client.get("/api/incidents/INC-999999/comments/", headers=token_headers)

    assert response.status_code == 404
    assert response.json()["status"] == 404
