"""The interactive API docs page, under the site's strict Content-Security-Policy.

Ninja's Swagger page is served from our own template: it uses the site's layout, loads
Swagger UI from ninja's bundled static files (no CDN), starts it from `static/js/api_docs.js`
(no inline script), and turns off Swagger UI's online validator badge, which would load an
image from another site.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja import NinjaAPI
from ninja.openapi.docs import Swagger

TEMPLATE = "api/docs.html"


class LocalSwagger(Swagger):
    default_settings = {
        "layout": "BaseLayout",
        "deepLinking": True,
        "validatorUrl": None,
        "tryItOutEnabled": False,
    }

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        schema_url = self.get_openapi_url(api, kwargs)
        context = {
            "swagger_settings": self.settings | {"url": schema_url},
            "schema_url": schema_url,
        }
        return render(request, TEMPLATE, context)
