"""Agreement between the analyzer and people, computed from each incident's latest verdict."""

from __future__ import annotations

import pytest

from incidents.triage.accuracy import (
    AccuracyFilters,
    AccuracyInvalid,
    Agreement,
    Confusion,
    accuracy_summary,
    disagreements,
    latest_verdicts,
)
from incidents.triage.services import triage_update
from tests.incidents.verdict_helpers import analyzed, at, settle

pytestmark = pytest.mark.django_db


def test_only_the_latest_verdict_of_each_incident_counts(team):
    latest = {v.incident_id: v.person_category for v in latest_verdicts()}

    assert len(latest) == 6
    assert latest[team["corrected"].pk] == "shape_mismatch"


def test_two_verdicts_in_the_same_instant_keep_the_later_one(alice):
    incident = analyzed("oom", 0.7)
    settle(incident, alice, "config", at(3, 1))
    settle(incident, alice, "oom", at(3, 1))

    assert [v.person_category for v in latest_verdicts()] == ["oom"]


def test_an_incident_whose_category_was_cleared_no_longer_counts(alice):
    incident = analyzed("oom", 0.9)
    settle(incident, alice, "oom", at(3, 1))
    triage_update(incident=incident, actor=alice, changes={"root_cause_category": ""})

    assert list(latest_verdicts()) == []


def test_overall_agreement_counts_a_corrected_incident_once(team):
    summary = accuracy_summary()

    assert summary.overall == Agreement(total=6, agreed=3)
    assert summary.overall.percent == 50
    assert summary.verdicts_all == 7


def test_per_category_of_people_counts_incidents_and_analyzer_hits(team):
    rows = {row.category: row.agreement for row in accuracy_summary().by_person}

    assert rows == {
        "hccl": Agreement(total=3, agreed=1),
        "device_fault": Agreement(total=1, agreed=0),
        "oom": Agreement(total=1, agreed=1),
        "shape_mismatch": Agreement(total=1, agreed=1),
    }
    assert accuracy_summary().by_person[0].category == "hccl"  # the most incidents first
    assert "weight_load" not in rows  # the corrected first answer is gone


def test_per_category_of_the_analyzer_keeps_unanalyzed_incidents_apart(team):
    rows = accuracy_summary().by_analyzer

    assert [(r.category, r.agreement.total, r.agreement.agreed) for r in rows] == [
        ("hang", 2, 0),
        ("", 1, 0),
        ("hccl", 1, 1),
        ("oom", 1, 1),
        ("shape_mismatch", 1, 1),
    ]
    assert rows[1].param == "none"


def test_confusions_are_ordered_by_how_often(team):
    assert accuracy_summary().confusions == [
        Confusion(person="hccl", analyzer="hang", count=2),
        Confusion(person="device_fault", analyzer="", count=1),
    ]


def test_calibration_splits_at_confidence_0_8(team):
    calibration = accuracy_summary().calibration

    assert calibration.threshold == 0.8
    assert calibration.confident == Agreement(total=3, agreed=2)  # 0.9, 0.85, 0.95
    assert calibration.unsure == Agreement(total=1, agreed=0)  # 0.5
    assert calibration.unknown == Agreement(total=2, agreed=1)  # no confidence recorded


def test_exactly_0_8_counts_as_confident(alice):
    settle(analyzed("oom", 0.8), alice, "oom", at(3, 1))

    assert accuracy_summary().calibration.confident == Agreement(total=1, agreed=1)


def test_disagreements_list_latest_verdicts_newest_first(team):
    page = disagreements(AccuracyFilters())

    assert page.count == 3
    assert [d.incident_title for d in page.items] == [
        "segfault, never analyzed",
        "allreduce timeout on rank 5",
        "moe all-to-all stalls",
    ]
    first = page.items[1]
    assert first.incident_id == f"INC-{team['early_feb'].pk}"
    assert (first.analyzer_category, first.analyzer_confidence) == ("hang", 0.85)
    assert (first.person_category, first.actor_name) == ("hccl", "alice")
    assert first.at == at(2, 1, 0, 10)


@pytest.mark.parametrize(
    ("params", "titles"),
    [
        ({"category": "hccl"}, ["allreduce timeout on rank 5", "moe all-to-all stalls"]),
        ({"analyzer": "hang"}, ["allreduce timeout on rank 5", "moe all-to-all stalls"]),
        ({"analyzer": "none"}, ["segfault, never analyzed"]),
        ({"category": "hccl", "analyzer": "none"}, []),
        ({"category": "weight_load"}, []),  # only a superseded verdict said weight_load
    ],
)
def test_disagreements_filter_by_either_category(team, params, titles):
    page = disagreements(AccuracyFilters.from_params(params))

    assert [d.incident_title for d in page.items] == titles


def test_disagreements_are_paginated(team):
    first = disagreements(AccuracyFilters(), page=1, per_page=2)
    second = disagreements(AccuracyFilters(), page=2, per_page=2)
    past = disagreements(AccuracyFilters(), page=5, per_page=2)

    assert (len(first.items), first.has_next, first.num_pages) == (2, True, 2)
    assert [d.incident_title for d in second.items] == ["moe all-to-all stalls"]
    assert (second.has_previous, second.has_next) == (True, False)
    assert (past.items, past.count) == ([], 3)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"category": "gremlins"}, "category"),
        ({"analyzer": "HCCL"}, "analyzer"),
        ({"period": "day"}, "period"),
    ],
)
def test_bad_parameters_are_refused_naming_them(params, field):
    with pytest.raises(AccuracyInvalid) as refused:
        AccuracyFilters.from_params(params)

    assert refused.value.field == field


def test_parameters_default_to_months_without_filters():
    filters = AccuracyFilters.from_params({})

    assert (filters.period, filters.is_filtered) == ("month", False)


def test_no_verdicts_is_an_empty_summary():
    summary = accuracy_summary()

    assert summary.is_empty
    assert summary.overall.percent is None
    assert disagreements(AccuracyFilters()).count == 0
