"""The activity log and triage history: who changed what, and nothing is lost by an edit."""

from __future__ import annotations

import pytest

from incidents.library.models import CaseSource
from incidents.models import Activity, TreeMark, TreeMarkRevision
from tests.incidents.library_helpers import make_case, make_incident, promote_form, shape_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-bob-123")


@pytest.fixture
def bob_client(client, bob):
    from django.test import Client

    other = Client()
    other.force_login(bob)
    return other


def mark(client, incident, node: str = "shape_mismatch", **form):
    return client.post(f"/incidents/INC-{incident.pk}/tree/{node}/mark/", form)


def entries(**filters) -> list[tuple[str, str, str, str, str]]:
    rows = Activity.objects.filter(**filters).order_by("pk")
    return [(a.actor_name, a.verb, a.field, a.old, a.new) for a in rows]


def test_clearing_someone_elses_note_keeps_it_and_names_who_cleared(
    alice_client, bob_client, alice
):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="weights split twice")

    mark(bob_client, incident, state="clear")

    assert TreeMark.objects.count() == 0
    history = TreeMarkRevision.objects.filter(incident=incident).order_by("pk")
    assert [(r.user.username, r.state, r.note) for r in history] == [
        ("alice", "checked", "weights split twice"),
        ("bob", "cleared", ""),
    ]
    assert ("bob", "cleared", "triage shape_mismatch note", "weights split twice", "") in entries(
        incident=incident
    )


def test_editing_a_note_adds_a_revision_and_logs_old_and_new(alice_client, bob_client, alice):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="first look")

    mark(bob_client, incident, state="checked", note="second look")

    assert TreeMark.objects.get().note == "second look"
    notes = list(TreeMarkRevision.objects.order_by("pk").values_list("note", flat=True))
    assert notes == ["first look", "second look"]
    assert entries(field="triage shape_mismatch note") == [
        ("alice", "set", "triage shape_mismatch note", "", "first look"),
        ("bob", "changed", "triage shape_mismatch note", "first look", "second look"),
    ]


def test_saving_the_same_mark_again_adds_nothing(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="same")

    mark(alice_client, incident, state="checked", note="same")

    assert TreeMarkRevision.objects.count() == 1


def test_incident_page_shows_the_latest_note_with_its_history(alice_client, bob_client, alice):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="first look")
    mark(bob_client, incident, state="checked", note="second look")

    html = alice_client.get(f"/incidents/INC-{incident.pk}/").content.decode()

    assert "Triage history (2)" in html
    assert "<q>first look</q>" in html
    assert 'id="activity"' in html
    assert "second look" in html


def test_a_cleared_mark_still_shows_its_history_on_the_tree_page(alice_client, bob_client, alice):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="keep me")
    mark(bob_client, incident, state="clear")

    html = alice_client.get(f"/incidents/INC-{incident.pk}/tree/").content.decode()

    assert "Triage history (2)" in html
    assert "<q>keep me</q>" in html


def test_case_edit_logs_each_changed_field_with_its_old_value(alice_client):
    case = make_case(
        slug="inc-1-x", title="Old title", category="other", root_cause="r", fix="f",
        hardware=["any"], source=CaseSource.PROMOTED,
    )  # fmt: skip
    form = {
        "title": "New title", "category": "other", "root_cause": "r", "fix": "split once",
        "hardware": ["any"], "codes": "507014",
    }  # fmt: skip

    alice_client.post(f"/library/{case.slug}/edit/", form)

    assert entries(case=case) == [
        ("alice", "set", "codes", "", '["507014"]'),
        ("alice", "changed", "fix", "f", "split once"),
        ("alice", "changed", "title", "Old title", "New title"),
    ]
    assert "Old title" in alice_client.get(f"/library/{case.slug}/").content.decode()


def test_upload_reanalysis_and_promotion_are_logged(alice_client, alice, crash_bundle):
    with crash_bundle.open("rb") as fh:
        alice_client.post("/incidents/new/", {"bundle": fh, "title": "from the page"})
    incident = Activity.objects.get(verb="created").incident

    alice_client.post(f"/incidents/INC-{incident.pk}/reanalyze/", {"checkpoint_patterns": "step"})

    assert entries(incident=incident) == [
        ("alice", "created", "title", "", "from the page"),
        ("alice", "reanalyzed", "checkpoint_patterns", "", "step"),
    ]


def test_promotion_is_logged_on_the_incident_and_the_case(alice_client, alice):
    incident = make_incident(shape_report(), alice)

    alice_client.post(
        f"/incidents/INC-{incident.pk}/promote/", promote_form(alice_client, incident)
    )

    entry = Activity.objects.get(verb="promoted")
    assert (entry.incident, entry.actor, entry.field) == (incident, alice, "case")
    assert entry.new == entry.case.slug


def test_log_entries_survive_their_user_being_deleted(alice_client, alice):
    incident = make_incident(shape_report(), alice)
    mark(alice_client, incident, state="checked", note="n")

    alice.delete()

    assert entries(field="triage shape_mismatch note") == [
        ("alice", "set", "triage shape_mismatch note", "", "n")
    ]
