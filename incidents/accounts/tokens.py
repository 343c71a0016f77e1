"""Bearer-token authentication for the HTTP API: which user a request's token names, and
why a token was refused (the API's auth classes in `incidents.api.auth` use both)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils import timezone

from incidents.models import ApiToken, token_digest


def bearer_token(request: HttpRequest) -> str:
    """The token in `Authorization: Bearer <token>` ('' when there is none)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def token_for_request(request: HttpRequest) -> ApiToken | None:
    """The stored token the request names, usable or not (expired, revoked)."""
    token = bearer_token(request)
    if not token:
        return None
    found = ApiToken.objects.select_related("user").filter(digest=token_digest(token))
    return found.first()


def user_for_request(request: HttpRequest) -> AbstractBaseUser | None:
    """The active user whose usable token the request carries, if any."""
    api_token = token_for_request(request)
    if api_token is None or not api_token.is_usable or not api_token.user.is_active:
        return None
    ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=timezone.now())
    return api_token.user


def refusal_reason(request: HttpRequest, default: str) -> str:
    """Why no user was found: a CI job learns its token expired instead of guessing."""
    api_token = token_for_request(request)
    if api_token is None:
        return default
    if api_token.revoked_at is not None:
        return "This API token was revoked; issue a new one."
    if api_token.is_expired:
        return f"This API token expired on {api_token.expires_at:%Y-%m-%d}; issue a new one."
    return default
