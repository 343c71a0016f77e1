"""In headless Chromium on a phone-sized window: every page fits the window's width, so
nothing (the header's links and log-out, a card's values) sits off-screen behind a sideways
scroll; a wide table scrolls inside its own box instead."""

from __future__ import annotations

import pytest

from tests.e2e.test_timeline_browser import browser, crash_incident

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser", "crash_incident"]  # fixtures shared with the timeline test

PAGES = [
    "/incidents/",
    "/incidents/INC-{pk}/",
    "/incidents/INC-{pk}/files/job-f0dddebb/log_3.log?line=48",
    "/incidents/INC-{pk}/tree/",
    "/incidents/new/",
    "/library/",
    "/meeting/",
]

# How far the page reaches past the window's right edge, in CSS pixels.
OVERFLOW_JS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_pages_fit_a_phone_window(live_server, crash_incident, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.wait_for_load_state()

    overflow = {}
    for path in PAGES:
        page.goto(live_server.url + path.format(pk=crash_incident.pk))
        page.wait_for_load_state("load")
        overflow[path] = page.evaluate(OVERFLOW_JS)
    logout = page.locator("header .logout button").bounding_box()
    context.close()

    assert overflow == {path: 0 for path in PAGES}
    assert logout["x"] + logout["width"] <= 390
