"""CSRF under /api/: needed when the login cookie alone authenticates a change, not with a
bearer token (a browser never sends that header by itself)."""

from __future__ import annotations

import pytest
from django.test import Client

from incidents.api.csrf import csrf_refusal
from incidents.models import Incident

pytestmark = pytest.mark.django_db


def test_a_token_upload_needs_no_csrf_token(alice_token, crash_bundle):
    client = Client(enforce_csrf_checks=True)

    with crash_bundle.open("rb") as fh:
        response = client.post(
            "/api/incidents/", {"bundle": fh}, headers={"Authorization": f"Bearer {alice_token}"}
        )

    assert response.status_code == 201
    assert Incident.objects.count() == 1


def test_a_session_change_without_the_csrf_token_is_refused_as_json(alice, crash_bundle):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    with crash_bundle.open("rb") as fh:
        response = client.post("/api/incidents/", {"bundle": fh})

    assert response.status_code == 403
    assert response.json()["error"].startswith("CSRF check failed")
    assert not Incident.objects.exists()


def test_reads_and_anonymous_requests_are_left_to_the_operation(rf, alice):
    read = rf.get("/api/cases/")
    read.user = alice
    anonymous = rf.post("/api/incidents/")
    anonymous.user = type("Anonymous", (), {"is_authenticated": False})()

    assert csrf_refusal(read) is None
    assert csrf_refusal(anonymous) is None
