"""The incident list's filters: each is a query parameter; a comma lists several values."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import QueryDict
from django.utils import timezone

from incidents.models import Incident
from incidents.triage.listing import (
    FilterInvalid,
    IncidentFilters,
    incident_page,
    incident_row,
    incidents_filtered,
)
from tests.incidents.triage_helpers import make_triaged

pytestmark = pytest.mark.django_db


def listed(query: str) -> list[str]:
    filters = IncidentFilters.from_params(QueryDict(query))
    return [incident.title for incident in incidents_filtered(filters)]


@pytest.fixture
def incidents(alice, bob):
    return make_triaged(alice, bob)


def test_no_filter_lists_newest_first(incidents):
    assert listed("") == ["queued job", "hccl job", "shape job"]


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("category=hccl", ["hccl job"]),
        ("category=hccl,shape_mismatch", ["hccl job", "shape job"]),
        ("triage_status=new,investigating", ["queued job", "hccl job"]),
        ("status=queued", ["queued job"]),
        ("owner=bob", ["hccl job"]),
        ("owner=none", ["queued job", "shape job"]),
        ("tag=MOE", ["hccl job"]),
        ("code=EI0006", ["hccl job"]),
        ("code=EI000", []),
        ("ticket=NPU-77", ["hccl job"]),
        ("ticket=https://jira.example.com/browse/NPU-77", ["hccl job"]),
        ("q=plog-4242", ["hccl job"]),
        ("q=mat1 shapes", ["shape job"]),
        ("q=queued job", ["queued job"]),
        ("sort=title", ["hccl job", "queued job", "shape job"]),
        ("sort=-category", ["shape job", "hccl job", "queued job"]),
    ],
)
def test_each_filter_narrows_the_list(incidents, query, titles):
    assert listed(query) == titles


def test_dates_bound_the_upload_day_inclusively(incidents):
    old = incidents["shape"]
    Incident.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=10))
    today = timezone.now().date().isoformat()
    assert "shape job" not in listed(f"since={today}")
    assert listed(f"until={(timezone.now().date() - dt.timedelta(days=9)).isoformat()}") == [
        "shape job"
    ]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("triage_status=closed", "triage_status"),
        ("status=finished", "status"),
        ("since=last-week", "since"),
        ("sort=priority", "sort"),
    ],
)
def test_a_bad_filter_value_names_its_field(query, field):
    with pytest.raises(FilterInvalid) as refused:
        IncidentFilters.from_params(QueryDict(query))
    assert refused.value.field == field


def test_filters_round_trip_through_their_query_string():
    filters = IncidentFilters.from_params(QueryDict("triage_status=new,investigating&tag=moe"))
    again = IncidentFilters.from_params(QueryDict(filters.query_string()))
    assert again == filters
    assert "page=2" in filters.query_string(page=2)


def test_a_page_holds_per_page_rows_and_counts_them_all(incidents):
    page = incident_page(IncidentFilters(), page=2, per_page=2)
    assert page.count == 3
    assert [i.title for i in page.items] == ["shape job"]
    assert page.has_previous
    assert not page.has_next
    with pytest.raises(FilterInvalid):
        incident_page(IncidentFilters(), page="zero")


def test_a_row_carries_the_triage_and_analysis_columns(incidents):
    row = incident_row(incidents["hccl"])
    assert row["status"] == "done"
    assert row["triage_status"] == "investigating"
    assert row["category"] == "hccl"
    assert row["culprit_ranks"] == [2]
    assert row["owner"] == "bob"
    assert row["tags"] == ["moe"]
    assert row["tickets"] == [{"url": "https://jira.example.com/browse/NPU-77", "key": "NPU-77"}]


def test_a_query_string_keeps_commas_and_leaves_out_a_none_override():
    filters = IncidentFilters.from_params(QueryDict("triage_status=new,investigating&sort=title"))
    assert filters.query_string() == "triage_status=new,investigating&sort=title"
    assert filters.query_string(sort=None, page=3) == "triage_status=new,investigating&page=3"
