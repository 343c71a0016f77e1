"""What a meeting screen shows: the verdict and its proof, each rank's progress, similar
incidents and cases, and the discussion."""

from __future__ import annotations

import pytest

from incidents.meeting.screen import meeting_screen, owner_choices, rank_bars
from incidents.triage.services import comment_add, triage_update
from tests.incidents.library_helpers import make_incident, make_library, shape_report
from tests.incidents.meeting.reports import crash_report

pytestmark = pytest.mark.django_db


def test_the_verdict_and_where_the_first_causal_error_is(alice):
    incident = make_incident(crash_report(), user=alice, title="tp8 decode")
    screen = meeting_screen(incident)
    assert screen.diagnosis["category"] == "shape_mismatch"
    assert screen.diagnosis["confidence"] == 0.93
    assert screen.first_error_url == (
        f"/incidents/INC-{incident.pk}/files/job-f0dddebb/log_3.log?line=48#L48"
    )
    assert screen.culprit_ranks == [3]
    assert screen.last_common_checkpoint == "layer 2 / attention passed"


def test_the_plain_last_common_checkpoint_when_the_report_has_no_qualified_one(alice):
    report = crash_report(last_common_checkpoint_qualified=None)
    screen = meeting_screen(make_incident(report, user=alice))
    assert screen.last_common_checkpoint == "attention passed"


def test_one_bar_per_rank_in_rank_order_with_the_culprit_marked():
    bars = rank_bars(crash_report())
    assert [bar.rank for bar in bars] == [0, 1, 2, 3]
    assert [bar.checkpoints for bar in bars] == [13, 13, 13, 11]
    assert [bar.culprit for bar in bars] == [False, False, False, True]
    assert bars[3].last == "layer 2 / attention passed"


def test_chart_data_is_columns_of_the_bars(alice):
    data = meeting_screen(make_incident(crash_report(), user=alice)).chart_data()
    assert data["ranks"] == [0, 1, 2, 3]
    assert data["status"] == ["killed", "killed", "killed", "error"]


def test_similar_incidents_and_known_cases(alice):
    make_library()
    earlier = make_incident(crash_report(), user=alice, title="earlier run")
    make_incident(shape_report(fingerprint="0" * 40), user=alice, title="other failure")
    incident = make_incident(crash_report(), user=alice, title="tp8 decode")
    screen = meeting_screen(incident)
    assert [other.pk for other in screen.similar] == [earlier.pk]
    assert [match.id for match in screen.case_matches] == ["aicore-timeout"]
    assert screen.case_matches[0].case is not None


def test_the_discussion_oldest_first_rendered_safely(alice, django_user_model):
    bob = django_user_model.objects.create_user(username="bob", password="s3cret-pass")
    incident = make_incident(crash_report(), user=alice)
    comment_add(incident=incident, author=alice, body="Rank 3 is the **culprit**.")
    comment_add(incident=incident, author=bob, body="<script>alert(1)</script> agreed")
    comments = meeting_screen(incident).comments
    assert [c.author for c in comments] == ["alice", "bob"]
    assert "<strong>culprit</strong>" in comments[0].body_html
    assert "<script>" not in comments[1].body_html


def test_the_decision_is_rendered_markdown(alice):
    incident = make_incident(crash_report(), user=alice)
    triage_update(incident=incident, actor=alice, changes={"decision": "Fix the *TP split*."})
    assert "<em>TP split</em>" in meeting_screen(incident).decision_html


def test_an_incident_without_a_finished_analysis_shows_no_facts(alice):
    screen = meeting_screen(make_incident(None, user=alice))
    assert screen.run is None
    assert (screen.bars, screen.first_error_url, screen.culprit_ranks) == ([], "", [])


def test_owners_are_the_active_users_by_name(alice, django_user_model):
    django_user_model.objects.create_user(username="bob", password="x")
    django_user_model.objects.create_user(username="carol", password="x", is_active=False)
    assert [user.username for user in owner_choices()] == ["alice", "bob"]
