"""The verdict lines a CI log shows."""

from __future__ import annotations

from ranklens_cli.verdict import verdict_lines

URL = "http://ranklens.test/incidents/INC-7/"


def done_status(**diagnosis) -> dict:
    return {"id": "INC-7", "url": URL, "status": "done", "report": {"diagnosis": diagnosis}}


def test_done_names_category_confidence_culprits_first_error_and_url():
    first_error = {
        "file": "job/log_3.log",
        "line": 48,
        "rank": 3,
        "text": "[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied\n",
    }
    status = done_status(
        category="shape_mismatch", confidence=0.9, culprit_ranks=[3], first_error=first_error
    )

    assert verdict_lines(status) == [
        "INC-7: shape_mismatch (confidence 0.90)",
        "culprit ranks: 3",
        "first error: rank 3, job/log_3.log:48: "
        "[rank3]: RuntimeError: mat1 and mat2 shapes cannot be multiplied",
        URL,
    ]


def test_a_healthy_job_has_no_culprit_and_no_first_error():
    status = done_status(category="healthy", culprit_ranks=[], first_error=None)

    assert verdict_lines(status) == [
        "INC-7: healthy",
        "culprit ranks: none identified",
        "first error: none",
        URL,
    ]


def test_failed_analysis_says_why():
    status = {"id": "INC-7", "url": URL, "status": "failed", "error": "The bundle is empty."}

    assert verdict_lines(status) == ["INC-7: analysis failed: The bundle is empty.", URL]
