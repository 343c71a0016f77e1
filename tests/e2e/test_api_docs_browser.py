"""In headless Chromium: /api/docs/ draws Swagger UI from the site's own files under the
strict Content-Security-Policy, with no violation and no script error."""

from __future__ import annotations

import pytest

from tests.e2e.test_csp_browser import COLLECT_VIOLATIONS
from tests.e2e.test_timeline_browser import READY_TIMEOUT_MS, browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser"]


def test_api_docs_render_under_the_policy(live_server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(COLLECT_VIOLATIONS)
    errors: list[str] = []
    requested: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requested.append(request.url))

    page.goto(f"{live_server.url}/api/docs/")
    page.locator("#swagger-ui .opblock").first.wait_for(timeout=READY_TIMEOUT_MS)

    assert page.locator("#swagger-ui .opblock").count() >= 5
    assert "Ranklens API" in page.locator("#swagger-ui .info .title").inner_text()
    assert page.evaluate("window.cspViolations") == []
    assert errors == []
    assert all(url.startswith(live_server.url) or url.startswith("data:") for url in requested)
