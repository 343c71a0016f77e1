"""Incident pages: list, detail with live status, re-analysis, login."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.models import AnalysisRun, Incident, RunState
from incidents.runs import services
from incidents.runs.analysis import analyze_run

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('pwned')</script>"


def make_incident(path: Path, user, title: str = "") -> Incident:
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    return services.incident_create(upload=upload, title=title, created_by=user)


@pytest.fixture
def analyzed(crash_bundle, alice) -> Incident:
    incident = make_incident(crash_bundle, alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


@pytest.mark.parametrize("url", ["/", "/incidents/", "/incidents/new/", "/incidents/INC-1/"])
def test_pages_need_login(client, url):
    response = client.get(url, follow=True)

    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert b"Log in" in response.content


def test_login_page_logs_in(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "s3cret-pass"}, follow=True
    )

    assert response.redirect_chain[-1][0] == "/incidents/"
    assert response.context["user"] == alice


def test_list_shows_incidents_newest_first(alice_client, alice, crash_bundle):
    make_incident(crash_bundle, alice, title="older job")
    make_incident(crash_bundle, alice, title="newer job")

    html = alice_client.get("/incidents/").content.decode()

    assert html.index("newer job") < html.index("older job")


def test_detail_url_is_stable_short_id(alice_client, analyzed):
    response = alice_client.get(f"/incidents/INC-{analyzed.pk}/")

    assert response.status_code == 200
    assert analyzed.get_absolute_url() == f"/incidents/INC-{analyzed.pk}/"
    assert f"INC-{analyzed.pk}" in response.content.decode()


def test_detail_shows_diagnosis_ranks_and_files(alice_client, analyzed):
    report = analyzed.latest_run().report

    response = alice_client.get(analyzed.get_absolute_url())

    html = response.content.decode()
    assert 'id="diagnosis"' in html
    assert report["diagnosis"]["category"] in html
    ranks = response.context["report"]["ranks"]
    assert html.count("badge-rank-") == len(ranks) > 0
    for f in report["bundle"]["files"]:
        assert f["path"] in html


def test_detail_of_a_queued_run_polls_its_status(alice_client, alice, crash_bundle):
    incident = make_incident(crash_bundle, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert f'data-status-url="/incidents/INC-{incident.pk}/status/"' in html
    assert 'data-state="queued"' in html
    assert "js/incident_detail.js" in html
    assert 'id="diagnosis"' not in html


def test_status_json_follows_the_run(alice_client, alice, crash_bundle):
    incident = make_incident(crash_bundle, alice)
    url = f"/incidents/INC-{incident.pk}/status/"
    before = alice_client.get(url).json()

    analyze_run(run_id=incident.latest_run().pk)

    after = alice_client.get(url).json()
    assert (before["status"], before["progress"]) == ("queued", 0)
    assert (after["status"], after["progress"], after["error"]) == ("done", 100, None)
    assert "report" not in after


def test_failed_run_shows_its_error(alice_client, analyzed):
    AnalysisRun.objects.filter(incident=analyzed).update(
        state=RunState.FAILED, report=None, error="job.tar.gz: the gzip data is corrupt"
    )

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "job.tar.gz: the gzip data is corrupt" in html
    assert 'data-state="failed"' in html


def test_detail_shows_the_alternative_labels_with_their_evidence(alice_client, analyzed):
    run = analyzed.latest_run()
    report = copy.deepcopy(run.report)
    report["diagnosis"]["alternatives"] = [
        {
            "category": "driver_env",
            "evidence": "Operator kernel binaries not installed",
            "score": 0.5,
        }
    ]
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "could also be" in html
    assert "driver_env</span>: Operator kernel binaries not installed" in html


def test_a_report_without_alternatives_shows_none(alice_client, analyzed):
    run = analyzed.latest_run()
    report = copy.deepcopy(run.report)
    report["diagnosis"].pop("alternatives", None)
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "could also be" not in html


def test_log_text_is_escaped_everywhere_on_the_page(alice_client, analyzed):
    run = analyzed.latest_run()
    report = poisoned(run.report)
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)
    analyzed.title = SCRIPT
    analyzed.save()

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "<script>alert" not in html
    assert html.count("&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;") >= 6


def poisoned(report: dict) -> dict:
    """The report with hostile text wherever a log line or file name lands."""
    report = copy.deepcopy(report)
    line = {"file": f"{SCRIPT}.log", "line": 7, "text": f"RuntimeError: {SCRIPT}", "rank": 0}
    report["diagnosis"]["first_error"] = line
    report["diagnosis"]["next_actions"] = [f"Check {SCRIPT}"]
    report["diagnosis"]["alternatives"] = [{"category": "hang", "evidence": SCRIPT, "score": 0.4}]
    report["ranks"][0]["first_error"] = line
    report["ranks"][0]["last_checkpoint"] = SCRIPT
    report["ranks"][0]["last_checkpoint_qualified"] = None
    report["bundle"]["files"][0]["path"] = f"logs/{SCRIPT}"
    return report


def test_list_escapes_titles(alice_client, alice, crash_bundle):
    make_incident(crash_bundle, alice, title=SCRIPT)

    html = alice_client.get("/incidents/").content.decode()

    assert "<script>alert" not in html
    assert "&lt;script&gt;" in html


def test_reanalyze_creates_a_new_run_and_page_shows_the_latest(alice_client, analyzed):
    first = analyzed.latest_run()

    response = alice_client.post(f"/incidents/INC-{analyzed.pk}/reanalyze/")

    assert response.status_code == 302
    assert response["Location"] == analyzed.get_absolute_url()
    latest = analyzed.latest_run()
    assert latest.pk != first.pk
    assert latest.state == RunState.QUEUED
    page = alice_client.get(analyzed.get_absolute_url())
    assert page.context["run"] == latest
    assert page.context["report"] is None


def test_reanalyze_with_a_checkpoint_pattern_uses_it_for_that_run(alice_client, analyzed):
    pattern = r"^(?P<checkpoint>prefill start)"

    alice_client.post(f"/incidents/INC-{analyzed.pk}/reanalyze/", {"checkpoint_patterns": pattern})

    latest = analyzed.latest_run()
    assert latest.checkpoint_patterns == [pattern]
    analyze_run(run_id=latest.pk)
    latest.refresh_from_db()
    rank0 = next(r for r in latest.report["ranks"] if r["rank"] == 0)
    assert rank0["checkpoints"] == 7  # the six default checkpoints plus "prefill start"
    page = alice_client.get(analyzed.get_absolute_url())
    assert page.context["reanalyze_form"].initial == {"checkpoint_patterns": pattern}


def test_reanalyze_with_a_broken_pattern_queues_nothing_and_says_why(alice_client, analyzed):
    response = alice_client.post(
        f"/incidents/INC-{analyzed.pk}/reanalyze/",
        {"checkpoint_patterns": r"layer (\d+"},
        follow=True,
    )

    assert analyzed.runs.count() == 1
    assert analyzed.latest_run().state == RunState.DONE
    assert "flash-error" in response.content.decode()
    assert "layer (" in response.content.decode()


def test_reanalyze_needs_post(alice_client, analyzed):
    response = alice_client.get(f"/incidents/INC-{analyzed.pk}/reanalyze/")

    assert response.status_code == 405
    assert analyzed.runs.count() == 1


def test_unknown_incident_is_404(alice_client):
    assert alice_client.get("/incidents/INC-424242/").status_code == 404
