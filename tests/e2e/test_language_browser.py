"""In headless Chromium: the header's language switch turns the UI Chinese on the same page,
the choice holds on every later page (incident list, incident page with its timeline drawn
by static JS, case library) until switched back, and a browser that asks for `zh-CN` in
`Accept-Language` gets Chinese without touching the switch. No page breaks the CSP."""

from __future__ import annotations

import pytest

from tests.e2e.test_csp_browser import COLLECT_VIOLATIONS
from tests.e2e.test_timeline_browser import READY_TIMEOUT_MS, browser, crash_incident

pytestmark = [pytest.mark.browser, pytest.mark.slow]

__all__ = ["browser", "crash_incident"]  # fixtures shared with the timeline test


# How many lines each matching element's text takes.
BADGE_LINES_JS = """
(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
})
"""


def _log_in(page, live_server, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("form[action='/accounts/login/'] button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def _switch_to(page, code: str) -> None:
    """Choose a language in the header; its script posts the form, the page comes back."""
    with page.expect_navigation():
        page.select_option("#language-select", code)


def test_switch_turns_the_ui_chinese_and_it_persists(live_server, crash_incident, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.add_init_script(COLLECT_VIOLATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _log_in(page, live_server, "/incidents/")
    assert page.locator("h1").inner_text() == "Incidents"

    _switch_to(page, "zh-hans")

    assert page.url == f"{live_server.url}/incidents/"  # the same page, now in Chinese
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert page.locator("h1").inner_text() == "事件"
    assert page.locator("#result-count").inner_text() == "1 个事件"
    assert "故障源 rank" in page.locator("table.incident-list thead").inner_text()
    assert page.locator(".incident-row .triage-new").inner_text() == "新建"

    page.click(f"a[href='/incidents/INC-{crash_incident.pk}/'] >> nth=0")
    page.wait_for_url(f"**/incidents/INC-{crash_incident.pk}/")
    assert page.locator("#diagnosis h2").inner_text() == "诊断"
    assert page.locator("#ranks h2").inner_text() == "Rank"
    assert "重新分析" in page.locator("form.reanalyze button").inner_text()
    # The timeline's texts come from the JavaScript catalog, in the page's language.
    page.locator("#timeline-plot:not([data-ready='0'])").wait_for(timeout=READY_TIMEOUT_MS)
    status = page.locator("#timeline-status").inner_text()
    assert "4 条 rank 泳道" in status, status
    assert "绘制" in status

    page.goto(f"{live_server.url}/library/")
    assert page.locator("h1").inner_text() == "案例库"

    _switch_to(page, "en")
    assert page.url == f"{live_server.url}/library/"
    assert page.locator("h1").inner_text() == "Case library"
    assert page.evaluate("window.cspViolations") == []
    assert errors == []
    context.close()


def test_accept_language_zh_cn_alone_gives_chinese(live_server, crash_incident, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()

    page.goto(f"{live_server.url}/accounts/login/")
    assert page.locator("h1").inner_text() == "登录"
    assert page.locator("#language-select").input_value() == "zh-hans"

    _log_in(page, live_server, f"/incidents/INC-{crash_incident.pk}/")
    assert page.locator("#diagnosis dt").first.inner_text() == "类别"
    page.goto(f"{live_server.url}/incidents/")
    assert page.locator("h1").inner_text() == "事件"
    context.close()


def test_a_chinese_page_names_each_rank_status_in_chinese(live_server, crash_incident, browser):
    """The report keeps a rank's status as an English key; the timeline's lanes (drawn by
    static JS) and the rank table say it in the page's language."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _log_in(page, live_server, f"/incidents/INC-{crash_incident.pk}/")

    page.locator("#timeline-plot:not([data-ready='0'])").wait_for(timeout=READY_TIMEOUT_MS)
    lanes = page.locator("#timeline-plot .ytick text").all_text_contents()
    assert lanes == ["rank 0 · 报错", "rank 1 · 报错", "rank 2 · 报错", "rank 3 ⚠ 故障源 · 报错"]
    assert page.locator("#ranks .badge").all_text_contents() == ["报错"] * 4
    # A badge is a pill: Chinese may break between any two characters, never inside one.
    assert page.evaluate(BADGE_LINES_JS, "#ranks .badge") == [1] * 4
    assert errors == []
    context.close()
