"""Ninja's exceptions answered in the API's one error shape, `{"error": msg, "status": code}`.

Ninja's own defaults answer `{"detail": ...}`; a CI client parsing `error` would miss them.
A bad field value (query parameter, path or JSON body) answers 422 and names the field, so a
caller can fix its request without reading the schema. Anything unexpected is re-raised so
Django's handlers (and the upload fault middleware) answer it, as for every other view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from incidents.api.errors import api_error, default_message
from incidents.triage.listing import FilterInvalid
from incidents.triage.validation import TriageInvalid

# Where ninja says a value came from (the first part of an error's `loc`).
_SOURCES = frozenset({"query", "path", "body", "form", "file", "header", "cookie"})
# The handlers' name for a JSON body parameter, which ninja puts in `loc` after "body".
BODY_PARAM = "payload"
_CHOICE_ERRORS = frozenset({"enum", "literal_error"})


def field_name(loc: Sequence[Any]) -> str:
    """The top-level field as the caller spelled it: `("body", "payload", "tags", 0)` is
    `tags`, `("query", "page")` is `page`; an error about the whole body is `body`."""
    parts = list(loc)
    source = str(parts.pop(0)) if parts and parts[0] in _SOURCES else "request"
    if source == "body" and parts and parts[0] == BODY_PARAM:
        parts.pop(0)
    return str(parts[0]) if parts else source


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


def field_invalid(request: HttpRequest, exc: FilterInvalid | TriageInvalid) -> HttpResponse:
    """A value the triage services refused: their message already names the field."""
    return api_error(str(exc), 422, field=exc.field)


def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    response = api_error(exc.message, exc.status_code)
    response["WWW-Authenticate"] = 'Bearer realm="ranklens"'
    return response


def throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    response = api_error(default_message(429), 429)
    if exc.wait is not None:
        response["Retry-After"] = str(max(1, math.ceil(exc.wait)))
    return response


def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):
        # Ninja's "Cannot parse request body" hides why (outside DEBUG): say it.
        return api_error(f"The request body is not JSON text: {exc.__cause__}.", 400)
    return api_error(exc.message or default_message(exc.status_code), exc.status_code)


def not_found(request: HttpRequest, exc: Exception) -> HttpResponse:
    return api_error(default_message(404), 404)


def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
    raise exc  # Django's 500 handler (JSON under /api/) and process_exception answer it


def install(api: NinjaAPI) -> None:
    """Replace ninja's default handlers (the most specific class wins)."""
    api.add_exception_handler(ValidationError, validation_error)
    api.add_exception_handler(FilterInvalid, field_invalid)
    api.add_exception_handler(TriageInvalid, field_invalid)
    api.add_exception_handler(AuthenticationError, authentication_error)
    api.add_exception_handler(Throttled, throttled)
    api.add_exception_handler(HttpError, http_error)
    api.add_exception_handler(Http404, not_found)
    api.add_exception_handler(Exception, unexpected)
