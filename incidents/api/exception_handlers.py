"""Ninja's exceptions answered in the API's one error shape, `{"error": msg, "status": code}`.

Ninja's own defaults answer `{"detail": ...}`; a CI client parsing `error` would miss them.
A bad field value (query parameter, path or JSON body) answers 422 and names the field, so a
caller can fix its request without reading the schema. Anything unexpected is re-raised so
Django's handlers (and the upload fault middleware) answer it, as for every other view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from incidents.api.errors import api_error, default_message

# Where ninja says a value came from; not part of the field's name.
_SOURCES = frozenset({"query", "path", "body", "form", "file", "header", "cookie", "payload"})
_CHOICE_ERRORS = frozenset({"enum", "literal_error"})


def field_name(loc: Sequence[Any]) -> str:
    """`("body", "payload", "tags", 0)` -> `tags.0`: the field as the caller spelled it."""
    parts = [str(part) for part in loc if part not in _SOURCES]
    return ".".join(parts) or (str(loc[0]) if loc else "request")


def error_message(error: Mapping[str, Any]) -> str:
    """One line that names the field and says what it accepts."""
    field = field_name(error.get("loc", ()))
    expected = (error.get("ctx") or {}).get("expected")
    if error.get("type") in _CHOICE_ERRORS and expected:
        return f"{field}: must be one of {expected}."
    return f"{field}: {error.get('msg', 'invalid value')}."


def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = [
        {"field": field_name(e.get("loc", ())), "message": error_message(e)}
        for e in exc.errors
        if isinstance(e, Mapping)
    ]
    if not errors:
        return api_error("The request is not valid.", 422)
    first = errors[0]
    return api_error(first["message"], 422, field=first["field"], errors=errors)


def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = api_error(exc.message, exc.status_code)
    response["WWW-Authenticate"] = 'Bearer realm="ranklens"'
    return response


def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    return api_error(default_message(429), 429)


def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return api_error(exc.message or default_message(exc.status_code), exc.status_code)


def not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    return api_error(default_message(404), 404)


def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    raise exc  # Django's 500 handler (JSON under /api/) and process_exception answer it


def install(api: NinjaAPI) -> None:
    """Replace ninja's default handlers (the most specific class wins)."""
    api.add_exception_handler(ValidationError, validation_error)
    api.add_exception_handler(AuthenticationError, authentication_error)
    api.add_exception_handler(Throttled, throttled)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(Exception, unexpected)
