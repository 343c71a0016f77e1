"""The timeline's JSON endpoint, its cache next to the run, and the page that draws it."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from incidents.evidence.links import file_url, file_urls
from incidents.models import AnalysisRun, RunState
from incidents.runs import runstore, services
from incidents.runs.analysis import analyze_run
from incidents.timeline.charts import TimelineQuery, prepare_timeline, timeline_payload
from tests.incidents.timeline_reports import crash_report, slowed

pytestmark = pytest.mark.django_db


@pytest.fixture
def analysed(crash_bundle, alice):
    """The real 4-rank crash bundle, analysed: rank 3 hit a shape error at log_3.log:48."""
    upload = SimpleUploadedFile(crash_bundle.name, crash_bundle.read_bytes())
    incident = services.incident_create(upload=upload, created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


@pytest.fixture
def analysed_healthy(corpus, alice):
    """The real 4-rank healthy job, whose checkpoint lines carry times."""
    path = corpus / "torch" / "healthy.tar.gz"
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    incident = services.incident_create(upload=upload, created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def with_report(alice, report: dict):
    """An incident whose finished run carries `report` (no analysis run)."""
    upload = SimpleUploadedFile("job.log", b"layer 0 passed\n")
    incident = services.incident_create(upload=upload, created_by=alice)
    AnalysisRun.objects.filter(pk=incident.latest_run().pk).update(
        state=RunState.DONE, report=report, finished_at=timezone.now()
    )
    return incident


def timeline_url(incident, **params) -> str:
    url = reverse("incidents:timeline", kwargs={"number": incident.pk})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_timeline_needs_a_login(client, analysed):
    assert client.get(timeline_url(analysed)).status_code == 302


def test_timeline_of_a_real_bundle_has_one_lane_per_rank(alice_client, analysed):
    payload = alice_client.get(timeline_url(analysed)).json()
    assert payload["lanes"]["rank"] == [0, 1, 2, 3]
    assert payload["lanes"]["culprit"] == [False, False, False, True]
    assert payload["shown"] == payload["total_points"] == 24
    causal = payload["errors"]["causal"].index(True)
    assert payload["errors"]["y"][causal] == 3
    assert payload["errors"]["line"][causal] == 48
    assert payload["files"][payload["errors"]["file"][causal]] == "job-f0dddebb/log_3.log"
    assert payload["last_common"]["label"] == "layer 1 / norm passed"


def test_file_urls_open_the_log_viewer(alice_client, analysed):
    payload = alice_client.get(timeline_url(analysed)).json()
    for path, url in zip(payload["files"], payload["file_urls"], strict=True):
        assert url == f"/incidents/INC-{analysed.pk}/files/{path}"
        assert alice_client.get(url + "?line=1").status_code == 200


def test_timeline_is_gzipped_for_clients_that_accept_it(alice_client, analysed):
    response = alice_client.get(timeline_url(analysed), headers={"accept-encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(response.content))["lanes"]["rank"] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"ranks": "7-0"}, "runs backwards"),
        ({"ranks": "abc"}, "not a rank"),
        ({"axis": "diagonal"}, "axis must be"),
        ({"x0": "3"}, "numbers"),
        ({"run": "latest"}, "run number"),
    ],
)
def test_bad_parameters_get_a_message(alice_client, analysed, params, message):
    response = alice_client.get(timeline_url(analysed, **params))
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_rank_filter_and_window_narrow_the_data(alice_client, alice):
    incident = with_report(alice, crash_report(ranks=16, culprit=9, layers=8))
    payload = alice_client.get(timeline_url(incident, ranks="0-3,9", x0=5, x1=10)).json()
    assert payload["lanes"]["rank"] == [0, 1, 2, 3, 9]
    assert payload["window"] == [5.0, 10.0]
    assert payload["shown"] == 5 * 6
    assert all(5 <= pos <= 10 for pos in payload["points"]["pos"])


def test_an_incident_without_a_finished_analysis_has_no_timeline(alice_client, alice):
    upload = SimpleUploadedFile("job.log", b"layer 0 passed\n")
    incident = services.incident_create(upload=upload, created_by=alice)
    response = alice_client.get(timeline_url(incident))
    assert response.status_code == 404
    assert "no finished analysis" in response.json()["error"]


def test_the_run_parameter_keeps_the_page_on_its_run(alice_client, alice):
    incident = with_report(alice, crash_report(ranks=4))
    old_run = incident.latest_run()
    newer = AnalysisRun.objects.create(
        incident=incident, state=RunState.DONE, report=crash_report(ranks=6, culprit=1)
    )
    assert alice_client.get(timeline_url(incident)).json()["run"] == newer.pk
    payload = alice_client.get(timeline_url(incident, run=old_run.pk)).json()
    assert payload["lanes"]["rank"] == [0, 1, 2, 3]


def test_analysis_prepares_the_timeline_next_to_the_run(analysed):
    path = runstore.store_dir_for(analysed.latest_run().pk) / runstore.TIMELINE_FILE
    assert path.is_file()


def test_endpoint_reads_the_prepared_file_not_the_report(alice_client, analysed):
    run = analysed.latest_run()
    expected = alice_client.get(timeline_url(analysed)).json()
    runstore.memory.clear()
    AnalysisRun.objects.filter(pk=run.pk).update(report={})  # the file alone must do
    assert alice_client.get(timeline_url(analysed)).json() == expected


def test_a_damaged_prepared_file_is_rebuilt_from_the_report(alice_client, analysed):
    path = runstore.store_dir_for(analysed.latest_run().pk) / runstore.TIMELINE_FILE
    path.write_bytes(b"\x00garbage")
    runstore.memory.clear()
    assert alice_client.get(timeline_url(analysed)).json()["lanes"]["rank"] == [0, 1, 2, 3]
    rebuilt = runstore.load_timeline(path)
    assert rebuilt.lanes[3].culprit
    assert len(rebuilt.points[0]) == 6  # checkpoints come back from the run's raw copy


def test_prepared_timeline_survives_the_round_trip_through_its_file(tmp_path):
    report = crash_report(ranks=8, culprit=5, skews={1: 3.0, 2: None}, world_size=9)
    report["timeline"]["3"] = slowed(report["timeline"]["3"], after=4, extra_s=0.5)
    timeline = prepare_timeline(report)
    runstore.save_timeline(timeline, tmp_path / "t.bin")
    loaded = runstore.load_timeline(tmp_path / "t.bin")
    assert list(loaded.points[3].slow) == list(timeline.points[3].slow) != []
    for axis in ("logical", "time"):
        query = TimelineQuery(axis=axis, budget=100, stragglers=True)
        assert timeline_payload(loaded, query) == timeline_payload(timeline, query)


def test_incident_page_carries_the_timeline(alice_client, analysed):
    html = alice_client.get(analysed.get_absolute_url()).content.decode()
    assert 'id="timeline-plot"' in html
    assert '<script id="timeline-config" type="application/json">' in html
    assert f'"dataUrl": "/incidents/INC-{analysed.pk}/timeline.json"' in html
    assert 'src="/static/vendor/plotly.min.js"' in html
    assert 'src="/static/js/timeline_url.js"' in html
    assert 'src="/static/js/timeline.js"' in html


def test_plotly_is_served_from_the_installed_package(client):
    found = finders.find("vendor/plotly.min.js")
    assert found
    assert found.endswith("package_data/plotly.min.js")
    response = client.get("/static/vendor/plotly.min.js")
    assert response.status_code == 200
    assert b"plotly" in b"".join(response.streaming_content)[:2000].lower()


def test_stored_report_leaves_the_checkpoint_lists_in_the_run_store(analysed):
    run = analysed.latest_run()
    assert "timeline" not in run.report
    raw = runstore.load_raw_timeline(runstore.store_dir_for(run.pk))
    assert set(raw["ranks"]) == {"0", "1", "2", "3"}
    counts = {s["rank"]: s["checkpoints"] for s in run.report["ranks"]}
    assert {int(r): len(columns["text"]) for r, columns in raw["ranks"].items()} == counts


FILE_PATHS = [
    "job-f0dddebb/log_3.log",
    "with space/ünïcode.log",
    "odd%name#frag?.log",
    "sub;delims,(1)+$&'!*=.log",
    "~user/@host:1.log",
]


@pytest.mark.parametrize("path", FILE_PATHS)
def test_file_urls_of_a_timeline_match_the_viewer_urls_one_by_one(path):
    assert file_urls(7, [path]) == [file_url(7, path)]


def test_timeline_of_a_timed_real_bundle_carries_step_times(alice_client, analysed_healthy):
    payload = alice_client.get(timeline_url(analysed_healthy, stragglers=1)).json()
    points = payload["points"]
    lanes_with_points = len(set(points["y"]))
    assert lanes_with_points == 4
    # each rank's first checkpoint has no previous one; every other has its step time
    assert points["dt"].count(None) == lanes_with_points
    assert all(dt >= 0 for dt in points["dt"] if dt is not None)
    assert payload["stragglers"] is not None
