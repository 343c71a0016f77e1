"""In headless Chromium: the incident's timeline shows one lane per rank, clicking the first
causal error's marker lands on that line, highlighted, in the log viewer, and a view's URL
(axis, ranks, zoom window, straggler overlay) pasted into another browser shows that view.

The incident is the real 4-rank crash bundle, analysed synchronously by the task body.
Database work happens before the browser starts: Playwright's sync API runs an event
loop, inside which Django refuses ORM calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from incidents.models import AnalysisRun, Bundle, Incident, RunState
from incidents.runs import blobstore
from incidents.runs.analysis import analyze_run
from incidents.timeline.charts import prepare_timeline
from tests.incidents.timeline_reports import crash_report, straggler_report

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


def test_a_double_click_on_a_marker_zooms_out_instead_of_opening_its_line(
    live_server, crash_incident, browser
):
    """The first click of a double-click lands on a marker as a click does: the legend's
    "double-click to zoom out" must zoom out there too, not leave for the log line (in a
    big job every spot of the chart is near some marker)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    incident_url = f"{live_server.url}/incidents/INC-{crash_incident.pk}/"
    page.goto(f"{live_server.url}/accounts/login/?next=/incidents/INC-{crash_incident.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.wait_for_url(incident_url)
    page.goto(f"{incident_url}?x0=3&x1=6#timeline")  # zoomed in around the causal error
    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)
    plot.scroll_into_view_if_needed()

    marker = page.evaluate(CAUSAL_MARKER_JS)
    page.mouse.dblclick(marker["x"], marker["y"])
    page.wait_for_url(f"{incident_url}#timeline")  # the zoom window left the URL
    page.wait_for_timeout(1000)  # longer than a click waits for a second one

    assert page.url == f"{incident_url}#timeline"
    assert page.evaluate("document.getElementById('timeline-plot')._fullLayout.xaxis.autorange")
    assert errors == []


def test_hovering_the_causal_star_names_the_first_causal_error(
    live_server, crash_incident, browser
):
    """The culprit's first error is its first causal error: one star, whose label says so
    (before, an x marker drawn under the star caught the hover and said "first error")."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/?next=/incidents/INC-{crash_incident.pk}/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    plot = page.locator("#timeline-plot:not([data-ready='0'])")
    plot.wait_for(timeout=READY_TIMEOUT_MS)
    plot.scroll_into_view_if_needed()

    marker = page.evaluate(CAUSAL_MARKER_JS)
    page.mouse.move(marker["x"], marker["y"])
    label = page.locator("#timeline-plot .hoverlayer .hovertext", has_text="rank 3")
    label.first.wait_for(timeout=READY_TIMEOUT_MS)

    assert label.first.text_content().startswith("first causal error · rank 3")
    drawn = page.evaluate(
        "() => document.getElementById('timeline-plot').data"
        ".filter((t) => t.name.startsWith('first')).map((t) => [t.name, t.y])"
    )
    assert drawn == [["first error of a rank", [0, 1, 2]], ["first causal error", [3]]]


# --- a view's URL ---------------------------------------------------------------------------

SLOW_RANK = 5
SLOW_FROM = 60  # rank 5 takes 250 ms per step from its 60th checkpoint on, the others 50 ms
PASTED_VIEW = "?ranks=2-5,7&x0=40&x1=120&stragglers=1#timeline"

# What the page drew: lanes, x range, the payload's window, and the straggler overlay.
DRAWN_VIEW_JS = """
() => {
  const gd = document.getElementById("timeline-plot");
  const p = gd.timelinePayload;
  const overlay = gd.data.find((trace) => trace.name === "stragglers");
  return {
    ranks: p.lanes.rank,
    range: gd._fullLayout.xaxis.range,
    window: p.window,
    downsampled: p.downsampled,
    positions: p.points.pos,
    slowRanks: [...new Set(overlay.y.map((y) => p.lanes.rank[y]))],
    slowPositions: overlay.x,
  };
}
"""

# Pixel position of rank `rank`'s checkpoint at logical position `pos`.
POINT_JS = """
([rank, pos]) => {
  const gd = document.getElementById("timeline-plot");
  const area = gd.querySelector(".nsewdrag").getBoundingClientRect();
  const y = gd.timelinePayload.lanes.rank.indexOf(rank);
  return { x: area.left + gd._fullLayout.xaxis.l2p(pos), y: area.top + gd._fullLayout.yaxis.l2p(y) };
}
"""


@pytest.fixture
def slow_rank_incident(transactional_db, alice) -> Incident:
    """8 ranks × 5,001 checkpoints (more than one overview draws), rank 5 slow from #60."""
    incident = Incident.objects.create(title="one slow rank", created_by=alice)
    report = straggler_report(8, SLOW_RANK, layers=1250, after=SLOW_FROM)
    AnalysisRun.objects.create(
        incident=incident, state=RunState.DONE, report=report, finished_at=timezone.now()
    )
    return incident


def logged_in_page(browser, live_server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "s3cret-pass")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def wait_for_draw(page, renders: int = 1) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('timeline-plot').dataset.ready) >= {renders}",
        timeout=READY_TIMEOUT_MS,
    )


def hover_text(page, rank: int, pos: int) -> str:
    point = page.evaluate(POINT_JS, [rank, pos])
    page.mouse.move(0, 0)  # leave the previous point, so its label cannot be read again
    page.mouse.move(point["x"], point["y"])
    # the label of this rank's point: a stale label of the previous hover may still show
    hover = page.locator("#timeline-plot .hoverlayer .hovertext", has_text=f"rank {rank} ·")
    hover.first.wait_for(timeout=READY_TIMEOUT_MS)
    return hover.first.text_content() or ""


def test_a_pasted_url_shows_the_same_zoomed_filtered_view(live_server, slow_rank_incident, browser):
    slow = prepare_timeline(straggler_report(8, SLOW_RANK, layers=1250, after=SLOW_FROM))
    lane = slow.points[SLOW_RANK]
    expected_slow = [int(lane.x[i]) for i in lane.slow if 40 <= lane.x[i] <= 120]
    page = logged_in_page(browser, live_server)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/incidents/INC-{slow_rank_incident.pk}/{PASTED_VIEW}")
    wait_for_draw(page)

    view = page.evaluate(DRAWN_VIEW_JS)
    assert view["ranks"] == [2, 3, 4, 5, 7]
    assert view["range"] == [40, 120]
    assert view["window"] == [40, 120]
    assert not view["downsampled"]  # the window's own points, not the overview's sample
    assert min(view["positions"]) == 40
    assert max(view["positions"]) == 120
    assert view["slowRanks"] == [SLOW_RANK]
    assert view["slowPositions"] == expected_slow
    ticks = page.locator("#timeline-plot .ytick text").all_text_contents()
    assert [t.split()[1] for t in ticks] == ["2", "3", "4", "5", "7"]
    assert f"{len(expected_slow)} slow" in ticks[3]
    assert page.locator("#timeline-ranks").input_value() == "2-5,7"
    assert page.locator("#timeline-stragglers").is_checked()

    assert "50.0 ms since this rank's previous checkpoint" in hover_text(page, 2, 80)
    assert "250.0 ms since" in hover_text(page, SLOW_RANK, 100)
    assert errors == []


def test_the_url_follows_zoom_filter_axis_and_overlay(live_server, slow_rank_incident, browser):
    page = logged_in_page(browser, live_server)
    incident_url = f"{live_server.url}/incidents/INC-{slow_rank_incident.pk}/"
    page.goto(incident_url)
    wait_for_draw(page)
    assert page.url == incident_url

    page.fill("#timeline-ranks", "0-3")
    page.click("#timeline-filter button[type=submit]")
    wait_for_draw(page, 2)
    page.evaluate(
        "() => Plotly.relayout('timeline-plot', {'xaxis.range[0]': 10.123456, 'xaxis.range[1]': 30})"
    )
    page.check("#timeline-stragglers")
    page.wait_for_url(re.compile(r"stragglers=1"))
    assert page.url == f"{incident_url}?ranks=0-3&x0=10.123&x1=30&stragglers=1#timeline"

    page.check("input[name=timeline-axis][value=time]")
    page.wait_for_url(re.compile(r"axis=time"))
    assert page.url == f"{incident_url}?axis=time&ranks=0-3&stragglers=1#timeline"


# --- a rank whose log stops mid-line ----------------------------------------------------------

CUT_MARK_JS = """
() => {
  const gd = document.getElementById("timeline-plot");
  const p = gd.timelinePayload;
  const trace = gd.data.find((t) => t.name === "log cut");
  const area = gd.querySelector(".nsewdrag").getBoundingClientRect();
  return {
    count: trace.x.length,
    x: area.left + gd._fullLayout.xaxis.l2p(trace.x[0]),
    y: area.top + gd._fullLayout.yaxis.l2p(trace.y[0]),
    rank: p.lanes.rank[trace.y[0]],
  };
}
"""

# Lane names whose text starts left of the plot's own box: drawn there, they are cut off.
CLIPPED_LANE_NAMES_JS = """
() => {
  const left = document.getElementById("timeline-plot").getBoundingClientRect().left;
  return Array.from(document.querySelectorAll("#timeline-plot .ytick text"))
    .filter((tick) => tick.getBoundingClientRect().left < left)
    .map((tick) => tick.textContent);
}
"""


@pytest.fixture
def cut_log_incident(transactional_db, alice) -> Incident:
    """Two ranks' Python logging; rank 1's file stops inside a timestamp (its disk filled)."""
    from tests.incidents.timeline.test_cut_logs import CUT, WHOLE, tarred

    data = tarred({"job-7e1f03aa/log_0.log": WHOLE, "job-7e1f03aa/log_1.log": CUT})
    blob = blobstore.store_upload(SimpleUploadedFile("job.tar.gz", data))
    incident = Incident.objects.create(title="a cut log", created_by=alice)
    Bundle.objects.create(
        incident=incident, sha256=blob.sha256, original_name="job.tar.gz", size_bytes=len(data)
    )
    run = AnalysisRun.objects.create(incident=incident)
    analyze_run(run_id=run.pk)
    return incident


def test_the_cut_lane_ends_in_a_mark_that_opens_the_last_line(
    live_server, cut_log_incident, browser
):
    page = logged_in_page(browser, live_server)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/incidents/INC-{cut_log_incident.pk}/")
    wait_for_draw(page)

    ticks = page.locator("#timeline-plot .ytick text").all_text_contents()
    assert ["log cut" in tick for tick in ticks] == [False, True]
    assert page.evaluate(CLIPPED_LANE_NAMES_JS) == []
    mark = page.evaluate(CUT_MARK_JS)
    assert (mark["count"], mark["rank"]) == (1, 1)

    page.locator("#timeline-plot").scroll_into_view_if_needed()
    mark = page.evaluate(CUT_MARK_JS)
    page.mouse.move(mark["x"], mark["y"])
    page.mouse.click(mark["x"], mark["y"])
    page.wait_for_url(re.compile(r"/files/job-7e1f03aa/log_1\.log\?line=4#L4"))
    assert errors == []


# --- a filter that leaves nothing to draw ------------------------------------------------------


def test_a_filter_no_rank_matches_says_so_instead_of_an_empty_chart(
    live_server, slow_rank_incident, browser
):
    page = logged_in_page(browser, live_server)
    page.goto(f"{live_server.url}/incidents/INC-{slow_rank_incident.pk}/?ranks=99999#timeline")

    notice = page.locator("#timeline-notice")
    notice.wait_for(state="visible", timeout=READY_TIMEOUT_MS)
    assert notice.text_content() == "No rank of this job is in the filter 99999: its ranks are 0-7."
    assert page.locator("#timeline-plot").is_hidden()


def test_a_bad_filter_after_a_good_one_leaves_no_stale_chart(
    live_server, slow_rank_incident, browser
):
    page = logged_in_page(browser, live_server)
    page.goto(f"{live_server.url}/incidents/INC-{slow_rank_incident.pk}/?ranks=0-3#timeline")
    wait_for_draw(page)

    page.fill("#timeline-ranks", "7-2")
    page.click("#timeline-filter button[type=submit]")

    error = page.locator("#timeline-error")
    error.wait_for(state="visible", timeout=READY_TIMEOUT_MS)
    assert "runs backwards" in (error.text_content() or "")
    assert page.locator("#timeline-plot").is_hidden()
    assert page.locator("#timeline-status").text_content() == ""

    page.fill("#timeline-ranks", "4-5")
    page.click("#timeline-filter button[type=submit]")
    wait_for_draw(page, 2)
    assert page.locator("#timeline-error").is_hidden()
    assert page.locator("#timeline-plot").is_visible()
    assert page.evaluate(
        "() => document.getElementById('timeline-plot').timelinePayload.lanes.rank"
    ) == [4, 5]


@pytest.fixture
def no_checkpoint_incident(transactional_db, alice) -> Incident:
    """A crash whose logs hold errors and no checkpoint line."""
    incident = Incident.objects.create(title="errors only", created_by=alice)
    report = crash_report(4)
    report["timeline"] = {rank: [] for rank in report["timeline"]}
    for summary in report["ranks"]:
        summary["last_checkpoint"] = None
    report["diagnosis"]["last_common_checkpoint"] = None
    AnalysisRun.objects.create(
        incident=incident, state=RunState.DONE, report=report, finished_at=timezone.now()
    )
    return incident


def test_a_job_without_checkpoints_says_so_on_an_unnumbered_axis(
    live_server, no_checkpoint_incident, browser
):
    page = logged_in_page(browser, live_server)
    page.goto(f"{live_server.url}/incidents/INC-{no_checkpoint_incident.pk}/#timeline")
    wait_for_draw(page)

    assert page.locator("#timeline-plot .xtick text").all_text_contents() == []
    title = page.locator("#timeline-plot .xtitle").text_content() or ""
    assert title.startswith("no checkpoints in these logs")
