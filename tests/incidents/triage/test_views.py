"""The triage panel and the meeting view post their changes here."""

from __future__ import annotations

import pytest

from incidents.models import AnalysisRun, Comment, RunState
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(alice):
    return make_incident(shape_report(), user=alice, title="tp8 decode")


def test_a_form_post_changes_only_the_fields_it_sends_and_returns_to_the_page(
    alice_client, incident
):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "investigating", "next": "/meeting/?triage_status=new"},
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/meeting/?triage_status=new"
    incident.refresh_from_db()
    assert incident.triage_status == "investigating"
    assert incident.title == "tp8 decode"


def test_a_script_gets_the_row_back_as_json(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"owner": "alice", "tags": "moe, a2"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 200
    assert answer.json()["owner"] == "alice"
    assert answer.json()["tags"] == ["a2", "moe"]


def test_a_refused_value_names_the_field_and_changes_nothing(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "closed"},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "triage_status"
    incident.refresh_from_db()
    assert incident.triage_status == "new"


def test_a_refused_form_comes_back_with_what_was_typed(alice_client, incident):
    """One bad tag must not cost the root cause someone just wrote: the page the refusal
    goes back to opens the form with every entry as sent (once), beside the reason."""
    sent = {
        "triage_status": "investigating",
        "owner": "alice",
        "tags": "moe, 中文",
        "tickets": "https://jira.example.com/browse/NPU-77",
        "root_cause_category": "hccl",
        "root_cause": "Rank 3's **projection** weight was split twice.",
        "decision": "Fix the loader.",
        "next": f"/incidents/INC-{incident.pk}/#triage",
    }
    answer = alice_client.post(f"/incidents/INC-{incident.pk}/triage/", sent, follow=True)

    page = answer.content.decode()
    assert "Tags: &#x27;中文&#x27;" in page  # the reason, as before
    assert '<details class="triage-edit" open>' in page
    assert 'value="moe, 中文"' in page
    assert ">Rank 3&#x27;s **projection** weight was split twice.</textarea>" in page
    assert ">Fix the loader.</textarea>" in page
    assert ">https://jira.example.com/browse/NPU-77</textarea>" in page
    assert '<option value="investigating" selected>' in page
    assert '<option value="alice" selected>' in page
    assert '<option value="hccl" selected>' in page
    incident.refresh_from_db()
    assert (incident.triage_status, incident.root_cause) == ("new", "")

    again = alice_client.get(f"/incidents/INC-{incident.pk}/").content.decode()
    assert '<details class="triage-edit">' in again
    assert "split twice" not in again


def test_a_refusal_that_goes_back_elsewhere_leaves_no_draft_for_the_incident_page(
    alice_client, incident
):
    sent = {"tags": "中文", "root_cause": "typed in the meeting", "next": "/meeting/"}
    alice_client.post(f"/incidents/INC-{incident.pk}/triage/", sent)

    page = alice_client.get(f"/incidents/INC-{incident.pk}/").content.decode()
    assert "typed in the meeting" not in page


def test_an_offsite_next_is_ignored(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/triage/",
        {"triage_status": "resolved", "next": "https://evil.example.com/"},
    )
    assert answer["Location"] == incident.get_absolute_url()


def test_a_comment_is_added_and_rendered(alice_client, incident):
    answer = alice_client.post(
        f"/incidents/INC-{incident.pk}/comments/",
        {"body": "Rank 2 never entered the **all_reduce**."},
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 201
    assert "<strong>all_reduce</strong>" in answer.json()["body_html"]
    assert Comment.objects.get(incident=incident).author_name == "alice"


def test_triage_needs_a_login(client, incident):
    answer = client.post(f"/incidents/INC-{incident.pk}/triage/", {"triage_status": "resolved"})
    assert answer.status_code == 302
    assert "/login" in answer["Location"]
    incident.refresh_from_db()
    assert incident.triage_status == "new"


# --- the ticket export ------------------------------------------------------------------------


def export_of(client, incident):
    return client.get(f"/incidents/INC-{incident.pk}/export.md")


def test_the_export_of_a_finished_incident_links_the_exact_log_line(alice_client, incident):
    triage_update(
        incident=incident,
        actor=None,
        changes={"owner": "alice", "tickets": "https://jira.example.com/browse/NPU-77"},
    )
    answer = export_of(alice_client, incident)

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/markdown; charset=utf-8"
    text = answer.content.decode()
    base = f"http://testserver/incidents/INC-{incident.pk}/"
    assert text.startswith(f"### INC-{incident.pk}: tp8 decode\n")
    assert "- **Triage:** New\n" in text
    assert "- **Verdict:** `shape_mismatch`" in text
    assert (
        f"[`job-f0dddebb/log_3.log:48`]({base}files/job-f0dddebb/log_3.log?line=48#L48) (rank 3)"
        in text
    )
    assert "   > `[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied" in text
    assert "- **Culprit ranks:** 3\n" in text
    assert "   1. Check the TP split of the projection weights.\n" in text
    assert "- **Owner:** alice\n" in text
    assert "- **Tickets:** [NPU-77](https://jira.example.com/browse/NPU-77)\n" in text
    assert text.endswith(f"- **Incident:** {base}\n")
    assert "<" not in text


def test_the_export_of_a_queued_incident_says_there_is_no_diagnosis_yet(alice_client, alice):
    queued = make_incident(None, user=alice, title="still waiting")
    text = export_of(alice_client, queued).content.decode()

    assert "- **Analysis:** queued, no diagnosis yet\n" in text
    assert "Verdict" not in text


def test_the_export_of_a_failed_incident_says_why(alice_client, alice):
    failed = make_incident(None, user=alice, title="broken upload")
    failed.runs.update(state=RunState.FAILED, error="job.tar.gz: the gzip data is corrupt")
    text = export_of(alice_client, failed).content.decode()

    assert "- **Analysis:** failed: `job.tar.gz: the gzip data is corrupt`\n" in text
    assert "Verdict" not in text


def test_the_export_of_a_reanalysis_in_progress_does_not_quote_the_old_report(
    alice_client, incident
):
    AnalysisRun.objects.create(incident=incident, state=RunState.RUNNING)
    text = export_of(alice_client, incident).content.decode()

    assert "- **Analysis:** running, no diagnosis yet\n" in text


def test_the_export_needs_a_login(client, incident):
    answer = export_of(client, incident)
    assert answer.status_code == 302
    assert "/login" in answer["Location"]


def test_the_export_of_an_unknown_incident_is_404(alice_client):
    assert alice_client.get("/incidents/INC-999999/export.md").status_code == 404
