"""A run whose time limit ran out before its claim reached the database still ends on its
first attempt.

The pool starts the clock when its child takes the message, not when the claim is written.
On a loaded machine the claim can still be on its way when the soft limit interrupts the
child, or when the worker's main process runs the hard limit's hook (it kills the child only
afterwards). These tests replay those orderings step by step.
"""

from __future__ import annotations

import pytest
from billiard.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from incidents.models import AnalysisRun, RunState
from incidents.runs import analysis
from incidents.runs.analysis import analyze_run
from incidents.runs.tasks import analyze_bundle
from tests.incidents.runs.test_analysis import make_incident

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued_run(crash_bundle, alice) -> AnalysisRun:
    return make_incident(crash_bundle, alice).latest_run()


def test_a_soft_time_limit_cutting_off_the_claim_fails_the_run_it_claimed(
    queued_run, monkeypatch, settings
):
    real_claim = analysis._claim

    def claim_then_interrupted(run_id, delivery_id):
        real_claim(run_id, delivery_id)  # the database applied it; the child never hears back
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(analysis, "_claim", claim_then_interrupted)

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")  # handled, not raised

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.attempts) == (RunState.FAILED, 1)
    assert f"longer than its time limit ({settings.CELERY_TASK_TIME_LIMIT} s)" in queued_run.error
    assert queued_run.incident.status == RunState.FAILED


def test_a_claim_landing_after_the_hard_time_limit_hook_is_refused(queued_run):
    # The main process runs the hook while the child's claim is still on its way...
    analyze_bundle.on_failure(TimeLimitExceeded(2), "delivery-1", (queued_run.pk,), {}, None)
    # ...and the claim lands just before the child is killed.
    assert not analysis._claim(queued_run.pk, "delivery-1")

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.attempts) == (RunState.QUEUED, 0)


def test_after_a_refused_late_claim_the_next_delivery_analyses_the_run_once(queued_run):
    analyze_bundle.on_failure(TimeLimitExceeded(2), "delivery-1", (queued_run.pk,), {}, None)
    analysis._claim(queued_run.pk, "delivery-1")

    analyze_run(run_id=queued_run.pk, delivery_id="delivery-2")  # the sweeper's new message

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.attempts) == (RunState.DONE, 1)


def test_a_soft_time_limit_before_the_claim_leaves_the_run_to_another_delivery(
    queued_run, monkeypatch
):
    real_claim = analysis._claim

    def interrupted_before_the_database(run_id, delivery_id):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(analysis, "_claim", interrupted_before_the_database)
    analyze_run(run_id=queued_run.pk, delivery_id="delivery-1")
    monkeypatch.setattr(analysis, "_claim", real_claim)

    queued_run.refresh_from_db()
    assert (queued_run.state, queued_run.attempts, queued_run.error) == (RunState.QUEUED, 0, "")
    assert not analysis._claim(queued_run.pk, "delivery-1")  # a late claim of it is refused
    assert analysis._claim(queued_run.pk, "delivery-2")
