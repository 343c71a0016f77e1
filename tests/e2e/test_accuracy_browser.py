"""In headless Chromium: the analyzer accuracy page draws its chart under the
Content-Security-Policy with no violation, and its links lead from a confusion to the
filtered disagreement list and on to the incident.

Database work happens before the browser starts (Playwright's sync API runs an event loop,
inside which Django refuses ORM calls).
"""

from __future__ import annotations

import pytest

from tests.e2e.test_csp_browser import COLLECT_VIOLATIONS
from tests.e2e.test_timeline_browser import browser
from tests.incidents.verdict_helpers import analyzed, at, settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser"]


@pytest.fixture
def settled(transactional_db, alice) -> dict[str, int]:
    made = {
        "agrees": analyzed("oom", 0.9, "prefill out of memory"),
        "differs": analyzed("hang", 0.55, "allreduce timeout on rank 5"),
        "other": analyzed("shape_mismatch", 0.95, "tp8 decode"),
    }
    settle(made["agrees"], alice, "oom", at(1, 10))
    settle(made["differs"], alice, "hccl", at(3, 4))
    settle(made["other"], alice, "weight_load", at(3, 5))
    return {name: incident.pk for name, incident in made.items()}


def test_accuracy_page_draws_and_links_without_policy_violations(live_server, settled, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(COLLECT_VIOLATIONS)
    page.goto(f"{live_server.url}/accounts/login/?next=/library/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.click("text=Analyzer accuracy")
    page.wait_for_url("**/library/accuracy/")

    assert page.locator(".accuracy-chart svg rect").count() == 2  # January and March
    assert page.locator(".accuracy-chart svg").get_attribute("role") == "img"
    assert page.evaluate("window.cspViolations") == []  # kept per page, reset on each load
    page.locator("#confusion-head ~ table a").first.click()
    page.wait_for_url("**/library/accuracy/?category=hccl&analyzer=hang#disagreements")
    assert page.locator("tr.disagreement").count() == 1
    assert page.evaluate("window.cspViolations") == []
    page.click(f"text=INC-{settled['differs']}")
    page.wait_for_url(f"**/incidents/INC-{settled['differs']}/")
    page.close()
