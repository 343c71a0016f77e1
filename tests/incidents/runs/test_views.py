"""Incident pages: list, detail with live status, re-analysis, login."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.models import AnalysisRun, Incident, RunState
from incidents.runs import services
from incidents.runs.analysis import analyze_run

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('pwned')</script>"


def make_incident(path: Path, user, title: str = "") -> Incident:
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    return services.incident_create(upload=upload, title=title, created_by=user)


@pytest.fixture
def analyzed(crash_bundle, alice) -> Incident:
    incident = make_incident(crash_bundle, alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


@pytest.mark.parametrize("url", ["/", "/incidents/", "/incidents/new/", "/incidents/INC-1/"])
def test_pages_need_login(client, url):
    response = client.get(url, follow=True)

    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert b"Log in" in response.content


def test_login_page_logs_in(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "s3cret-pass"}, follow=True
    )

    assert response.redirect_chain[-1][0] == "/incidents/"
    assert response.context["user"] == alice


def test_list_shows_incidents_newest_first(alice_client, alice, crash_bundle):
    make_incident(crash_bundle, alice, title="older job")
    make_incident(crash_bundle, alice, title="newer job")

    html = alice_client.get("/incidents/").content.decode()

    assert html.index("newer job") < html.index("older job")


def test_detail_url_is_stable_short_id(alice_client, analyzed):
    response = alice_client.get(f"/incidents/INC-{analyzed.pk}/")

    assert response.status_code == 200
    assert analyzed.get_absolute_url() == f"/incidents/INC-{analyzed.pk}/"
    assert f"INC-{analyzed.pk}" in response.content.decode()


def test_detail_shows_diagnosis_ranks_and_files(alice_client, analyzed):
    report = analyzed.latest_run().report

    response = alice_client.get(analyzed.get_absolute_url())

    html = response.content.decode()
    assert 'id="diagnosis"' in html
    assert report["diagnosis"]["category"] in html
    ranks = response.context["report"]["ranks"]
    assert html.count("badge-rank-") == len(ranks) > 0
    for f in report["bundle"]["files"]:
        assert f["path"] in html


def test_detail_lists_a_skipped_binary_with_why_and_no_link_to_open_it(alice_client, analyzed):
    run = analyzed.latest_run()
    run.report["bundle"]["files"].append(
        {
            "path": "job/loss.png",
            "kind": "other",
            "rank": None,
            "skipped": "binary, not log text: a PNG image",
            "skipped_zh": "二进制内容，不是日志文本：PNG 图片",
        }
    )
    run.save(update_fields=["report"])

    english = alice_client.get(analyzed.get_absolute_url()).content.decode()
    chinese = alice_client.get(analyzed.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert '<td class="mono">job/loss.png</td>' in english
    assert "binary, not log text: a PNG image" in english
    assert "二进制内容，不是日志文本：PNG 图片" in chinese.content.decode()


def test_detail_of_a_queued_run_polls_its_status(alice_client, alice, crash_bundle):
    incident = make_incident(crash_bundle, alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert f'data-status-url="/incidents/INC-{incident.pk}/status/"' in html
    assert 'data-state="queued"' in html
    assert "js/incident_detail.js" in html
    assert 'id="diagnosis"' not in html


def test_status_json_follows_the_run(alice_client, alice, crash_bundle):
    incident = make_incident(crash_bundle, alice)
    url = f"/incidents/INC-{incident.pk}/status/"
    before = alice_client.get(url).json()

    analyze_run(run_id=incident.latest_run().pk)

    after = alice_client.get(url).json()
    assert (before["status"], before["progress"]) == ("queued", 0)
    assert (after["status"], after["progress"], after["error"]) == ("done", 100, None)
    assert "report" not in after


def test_failed_run_shows_its_error(alice_client, analyzed):
    AnalysisRun.objects.filter(incident=analyzed).update(
        state=RunState.FAILED, report=None, error="job.tar.gz: the gzip data is corrupt"
    )

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "job.tar.gz: the gzip data is corrupt" in html
    assert 'data-state="failed"' in html


def test_detail_shows_the_alternative_labels_with_their_evidence(alice_client, analyzed):
    run = analyzed.latest_run()
    report = copy.deepcopy(run.report)
    report["diagnosis"]["alternatives"] = [
        {
            "category": "driver_env",
            "evidence": "Operator kernel binaries not installed",
            "score": 0.5,
        }
    ]
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "could also be" in html
    assert "driver_env</span>: Operator kernel binaries not installed" in html


def test_a_report_without_alternatives_shows_none(alice_client, analyzed):
    run = analyzed.latest_run()
    report = copy.deepcopy(run.report)
    report["diagnosis"].pop("alternatives", None)
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "could also be" not in html


def test_log_text_is_escaped_everywhere_on_the_page(alice_client, analyzed):
    run = analyzed.latest_run()
    report = poisoned(run.report)
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)
    analyzed.title = SCRIPT
    analyzed.save()

    html = alice_client.get(analyzed.get_absolute_url()).content.decode()

    assert "<script>alert" not in html
    assert html.count("&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;") >= 6


def poisoned(report: dict) -> dict:
    """The report with hostile text wherever a log line or file name lands."""
    report = copy.deepcopy(report)
    line = {"file": f"{SCRIPT}.log", "line": 7, "text": f"RuntimeError: {SCRIPT}", "rank": 0}
    report["diagnosis"]["first_error"] = line
    report["diagnosis"]["next_actions"] = [f"Check {SCRIPT}"]
    report["diagnosis"]["alternatives"] = [{"category": "hang", "evidence": SCRIPT, "score": 0.4}]
    report["ranks"][0]["first_error"] = line
    report["ranks"][0]["last_checkpoint"] = SCRIPT
    report["ranks"][0]["last_checkpoint_qualified"] = None
    report["bundle"]["files"][0]["path"] = f"logs/{SCRIPT}"
    return report


def test_list_escapes_titles(alice_client, alice, crash_bundle):
    make_incident(crash_bundle, alice, title=SCRIPT)

    html = alice_client.get("/incidents/").content.decode()

    assert "<script>alert" not in html
    assert "&lt;script&gt;" in html


def test_reanalyze_creates_a_new_run_and_page_shows_the_latest(alice_client, analyzed):
    first = analyzed.latest_run()

    response = alice_client.post(f"/incidents/INC-{analyzed.pk}/reanalyze/")

    assert response.status_code == 302
    assert response["Location"] == analyzed.get_absolute_url()
    latest = analyzed.latest_run()
    assert latest.pk != first.pk
    assert latest.state == RunState.QUEUED
    page = alice_client.get(analyzed.get_absolute_url())
    assert page.context["run"] == latest
    assert page.context["report"] is None


def test_reanalyze_with_a_checkpoint_pattern_uses_it_for_that_run(alice_client, analyzed):
    pattern = r"^(?P<checkpoint>prefill start)"

    alice_client.post(f"/incidents/INC-{analyzed.pk}/reanalyze/", {"checkpoint_patterns": pattern})

    latest = analyzed.latest_run()
    assert latest.checkpoint_patterns == [pattern]
    analyze_run(run_id=latest.pk)
    latest.refresh_from_db()
    rank0 = next(r for r in latest.report["ranks"] if r["rank"] == 0)
    assert rank0["checkpoints"] == 7  # the six default checkpoints plus "prefill start"
    page = alice_client.get(analyzed.get_absolute_url())
    assert page.context["reanalyze_form"].initial == {"checkpoint_patterns": pattern}


def test_reanalyze_with_a_broken_pattern_queues_nothing_and_says_why(alice_client, analyzed):
    response = alice_client.post(
        f"/incidents/INC-{analyzed.pk}/reanalyze/",
        {"checkpoint_patterns": r"layer (\d+"},
        follow=True,
    )

    assert analyzed.runs.count() == 1
    assert analyzed.latest_run().state == RunState.DONE
    assert "flash-error" in response.content.decode()
    assert "layer (" in response.content.decode()


def test_reanalyze_needs_post(alice_client, analyzed):
    response = alice_client.get(f"/incidents/INC-{analyzed.pk}/reanalyze/")

    assert response.status_code == 405
    assert analyzed.runs.count() == 1


def test_unknown_incident_is_404(alice_client):
    assert alice_client.get("/incidents/INC-424242/").status_code == 404


# --- the incident list: filters, sorting, pages ----------------------------------------------


@pytest.fixture
def triaged(alice, bob):
    """Three incidents as the list sees them (`make_triaged`), the HCCL one with a first
    error long enough to be cut, the resolved shape crash owned by alice."""
    from tests.incidents.triage_helpers import HCCL_ERROR, make_triaged

    long_error = (
        f"{HCCL_ERROR}. [ERROR] 2026-01-01-00:00:00 (PID:5555, Device:2, RankID:2) ERR02200 "
        "DIST call hccl api failed."
    )
    return make_triaged(alice, bob, hccl_error=long_error, shape_owner="alice")


def listed_titles(response) -> list[str]:
    return [incident.title for incident in response.context["page"].items]


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("", ["queued job", "hccl job", "shape job"]),
        ("category=hccl", ["hccl job"]),
        ("triage_status=new,investigating", ["queued job", "hccl job"]),
        ("triage_status=resolved", ["shape job"]),
        ("status=queued", ["queued job"]),
        ("owner=bob", ["hccl job"]),
        ("owner=none", ["queued job"]),
        ("tag=moe", ["hccl job"]),
        ("code=EI0006", ["hccl job"]),
        ("ticket=NPU-77", ["hccl job"]),
        ("q=mat1", ["shape job"]),
        ("since=2000-01-01&until=2999-12-31", ["queued job", "hccl job", "shape job"]),
        ("until=2000-01-01", []),
        ("sort=title", ["hccl job", "queued job", "shape job"]),
        ("sort=-title", ["shape job", "queued job", "hccl job"]),
        ("sort=owner&triage_status=investigating,resolved", ["shape job", "hccl job"]),
    ],
)
def test_the_list_filters_and_sorts_by_its_url(alice_client, triaged, query, titles):
    response = alice_client.get(f"/incidents/?{query}")

    assert response.status_code == 200
    assert listed_titles(response) == titles
    html = response.content.decode()
    assert html.count('class="incident-row"') == len(titles)
    if titles:
        assert f"{len(titles)} incident" in html


def test_a_row_shows_the_triage_and_analysis_columns(alice_client, triaged):
    hccl = triaged["hccl"]
    html = alice_client.get("/incidents/?tag=moe").content.decode()

    row = html[html.index(f'data-id="INC-{hccl.pk}"') :]
    row = row[: row.index("</tr>")]
    assert ">hccl</a>" in row
    assert '<td class="mono">2</td>' in row
    assert "Investigating" in row
    assert '<a href="/incidents/?owner=bob">bob</a>' in row
    assert '<a class="tag" href="/incidents/?tag=moe">moe</a>' in row
    assert 'href="/incidents/?ticket=NPU-77"' in row
    assert ">NPU-77</a>" in row
    # the first error is cut in the cell and whole in its tooltip
    assert 'title="[rank2]: RuntimeError: HCCL function error' in row
    assert "DIST call hccl api failed." in row.split('title="', 1)[1].split('"', 1)[0]
    assert "DIST call hccl api failed.</td>" not in row


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("triage_status=closed", "triage_status"),
        ("status=finished", "status"),
        ("since=last-week", "since"),
        ("until=31/12/2026", "until"),
        ("sort=priority", "sort"),
        ("page=zero", "page"),
    ],
)
def test_a_bad_filter_is_a_400_page_naming_the_field(alice_client, triaged, query, field):
    response = alice_client.get(f"/incidents/?{query}")

    assert response.status_code == 400
    html = response.content.decode()
    assert f"The filter “{field}” cannot be used" in html
    assert 'class="incident-row"' not in html
    assert 'href="/incidents/">Clear filters</a>' in html


def test_an_empty_result_says_so_and_offers_to_clear_the_filters(alice_client, triaged):
    html = alice_client.get("/incidents/?tag=no-such-tag").content.decode()

    assert "0 incidents" in html
    assert "No incident matches these filters." in html
    assert 'href="/incidents/">Clear filters</a>' in html


def test_the_filter_bar_submit_lands_on_the_tidy_query_url(alice_client, triaged):
    form = (
        "category=&triage_status=new&triage_status=investigating&status=&owner=bob"
        "&tag=&code=&ticket=&since=&until=&q="
    )
    response = alice_client.get(f"/incidents/?{form}")

    assert response.status_code == 302
    assert response["Location"] == "/incidents/?triage_status=new,investigating&owner=bob"
    followed = alice_client.get(response["Location"])
    assert listed_titles(followed) == ["hccl job"]


def test_the_filter_bar_shows_the_current_filters(alice_client, triaged):
    html = alice_client.get("/incidents/?triage_status=new,investigating&owner=bob&q=hccl").content
    html = html.decode()

    assert 'value="new" checked' in html
    assert 'value="investigating" checked' in html
    assert 'value="resolved" checked' not in html
    assert '<option value="bob" selected>bob</option>' in html
    assert 'name="q" value="hccl"' in html


def test_quick_links_name_the_everyday_views(alice_client, triaged):
    html = alice_client.get("/incidents/?owner=alice").content.decode()

    assert 'href="/incidents/?triage_status=new">New</a>' in html
    assert 'href="/incidents/?triage_status=new,investigating">Open</a>' in html
    assert 'href="/incidents/?owner=alice" class="active" aria-current="page">Mine</a>' in html


def test_sortable_headers_keep_the_filters_and_reverse_the_sorted_column(alice_client, triaged):
    html = alice_client.get("/incidents/?tag=moe&sort=title").content.decode()

    assert 'href="/incidents/?tag=moe&amp;sort=-title"' in html  # title sorted: reverse it
    assert 'href="/incidents/?tag=moe&amp;sort=category"' in html
    assert 'href="/incidents/?tag=moe"' in html  # uploaded: back to the default, newest first
    assert 'aria-sort="ascending"' in html


def test_pages_keep_the_filters(alice_client, alice):
    Incident.objects.bulk_create(
        [Incident(title=f"nightly {n:02d}", created_by=alice) for n in range(53)]
        + [Incident(title="other job", created_by=alice, triage_status="resolved")]
    )

    first = alice_client.get("/incidents/?triage_status=new&sort=title")
    html = first.content.decode()
    assert "53 incidents" in html
    assert len(listed_titles(first)) == 50
    assert "Page 1 of 2" in html
    assert 'href="/incidents/?triage_status=new&amp;sort=title&amp;page=2"' in html

    second = alice_client.get("/incidents/?triage_status=new&sort=title&page=2")
    assert listed_titles(second) == ["nightly 50", "nightly 51", "nightly 52"]
    assert 'rel="prev" href="/incidents/?triage_status=new&amp;sort=title"' in (
        second.content.decode()
    )

    past = alice_client.get("/incidents/?triage_status=new&page=9").content.decode()
    assert "This page is past the end of the list." in past
