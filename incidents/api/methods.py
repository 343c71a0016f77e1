"""HEAD and OPTIONS on every API path, and 405 for a method a path does not take.

Ninja answers only the methods an operation declares, so `HEAD` on a status URL (what
`curl -I` sends) was a 405, and its schema and docs views answered any method, `DELETE`
included, with the page. Here a HEAD is answered as the GET would be, without the body
(`Content-Length` still the GET's); an OPTIONS answers 200 with `Allow` and no body; a 405
names HEAD and OPTIONS beside the path's own methods.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

NOT_ALLOWED = 405


# The order `Allow` lists methods in (ninja's own order varies from one process to another).
_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(declared: Iterable[str]) -> list[str]:
    """The methods a path takes: its own, HEAD beside a GET, and OPTIONS."""
    methods = set(declared) | {"OPTIONS"}
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods, key=lambda m: _ORDER.index(m) if m in _ORDER else len(_ORDER))


def _declared(response: HttpResponse) -> list[str]:
    return [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]


def with_head_and_options(
    view: Callable[..., HttpResponse], methods: tuple[str, ...] | None = None
) -> Callable[..., HttpResponse]:
    """Wrap an API view. `methods` for a view that would answer any method (the schema and
    the docs); without it the methods are the ones ninja names in its 405 `Allow`."""

    def answer_not_allowed(declared: list[str]) -> HttpResponse:
        return HttpResponseNotAllowed(allowed_methods(declared))

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        method = request.method or "GET"
        if methods is not None and method not in (*methods, "HEAD", "OPTIONS"):
            return answer_not_allowed(list(methods))
        if method == "OPTIONS":
            declared = (
                list(methods) if methods is not None else _declared(view(request, *args, **kwargs))
            )
            response = HttpResponse(status=200)
            del response["Content-Type"]  # no body, so no type
            response["Allow"] = ", ".join(allowed_methods(declared))
            response["Content-Length"] = "0"
            return response
        if method == "HEAD":
            if methods is not None and "GET" not in methods:
                return answer_not_allowed(list(methods))
            request.method = "GET"
            try:
                response = view(request, *args, **kwargs)
            finally:
                request.method = "HEAD"
            if response.status_code == NOT_ALLOWED:
                return answer_not_allowed(_declared(response))
            if not response.streaming:
                length = len(response.content)
                response.content = b""
                response["Content-Length"] = str(length)
            return response
        response = view(request, *args, **kwargs)
        if response.status_code == NOT_ALLOWED and "Allow" in response:
            return answer_not_allowed(_declared(response))
        return response

    return wrapped
