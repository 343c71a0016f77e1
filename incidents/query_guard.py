"""Refuse a URL whose path or query holds a NUL character, with 400 instead of a crash.

Nothing we serve has a NUL in its address, and PostgreSQL cannot take one in a string (the
search would fail with a database error, a 500). Other bytes that are not UTF-8 are already
replaced by Django when it decodes the query, so a NUL is the one character to stop here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

MESSAGE = "the address holds a NUL character (%00), which no page or search accepts"


class RejectNulInQuery:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"error": MESSAGE}, status=400)
            return HttpResponseBadRequest(MESSAGE, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.GET.lists()
    )
