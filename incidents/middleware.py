"""Refuse a request body over the upload cap before reading any of it."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from incidents.api_errors import api_error
from incidents.forms import too_large_message

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
    message = too_large_message(size)
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        return api_error(message, 413)
    html = render_to_string("incidents/too_large.html", {"message": message}, request=request)
    return HttpResponse(html, status=413)
