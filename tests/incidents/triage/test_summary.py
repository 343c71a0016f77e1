"""What the incident list copies out of a finished report."""

from __future__ import annotations

import pytest

from incidents.triage.summary import codes_text, report_summary, short_line
from tests.incidents.library_helpers import make_incident, shape_report


def test_a_report_gives_the_list_its_category_culprits_first_error_and_codes():
    report = shape_report()
    report["diagnosis"]["error_codes"] = ["EZ9999", "507014", "EZ9999"]
    report["bundle"]["files"] = [
        {"path": "job/log_0.log", "kind": "rank_log", "rank": 0},
        {"path": "job/plog/plog-1.log", "kind": "plog", "rank": None},
    ]
    summary = report_summary(report)
    assert summary["category"] == "shape_mismatch"
    assert summary["culprit_ranks"] == [3]
    assert summary["first_error"].startswith("[rank3]: RuntimeError: mat1 and mat2")
    assert summary["codes"] == " EZ9999 507014 "
    assert summary["file_names"] == "job/log_0.log\njob/plog/plog-1.log"


def test_a_report_without_a_diagnosis_gives_empty_columns():
    assert report_summary({"bundle": {}}) == {
        "category": "",
        "culprit_ranks": [],
        "first_error": "",
        "codes": "",
        "file_names": "",
    }


def test_a_long_first_error_is_one_line_cut_with_an_ellipsis():
    line = short_line("Traceback\n   " + "x" * 400)
    assert "\n" not in line
    assert len(line) == 300
    assert line.endswith("…")


def test_many_codes_are_cut_between_codes():
    text = codes_text([f"E{n:05d}" for n in range(200)])
    assert len(text) <= 500
    assert text.startswith(" E00000 ")
    assert text.endswith(" ")


@pytest.mark.django_db
def test_a_finished_run_copies_its_summary_onto_the_incident():
    incident = make_incident(shape_report())
    assert incident.status == "done"
    assert incident.category == "shape_mismatch"
    assert incident.culprit_ranks == [3]
