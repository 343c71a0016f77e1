"""Where the meeting is: position, the incidents around it, and the `at` fallback."""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import QueryDict
from django.utils import timezone

from incidents.meeting.selectors import (
    list_url,
    meeting_at,
    meeting_filters,
    meeting_place,
    meeting_url,
)
from incidents.models import Incident
from incidents.triage.listing import FilterInvalid
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def five(alice) -> list[Incident]:
    """Five incidents uploaded a day apart, oldest first; the 2nd and 4th are resolved."""
    made = [make_incident(shape_report(), user=alice, title=f"job {i}") for i in range(5)]
    start = timezone.now() - dt.timedelta(days=10)
    for i, incident in enumerate(made):
        Incident.objects.filter(pk=incident.pk).update(created_at=start + dt.timedelta(days=i))
    for incident in (made[1], made[3]):
        triage_update(incident=incident, actor=alice, changes={"triage_status": "resolved"})
    return made


def place(query: str):
    params = QueryDict(query)
    return meeting_place(meeting_filters(params), meeting_at(params.get("at")))


def test_the_meeting_starts_with_the_oldest_incident(five):
    where = place("")
    assert (where.current, where.position, where.count) == (five[0].pk, 1, 5)
    assert where.previous is None
    assert where.next == five[1].pk


def test_an_explicit_sort_wins_over_the_meeting_order(five):
    assert place("sort=-created").current == five[4].pk


def test_at_names_the_incident_on_screen_and_its_neighbours(five):
    where = place(f"at=INC-{five[2].pk}")
    assert (where.position, where.previous, where.next) == (3, five[1].pk, five[3].pk)
    assert not where.moved
    assert place(f"at={five[4].pk}").next is None


def test_filters_choose_the_incidents_walked(five):
    where = place(f"triage_status=new&at=INC-{five[2].pk}")
    assert (where.position, where.count) == (2, 3)
    assert (where.previous, where.next) == (five[0].pk, five[4].pk)


def test_an_incident_that_left_the_filters_gives_way_to_the_next_one(five):
    where = place(f"triage_status=new&at=INC-{five[1].pk}")
    assert where.moved
    assert (where.current, where.asked, where.position) == (five[2].pk, five[1].pk, 2)


def test_when_nothing_comes_after_it_the_last_one_is_shown(five, alice):
    triage_update(incident=five[4], actor=alice, changes={"triage_status": "resolved"})
    where = place(f"triage_status=new&at=INC-{five[4].pk}")
    assert where.moved
    assert (where.current, where.position, where.count) == (five[2].pk, 2, 2)


def test_an_incident_that_does_not_exist_starts_at_the_first(five):
    where = place("at=INC-999999")
    assert where.moved
    assert where.current == five[0].pk


def test_no_match_is_an_empty_place(five):
    where = place("triage_status=duplicate")
    assert where.count == 0
    assert where.current is None


def test_at_must_be_an_incident_id():
    assert meeting_at("inc-12") == 12
    assert meeting_at("") is None
    with pytest.raises(FilterInvalid) as raised:
        meeting_at("INC-seven")
    assert raised.value.field == "at"


def test_a_bad_filter_names_its_field():
    with pytest.raises(FilterInvalid) as raised:
        meeting_filters(QueryDict("triage_status=new,closed"))
    assert raised.value.field == "triage_status"


def test_links_keep_the_filters_and_leave_out_the_meeting_order():
    filters = meeting_filters(QueryDict("triage_status=new,investigating&owner=bob"))
    assert meeting_url(filters, 7) == (
        "/meeting/?triage_status=new%2Cinvestigating&owner=bob&at=INC-7"
    )
    # The list sorts newest first unless told; it is told the meeting's order.
    assert list_url(filters) == (
        "/incidents/?triage_status=new%2Cinvestigating&owner=bob&sort=created"
    )
    newest = meeting_filters(QueryDict("sort=-created"))
    assert meeting_url(newest, 3) == "/meeting/?sort=-created&at=INC-3"
