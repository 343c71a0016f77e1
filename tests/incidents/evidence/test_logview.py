"""The evidence log viewer: a window of lines around the cited one, safe to show."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from analyzers.scan import linestore
from analyzers.scan.linestore import LineStoreWriter
from incidents.evidence.links import file_url
from incidents.models import AnalysisRun, RunState
from incidents.runs import services
from incidents.runs.analysis import analyze_run
from incidents.runs.runstore import store_dir_for

pytestmark = pytest.mark.django_db

MEMBER = "job-f0dddebb/log_0.log"
ERROR_LINES = [120, 480, 900]


def rank_log(lines: int) -> list[str]:
    """A rank log in the corpus's plain-print style, with torch errors at ERROR_LINES."""
    out = []
    for n in range(1, lines + 1):
        if n in ERROR_LINES:
            out.append(f"[rank0]: RuntimeError: step {n} failed: Connection closed by peer")
        elif n % 4 == 0:
            out.append(f"layer {n // 4} passed")
        else:
            out.append(f" norm passed (step {n})")
    return out


def tar_bundle(files: dict[str, list[str]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path, lines in files.items():
            data = ("\n".join(lines) + "\n").encode()
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def incident_with(files: dict[str, list[str]], alice, *, store: bool = True):
    """An incident whose (only) run finished, with or without the line store."""
    upload = SimpleUploadedFile("job.tar.gz", tar_bundle(files))
    incident = services.incident_create(upload=upload, created_by=alice)
    run = incident.latest_run()
    report = {
        "bundle": {"files": [{"path": p, "kind": "rank_log", "rank": 0} for p in files]},
        "ranks": [{"rank": 0, "status": "error", "first_error": {"file": MEMBER, "line": 480}}],
        "diagnosis": {"first_error": {"file": MEMBER, "line": 120, "text": "x", "rank": 0}},
    }
    AnalysisRun.objects.filter(pk=run.pk).update(
        state=RunState.DONE, report=report, finished_at=timezone.now()
    )
    if store:
        for path, lines in files.items():
            write_store(store_dir_for(run.pk), path, lines)
    return incident


def write_store(directory: Path, path: str, lines: list[str]) -> None:
    writer = LineStoreWriter(directory, path)
    writer.write(("\n".join(lines) + "\n").encode())
    writer.close({"error": [n for n in ERROR_LINES if n <= len(lines)]})


@pytest.fixture
def log_incident(alice):
    return incident_with({MEMBER: rank_log(1000)}, alice)


def test_viewer_needs_a_login(client, log_incident):
    response = client.get(file_url(log_incident.pk, MEMBER, 10))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_page_is_a_window_around_the_cited_line(alice_client, log_incident):
    response = alice_client.get(file_url(log_incident.pk, MEMBER) + "?line=500")
    page = response.context["page"]
    assert response.status_code == 200
    assert [page.rows[0].number, page.rows[-1].number] == [400, 599]
    assert (page.prev_start, page.next_start, page.last_start) == (200, 600, 801)


def test_cited_line_is_highlighted_and_every_line_is_an_anchor(alice_client, log_incident):
    html = alice_client.get(file_url(log_incident.pk, MEMBER, 500)).content.decode()
    assert '<tr id="L500" class="target">' in html
    assert '<tr id="L499">' in html
    assert 'href="?line=499&amp;start=400#L499">499</a>' in html


def test_paging_keeps_the_highlighted_line(alice_client, log_incident):
    url = file_url(log_incident.pk, MEMBER) + "?line=500&start=600"
    response = alice_client.get(url)
    page = response.context["page"]
    assert page.rows[0].number == 600
    assert 'href="?line=500&amp;start=400"' in response.content.decode()


def test_a_window_past_the_end_shows_the_last_lines(alice_client, log_incident):
    page = alice_client.get(file_url(log_incident.pk, MEMBER) + "?start=5000").context["page"]
    assert [page.rows[0].number, page.rows[-1].number] == [801, 1000]
    assert page.next_start is None


@pytest.mark.parametrize(
    ("line", "previous", "following"),
    [(500, 480, 900), (120, None, 480), (50, None, 120), (950, 900, None)],
)
def test_next_and_previous_error(alice_client, log_incident, line, previous, following):
    response = alice_client.get(file_url(log_incident.pk, MEMBER, line))
    page = response.context["page"]
    assert (page.prev_error, page.next_error) == (previous, following)
    if following:
        assert f'id="next-error" href="?line={following}#L{following}"' in response.content.decode()


def test_error_lines_are_marked(alice_client, log_incident):
    html = alice_client.get(file_url(log_incident.pk, MEMBER, 480)).content.decode()
    assert '<tr id="L480" class="target mark-error">' in html
    html = alice_client.get(file_url(log_incident.pk, MEMBER, 150)).content.decode()
    assert '<tr id="L120" class="mark-error">' in html


def test_log_text_is_escaped_and_ansi_colours_become_classes(alice_client, alice):
    lines = [
        "<script>alert('pwned')</script>",
        "\x1b[31m[ERROR]\x1b[0m \x1b[1mHCCL\x1b[22m timeout",
        "cursor \x1b[2K\x1b]0;title\x07moves \x07bell",
    ]
    incident = incident_with({MEMBER: lines}, alice)
    html = alice_client.get(file_url(incident.pk, MEMBER, 1)).content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in html
    assert (
        '<span class="ansi-fg-1">[ERROR]</span> <span class="ansi-bold">HCCL</span> timeout' in html
    )
    assert "cursor moves \u2407bell" in html
    assert "\x1b" not in html
    assert "\x07" not in html


@pytest.mark.parametrize(
    "path",
    [
        "../../../etc/passwd",
        "job-f0dddebb/../../etc/passwd",
        "%2e%2e/%2e%2e/etc/passwd",
        "job-f0dddebb/log_9.log",
        "job-f0dddebb",
    ],
)
def test_paths_outside_the_bundle_are_not_found(alice_client, log_incident, path):
    response = alice_client.get(f"/incidents/INC-{log_incident.pk}/files/{path}?line=1")
    assert response.status_code == 404


def test_paths_outside_the_bundle_are_not_found_without_an_index_either(alice_client, alice):
    incident = incident_with({MEMBER: rank_log(10)}, alice, store=False)
    response = alice_client.get(f"/incidents/INC-{incident.pk}/files/../{MEMBER}")
    assert response.status_code == 404


def test_odd_member_names_round_trip_through_the_url(alice_client, alice):
    odd = "job/rank 0 #1 %41?.log"
    incident = incident_with({odd: ["hello", "world"]}, alice)
    url = file_url(incident.pk, odd, 2)
    assert "%23" in url
    assert "%25" in url
    assert "%3F" in url
    response = alice_client.get(url)
    assert response.status_code == 200
    assert response.context["path"] == odd


@pytest.mark.parametrize("query", ["?line=abc", "?line=0", "?start=-4"])
def test_bad_line_numbers_are_refused_with_a_message(alice_client, log_incident, query):
    response = alice_client.get(file_url(log_incident.pk, MEMBER) + query)
    assert response.status_code == 400
    assert b"line number" in response.content


def test_without_an_index_the_file_is_read_from_the_bundle(alice_client, alice):
    incident = incident_with({MEMBER: rank_log(1000)}, alice, store=False)
    response = alice_client.get(file_url(incident.pk, MEMBER, 480))
    page = response.context["page"]
    assert "index not available" in page.note.lower()
    assert page.rows[100].number == 480
    assert "RuntimeError: step 480 failed" in page.rows[100].segments[0].text
    assert (page.prev_error, page.next_error) == (120, None)  # errors the report cites
    assert page.next_start == 580


def test_a_line_deep_in_a_big_file_decompresses_one_block(alice_client, alice, monkeypatch):
    lines = [f"[rank0]: step {n} " + "x" * 60 for n in range(1, 200_001)]  # ~16 MB
    incident = incident_with({MEMBER: lines[:10]}, alice)
    run = incident.latest_run()
    write_store(store_dir_for(run.pk), MEMBER, lines)
    calls = []
    real = linestore.decompress_block
    monkeypatch.setattr(linestore, "decompress_block", lambda data: calls.append(1) or real(data))
    response = alice_client.get(file_url(incident.pk, MEMBER, 199_000))
    page = response.context["page"]
    assert page.rows[100].number == 199_000
    assert "step 199000 " in page.rows[100].segments[0].text
    assert len(calls) <= 2


def test_incident_page_links_every_evidence_line_to_the_viewer(alice_client, crash_bundle, alice):
    upload = SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes())
    incident = services.incident_create(upload=upload, created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    report = incident.latest_run().report
    first = report["diagnosis"]["first_error"]

    html = alice_client.get(incident.get_absolute_url()).content.decode()
    link = file_url(incident.pk, first["file"], first["line"])
    assert f'href="{link}"' in html
    for summary in report["ranks"]:
        if summary["first_error"]:
            ref = summary["first_error"]
            assert f'href="{file_url(incident.pk, ref["file"], ref["line"])}"' in html

    viewer = alice_client.get(link)
    target = next(row for row in viewer.context["page"].rows if row.number == first["line"])
    assert "target" in target.css
    assert first["text"].strip() in "".join(s.text for s in target.segments)
