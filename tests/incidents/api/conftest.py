"""Incidents in several triage states, made the way the worker and the triage services
make them (finished runs copy their report's summary onto the incident)."""

from __future__ import annotations

import pytest

from incidents.models import Incident
from tests.incidents.triage_helpers import make_triaged


@pytest.fixture
def triaged(alice, bob) -> dict[str, Incident]:
    """See `make_triaged`."""
    return make_triaged(alice, bob)


@pytest.fixture
def token_headers(alice_token) -> dict[str, str]:
    return {"Authorization": f"Bearer {alice_token}"}
