"""API tokens: issued with an expiry, listed and revoked by their owner or an operator.

A token is shown once, when issued; only its SHA-256 and first characters are stored.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents.accounts.activity import activity_record
from incidents.accounts.models import Verb
from incidents.models import ApiToken, token_digest

TOKEN_PREFIX = "rl_"
DEFAULT_EXPIRY_DAYS = 90
MAX_EXPIRY_DAYS = 3650
SHOWN_PREFIX_CHARS = 10


class TokenError(ValueError):
    """A token request that cannot be honoured (bad expiry, unknown or ambiguous token)."""


def api_token_create(
    *,
    user: AbstractBaseUser,
    name: str = "",
    expires_days: int = DEFAULT_EXPIRY_DAYS,
    actor: AbstractBaseUser | None = None,
) -> tuple[str, ApiToken]:
    """A new token for `user`; returns the secret (never stored) and its row."""
    if not 1 <= expires_days <= MAX_EXPIRY_DAYS:
        raise TokenError(f"Expiry must be between 1 and {MAX_EXPIRY_DAYS} days.")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=user,
            digest=token_digest(secret),
            prefix=secret[:SHOWN_PREFIX_CHARS],
            name=name.strip()[:100],
            expires_at=timezone.now() + timedelta(days=expires_days),
        )
        _record(token, Verb.ISSUED, actor or user)
    return secret, token


def api_token_issue(
    *, username: str, name: str = "", expires_days: int = DEFAULT_EXPIRY_DAYS
) -> tuple[str, bool]:
    """A new token for `username` (created, without a password, if needed): the
    `issue_token` command. Returns (token, user_created)."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    secret, _ = api_token_create(user=user, name=name, expires_days=expires_days, actor=None)
    return secret, created


def api_token_revoke(*, token: ApiToken, actor: AbstractBaseUser | None) -> bool:
    """Revoke at once; False when it already was."""
    changed = ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if changed:
        _record(token, Verb.REVOKED, actor)
    return bool(changed)


def api_token_find(key: str) -> ApiToken:
    """The token an operator names by id or by the prefix shown in lists."""
    tokens = ApiToken.objects.select_related("user")
    found = list(tokens.filter(pk=int(key))) if key.isdigit() else []
    if not found and key:
        found = list(tokens.filter(prefix__startswith=key)[:2])
    if not found:
        raise TokenError(f"No token {key!r}.")
    if len(found) > 1:
        raise TokenError(f"{key!r} names more than one token: use its id.")
    return found[0]


def _record(token: ApiToken, verb: str, actor: AbstractBaseUser | None) -> None:
    target = f"token {token.prefix}… of {token.user.get_username()}"
    activity_record(actor=actor, verb=verb, target=target, field="api_token", new=token.name)
