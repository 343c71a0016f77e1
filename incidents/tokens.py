"""Bearer-token authentication for the HTTP API."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from incidents.models import ApiToken, token_digest


def user_for_request(request: HttpRequest) -> AbstractBaseUser | None:
    """The active user whose token is in `Authorization: Bearer <token>`, if any."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    found = ApiToken.objects.select_related("user").filter(digest=token_digest(token.strip()))
    api_token = found.first()
    if api_token is None or not api_token.user.is_active:
        return None
    found.update(last_used_at=timezone.now())
    return api_token.user


def _unauthorized(message: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="ranklens"'
    return response


def token_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer 401 unless the request carries a valid token; the body is not read before."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        user = user_for_request(request)
        if user is None:
            return _unauthorized("Authentication required: send 'Authorization: Bearer <token>'.")
        request.user = user
        return view(request, *args, **kwargs)

    return wrapped


def login_or_token(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A logged-in browser session or `Authorization: Bearer <token>`; else 401."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            user = user_for_request(request)
            if user is None:
                return _unauthorized("Authentication required: log in or send a bearer token.")
            request.user = user
        return view(request, *args, **kwargs)

    return wrapped
