"""Hostile bundles and hostile addresses: every page answers, none with a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.evidence.links import file_url
from incidents.library.models import CaseSource
from incidents.models import AnalysisRun, Incident, RunState
from incidents.runs import services
from incidents.runs.analysis import analyze_run
from tests.analyzers import hostile
from tests.incidents.library_helpers import make_case, page_in

pytestmark = pytest.mark.django_db


def analyzed_upload(path: Path, user) -> Incident:
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    incident = services.incident_create(upload=upload, title="", created_by=user)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def test_odd_member_names_are_stored_and_linked(alice_client, alice, tmp_path):
    bundle = hostile.named(tmp_path / "names.tar", ["bad\udcff.log", "two\nlines.log"])

    incident = analyzed_upload(bundle, alice)
    page = alice_client.get(incident.get_absolute_url())
    viewer = alice_client.get(file_url(incident.pk, "two\\x0alines.log"))

    run = incident.latest_run()
    assert run.state == RunState.DONE
    paths = [f["path"] for f in run.report["bundle"]["files"]]
    assert paths == ["bad\\xff.log", "two\\x0alines.log"]
    assert page.status_code == 200
    assert viewer.status_code == 200
    assert "RuntimeError: boom" in viewer.content.decode()


def test_a_newline_in_an_older_reports_file_name_does_not_break_the_page(
    alice_client, alice, tmp_path
):
    incident = analyzed_upload(hostile.named(tmp_path / "a.tar", ["a.log"]), alice)
    run = incident.latest_run()
    report = run.report
    report["bundle"]["files"][0]["path"] = "raw\nnewline.log"
    AnalysisRun.objects.filter(pk=run.pk).update(report=report)

    page = alice_client.get(incident.get_absolute_url())

    assert page.status_code == 200
    link = file_url(incident.pk, "raw\nnewline.log")
    assert link.endswith("/files/raw%5Cx0anewline.log")  # the name as the analyzer escapes it
    assert link in page.content.decode()


def test_the_page_says_what_a_budget_cut(alice_client, alice, tmp_path):
    incident = analyzed_upload(hostile.nested(tmp_path / "nested.tar.gz", 20), alice)

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "Limits cut this reading" in html
    assert "nested more than 3 deep: nesting limit (RANKLENS_LIMIT_DEPTH)" in html


def test_the_page_says_the_rank_logs_are_empty_instead_of_a_hang(alice_client, alice, tmp_path):
    files = [("job/log_0.log", b""), ("job/log_1.log", b""), ("job/env.txt", b"WORLD_SIZE=2\n")]
    bundle = hostile.write(tmp_path / "empty-logs.tar", hostile.tar_bytes(files))
    incident = analyzed_upload(bundle, alice)

    html = page_in(alice_client, incident.get_absolute_url(), "zh-hans")

    assert incident.latest_run().report["diagnosis"]["category"] == "other"
    limits = html[html.index('id="limits"') :]
    assert "全部 2 个 rank 日志都是空的（0 字节：job/log_0.log, job/log_1.log）" in limits


def _steps(rank: int) -> bytes:
    return "".join(
        f"2026-11-29 07:24:{10 + step},000 [rank{rank}] INFO  step {step} passed\n"
        for step in range(3)
    ).encode()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "rank 2 of the job&#x27;s 3 has no log in the bundle; a missing log proves nothing"),
        ("zh-hans", "作业的 3 个 rank 中，rank 2 在日志包里没有日志；缺失的日志说明不了该 rank"),
    ],
)
def test_the_page_says_a_rank_without_a_log_leaves_no_common_checkpoint(
    alice_client, alice, tmp_path, language, said
):
    files = [
        ("job/log_0.log", _steps(0)),
        ("job/log_1.log", _steps(1)),
        ("job/env.txt", b"WORLD_SIZE=3\n"),
    ]
    bundle = hostile.write(tmp_path / "missing-log.tar", hostile.tar_bytes(files))
    incident = analyzed_upload(bundle, alice)

    html = page_in(alice_client, incident.get_absolute_url(), language)

    assert incident.latest_run().report["diagnosis"]["last_common_checkpoint"] is None
    limits = html[html.index('id="limits"') :]
    assert said in limits[: limits.index("</section>")]


def test_a_corrupt_upload_fails_its_run_with_a_reason(alice, tmp_path):
    incident = analyzed_upload(hostile.corrupt_deflate(tmp_path / "c.tar.gz", 300_000), alice)

    run = incident.latest_run()
    assert run.state == RunState.FAILED
    assert "corrupt or truncated" in run.error


@pytest.mark.parametrize(
    "url",
    ["/library/?q=a%00b", "/library/?category=%00", "/api/cases/?q=%00", "/incidents/?x=%00"],
)
def test_a_nul_in_the_query_is_a_400(alice_client, url):
    response = alice_client.get(url)

    assert response.status_code == 400


def test_bytes_that_are_not_utf8_in_a_search_are_a_400(alice_client):
    response = alice_client.get("/library/?q=%ff%fe%ed%a0%80")

    assert response.status_code == 400


def test_a_case_signature_that_needs_backtracking_is_refused(alice_client):
    case = make_case(
        slug="inc-2-x", title="t", category="other", root_cause="r", fix="f",
        source=CaseSource.PROMOTED,
    )  # fmt: skip

    response = alice_client.post(
        f"/library/{case.slug}/edit/",
        {"title": "t", "category": "other", "root_cause": "r", "fix": "f", "signatures": r"(a)\1"},
    )

    assert response.status_code == 200
    assert "backreferences" in response.content.decode()


def test_a_checkpoint_pattern_that_needs_backtracking_is_refused(alice_client, alice, tmp_path):
    incident = analyzed_upload(hostile.named(tmp_path / "a.tar", ["rank0.log"]), alice)

    response = alice_client.post(
        f"/incidents/INC-{incident.pk}/reanalyze/",
        {"checkpoint_patterns": r"(?<!skipped) passed"},
        follow=True,
    )

    assert incident.runs.count() == 1
    assert "lookaround" in response.content.decode()


def test_an_upload_whose_name_promises_another_archive_says_so(alice_client, alice, tmp_path):
    incident = analyzed_upload(hostile.zip_named_tgz(tmp_path / "job.tar.gz"), alice)

    run = incident.latest_run()
    assert run.state == RunState.DONE
    assert run.report["bundle"]["warnings"] == [
        "job.tar.gz is named like a gzip-compressed tar archive but is a zip archive: read as such"
    ]


def test_a_file_past_the_listing_and_store_limits_still_opens(
    alice_client, alice, tmp_path, monkeypatch
):
    monkeypatch.setenv("RANKLENS_LIMIT_LISTED_FILES", "2")
    monkeypatch.setenv("RANKLENS_LIMIT_STORE_FILES", "2")
    bundle = hostile.named(tmp_path / "five.tar", [f"rank{i}.log" for i in range(5)])

    incident = analyzed_upload(bundle, alice)
    viewer = alice_client.get(file_url(incident.pk, "rank4.log"))

    assert incident.latest_run().report["bundle"]["files_not_listed"] == 3
    assert viewer.status_code == 200
    assert "RuntimeError: boom" in viewer.content.decode()
