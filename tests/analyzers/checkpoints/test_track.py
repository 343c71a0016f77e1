"""A file's checkpoints as compact columns."""

from __future__ import annotations

import pickle
import random
import sys
from datetime import UTC, datetime

import pytest

from analyzers.checkpoints.track import (
    NAN,
    PACK_MIN,
    CheckpointTrack,
    grid_month,
    last_line_by_rank,
    year_less,
)


def _through_the_pipe(track: CheckpointTrack) -> CheckpointTrack:
    """What the parent holds once the scanners are gone (`analyzers.scan.parallel`)."""
    copy = pickle.loads(pickle.dumps(track))
    copy.unpack()
    return copy


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
    copy = _through_the_pipe(track)
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


def test_year_less_times_kept_for_the_bundle_are_placed_later():
    """A file that never said its year keeps its grid times; the bundle's year places them,
    passing over entries a job's checkpoint budget cut in between."""
    track = CheckpointTrack()
    for line, day in ((1, 3), (2, 4), (3, 5)):
        track.year_pending.append(len(track))
        track.add(track.text_id("norm passed"), line, year_less(12, day, 60.0), 0)
    kept = track.year_less_times()
    track.settle_years(None)  # the file alone knows no year
    track.truncate(2)

    track.place_year_less(kept, 2026)

    assert [track.entry(i)[2] for i in range(len(track))] == [
        datetime(2026, 12, 3, 0, 1, tzinfo=UTC).timestamp(),
        datetime(2026, 12, 4, 0, 1, tzinfo=UTC).timestamp(),
    ]
    assert [grid_month(grid) for grid in kept[1]] == [12, 12, 12]


def test_last_line_of_each_rank():
    track = CheckpointTrack()
    for line, rank in [(1, 0), (2, 1), (3, 0), (4, None)]:
        track.add(0, line, NAN, rank)
    assert last_line_by_rank(track) == {0: 3, 1: 2, -1: 4}


def test_last_line_of_a_log_that_names_one_rank_throughout():
    track = CheckpointTrack()
    for line in (3, 5, 9):
        track.add(0, line, NAN, 7)
    assert last_line_by_rank(track) == {7: 9}
    assert last_line_by_rank(CheckpointTrack()) == {}


def test_the_parent_receives_small_ids_and_ranks_in_a_byte_each():
    track = CheckpointTrack()
    for line in range(1, 1001):
        track.add(track.text_id(f"layer {line % 7} passed"), line, float(line), 5)
    copy = _through_the_pipe(track)
    assert (copy.text.itemsize, copy.rank.itemsize) == (1, 1)
    assert [copy.entry(i) for i in range(1000)] == [track.entry(i) for i in range(1000)]


def test_columns_whose_values_need_more_keep_their_width():
    track = CheckpointTrack()
    track.add(track.text_id("norm passed"), 1, NAN, 300)  # a rank past a signed byte
    track.add(track.text_id("norm passed"), 2, NAN, None)
    for n in range(300):
        track.text_id(f"step {n} passed")
    copy = _through_the_pipe(track)
    assert copy.rank.tolist() == [300, -1]
    assert copy.text.itemsize == 4  # 301 texts: ids past one byte


def test_a_received_track_takes_new_ranks_and_entries():
    track = CheckpointTrack()
    track.add(track.text_id("norm passed"), 1, NAN, 0)
    copy = _through_the_pipe(track)
    copy.set_rank(0, 4096)  # the layout made a local rank global
    copy.add(copy.text_id("attention passed"), 2, NAN, 70000)
    assert copy.rank.tolist() == [4096, 70000]
    assert copy.entry(1) == ("attention passed", 2, None, 70000, None)


def test_line_numbers_past_four_billion_widen_the_line_column():
    track = CheckpointTrack()
    track.add(0, 7, NAN, 0)
    track.add(0, 5_000_000_000, NAN, 0)
    assert track.line.tolist() == [7, 5_000_000_000]
    assert len(track.text) == len(track.time) == len(track.rank) == 2


def test_a_received_track_keeps_its_line_time_and_rank_columns_compressed_until_unpacked():
    track = CheckpointTrack()
    for line in range(1, 5001):
        track.add(track.text_id("norm passed"), line, 1_795_937_040.0 + line / 1000, 3)
    received = pickle.loads(pickle.dumps(track))
    assert len(received) == 5000  # the text column is there: a job's budget can count it
    with pytest.raises(AttributeError):
        received.time  # noqa: B018 - never read as an empty column
    received.unpack()
    assert received.time.tobytes() == track.time.tobytes()
    assert received.line.tolist() == track.line.tolist()
    assert received.rank.tolist() == [3] * 5000


def test_an_unpacked_column_takes_no_more_memory_than_its_entries():
    track = CheckpointTrack()
    for line in range(1, 100_001):
        track.add(0, line, float(line), 0)
    copy = _through_the_pipe(track)
    assert copy.time.buffer_info()[1] == 100_000
    assert sys.getsizeof(copy.time) < sys.getsizeof(track.time)  # appends over-allocate


def test_a_budget_cuts_a_received_track_before_it_is_unpacked():
    track = CheckpointTrack()
    for line in range(1, PACK_MIN + 11):
        track.add(0, line, float(line), 0)
    received = pickle.loads(pickle.dumps(track))
    received.keep_first(4)
    assert (received.line.tolist(), received.unplaced) == ([1, 2, 3, 4], PACK_MIN + 6)
    received.unpack()  # already done: nothing changes
    assert received.time.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_a_short_track_crosses_as_it_is():
    track = CheckpointTrack()
    for line in range(1, PACK_MIN):
        track.add(0, line, float(line), 0)
    received = pickle.loads(pickle.dumps(track))
    assert received.time.tolist() == track.time.tolist()  # readable without unpack
    assert received.line.tolist() == track.line.tolist()


def test_every_kind_of_byte_plane_comes_back_as_it_was():
    """High bytes that never change, middle ones that deflate, random low ones sent as they
    are, and times without a value (NaN) among them."""
    rng = random.Random(7)
    track = CheckpointTrack()
    line = 0
    for n in range(PACK_MIN + 1000):
        line += rng.randint(1, 5000)
        time = NAN if n % 97 == 0 else 1_795_937_040.0 + rng.random() * 600
        track.add(track.text_id(f"layer {n % 3} passed"), line, time, rng.choice((None, 3, 4)))
    received = _through_the_pipe(track)
    assert received.time.tobytes() == track.time.tobytes()
    assert received.line.tolist() == track.line.tolist()
    assert received.rank.tolist() == track.rank.tolist()
