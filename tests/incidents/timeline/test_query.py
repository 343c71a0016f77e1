"""The timeline's URL parameters, as pasted from an incident page into a ticket."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest

from incidents.timeline.query import TimelineQuery, TimelineQueryError, parse_timeline_query


def query_of(url: str) -> TimelineQuery:
    return parse_timeline_query(dict(parse_qsl(urlsplit(url).query)))


def test_a_pasted_incident_url_gives_the_same_view():
    url = "/incidents/INC-7/?axis=time&ranks=0-3,7&x0=120&x1=480&stragglers=1#timeline"
    assert query_of(url) == TimelineQuery(
        axis="time",
        window=(120.0, 480.0),
        ranks=frozenset({0, 1, 2, 3, 7}),
        stragglers=True,
    )


def test_a_bare_incident_url_is_the_whole_job_without_overlay():
    assert query_of("/incidents/INC-7/#timeline") == TimelineQuery()


SWITCH_CASES = [
    ("1", True),
    ("on", True),
    ("true", True),
    ("0", False),
    ("off", False),
    ("", False),
]


@pytest.mark.parametrize(("raw", "expected"), SWITCH_CASES)
def test_stragglers_switch(raw, expected):
    assert parse_timeline_query({"stragglers": raw}).stragglers is expected


def test_stragglers_switch_rejects_other_words():
    with pytest.raises(TimelineQueryError, match="stragglers must be 1 or 0"):
        parse_timeline_query({"stragglers": "maybe"})
