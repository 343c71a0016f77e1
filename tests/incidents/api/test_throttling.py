"""Request budgets per API caller: past one the API answers 429 with Retry-After, stores
nothing, and other callers are not affected."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache

from incidents.api import throttling
from incidents.models import Incident

pytestmark = pytest.mark.django_db

LIST_URL = "/api/incidents/"


@pytest.fixture
def budgets(settings, alice, bob):
    """Small budgets, with alice's and bob's counts from any earlier run wiped."""
    settings.RANKLENS_API_RATE = "3/min"
    settings.RANKLENS_API_UPLOAD_RATE = "1/hour"
    for user in (alice, bob):
        for scope in ("api", "upload"):
            cache.delete(f"ranklens:throttle:{scope}:user-{user.pk}")
    return settings


def token_for(user) -> dict[str, str]:
    from incidents.runs.services import api_token_issue

    token, _ = api_token_issue(username=user.username)
    return {"Authorization": f"Bearer {token}"}


def test_a_caller_past_its_budget_gets_429_with_retry_after(budgets, client, alice):
    headers = token_for(alice)
    answers = [client.get(LIST_URL, headers=headers) for _ in range(4)]

    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    refused = answers[-1]
    assert refused.json() == {"error": "Too many requests: try again later.", "status": 429}
    assert 1 <= int(refused["Retry-After"]) <= 60


def test_one_callers_burst_leaves_others_served(budgets, client, alice, bob):
    alice_headers, bob_headers = token_for(alice), token_for(bob)
    for _ in range(4):
        client.get(LIST_URL, headers=alice_headers)

    assert client.get(LIST_URL, headers=bob_headers).status_code == 200


def test_uploads_have_a_smaller_budget_and_a_refused_one_stores_nothing(
    budgets, client, alice, crash_bundle
):
    headers = token_for(alice)

    def upload():
        with crash_bundle.open("rb") as fh:
            return client.post(LIST_URL, {"bundle": fh}, headers=headers)

    assert upload().status_code == 201
    refused = upload()

    assert refused.status_code == 429
    assert Incident.objects.count() == 1
    assert client.get(LIST_URL, headers=headers).status_code == 200  # reading still allowed


def test_an_empty_rate_means_no_budget(settings, client, alice):
    settings.RANKLENS_API_RATE = ""
    headers = token_for(alice)

    assert {client.get(LIST_URL, headers=headers).status_code for _ in range(20)} == {200}


def test_an_unreachable_cache_lets_requests_through(budgets, client, alice, monkeypatch):
    """Port 1 refuses connections: the same failure as a Redis that went away."""
    monkeypatch.setattr(throttling, "cache", RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {}}))
    headers = token_for(alice)

    assert {client.get(LIST_URL, headers=headers).status_code for _ in range(5)} == {200}
