"""In headless Chromium: the incident list's filter bar narrows the rows to the triage
status and owner picked (and lands on a query-parameter URL), and the incident page's
"Copy as Markdown" button puts the ticket export on the clipboard, or shows it selected
where no clipboard can be written.

Database work happens before the browser starts: Playwright's sync API runs an event
loop, inside which Django refuses ORM calls.
"""

from __future__ import annotations

import re

import pytest

from incidents.models import Incident
from incidents.triage.services import triage_update
from tests.e2e.test_timeline_browser import READY_TIMEOUT_MS, browser
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser"]  # the Chromium fixture shared with the timeline test

# Where no clipboard exists (an http page on another host, an old browser).
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
SELECTED_TEXT = """
() => {
  const box = document.getElementById("export-text");
  return document.activeElement === box
    ? box.value.slice(box.selectionStart, box.selectionEnd) : null;
}
"""


@pytest.fixture
def triaged(transactional_db, alice, django_user_model) -> dict[str, Incident]:
    django_user_model.objects.create_user(username="bob", password="s3cret-pass")
    made = {
        "bob investigates": make_incident(shape_report(), user=alice, title="bob investigates"),
        "alice investigates": make_incident(shape_report(), user=alice, title="alice investigates"),
        "bob resolved": make_incident(shape_report(), user=alice, title="bob resolved"),
        "nobody's": make_incident(None, user=alice, title="nobody's"),
    }
    for title, status, owner in [
        ("bob investigates", "investigating", "bob"),
        ("alice investigates", "investigating", "alice"),
        ("bob resolved", "resolved", "bob"),
    ]:
        triage_update(
            incident=made[title], actor=alice, changes={"triage_status": status, "owner": owner}
        )
    return made


def log_in(page, live_server, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def row_titles(page) -> list[str]:
    return [t.strip() for t in page.locator("tr.incident-row td.title a").all_text_contents()]


def test_the_filter_bar_narrows_the_list_by_triage_status_and_owner(live_server, triaged, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, "/incidents/")
    assert sorted(row_titles(page)) == sorted(triaged)

    page.check("#filter-bar input[name=triage_status][value=investigating]")
    page.select_option("#filter-bar select[name=owner]", "bob")
    page.click("#filter-bar button[type=submit]")
    page.wait_for_url(re.compile(r"/incidents/\?triage_status=investigating&owner=bob$"))

    assert row_titles(page) == ["bob investigates"]
    assert page.locator("#result-count").inner_text() == "1 incident"
    assert page.is_checked("#filter-bar input[name=triage_status][value=investigating]")

    # one more state, the same owner: the form keeps what was picked
    page.check("#filter-bar input[name=triage_status][value=resolved]")
    page.click("#filter-bar button[type=submit]")
    page.wait_for_url(re.compile(r"triage_status=investigating,resolved&owner=bob$"))
    assert sorted(row_titles(page)) == ["bob investigates", "bob resolved"]

    page.select_option("#filter-bar select[name=owner]", "none")
    page.click("#filter-bar button[type=submit]")
    page.wait_for_url(re.compile(r"owner=none$"))
    assert row_titles(page) == []
    assert page.locator("#no-match").is_visible()

    page.click("nav.quick-links >> text=Mine")
    page.wait_for_url(re.compile(r"/incidents/\?owner=alice$"))
    assert row_titles(page) == ["alice investigates"]
    assert errors == []


def export_text(live_server, page, incident: Incident) -> str:
    answer = page.request.get(f"{live_server.url}/incidents/INC-{incident.pk}/export.md")
    assert answer.ok
    return answer.text()


def test_copy_as_markdown_puts_the_export_on_the_clipboard(live_server, triaged, browser):
    incident = triaged["bob investigates"]
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    log_in(page, live_server, incident.get_absolute_url())
    expected = export_text(live_server, page, incident)
    assert f"### INC-{incident.pk}: bob investigates" in expected

    page.click("#copy-export")
    page.wait_for_function(
        "document.getElementById('copy-export').dataset.copied", timeout=READY_TIMEOUT_MS
    )
    how = page.get_attribute("#copy-export", "data-copied")
    print(f"export copied by: {how}")
    if how == "clipboard":
        assert page.evaluate("navigator.clipboard.readText()") == expected
        assert page.locator("#copy-status").inner_text() == "Copied."
    else:  # this Chromium refused the clipboard: the text is shown selected instead
        assert page.locator("#export-text").is_visible()
        assert page.evaluate(SELECTED_TEXT) == expected
    context.close()


def test_without_a_clipboard_the_export_is_shown_selected(live_server, triaged, browser):
    incident = triaged["nobody's"]
    context = browser.new_context()
    context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    log_in(page, live_server, incident.get_absolute_url())
    expected = export_text(live_server, page, incident)
    assert "- **Analysis:** queued, no diagnosis yet" in expected
    assert not page.locator("#export-text").is_visible()

    page.click("#copy-export")

    page.locator("#export-text").wait_for(state="visible", timeout=READY_TIMEOUT_MS)
    assert page.evaluate(SELECTED_TEXT) == expected
    assert page.get_attribute("#copy-export", "data-copied").startswith("selected")
    context.close()
