"""API tokens: hashed at rest, expiring, listed and revoked by their owner (page) and by
an operator (management commands)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from incidents.accounts.token_services import TokenError, api_token_create, api_token_revoke
from incidents.models import Activity, ApiToken, token_digest

pytestmark = pytest.mark.django_db

STATUS_URL = "/api/cases/"
TOKENS_URL = "/account/tokens/"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_new_tokens_expire_after_90_days_by_default(alice):
    _, token = api_token_create(user=alice)

    expected = timezone.now() + timedelta(days=90)
    assert abs(token.expires_at - expected) < timedelta(minutes=1)


def test_expiry_outside_one_day_to_ten_years_is_refused(alice):
    with pytest.raises(TokenError):
        api_token_create(user=alice, expires_days=0)


def test_expired_token_is_refused_saying_it_expired(client, alice):
    secret, token = api_token_create(user=alice, expires_days=1)
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    response = client.get(STATUS_URL, headers=bearer(secret))

    assert response.status_code == 401
    assert "expired" in response.json()["error"]


def test_revoked_token_is_refused_at_once(client, alice):
    secret, token = api_token_create(user=alice)
    assert client.get(STATUS_URL, headers=bearer(secret)).status_code == 200

    api_token_revoke(token=token, actor=alice)

    response = client.get(STATUS_URL, headers=bearer(secret))
    assert response.status_code == 401
    assert "revoked" in response.json()["error"]


def test_token_page_issues_a_token_shown_once_and_stores_its_digest(alice_client, alice):
    response = alice_client.post(TOKENS_URL, {"name": "nightly CI", "expires_days": "30"})

    secret = response.context["secret"]
    token = ApiToken.objects.get(user=alice)
    assert secret in response.content.decode()
    assert token.digest == token_digest(secret)
    assert (token.name, token.prefix) == ("nightly CI", secret[:10])
    assert secret not in alice_client.get(TOKENS_URL).content.decode()


def test_token_page_lists_only_the_owners_tokens(alice_client, alice, django_user_model):
    bob = django_user_model.objects.create_user(username="bob", password="pw-bob-123")
    _, mine = api_token_create(user=alice, name="mine")
    api_token_create(user=bob, name="theirs")

    tokens = list(alice_client.get(TOKENS_URL).context["tokens"])

    assert tokens == [mine]


def test_owner_revokes_a_token_on_the_page_and_the_log_says_so(alice_client, alice):
    _, token = api_token_create(user=alice)

    response = alice_client.post(f"{TOKENS_URL}{token.pk}/revoke/")

    token.refresh_from_db()
    assert response.status_code == 302
    assert token.revoked_at is not None
    entry = Activity.objects.filter(verb="revoked").get()
    assert (entry.actor, entry.field) == (alice, "api_token")


def test_nobody_revokes_another_users_token(alice_client, django_user_model):
    bob = django_user_model.objects.create_user(username="bob", password="pw-bob-123")
    _, token = api_token_create(user=bob)

    response = alice_client.post(f"{TOKENS_URL}{token.pk}/revoke/")

    token.refresh_from_db()
    assert response.status_code == 404
    assert token.revoked_at is None


def test_token_page_needs_login(client):
    response = client.get(TOKENS_URL)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_issue_token_command_takes_an_expiry_and_a_name():
    secret = run("issue_token", "ci-bot", "--expires-days", "7", "--name", "nightly").strip()

    token = ApiToken.objects.get(digest=token_digest(secret))
    assert token.name == "nightly"
    assert timedelta(days=6) < token.expires_at - timezone.now() <= timedelta(days=7)


def test_issue_token_command_refuses_a_bad_expiry():
    with pytest.raises(CommandError, match="between 1 and"):
        run("issue_token", "ci-bot", "--expires-days", "0")


def test_list_tokens_command_shows_prefix_owner_and_state(alice):
    _, active = api_token_create(user=alice, name="ci")
    _, gone = api_token_create(user=alice, name="old")
    api_token_revoke(token=gone, actor=None)

    lines = run("list_tokens", "alice").splitlines()

    assert len(lines) == 2
    assert any(f"{active.prefix}…\talice\tci\t" in line and "active" in line for line in lines)
    assert any(f"{gone.prefix}…" in line and "revoked" in line for line in lines)


def test_revoke_token_command_takes_the_prefix_from_the_list(client, alice):
    secret, token = api_token_create(user=alice)

    out = run("revoke_token", f"{token.prefix}…")

    assert "Revoked" in out
    assert client.get(STATUS_URL, headers=bearer(secret)).status_code == 401


def test_revoke_token_command_refuses_an_unknown_token():
    with pytest.raises(CommandError, match="No token"):
        run("revoke_token", "rl_nothing")
