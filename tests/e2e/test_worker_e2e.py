"""End to end: HTTP API upload -> Redis -> a real `celery -A config worker` -> stored report.

The worker and its fixtures are in conftest.py.
"""

from __future__ import annotations

import pytest

from incidents.models import Incident, RunState
from tests.e2e.worker_helpers import wait_until_finished

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_api_upload_is_analyzed_by_a_real_worker(
    client, alice, alice_token, crash_bundle, celery_worker
):
    headers = {"Authorization": f"Bearer {alice_token}"}
    with crash_bundle.open("rb") as fh:
        created = client.post("/api/incidents/", {"bundle": fh}, headers=headers)
    assert created.status_code == 201
    incident = Incident.objects.get()

    run = wait_until_finished(incident.latest_run(), celery_worker)

    assert run.state == RunState.DONE, run.error
    assert run.report["bundle"]["name"] == "crash_one_rank.tar.gz"
    assert run.report["bundle"]["sha256"] == incident.bundle.sha256
    assert {r["rank"] for r in run.report["ranks"]} == {0, 1, 2, 3}
    status = client.get(created.json()["status_url"], headers=headers).json()
    assert (status["status"], status["progress"]) == ("done", 100)
    assert status["report"] == run.report
    client.force_login(alice)
    page = client.get(incident.get_absolute_url()).content.decode()
    assert page.count("badge-rank-") == 4
