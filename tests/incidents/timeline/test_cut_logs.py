"""A rank whose log stops mid-line is flagged on the incident page, in the rank table and
beside the timeline, with the file and its last line; a lone pasted excerpt that ends without
a line end is not.

The bundles are Python logging to log_<rank>.log (torch 2.13, gloo): the disk filled while
rank 1 was writing its layer 1 lines, so its file stops inside a timestamp.
"""

from __future__ import annotations

import io
import tarfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.runs import services
from incidents.runs.analysis import analyze_run
from incidents.timeline.cut_logs import collected_logs, cut_ranks, rank_cuts

WHOLE = """\
2026-12-05 05:05:40,550 INFO     [Rank 0] prefill start: 8 tokens
2026-12-05 05:05:40,553 INFO     [Rank 0]   norm passed
2026-12-05 05:05:40,564 INFO     [Rank 0] layer 0 passed
2026-12-05 05:05:40,570 INFO     [Rank 0]   norm passed
2026-12-05 05:05:40,581 INFO     [Rank 0] layer 1 passed
"""
CUT = """\
2026-12-05 05:05:40,551 INFO     [Rank 1] prefill start: 8 tokens
2026-12-05 05:05:40,554 INFO     [Rank 1]   norm passed
2026-12-05 05:05:40,565 INFO     [Rank 1] layer 0 passed
2026-12-05 05:05:4"""

ONE_FILE = {"files": [{"path": "log_1.log", "kind": "rank_log", "rank": 1}]}
TWO_FILES = {"files": ONE_FILE["files"] + [{"path": "log_0.log", "kind": "rank_log", "rank": 0}]}
CUT_AT_4 = {"rank": 1, "log_cut": [{"file": "log_1.log", "line": 4}]}


@pytest.mark.parametrize(
    ("bundle", "collected"),
    [
        (TWO_FILES, True),
        (ONE_FILE, False),
        ({"files": ONE_FILE["files"], "files_not_listed": 3}, True),
        ({"files": []}, False),
    ],
    ids=["two rank logs", "a lone excerpt", "one listed of four", "no file"],
)
def test_collected_logs_is_a_bundle_of_more_than_one_file(bundle, collected):
    assert collected_logs(bundle) is collected


def test_a_cut_is_shown_for_collected_logs_only():
    assert rank_cuts(CUT_AT_4, TWO_FILES) == [{"file": "log_1.log", "line": 4}]
    assert rank_cuts(CUT_AT_4, ONE_FILE) == []
    assert rank_cuts({"rank": 0, "log_cut": []}, TWO_FILES) == []


def test_cut_ranks_lists_only_the_ranks_with_a_cut_log_in_rank_order():
    report = {
        "bundle": TWO_FILES,
        "ranks": [
            {"rank": 3, "log_cut": [{"file": "log_3.log", "line": 9}]},
            {"rank": 0, "log_cut": []},
            CUT_AT_4,
            {"rank": 2},  # a report written before log_cut existed
        ],
    }
    assert [rank for rank, _ in cut_ranks(report)] == [1, 3]


# --- on the page ----------------------------------------------------------------------------


def analysed(alice, name: str, data: bytes):
    upload = SimpleUploadedFile(name, data)
    incident = services.incident_create(upload=upload, created_by=alice)
    analyze_run(run_id=incident.latest_run().pk)
    return incident


def tarred(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, text in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    return out.getvalue()


@pytest.fixture
def collected_job(alice):
    files = {"job-7e1f03aa/log_0.log": WHOLE, "job-7e1f03aa/log_1.log": CUT}
    return analysed(alice, "job.tar.gz", tarred(files))


@pytest.mark.django_db
def test_the_rank_table_flags_the_rank_whose_log_stops_mid_line(alice_client, collected_job):
    html = alice_client.get(collected_job.get_absolute_url()).content.decode()

    rows = html[html.index('id="ranks"') :].split("</table>")[0].split("<tr>")[2:]
    assert ["badge-log-cut" in row for row in rows] == [False, True]  # ranks 0 and 1
    assert "job-7e1f03aa/log_1.log:4" in rows[1]


@pytest.mark.django_db
def test_the_cut_links_to_the_last_line_in_the_log_viewer(alice_client, collected_job):
    html = alice_client.get(collected_job.get_absolute_url()).content.decode()

    url = f"/incidents/INC-{collected_job.pk}/files/job-7e1f03aa/log_1.log?line=4"
    assert html.count(f'href="{url}') == 2  # the rank table and the timeline's note
    assert alice_client.get(url).status_code == 200


@pytest.mark.django_db
def test_the_timeline_names_the_ranks_whose_logs_stop_mid_line(alice_client, collected_job):
    html = alice_client.get(collected_job.get_absolute_url()).content.decode()

    timeline = html[html.index('id="timeline"') : html.index('id="ranks"')]
    note = timeline[timeline.index('id="timeline-cuts"') :]
    assert "One rank's log stops mid-line" in note
    assert "rank 1:" in note
    assert "job-7e1f03aa/log_1.log:4" in note


@pytest.mark.django_db
def test_a_lone_excerpt_without_a_final_line_end_is_not_flagged(alice_client, alice):
    incident = analysed(alice, "log_1.log", CUT.encode())
    rank_1 = next(r for r in incident.latest_run().report["ranks"] if r["rank"] == 1)
    assert [cut["line"] for cut in rank_1["log_cut"]] == [4]  # the report keeps the fact

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "badge-log-cut" not in html
    assert 'id="timeline-cuts"' not in html


@pytest.mark.django_db
def test_whole_logs_are_not_flagged(alice_client, alice):
    files = {"job-7e1f03aa/log_0.log": WHOLE, "job-7e1f03aa/log_1.log": CUT + "0,570 x\n"}
    incident = analysed(alice, "job.tar.gz", tarred(files))

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    assert "badge-log-cut" not in html
    assert 'id="timeline-cuts"' not in html


@pytest.mark.django_db
def test_past_twenty_cut_ranks_the_rest_are_listed_under_a_fold(alice_client, alice):
    files = {"job-7e1f03aa/log_0.log": WHOLE}
    for rank in range(1, 24):  # 23 ranks whose logs stop mid-line
        files[f"job-7e1f03aa/log_{rank}.log"] = CUT.replace("[Rank 1]", f"[Rank {rank}]")
    incident = analysed(alice, "job.tar.gz", tarred(files))

    html = alice_client.get(incident.get_absolute_url()).content.decode()

    note = html[html.index('id="timeline-cuts"') : html.index('id="ranks"')]
    shown, folded = note.split('class="timeline-cuts-rest"')
    assert "23 ranks' logs stop mid-line" in shown
    assert shown.count("<li>") == 20
    assert "3 more" in folded
    assert [f"log_{rank}.log:4" in folded for rank in (21, 22, 23)] == [True, True, True]


# --- on the timeline's lanes ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_cut_rank_s_lane_says_where_its_log_stops(alice_client, collected_job):
    url = f"/incidents/INC-{collected_job.pk}/timeline.json"
    lanes = alice_client.get(url).json()["lanes"]

    assert lanes["rank"] == [0, 1]
    assert lanes["cut"] == [None, "job-7e1f03aa/log_1.log:4"]


@pytest.mark.django_db
def test_a_click_on_the_cut_mark_can_open_the_cut_file(alice_client, collected_job):
    url = f"/incidents/INC-{collected_job.pk}/timeline.json"
    payload = alice_client.get(url, {"ranks": "1", "x0": 100, "x1": 101}).json()

    assert payload["points"]["y"] == []  # no checkpoint of the cut file in this window
    index = payload["files"].index("job-7e1f03aa/log_1.log")
    assert payload["file_urls"][index].endswith("/files/job-7e1f03aa/log_1.log")


@pytest.mark.django_db
def test_the_cut_survives_the_prepared_timeline_file(alice_client, collected_job):
    from incidents.runs import runstore

    run = collected_job.latest_run()
    path = runstore.store_dir_for(run.pk) / runstore.TIMELINE_FILE
    loaded = runstore.load_timeline(path)

    assert [lane.cut for lane in loaded.lanes] == [None, "job-7e1f03aa/log_1.log:4"]


@pytest.mark.django_db
def test_a_timeline_file_of_the_older_layout_is_rebuilt_and_removed(alice_client, collected_job):
    from incidents.runs import runstore

    store = runstore.store_dir_for(collected_job.latest_run().pk)
    (store / runstore.TIMELINE_FILE).rename(store / "timeline-v2.bin")
    runstore.memory.clear()

    lanes = alice_client.get(f"/incidents/INC-{collected_job.pk}/timeline.json").json()["lanes"]

    assert lanes["cut"] == [None, "job-7e1f03aa/log_1.log:4"]
    assert (store / runstore.TIMELINE_FILE).is_file()
    assert not (store / "timeline-v2.bin").exists()
