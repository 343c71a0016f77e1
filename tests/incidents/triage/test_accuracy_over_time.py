"""Agreement between the analyzer and people per month or week, by when each incident's
latest verdict was set."""

from __future__ import annotations

import datetime as dt

import pytest

from incidents.triage.accuracy_over_time import agreement_over_time
from tests.incidents.verdict_helpers import analyzed, at, settle

pytestmark = pytest.mark.django_db


def test_months_bucket_by_when_the_latest_verdict_was_set(team):
    over_time = agreement_over_time("month")

    assert [(r.label, r.agreement.total, r.agreement.agreed) for r in over_time.rows] == [
        ("2026-01", 1, 0),  # the corrected incident's January answer is not counted
        ("2026-02", 2, 1),
        ("2026-03", 0, 0),  # a quiet month keeps its place
        ("2026-04", 3, 2),
    ]
    assert over_time.rows[0].start == dt.date(2026, 1, 1)
    assert not over_time.earlier_left_out


def test_weeks_put_a_saturday_and_the_next_sunday_together(team):
    rows = agreement_over_time("week").rows
    counts = {r.label: (r.agreement.total, r.agreement.agreed) for r in rows}

    assert rows[0].start == dt.date(2026, 1, 26)  # the Monday before 31 January
    assert len(rows) == 11
    assert counts["2026-W05"] == (2, 0)  # 31 Jan 23:30 and 1 Feb 00:10
    assert counts["2026-W06"] == (1, 1)
    assert counts["2026-W14"] == (2, 2)
    assert counts["2026-W15"] == (1, 0)
    assert counts["2026-W10"] == (0, 0)


def test_only_the_newest_periods_are_shown(alice):
    settle(analyzed("oom", 0.9, "old"), alice, "oom", dt.datetime(2023, 1, 5, tzinfo=dt.UTC))
    settle(analyzed("oom", 0.9, "new"), alice, "hccl", at(3, 1))

    over_time = agreement_over_time("month")

    assert len(over_time.rows) == 24
    assert over_time.rows[-1].label == "2026-03"
    assert over_time.rows[0].label == "2024-04"
    assert over_time.earlier_left_out


def test_no_verdicts_shows_no_period():
    assert agreement_over_time().rows == []
