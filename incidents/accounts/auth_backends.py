"""Login throttling that stays out of logins made without an HTTP request."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes counts failures per client address, which only a request has. A login
    made in code (a management command, the test client's `login()`) has none and
    nothing to throttle, so it goes straight to the password check instead of failing."""

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)
