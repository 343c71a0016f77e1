"""Promotion to a draft and publishing, as services (the pages: test_views.py)."""

from __future__ import annotations

import pytest

from incidents.library import search_index
from incidents.library.models import Case, CaseIncident
from incidents.library.promotion import NotPromotable, case_promote, case_publish, promotion_values
from incidents.library.query import case_search
from incidents.library.services import incident_cases_sync
from incidents.models import Activity
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db


def later_incident_with_the_same_error(alice):
    report = shape_report(fingerprint="e" * 40)
    report["diagnosis"]["first_error"]["text"] = (
        "[rank1]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x16 and 32x32)"
    )
    return make_incident(report, alice, title="later")


def test_promotion_values_are_the_form_fields_from_the_report(alice):
    values = promotion_values(make_incident(shape_report(), alice))

    assert values["title"] == "Matrix shapes cannot be multiplied"
    assert values["category"] == "shape_mismatch"
    assert values["verify"] == []
    assert "source" not in values
    assert not Case.objects.exists()


def test_promotion_values_refuse_an_incident_still_being_analysed(alice):
    with pytest.raises(NotPromotable, match="no root-caused analysis"):
        promotion_values(make_incident(None, alice))


def test_promote_saves_the_values_given_as_a_draft(alice):
    incident = make_incident(shape_report(), alice)
    values = promotion_values(incident) | {"fix": "Split the projection weight once."}

    case = case_promote(incident=incident, user=alice, values=values)

    assert case.is_draft
    assert case.fix == "Split the projection weight once."


def test_a_draft_does_not_match_later_incidents_until_published(alice):
    case = case_promote(incident=make_incident(shape_report(), alice), user=alice)
    later = later_incident_with_the_same_error(alice)

    incident_cases_sync(run_id=later.latest_run().pk)
    unpublished = CaseIncident.objects.filter(incident=later).exists()
    case_publish(case=case, user=alice)
    incident_cases_sync(run_id=later.latest_run().pk)

    assert unpublished is False
    assert CaseIncident.objects.get(incident=later).case == case


def test_a_draft_stays_out_of_the_index_and_the_vocabulary_even_after_a_rebuild(alice):
    incident = make_incident(shape_report(), alice)
    values = promotion_values(incident) | {"tags": ["zorbulator"]}
    case = case_promote(incident=incident, user=alice, values=values)

    search_index.rebuild_index()

    assert case_search(text="zorbulator").hits == []
    assert case_search(text="zorbulatr").corrections == {}
    case_publish(case=case, user=alice)
    assert [hit.case for hit in case_search(text="zorbulator").hits] == [case]


def test_publishing_twice_publishes_and_records_once(alice):
    incident = make_incident(shape_report(), alice)
    case = case_promote(incident=incident, user=alice)

    first = case_publish(case=case, user=alice)
    second = case_publish(case=case, user=alice)

    entry = Activity.objects.get(verb="published")
    assert (first, second) == (True, False)
    assert (entry.case, entry.incident, entry.actor) == (case, incident, alice)
    assert (entry.old, entry.new) == ("draft", "published")
