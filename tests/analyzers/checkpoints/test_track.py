"""A file's checkpoints as compact columns."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime

from analyzers.checkpoints.track import NAN, CheckpointTrack, last_line_by_rank, year_less


def test_texts_are_interned_and_entries_read_back():
    track = CheckpointTrack()
    track.add(track.text_id("norm passed"), 7, 100.5, 3)
    track.add(track.text_id("norm passed"), 9, NAN, None, "(Worker_TP1 pid=9)")
    assert track.texts == ["norm passed"]
    assert track.entry(0) == ("norm passed", 7, 100.5, 3, None)
    assert track.entry(1) == ("norm passed", 9, None, -1, "(Worker_TP1 pid=9)")


def test_a_track_survives_the_pipe_to_the_parent():
    track = CheckpointTrack()
    track.add(track.text_id("layer 0 passed"), 1, 1.0, 0)
    copy = pickle.loads(pickle.dumps(track))
    assert copy.entry(0) == track.entry(0)
    assert copy.text_id("layer 0 passed") == 0


def test_year_less_times_are_placed_once_the_year_is_known():
    track = CheckpointTrack()
    track.year_pending.append(0)
    track.add(0, 1, year_less(2, 29, 3600.0), 0)
    track.settle_years(2024)
    assert track.time[0] == datetime(2024, 2, 29, 1, tzinfo=UTC).timestamp()


def test_an_impossible_year_less_date_has_no_time():
    track = CheckpointTrack()
    track.year_pending.append(0)
    track.add(track.text_id("layer 0 passed"), 1, year_less(2, 29, 0.0), 0)
    track.settle_years(2025)
    assert track.entry(0)[2] is None


def test_last_line_of_each_rank():
    track = CheckpointTrack()
    for line, rank in [(1, 0), (2, 1), (3, 0), (4, None)]:
        track.add(0, line, NAN, rank)
    assert last_line_by_rank(track) == {0: 3, 1: 2, -1: 4}
