"""Upload requests that fail for the server's reasons answer JSON a client can act on.

- the disk filled up while the upload was written: 507, the partial file is gone;
- the database went away: 503 with Retry-After, and nothing half-stored (the service
  removes a bundle it stored for rows that were never committed).

Only multipart POSTs (uploads) are mapped here; any other request keeps the default
error handling.
"""

from __future__ import annotations

import errno
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from incidents.api.errors import api_error

RETRY_AFTER_S = 30


def fault_response(error: BaseException) -> JsonResponse | None:
    """The JSON answer for an upload that failed because of `error`, if it is a known fault.
    In the page's language for the upload page's script; `/api/` is always English."""
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        message = gettext(
            "The server's disk is full, so the upload was not stored. Try again later."
        )
        return api_error(message, 507, code="disk_full")
    if isinstance(error, OperationalError | InterfaceError):
        message = gettext("The database is unavailable, so the upload was not stored. Try again.")
        response = api_error(message, 503, code="database_unavailable", retry_after=RETRY_AFTER_S)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
    return None


def is_upload(request: HttpRequest) -> bool:
    return request.method == "POST" and request.content_type == "multipart/form-data"


class UploadFaults:
    """Map upload faults to responses, wherever the upload is read.

    A page upload's body is read by the CSRF check, before any view runs, so it is
    parsed here first where a full disk can still be answered. API uploads are read
    by their view only after the token was checked; `process_exception` covers them.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_upload(request) and not request.path.startswith("/api/"):
            try:
                request.FILES  # noqa: B018 - parse now, see above
            except OSError as error:
                response = fault_response(error)
                if response is None:
                    raise
                return response
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return fault_response(exception) if is_upload(request) else None
