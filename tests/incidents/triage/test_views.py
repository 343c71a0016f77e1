"""The triage panel and the meeting view post their changes here."""

from __future__ import annotations

import pytest

from incidents.models import Comment
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(alice):
    return make_incident(shape_report(), user=alice, title="tp8 decode")


def test_a_form_post_changes_only_the_fields_it_sends_and_returns_to_the_page(
    alice_client, incident
):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "investigating", "next": "/meeting/?triage_status=new"},
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/meeting/?triage_status=new"
    incident.refresh_from_db()
    assert incident.triage_status == "investigating"
    assert incident.title == "tp8 decode"


def test_a_script_gets_the_row_back_as_json(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"owner": "alice", "tags": "moe, a2"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 200
    assert answer.json()["owner"] == "alice"
    assert answer.json()["tags"] == ["a2", "moe"]


def test_a_refused_value_names_the_field_and_changes_nothing(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "closed"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "triage_status"
    incident.refresh_from_db()
    assert incident.triage_status == "new"


def test_an_offsite_next_is_ignored(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "resolved", "next": "https://evil.example.com/"},
    )
    assert answer["Location"] == incident.get_absolute_url()


def test_a_comment_is_added_and_rendered(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/comments/",
        {"body": "Rank 2 never entered the **all_reduce**."},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 201
    assert "<strong>all_reduce</strong>" in answer.json()["body_html"]
    assert Comment.objects.get(incident=incident).author_name == "alice"


def test_triage_needs_a_login(client, incident):
    answer = client.post(f"/incidents/INC-{incident.pk}/triage/", {"triage_status": "resolved"})
    assert answer.status_code == 302
    assert "/login" in answer["Location"]
    incident.refresh_from_db()
    assert incident.triage_status == "new"
