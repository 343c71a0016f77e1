"""Incidents in several triage states, made the way the worker and the triage services
make them (finished runs copy their report's summary onto the incident)."""

from __future__ import annotations

import pytest

from incidents.models import Incident
from incidents.triage.services import triage_update
from tests.incidents.library_helpers import error_ref, make_incident, shape_report


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="s3cret-pass")


@pytest.fixture
def triaged(alice, bob) -> dict[str, Incident]:
    """`shape` (resolved), `hccl` (investigating, bob, tag moe, ticket NPU-77), `queued`
    (new, not analysed yet); created in that order."""
    hccl = shape_report()
    hccl["diagnosis"] |= {"category": "hccl", "error_codes": ["EI0006"], "culprit_ranks": [2]}
    hccl["diagnosis"]["first_error"] = error_ref(
        line=812,
        text="[rank2]: RuntimeError: HCCL function error: HcclAllReduce, error code is 7",
    )
    made = {
        "shape": make_incident(shape_report(), user=alice, title="shape job"),
        "hccl": make_incident(hccl, user=alice, title="hccl job"),
        "queued": make_incident(None, user=alice, title="queued job"),
    }
    triage_update(
        incident=made["hccl"],
        actor=alice,
        changes={
            "triage_status": "investigating",
            "owner": "bob",
            "tags": ["moe"],
            "tickets": ["https://jira.example.com/browse/NPU-77"],
        },
    )
    triage_update(incident=made["shape"], actor=bob, changes={"triage_status": "resolved"})
    for incident in made.values():
        incident.refresh_from_db()
    return made


@pytest.fixture
def token_headers(alice_token) -> dict[str, str]:
    return {"Authorization": f"Bearer {alice_token}"}
