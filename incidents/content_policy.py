"""The Content-Security-Policy beyond its site-wide base (settings.CONTENT_SECURITY_POLICY):
what the incident page's Plotly timeline needs, and where browsers report violations."""

from __future__ import annotations

import json
import logging

from csp.decorators import csp_update
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

# A report is a few hundred bytes; anything much larger is not a browser's report.
MAX_REPORT_BYTES = 16 * 1024

log = logging.getLogger("ranklens.csp")

# Only on pages that draw the Plotly timeline. Inline scripts stay refused there too.
# - 'unsafe-eval': the WebGL traces (scattergl, via regl) compile their drawing code with
#   `new Function`; without it Chromium shows "WebGL is not supported" instead of the chart.
# - two style hashes: Plotly creates empty <style> elements and fills them through CSSOM
#   (allowed by any policy), and its bundled map library adds one fixed stylesheet. A
#   Plotly upgrade that changes that sheet shows up as a violation in the browser test.
# - style attributes: Plotly writes a label's <b> (the hover labels' step times, the causal
#   marker's name) as an SVG tspan's `style="font-weight:bold"`; that one value is allowed
#   ('unsafe-hashes' lets a hash match an attribute), any other inline style stays refused.
PLOTLY_POLICY = {
    "script-src": ["'unsafe-eval'"],
    "style-src": [
        "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",  # the empty string
        "'sha256-ji27qzEtxXZW+7dun6UwjHXJ18e6WAin1VvNtkzIE/o='",  # maplibre's sheet
    ],
    "style-src-attr": [
        "'unsafe-hashes'",
        "'sha256-wkY2X5hecQzbhnFCqvTpwrUJ1f4X8LH5WFjYUzv1wmU='",  # font-weight:bold
    ],
}
allow_plotly = csp_update(PLOTLY_POLICY)


@csrf_exempt
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_REPORT_BYTES:
            return HttpResponse(status=413)
        report = json.loads(request.body).get("csp-report", {})
    except (ValueError, AttributeError):
        return HttpResponse(status=400)
    # %r: the report comes from anyone, and must not be able to write a log line of its own.
    log.warning(
        "CSP violation on %r: %r blocked %r",
        str(report.get("document-uri", "?"))[:300],
        str(report.get("violated-directive", "?"))[:100],
        str(report.get("blocked-uri", "?"))[:300],
    )
    return HttpResponse(status=204)
