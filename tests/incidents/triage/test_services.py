"""Triage changes: validated as a whole, recorded field by field, verdicts kept."""

from __future__ import annotations

import pytest

from incidents.models import Activity, RootCauseVerdict
from incidents.triage.services import comment_add, triage_update
from incidents.triage.validation import TriageInvalid
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(alice):
    return make_incident(shape_report(), user=alice, title="tp8 decode")


def test_a_new_incident_waits_for_triage_without_owner(incident):
    assert incident.triage_status == "new"
    assert incident.owner is None


def test_taking_an_incident_sets_state_owner_tags_and_tickets(incident, alice, bob):
    triage_update(
        incident=incident,
        actor=alice,
        changes={
            "triage_status": "investigating",
            "owner": "bob",
            "tags": ["MoE", "a2-cluster", "moe"],
            "tickets": "https://jira.example.com/browse/PROJ-9\nhttps://github.com/acme/t/issues/3",
        },
    )
    incident.refresh_from_db()
    assert incident.triage_status == "investigating"
    assert incident.owner == bob
    assert [t.name for t in incident.tags.all()] == ["a2-cluster", "moe"]
    assert [t.key for t in incident.tickets.all()] == ["PROJ-9", "acme/t#3"]
    changed = {a.field: (a.old, a.new) for a in Activity.objects.about_incident(incident)}
    assert changed["triage_status"] == ("new", "investigating")
    assert changed["owner"] == ("", "bob")
    assert changed["tags"] == ("", "a2-cluster, moe")


def test_one_bad_value_changes_nothing(incident, alice):
    with pytest.raises(TriageInvalid) as refused:
        triage_update(
            incident=incident,
            actor=alice,
            changes={"triage_status": "investigating", "owner": "nobody-here"},
        )
    assert refused.value.field == "owner"
    incident.refresh_from_db()
    assert incident.triage_status == "new"
    assert not Activity.objects.filter(incident=incident, field="triage_status").exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"triage_status": "closed"}, "triage_status"),
        ({"root_cause_category": "gremlins"}, "root_cause_category"),
        ({"tags": ["has space!"]}, "tags"),
        ({"tickets": ["PROJ-1"]}, "tickets"),
        ({"duplicate_of": "INC-99999"}, "duplicate_of"),
        ({"triage_status": "duplicate"}, "duplicate_of"),
        ({"priority": "high"}, "priority"),
        ({"decision": 42}, "decision"),
    ],
)
def test_each_bad_value_is_refused_naming_its_field(incident, alice, changes, field):
    with pytest.raises(TriageInvalid) as refused:
        triage_update(incident=incident, actor=alice, changes=changes)
    assert refused.value.field == field


def test_a_duplicate_names_its_original_and_leaving_the_state_drops_it(incident, alice):
    original = make_incident(shape_report(), title="first report")
    triage_update(
        incident=incident,
        actor=alice,
        changes={"triage_status": "duplicate", "duplicate_of": original.short_id},
    )
    incident.refresh_from_db()
    assert incident.duplicate_of == original
    triage_update(incident=incident, actor=alice, changes={"triage_status": "investigating"})
    incident.refresh_from_db()
    assert incident.duplicate_of is None


def test_an_incident_cannot_duplicate_itself(incident, alice):
    with pytest.raises(TriageInvalid, match="itself"):
        triage_update(
            incident=incident,
            actor=alice,
            changes={"triage_status": "duplicate", "duplicate_of": incident.pk},
        )


def test_setting_a_root_cause_category_records_a_verdict_against_the_analyzer(incident, alice):
    triage_update(
        incident=incident,
        actor=alice,
        changes={"root_cause_category": "weight_load", "root_cause": "TP split of `o_proj`"},
    )
    verdict = RootCauseVerdict.objects.get(incident=incident)
    assert (verdict.analyzer_category, verdict.person_category) == ("shape_mismatch", "weight_load")
    assert not verdict.agrees
    assert verdict.actor_name == "alice"
    # Saving the same category again is not a second verdict.
    triage_update(incident=incident, actor=alice, changes={"root_cause_category": "weight_load"})
    assert RootCauseVerdict.objects.filter(incident=incident).count() == 1


def test_a_comment_is_stored_with_its_author_and_logged(incident, alice):
    comment = comment_add(incident=incident, author=alice, body="Rank 2 skipped the *barrier*.")
    assert comment.author_name == "alice"
    assert Activity.objects.filter(incident=incident, verb="commented").exists()


def test_an_empty_comment_is_refused(incident, alice):
    with pytest.raises(TriageInvalid) as refused:
        comment_add(incident=incident, author=alice, body="   ")
    assert refused.value.field == "body"
