"""In headless Chromium: two people triage one incident through the meeting view.

Alice opens the meeting on the new incidents, presses `j` to reach the second one (the
real 4-rank crash bundle, analysed synchronously), gives it to Bob, marks it
investigating and comments. Bob, in a browser context of his own, opens the meeting on
that incident, sees all of it, replies and marks it root caused. The incident page's
activity stream then lists both people's changes. Every step runs under the strict
Content-Security-Policy and must break none of its rules.

Database work happens before the browser starts: Playwright's sync API runs an event
loop, inside which Django refuses ORM calls.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from incidents.models import Incident
from tests.e2e.test_timeline_browser import READY_TIMEOUT_MS, browser, crash_incident
from tests.incidents.library_helpers import make_incident, shape_report

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser", "crash_incident"]  # fixtures shared with the timeline test

PAGE_ERRORS: list[str] = []  # script errors of every page, emptied by each test

COLLECT_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push({directive: e.effectiveDirective, blocked: e.blockedURI});
});
"""


@pytest.fixture
def meeting_incidents(crash_incident, alice, django_user_model) -> tuple[Incident, Incident]:
    """An older new incident, then the crash incident: the meeting's first and second."""
    django_user_model.objects.create_user(username="bob", password="s3cret-pass")
    older = make_incident(shape_report(), user=alice, title="nightly tp8 decode")
    Incident.objects.filter(pk=older.pk).update(created_at=timezone.now() - dt.timedelta(days=1))
    return older, crash_incident


def logged_in(browser, live_server, username: str, path: str):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.add_init_script(COLLECT_VIOLATIONS)
    page.on("pageerror", lambda error: PAGE_ERRORS.append(f"{username}: {error}"))
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", username)
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.wait_for_selector("#meeting")
    page.wait_for_load_state("load")
    return page


def text_of(page, selector: str) -> str:
    return " ".join(page.locator(selector).inner_text().split())


def test_two_people_triage_one_incident_through_the_meeting_view(
    live_server, meeting_incidents, browser
):
    older, crash = meeting_incidents
    PAGE_ERRORS.clear()
    alice = logged_in(browser, live_server, "alice", "/meeting/%3Ftriage_status%3Dnew")
    assert text_of(alice, "#meeting-position") == "1 of 2"
    assert f"INC-{older.pk}" in text_of(alice, ".meeting-title")

    # j moves to the second incident, and the URL names it.
    alice.keyboard.press("j")
    alice.wait_for_url(re.compile(rf"/meeting/\?triage_status=new&at=INC-{crash.pk}$"))
    assert text_of(alice, "#meeting-position") == "2 of 2"
    assert text_of(alice, "#meeting-verdict") == "shape_mismatch"
    first_error = alice.locator("#meeting-first-error")
    assert first_error.inner_text() == "job-f0dddebb/log_3.log:48"
    assert first_error.get_attribute("href") == (
        f"/incidents/INC-{crash.pk}/files/job-f0dddebb/log_3.log?line=48#L48"
    )
    assert text_of(alice, "#meeting-culprits") == "3"
    plot = alice.locator("#meeting-timeline:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)
    assert plot.get_attribute("data-bars") == "4"

    # A refused change says which field it needs and changes nothing.
    alice.click("#meeting-status-form button[value=duplicate]")
    error = alice.locator("#meeting-error")
    error.wait_for(state="visible")
    assert error.get_attribute("data-field") == "duplicate_of"
    assert error.inner_text().startswith("Duplicate of: ")
    assert text_of(alice, "#meeting-status") == "New"

    alice.select_option("#meeting-owner-select", "bob")
    alice.wait_for_function("document.getElementById('meeting-owner').textContent === 'bob'")
    assert alice.locator("#meeting-error").is_hidden()
    alice.click("#meeting-status-form button[value=investigating]")
    alice.wait_for_function(
        "document.getElementById('meeting-status').textContent === 'Investigating'"
    )
    assert (
        alice.get_attribute("#meeting-status-form button[value=investigating]", "aria-pressed")
        == "true"
    )

    # Typing j and k in the comment box types them; it does not leave the incident.
    alice.click("#meeting-comment-body")
    alice.keyboard.type("Rank 3 just hit the **shape mismatch** first; bob checks the TP split.")
    assert alice.url.endswith(f"at=INC-{crash.pk}")
    alice.click("#meeting-comment-form button[type=submit]")
    comment = alice.locator("#meeting-comments li")
    comment.wait_for()
    assert "shape mismatch" in comment.locator("strong").nth(1).inner_text()
    assert alice.input_value("#meeting-comment-body") == ""

    # Bob opens the meeting on that incident and sees Alice's changes and comment.
    bob = logged_in(
        browser,
        live_server,
        "bob",
        f"/meeting/%3Ftriage_status%3Dinvestigating%26at%3DINC-{crash.pk}",
    )
    assert text_of(bob, "#meeting-position") == "1 of 1"
    assert text_of(bob, "#meeting-owner") == "bob"
    assert text_of(bob, "#meeting-status") == "Investigating"
    assert bob.input_value("#meeting-owner-select") == "bob"
    comments = bob.locator("#meeting-comments li")
    assert comments.count() == 1
    assert "alice" in comments.first.inner_text()
    bob.fill("#meeting-comment-body", "Confirmed: the TP split of o_proj is wrong.")
    bob.click("#meeting-comment-form button[type=submit]")
    bob.locator("#meeting-comments li").nth(1).wait_for()
    bob.click("#meeting-status-form button[value=root_caused]")
    bob.wait_for_function("document.getElementById('meeting-status').textContent === 'Root caused'")

    for page in (alice, bob):  # before the pages are left: the list is per page
        assert page.evaluate("window.cspViolations") == []

    # The same URLs now move on: the incident left both filters.
    bob.reload()
    assert bob.locator("#meeting-empty").is_visible()
    alice.reload()
    assert f"INC-{crash.pk} no longer matches" in text_of(alice, "#meeting-moved")
    assert f"INC-{older.pk}" in text_of(alice, ".meeting-title")

    # The incident page's activity stream lists both people's changes.
    bob.goto(f"{live_server.url}/incidents/INC-{crash.pk}/")
    entries = bob.locator("#activity tbody tr.activity-entry")
    rows = [
        (entry.get_attribute("data-verb"), entry.get_attribute("data-field"), entry.inner_text())
        for entry in entries.all()
    ]

    def logged(verb: str, field: str, *words: str) -> bool:
        return any(
            (v, f) == (verb, field) and all(word in " ".join(text.split()) for word in words)
            for v, f, text in rows
        )

    assert logged("set", "owner", "alice", "bob")
    assert logged("changed", "triage_status", "alice", "New", "Investigating")
    assert logged("commented", "", "alice", "shape mismatch")
    assert logged("commented", "", "bob", "o_proj")
    assert logged("changed", "triage_status", "bob", "Investigating", "Root caused")

    for page in (alice, bob):
        assert page.evaluate("window.cspViolations") == []
    assert PAGE_ERRORS == []
