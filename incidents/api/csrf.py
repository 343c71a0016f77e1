"""CSRF for API requests that ride on the browser's session cookie.

Ninja exempts all its views from Django's CSRF middleware. A request that carries a bearer
token needs no CSRF token (a browser never adds that header on its own), but one that is
authenticated only by the login cookie could be forged by another site, so it must pass
Django's CSRF check like any page form. Refusals answer through `CSRF_FAILURE_VIEW`, which
is JSON under /api/.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

from incidents.accounts.tokens import bearer_token

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

_checker = CsrfViewMiddleware(lambda request: HttpResponse())


def csrf_refusal(request: HttpRequest) -> HttpResponse | None:
    """Django's CSRF answer for a session-authenticated unsafe request (None: it may pass)."""
    if request.method in SAFE_METHODS or bearer_token(request):
        return None
    if not request.user.is_authenticated:
        return None  # no session to ride on: the operation's auth answers 401
    return _checker.process_view(request, _not_exempt, (), {})


def _not_exempt(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise NotImplementedError


def session_csrf(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a ninja view so session-authenticated unsafe requests are CSRF-checked."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        return csrf_refusal(request) or view(request, *args, **kwargs)

    wrapped.csrf_exempt = True  # type: ignore[attr-defined]
    return wrapped
