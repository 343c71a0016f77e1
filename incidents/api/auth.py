"""How the ninja API knows who is calling: a bearer token, or a logged-in browser session.

Both reuse `incidents.accounts.tokens`, so a token is checked, refused and explained exactly
as before the API had a schema. An auth callable that refuses raises `Unauthorized` with the
reason (expired, revoked, missing); the exception handler turns it into the usual 401 with a
`WWW-Authenticate` challenge.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from ninja.errors import AuthenticationError
from ninja.security import APIKeyCookie, HttpBearer

from incidents.accounts.tokens import refusal_reason, user_for_request

TOKEN_HINT = "Authentication required: send 'Authorization: Bearer <token>'."
LOGIN_OR_TOKEN_HINT = "Authentication required: log in or send a bearer token."


class Unauthorized(AuthenticationError):
    """A refused request, with the reason a CI job can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(401, message)


class BearerToken(HttpBearer):
    """`Authorization: Bearer <token>`; a refused token raises instead of trying further."""

    def __init__(self, hint: str = TOKEN_HINT) -> None:
        self.hint = hint
        super().__init__()

    def __call__(self, request: HttpRequest) -> AbstractBaseUser:
        user = user_for_request(request)
        if user is None:
            raise Unauthorized(refusal_reason(request, self.hint))
        request.user = user
        return user

    def authenticate(self, request: HttpRequest, token: str) -> Any:  # pragma: no cover
        return self(request)  # __call__ reads the header itself


class LoginSession(APIKeyCookie):
    """A logged-in browser session. CSRF is checked for every API request that relies on
    the session cookie (see `incidents.api.csrf`), so it is not checked twice here."""

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self) -> None:
        super().__init__(csrf=False)

    def authenticate(self, request: HttpRequest, key: str | None) -> AbstractBaseUser | None:
        return request.user if request.user.is_authenticated else None


TOKEN_ONLY = [BearerToken()]
# The session first: it never refuses, so the token's refusal (naming both ways in) is the
# one answered.
LOGIN_OR_TOKEN = [LoginSession(), BearerToken(hint=LOGIN_OR_TOKEN_HINT)]
