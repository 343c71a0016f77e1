"""The heartbeat thread beats on its own timer and notices a claim that is gone."""

from __future__ import annotations

import threading

from django.db import OperationalError

from incidents.runs.heartbeat import Heartbeat


def test_beats_while_the_analysis_runs_and_stops_with_it():
    beats: list[int] = []
    three = threading.Event()

    def beat() -> int:
        beats.append(1)
        if len(beats) >= 3:
            three.set()
        return 1

    with Heartbeat(beat, interval_s=0.01) as heartbeat:
        assert three.wait(5)
    count = len(beats)
    three.clear()

    assert not three.wait(0.1)
    assert len(beats) == count
    assert not heartbeat.lost.is_set()


def test_a_beat_that_touches_no_row_means_the_claim_is_lost():
    with Heartbeat(lambda: 0, interval_s=0.01) as heartbeat:
        assert heartbeat.lost.wait(5)


def test_a_database_error_is_survived_and_the_next_beat_gets_through():
    outcomes = iter([OperationalError("server closed the connection"), 1, 1])
    written = threading.Event()

    def beat() -> int:
        outcome = next(outcomes, 1)
        if isinstance(outcome, Exception):
            raise outcome
        written.set()
        return outcome

    with Heartbeat(beat, interval_s=0.01) as heartbeat:
        assert written.wait(5)

    assert not heartbeat.lost.is_set()
