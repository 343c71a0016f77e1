"""The meeting page: one incident per screen, its place in the URL, forms that come back."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from django.utils.html import escape

from analyzers.library.matching import load_cases
from incidents.library.services import cases_load_knowledge
from incidents.models import Incident
from tests.incidents.library_helpers import make_incident, page_in, shape_report
from tests.incidents.meeting.reports import crash_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(alice) -> list[Incident]:
    """Three new incidents uploaded an hour apart, oldest first."""
    made = [make_incident(shape_report(), user=alice, title=f"decode job {i}") for i in range(3)]
    start = timezone.now() - dt.timedelta(hours=5)
    for i, incident in enumerate(made):
        Incident.objects.filter(pk=incident.pk).update(created_at=start + dt.timedelta(hours=i))
    return made


def test_the_first_screen_shows_the_oldest_incident_and_its_place(alice_client, three):
    answer = alice_client.get("/meeting/?triage_status=new")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "1 of 3" in page
    assert f'href="/incidents/INC-{three[0].pk}/"' in page
    assert "decode job 0" in page
    assert "Oldest first" in page
    assert (
        f'id="meeting-next" class="button" href="/meeting/?triage_status=new&amp;at=INC-{three[1].pk}"'
        in page
    )
    assert 'id="meeting-previous"' not in page


def test_the_screen_shows_the_verdict_its_proof_and_the_triage_forms(alice_client, three):
    page = alice_client.get(f"/meeting/?at=INC-{three[1].pk}").content.decode()
    assert "2 of 3" in page
    assert "shape_mismatch" in page
    first_error = f"/incidents/INC-{three[1].pk}/files/job-f0dddebb/log_3.log?line=48#L48"
    assert f'href="{first_error}"' in page
    assert "mat1 and mat2 shapes cannot be multiplied" in page
    assert f'action="/incidents/INC-{three[1].pk}/triage/"' in page
    assert f'action="/incidents/INC-{three[1].pk}/comments/"' in page
    here = f"/meeting/?at=INC-{three[1].pk}"
    # The three triage forms, and the header's language switch, come back here.
    assert page.count(f'name="next" value="{here}"') == 4
    assert '<option value="alice">alice</option>' in page


def test_a_form_post_without_script_comes_back_to_the_next_incident(alice_client, three):
    here = f"/meeting/?triage_status=new&at=INC-{three[0].pk}"
    answer = alice_client.post(
        f"/incidents/INC-{three[0].pk}/triage/", {"triage_status": "resolved", "next": here}
    )
    assert answer["Location"] == here
    page = alice_client.get(here).content.decode()
    assert f"INC-{three[0].pk} no longer matches these filters" in page
    assert "1 of 2" in page
    assert "decode job 1" in page


def test_no_match_shows_the_empty_state_with_the_list_link(alice_client, three):
    answer = alice_client.get("/meeting/?triage_status=resolved&owner=alice")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "No incident matches these filters" in page
    assert 'href="/incidents/?triage_status=resolved&amp;owner=alice&amp;sort=created"' in page


@pytest.mark.parametrize(
    ("query", "field"),
    [("triage_status=open", "triage_status"), ("since=yesterday", "since"), ("at=seven", "at")],
)
def test_a_bad_filter_answers_400_naming_the_field(alice_client, query, field):
    answer = alice_client.get(f"/meeting/?{query}")
    assert answer.status_code == 400
    page = answer.content.decode()
    assert f'data-field="{field}"' in page
    assert f"The filter “{field}” is not valid" in page


def test_the_page_needs_a_login(client, three):
    answer = client.get("/meeting/")
    assert answer.status_code == 302
    assert "/login" in answer["Location"]


def test_the_policy_allows_no_inline_script(alice_client, three):
    answer = alice_client.get("/meeting/")
    policy = answer["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert "'self'" in script_src
    assert "'unsafe-inline'" not in policy
    page = answer.content.decode()
    # Every script is a file (static, or the text catalog); the chart's data is JSON,
    # which browsers never run.
    scripts = re.findall(r"<script([^>]*)>", page)
    assert scripts
    files = ('src="/static/', 'src="/jsi18n/"', 'type="application/json"')
    assert all(any(kind in attrs for kind in files) for attrs in scripts)
    assert not re.search(r"\son[a-z]+=", page)
    assert "style=" not in page


def test_the_compact_timeline_has_its_data_and_the_plotly_bundle(alice_client, alice):
    incident = make_incident(crash_report(), user=alice, title="tp8 decode")
    answer = alice_client.get(f"/meeting/?at=INC-{incident.pk}")
    page = answer.content.decode()
    assert '<script id="meeting-timeline-data" type="application/json">' in page
    assert '"ranks": [0, 1, 2, 3]' in page
    assert "/static/vendor/plotly.min.js" in page
    assert "layer 2 / attention passed" in page
    assert "confidence 0.93" in page
    # Plotly fills its <style> elements through CSSOM: the page allows their hashes.
    assert "sha256-" in answer["Content-Security-Policy"]


def test_a_refused_form_post_shows_why_on_the_same_screen(alice_client, three):
    here = f"/meeting/?at=INC-{three[1].pk}"
    answer = alice_client.post(
        f"/incidents/INC-{three[1].pk}/triage/", {"triage_status": "duplicate", "next": here}
    )
    assert answer["Location"] == here
    page = alice_client.get(here).content.decode()
    assert "Duplicate of: a duplicate names the incident it duplicates" in page
    assert "2 of 3" in page


def test_known_cases_are_named_in_the_page_language(alice_client, alice):
    """The meeting screen names a seeded case as the incident page does: its Chinese title
    on a Chinese page (before, the English title the report stored)."""
    cases_load_knowledge()
    case = next(c for c in load_cases() if c.id == "hccl-buffsize-too-small")
    matched = [{"id": case.id, "title": case.title, "score": 0.5}]
    incident = make_incident(shape_report(cases=matched), user=alice, title="decode job")

    chinese = page_in(alice_client, "/meeting/", "zh-hans", at=f"INC-{incident.pk}")
    english = page_in(alice_client, "/meeting/", "en", at=f"INC-{incident.pk}")

    cases = re.search(r'<ul id="meeting-cases">(.*?)</ul>', chinese, re.S).group(1)
    assert f">{escape(case.title_zh)}</a>" in cases
    assert escape(case.title) not in cases
    assert f">{escape(case.title)}</a>" in english
