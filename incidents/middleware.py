"""Refuse requests before any view sees them: a body over the upload cap before a byte of
it is read, and a query string no view could use."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.utils import translation

from incidents.api.errors import api_error, is_api
from incidents.runs.forms import too_large_message

# Room for the multipart framing and the other form fields around the file itself;
# a file just over the cap that fits in this slack is refused by the form instead.
MULTIPART_SLACK_BYTES = 64 * 1024


class RejectOversizedUploads:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        size = _content_length(request)
        if size > settings.RANKLENS_MAX_UPLOAD_BYTES + MULTIPART_SLACK_BYTES:
            return too_large_response(request, size)
        return self.get_response(request)


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def too_large_response(request: HttpRequest, size: int | None = None) -> HttpResponse:
    if is_api(request):
        with translation.override(settings.LANGUAGE_CODE):
            return api_error(too_large_message(size), 413)
    # This runs before LocaleMiddleware has chosen the page language: choose it here.
    with translation.override(translation.get_language_from_request(request)):
        message = too_large_message(size)
        if "application/json" in request.headers.get("Accept", ""):
            return api_error(message, 413)
        html = render_to_string("incidents/too_large.html", {"message": message}, request=request)
    return HttpResponse(html, status=413)


class RefuseBadQueryStrings:
    """A query string that is not UTF-8, or carries NUL or control characters, answers 400:
    Django would hand views replacement characters, and PostgreSQL refuses NUL in text,
    so a search for one would otherwise end in a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = query_string_problem(request.META.get("QUERY_STRING", ""))
        if not problem:
            return self.get_response(request)
        if is_api(request):
            return api_error(problem, 400)
        return HttpResponseBadRequest(problem, content_type="text/plain; charset=utf-8")


def query_string_problem(raw: str) -> str:
    """Why a query string cannot be used ('' when it can). The WSGI server hands it over
    as latin-1 text, so the original bytes are recovered before they are decoded."""
    try:
        data = unquote_to_bytes(raw.encode("latin-1").replace(b"+", b" "))
        text = data.decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return "The query string is not valid UTF-8."
    if any((ord(ch) < 32 and ch not in "\t\n\r") or ch == "\x7f" for ch in text):
        return "The query string contains NUL or other control characters."
    return ""
