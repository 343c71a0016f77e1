"""Where browsers post Content-Security-Policy violations: logged, so a page the policy
broke (or a script someone managed to inject) shows up in the server's log."""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

# A report is a few hundred bytes; anything much larger is not a browser's report.
MAX_REPORT_BYTES = 16 * 1024

log = logging.getLogger("ranklens.csp")


@csrf_exempt
@require_POST
def csp_report(request: HttpRequest) -> HttpResponse:
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_REPORT_BYTES:
            return HttpResponse(status=413)
        report = json.loads(request.body).get("csp-report", {})
    except (ValueError, AttributeError):
        return HttpResponse(status=400)
    log.warning(
        "CSP violation on %s: %s blocked %s",
        str(report.get("document-uri", "?"))[:300],
        str(report.get("violated-directive", "?"))[:100],
        str(report.get("blocked-uri", "?"))[:300],
    )
    return HttpResponse(status=204)
