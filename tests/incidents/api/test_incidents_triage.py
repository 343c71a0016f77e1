"""`GET` and `PATCH /api/incidents/INC-n/`: the detail answer carries the triage fields;
a change sends only the fields it changes, and a bad value changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from incidents.models import Activity, Incident
from incidents.triage.services import triage_snapshot

pytestmark = pytest.mark.django_db


def url(incident: Incident) -> str:
    return f"/api/incidents/INC-{incident.pk}/"


def patch(client, incident, body, headers=None):
    return client.patch(
        url(incident), json.dumps(body), content_type="application/json", headers=headers or {}
    )


def stored(incident: Incident) -> dict:
    return triage_snapshot(Incident.objects.get(pk=incident.pk))


def test_detail_carries_status_report_and_triage_fields(client, triaged, token_headers):
    hccl = triaged["hccl"]

    data = client.get(url(hccl), headers=token_headers).json()

    assert data["id"] == f"INC-{hccl.pk}"
    assert data["status"] == "done"
    assert data["report"]["diagnosis"]["category"] == "hccl"
    assert data["triage_status"] == "investigating"
    assert data["category"] == "hccl"
    assert data["culprit_ranks"] == [2]
    assert data["owner"] == "bob"
    assert data["tags"] == ["moe"]
    assert data["tickets"] == [{"url": "https://jira.example.com/browse/NPU-77", "key": "NPU-77"}]
    assert (data["root_cause"], data["root_cause_category"], data["decision"]) == ("", "", "")
    assert data["duplicate_of"] is None
    assert data["created_at"] == hccl.created_at.isoformat()


def test_a_logged_in_browser_reads_the_detail_without_a_token(client, triaged, alice):
    client.force_login(alice)

    data = client.get(url(triaged["hccl"])).json()

    assert data["triage_status"] == "investigating"
    assert client.get(f"/api/incidents/{triaged['hccl'].pk}/").status_code == 200


def test_detail_of_a_queued_incident_keeps_its_old_fields(client, triaged, token_headers):
    data = client.get(url(triaged["queued"]), headers=token_headers).json()

    assert (data["status"], data["progress"], data["error"], data["report"]) == (
        "queued",
        0,
        None,
        None,
    )
    assert data["triage_status"] == "new"
    assert data["owner"] is None


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"triage_status": "root_caused"}, "triage_status", "root_caused"),
        ({"owner": "alice"}, "owner", "alice"),
        ({"owner": None}, "owner", ""),
        ({"tags": ["MoE", "a2-cluster"]}, "tags", "a2-cluster, moe"),
        ({"tags": "nightly, moe"}, "tags", "moe, nightly"),
        ({"tags": []}, "tags", ""),
        (
            {"tickets": ["https://github.com/acme/train/issues/3"]},
            "tickets",
            "https://github.com/acme/train/issues/3",
        ),
        ({"root_cause": "TP split **wrong**"}, "root_cause", "TP split **wrong**"),
        ({"root_cause_category": "shape_mismatch"}, "root_cause_category", "shape_mismatch"),
        ({"decision": "Fix the launcher"}, "decision", "Fix the launcher"),
    ],
    ids=lambda value: next(iter(value)) if isinstance(value, dict) else None,
)
def test_patch_changes_each_field_and_answers_the_detail(
    client, triaged, token_headers, change, field, expected
):
    hccl = triaged["hccl"]
    before = stored(hccl)

    response = patch(client, hccl, change, token_headers)

    assert response.status_code == 200, response.content
    assert stored(hccl)[field] == expected
    assert {k: v for k, v in stored(hccl).items() if k != field} == {
        k: v for k, v in before.items() if k != field
    }
    data = response.json()
    assert data["id"] == f"INC-{hccl.pk}"
    assert data["status"] == "done"  # the analysis state, untouched
    assert data["report"] is not None


def test_patch_answers_the_updated_fields(client, triaged, token_headers):
    hccl = triaged["hccl"]

    data = patch(
        client,
        hccl,
        {"triage_status": "root_caused", "tags": ["x1"], "root_cause": "tp", "owner": "alice"},
        token_headers,
    ).json()

    assert (data["triage_status"], data["tags"], data["root_cause"], data["owner"]) == (
        "root_caused",
        ["x1"],
        "tp",
        "alice",
    )


def test_patch_marks_a_duplicate_of_another_incident(client, triaged, token_headers):
    hccl, shape = triaged["hccl"], triaged["shape"]

    data = patch(
        client, hccl, {"triage_status": "duplicate", "duplicate_of": shape.short_id}, token_headers
    ).json()

    assert data["triage_status"] == "duplicate"
    assert data["duplicate_of"] == shape.short_id
    assert stored(hccl)["duplicate_of"] == shape.short_id


@pytest.mark.parametrize("digits", ["\u0663", "\uff13", "INC-\u0663"])
def test_duplicate_of_takes_ascii_digits_only(client, triaged, token_headers, digits):
    # An Arabic-Indic or full-width digit matched `\d` and int() read it: "INC-\u0663" marked
    # the incident a duplicate of INC-3.
    hccl = triaged["hccl"]

    response = patch(
        client, hccl, {"triage_status": "duplicate", "duplicate_of": digits}, token_headers
    )

    assert response.status_code == 422, response.content
    assert response.json()["field"] == "duplicate_of"
    assert "is not an incident id such as INC-7" in response.json()["error"]
    assert stored(hccl)["duplicate_of"] == ""


def test_patch_is_logged_under_the_caller(client, triaged, token_headers, alice):
    patch(client, triaged["queued"], {"decision": "rerun"}, token_headers)

    assert Activity.objects.filter(actor=alice, target=triaged["queued"].short_id).exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"triage_status": "foo"}, "triage_status"),
        ({"triage_status": 3}, "triage_status"),
        ({"owner": "nobody-here"}, "owner"),
        ({"tags": ["not a tag!"]}, "tags"),
        ({"tags": [1, 2]}, "tags"),
        ({"tickets": ["ftp://tracker/1"]}, "tickets"),
        ({"root_cause": "x" * 20_001}, "root_cause"),
        ({"root_cause_category": "cosmic_rays"}, "root_cause_category"),
        ({"decision": ["not", "text"]}, "decision"),
        ({"duplicate_of": "INC-999999", "triage_status": "duplicate"}, "duplicate_of"),
        ({"triage_status": "duplicate"}, "duplicate_of"),
        ({"priority": "high"}, "priority"),
    ],
    ids=lambda value: "-".join(value) if isinstance(value, dict) else None,
)
def test_a_bad_value_answers_422_naming_the_field_and_changes_nothing(
    client, triaged, token_headers, change, field
):
    hccl = triaged["hccl"]
    # A good value beside the bad one must not be stored either.
    body = {"decision": "should not be stored"} | change
    before = stored(hccl)

    response = patch(client, hccl, body, token_headers)

    assert response.status_code == 422, response.content
    data = response.json()
    assert data["status"] == 422
    assert data["field"] == field
    assert data["error"].startswith(f"{field}: ")
    assert stored(hccl) == before


def test_an_unknown_triage_state_lists_the_known_ones(client, triaged, token_headers):
    data = patch(client, triaged["hccl"], {"triage_status": "foo"}, token_headers).json()

    assert data["error"].startswith("triage_status: 'foo' is not one of new, investigating")


def test_a_body_that_is_not_json_is_refused_as_json(client, triaged, token_headers):
    response = client.patch(
        url(triaged["hccl"]), "{oops", content_type="application/json", headers=token_headers
    )

    assert response.status_code in (400, 422)
    assert response.json()["status"] == response.status_code


def test_patch_of_an_unknown_incident_is_json_404(client, token_headers):
    response = client.patch(
        "/api/incidents/INC-999999/", "{}", content_type="application/json", headers=token_headers
    )

    assert response.status_code == 404
    assert response.json() == {"error": "Not found.", "status": 404}


def test_patch_needs_a_login_or_a_token(triaged):
    response = patch(Client(), triaged["hccl"], {"decision": "x"})

    assert response.status_code == 401
    assert stored(triaged["hccl"])["decision"] == ""


def test_a_session_patch_needs_the_csrf_token(triaged, alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get("/api/docs/")  # sets the CSRF cookie, as the docs page does
    token = browser.cookies["csrftoken"].value

    refused = patch(browser, triaged["hccl"], {"decision": "x"})
    accepted = patch(browser, triaged["hccl"], {"decision": "x"}, {"X-CSRFToken": token})

    assert refused.status_code == 403
    assert refused.json()["error"].startswith("CSRF check failed")
    assert accepted.status_code == 200
    assert stored(triaged["hccl"])["decision"] == "x"


def test_the_plain_number_path_reads_but_does_not_change(client, triaged, token_headers):
    hccl = triaged["hccl"]

    by_number = client.get(f"/api/incidents/{hccl.pk}/", headers=token_headers)
    by_id = client.get(url(hccl), headers=token_headers)

    assert by_number.json() == by_id.json()


def test_detail_of_an_incident_without_a_run_invents_no_run_fields(client, token_headers):
    incident = Incident.objects.create(title="no run yet")

    data = client.get(url(incident), headers=token_headers).json()

    assert (data["status"], data["progress"], data["report"]) == ("queued", 0, None)
    assert data["triage_status"] == "new"
    assert "step" not in data
    assert "started_at" not in data
