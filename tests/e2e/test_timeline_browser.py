"""In headless Chromium: the incident's timeline shows one lane per rank, and clicking the
first causal error's marker lands on that line, highlighted, in the log viewer.

The incident is the real 4-rank crash bundle, analysed synchronously by the task body.
Database work happens before the browser starts: Playwright's sync API runs an event
loop, inside which Django refuses ORM calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents import blobstore
from incidents.analysis import analyze_run
from incidents.models import AnalysisRun, Bundle, Incident

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
READY_TIMEOUT_MS = 30_000

# Pixel position of the first causal error's marker, from Plotly's own axis mapping.
CAUSAL_MARKER_JS = """
() => {
  const gd = document.getElementById("timeline-plot");
  const p = gd.timelinePayload;
  const i = p.errors.causal.indexOf(true);
  const area = gd.querySelector(".nsewdrag").getBoundingClientRect();
  return {
    x: area.left + gd._fullLayout.xaxis.l2p(p.errors.x[i]),
    y: area.top + gd._fullLayout.yaxis.l2p(p.errors.y[i]),
    line: p.errors.line[i],
    file: p.files[p.errors.file[i]],
    text: p.errors.text[i],
  };
}
"""


@pytest.fixture
def browser() -> Iterator[object]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except playwright_api.Error as error:
            pytest.skip(f"Chromium at {CHROMIUM} cannot start: {error.message.splitlines()[0]}")
        yield chromium
        chromium.close()


@pytest.fixture
def crash_incident(transactional_db, crash_bundle, alice) -> Incident:
    """Stored and analysed without the Celery queue (no message left in a broker)."""
    blob = blobstore.store_upload(SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes()))
    incident = Incident.objects.create(title="crash one rank", created_by=alice)
    Bundle.objects.create(
        incident=incident,
        sha256=blob.sha256,
        original_name=crash_bundle.name,
        size_bytes=blob.size_bytes,
    )
    run = AnalysisRun.objects.create(incident=incident)
    analyze_run(run_id=run.pk)
    return incident


def test_click_on_the_causal_error_opens_the_highlighted_log_line(
    live_server, crash_incident, browser
):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/accounts/login/?next=/incidents/INC-{crash_incident.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")

    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)
    assert plot.get_attribute("data-lanes") == "4"
    ticks = page.locator("#timeline-plot .ytick text").all_text_contents()
    assert [t.split()[1] for t in ticks] == ["0", "1", "2", "3"]
    assert "culprit" in ticks[3]
    print(f"timeline drawn in {plot.get_attribute('data-render-ms')} ms")

    plot.scroll_into_view_if_needed()
    marker = page.evaluate(CAUSAL_MARKER_JS)
    assert marker["file"] == "job-f0dddebb/log_3.log"
    page.mouse.move(marker["x"], marker["y"])
    page.mouse.click(marker["x"], marker["y"])
    page.wait_for_url(re.compile(rf"/files/job-f0dddebb/log_3\.log\?line={marker['line']}#L"))

    target = page.locator(f"tr#L{marker['line']}.target")
    assert target.is_visible()
    assert "mat1 and mat2 shapes cannot be multiplied" in target.inner_text()
    assert errors == []
