"""Repeated wrong passwords pause logins for that username from that address."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def attempt(client, password: str, address: str = "192.0.2.10"):
    return client.post(LOGIN, {"username": "alice", "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_account_from_that_address(client, alice, settings):
    settings.AXES_FAILURE_LIMIT = 5
    for _ in range(5):
        attempt(client, "wrong")

    response = attempt(client, "s3cret-pass")

    assert response.status_code == 429
    assert b"Too many failed logins" in response.content
    assert "_auth_user_id" not in client.session


def test_a_locked_pair_does_not_lock_the_owner_out_elsewhere(client, alice, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        attempt(client, "wrong", address="192.0.2.66")

    response = attempt(client, "s3cret-pass", address="198.51.100.7")

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_successful_login_resets_the_count(client, alice, settings):
    settings.AXES_FAILURE_LIMIT = 3
    attempt(client, "wrong")
    attempt(client, "wrong")
    assert attempt(client, "s3cret-pass").status_code == 302
    client.logout()

    attempt(client, "wrong")
    attempt(client, "wrong")

    assert attempt(client, "s3cret-pass").status_code == 302


def test_logins_made_in_code_are_not_throttled(client, alice):
    assert client.login(username="alice", password="s3cret-pass")
