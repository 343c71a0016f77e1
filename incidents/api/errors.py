"""JSON errors for everything under `/api/`: a CI client parses the answer, never HTML.

Views answer their own errors with `api_error()`. What they do not answer themselves —
Django's 404/403/500 handlers, a refused CSRF check, a 405 from `require_GET`, an
exception — is turned into the same shape here, keyed on the path prefix, so pages keep
their HTML error pages. An uncaught loss of the database connection answers 503 with
Retry-After on both, since asking again works.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from http import HTTPStatus

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import csrf, defaults

API_PREFIX = "/api/"

MESSAGES = {
    400: "Bad request.",
    401: "Authentication required: send 'Authorization: Bearer <token>'.",
    403: "Forbidden.",
    404: "Not found.",
    405: "Method not allowed.",
    413: "Request body too large.",
    429: "Too many requests: try again later.",
    500: "Internal server error: the failure was logged.",
    503: "Service unavailable: try again later.",
}
DATABASE_LOST = "The database connection was lost: try again in a few seconds."
DATABASE_RETRY_AFTER_S = 5
DATABASE_LOST_PAGE = (
    "<!doctype html><title>Service unavailable</title><h1>Service unavailable (503)</h1>"
    "<p>The database connection was lost. Reload the page in a few seconds.</p>"
)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(message: str, status: int, **extra: object) -> JsonResponse:
    """The one shape of every API error: `{"error": <message>, "status": <code>}`."""
    return JsonResponse({"error": message, "status": status, **extra}, status=status)


def default_message(status: int) -> str:
    if status in MESSAGES:
        return MESSAGES[status]
    try:
        return HTTPStatus(status).phrase + "."
    except ValueError:
        return "Error."


class ApiJsonErrors:
    """Give every API error answer without a JSON body the JSON shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        return as_json_error(response) if is_api(request) else response


def as_json_error(response: HttpResponse) -> HttpResponse:
    """An error answer whose body is not JSON becomes `api_error` (headers such as
    `Allow`, `Retry-After` and `WWW-Authenticate` are kept)."""
    if response.status_code < 400 or "json" in response.get("Content-Type", ""):
        return response
    replaced = api_error(default_message(response.status_code), response.status_code)
    for header in ("Allow", "Retry-After", "WWW-Authenticate"):
        if header in response:
            replaced[header] = response[header]
    return replaced


# ----------------------------------------------------------- Django's error handlers


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return api_error(default_message(400), 400)
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return api_error(default_message(403), 403)
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return api_error(default_message(404), 404)
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    if _database_lost():
        return database_unavailable(request)
    if is_api(request):
        return api_error(default_message(500), 500)
    return defaults.server_error(request)


def _database_lost() -> bool:
    """Whether the uncaught exception Django is answering (it calls this handler inside its
    `except`) is the database going away: a restart, a failover, an operator ending sessions.
    Nothing is broken in the code then, and the next request opens a fresh connection."""
    return isinstance(sys.exc_info()[1], OperationalError | InterfaceError)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After instead of 500: `ranklens --wait` and other pollers ask again
    after a 503, and a reader is told to reload instead of that the server is broken."""
    if is_api(request):
        response: HttpResponse = api_error(DATABASE_LOST, 503, code="database_unavailable")
    else:
        response = HttpResponse(DATABASE_LOST_PAGE, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_S)
    return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        return api_error(f"CSRF check failed: {reason}", 403)
    return csrf.csrf_failure(request, reason=reason)
