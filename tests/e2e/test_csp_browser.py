"""In headless Chromium, under the Content-Security-Policy the server sends:

- a `<script>` injected into the incident page (as a stored XSS would put it there) does
  not run, the page sees a violation and the server logs the browser's report;
- the incident page itself, Plotly timeline included, draws with no violation at all.

The injection rewrites the real server's answer on its way to the page, keeping its
headers, so the policy under test is the one the app sends.
"""

from __future__ import annotations

import logging
import time

import pytest
from django.utils import timezone

from incidents.models import AnalysisRun, Incident, RunState
from tests.e2e.test_timeline_browser import (
    POINT_JS,
    READY_TIMEOUT_MS,
    browser,
    crash_incident,
)
from tests.incidents.timeline_reports import straggler_report

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser", "crash_incident"]  # fixtures shared with the timeline test

INJECTED = b"<script>window.injectedRan = true;</script>"

# Registered before any page script: every violation the page sees is kept.
COLLECT_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push({directive: e.effectiveDirective, blocked: e.blockedURI});
});
"""


def _logged_in_page(browser, live_server, incident):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(COLLECT_VIOLATIONS)
    page.goto(f"{live_server.url}/accounts/login/?next=/incidents/INC-{incident.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    return page


def _inject_script(route) -> None:
    response = route.fetch()
    body = response.body().replace(b"</main>", INJECTED + b"</main>", 1)
    route.fulfill(response=response, body=body)


def _wait_for_log(caplog, text: str, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(text in record.getMessage() for record in caplog.records):
            return True
        time.sleep(0.1)
    return False


def test_injected_inline_script_is_blocked_and_reported(
    live_server, crash_incident, browser, caplog
):
    caplog.set_level(logging.WARNING, logger="ranklens.csp")
    page = _logged_in_page(browser, live_server, crash_incident)
    page.wait_for_url(f"**/incidents/INC-{crash_incident.pk}/")
    page.route(f"**/incidents/INC-{crash_incident.pk}/", _inject_script)

    response = page.reload()
    page.wait_for_function("window.cspViolations.length > 0", timeout=READY_TIMEOUT_MS)

    assert INJECTED.decode() in response.text()
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.evaluate("window.injectedRan") is None
    violations = page.evaluate("window.cspViolations")
    assert {"directive": "script-src-elem", "blocked": "inline"} in violations
    assert _wait_for_log(caplog, "CSP violation on")


def test_incident_page_and_its_timeline_work_under_the_policy(live_server, crash_incident, browser):
    errors: list[str] = []
    page = _logged_in_page(browser, live_server, crash_incident)
    page.on("pageerror", lambda error: errors.append(str(error)))

    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)

    assert plot.get_attribute("data-lanes") == "4"
    assert page.locator("#timeline-plot .ytick text").count() == 4
    # Plotly's WebGL traces draw (they replace the chart with this text when eval fails).
    assert page.locator("#timeline-plot canvas.gl-canvas-context").count() == 1
    assert "WebGL is not supported" not in plot.inner_text()
    assert page.evaluate("window.cspViolations") == []
    assert errors == []


OTHER_PAGES = [
    "/incidents/",
    "/incidents/new/",
    "/library/",
    "/library/tree/",
    "/library/drafts/",
    "/incidents/INC-{pk}/promote/",
    "/account/tokens/",
    "/incidents/INC-{pk}/tree/",
    "/incidents/INC-{pk}/files/job-f0dddebb/log_3.log?line=48",
]


def test_other_pages_break_no_rule_of_the_policy(live_server, crash_incident, browser):
    page = _logged_in_page(browser, live_server, crash_incident)
    page.wait_for_url(f"**/incidents/INC-{crash_incident.pk}/")
    seen = {}
    for path in OTHER_PAGES:
        page.goto(live_server.url + path.format(pk=crash_incident.pk))
        page.wait_for_load_state("load")
        seen[path] = page.evaluate("window.cspViolations")

    assert seen == {path: [] for path in OTHER_PAGES}


def test_the_timeline_controls_break_no_rule_of_the_policy(live_server, crash_incident, browser):
    """Redraws after a control changes (the straggler overlay, the clock axis) keep to the
    policy too: Plotly restyles what it drew, it must not add inline style attributes."""
    page = _logged_in_page(browser, live_server, crash_incident)
    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)

    page.check("#timeline-stragglers")
    page.wait_for_function(
        "document.querySelector('#timeline-plot').dataset.ready !== '0'", timeout=READY_TIMEOUT_MS
    )
    page.wait_for_timeout(500)

    assert "stragglers=1" in page.url
    assert page.evaluate("window.cspViolations") == []


@pytest.fixture
def timed_incident(transactional_db, alice) -> Incident:
    """4 ranks whose checkpoints carry times, so a point's label states its step in bold."""
    incident = Incident.objects.create(title="timed steps", created_by=alice)
    report = straggler_report(4, 1, layers=4, after=8)
    AnalysisRun.objects.create(
        incident=incident, state=RunState.DONE, report=report, finished_at=timezone.now()
    )
    return incident


def test_a_hover_label_with_bold_text_breaks_no_rule_of_the_policy(
    live_server, timed_incident, browser
):
    """Plotly writes a label's <b> as a `style="font-weight:bold"` attribute on an SVG
    tspan: a checkpoint's label shows its step time bold, without a violation (before,
    every hover over such a point was blocked, shown plain and reported)."""
    page = _logged_in_page(browser, live_server, timed_incident)
    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)
    plot.scroll_into_view_if_needed()

    point = page.evaluate(POINT_JS, [2, 10])
    page.mouse.move(point["x"], point["y"])
    bold = page.locator("#timeline-plot .hoverlayer .hovertext tspan", has_text="50.0 ms")
    bold.last.wait_for(timeout=READY_TIMEOUT_MS)
    page.wait_for_timeout(200)  # a violation event is queued after the attribute is set

    assert bold.last.evaluate("e => getComputedStyle(e).fontWeight") == "700"
    assert page.evaluate("window.cspViolations") == []
