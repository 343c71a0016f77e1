"""The API answers in English whatever language the browser's session or headers ask for.

`LocaleMiddleware` picks the page language from the language cookie or `Accept-Language`;
a CI client matching on an error text (or Django's own form errors inside it) must get the
same words from every caller, so under `/api/` the default language is put back.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from incidents.api.errors import is_api


class ApiInEnglish:
    """Placed right after `LocaleMiddleware`, so it overrides that choice for API paths."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request):
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
        response = self.get_response(request)
        if is_api(request):
            response.headers["Content-Language"] = settings.LANGUAGE_CODE
        return response
