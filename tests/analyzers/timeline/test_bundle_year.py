"""Times written without a year take the year of the job, once the bundle has been read."""

from datetime import UTC, datetime

from analyzers.core.types import EventKind
from analyzers.timeline.bundle_year import place_year_less_times
from tests.analyzers.excerpts import scan_text

DATED_RANK0 = (
    "2026-12-04 15:27:20,114 [rank0] INFO init process group: backend=gloo rank=0 world_size=4\n"
    "2026-12-04 15:27:31,902 [rank0] ERROR model run failed\n"
)
# A rank that only printed: torch's own glog-style lines are its only times, without a year.
PLAIN_RANK1 = (
    "layer 0 passed\n"
    "[rank1]:[E1204 15:27:31.360285431 ProcessGroupGloo.cpp:143] Rank 1 successfully reached "
    "monitoredBarrier, but received errors while waiting for send/recv from rank 3.\n"
)
GLOG_CHECKPOINTS = (
    "I1204 15:27:29.500000 4242 model.cc:12] layer 0 passed\n"
    "I1204 15:27:30.250000 4242 model.cc:12] layer 1 passed\n"
)


def _error(scan):
    return next(e for e in scan.events if e.kind == EventKind.ERROR)


def test_a_rank_log_without_a_year_takes_the_year_its_peers_wrote():
    dated, plain = scan_text("log_0.log", DATED_RANK0), scan_text("log_1.log", PLAIN_RANK1)
    assert _error(plain).timestamp is None  # the file alone cannot say the year

    place_year_less_times([dated, plain])

    assert _error(plain).timestamp == datetime(2026, 12, 4, 15, 27, 31, 360285)


def test_year_less_checkpoints_are_placed_on_the_timeline_too():
    dated, glog = scan_text("log_0.log", DATED_RANK0), scan_text("log_2.log", GLOG_CHECKPOINTS)
    track = glog.facts["checkpoints"]
    assert track.entry(0)[2] is None

    place_year_less_times([dated, glog])

    assert [track.entry(i)[2] for i in range(2)] == [
        datetime(2026, 12, 4, 15, 27, 29, 500000, tzinfo=UTC).timestamp(),
        datetime(2026, 12, 4, 15, 27, 30, 250000, tzinfo=UTC).timestamp(),
    ]


def test_with_no_dated_file_the_files_modification_time_gives_the_year():
    plain = scan_text("log_1.log", PLAIN_RANK1)
    plain.info.modified = datetime(2027, 1, 2, 8, 0, tzinfo=UTC).timestamp()

    place_year_less_times([plain])

    # written in January, so a December time belongs to the year before
    assert _error(plain).timestamp == datetime(2026, 12, 4, 15, 27, 31, 360285)


def test_the_bundles_dated_files_win_over_a_modification_time():
    dated, plain = scan_text("log_0.log", DATED_RANK0), scan_text("log_1.log", PLAIN_RANK1)
    plain.info.modified = datetime(2031, 12, 30, tzinfo=UTC).timestamp()  # copied years later

    place_year_less_times([dated, plain])

    assert _error(plain).timestamp.year == 2026


def test_with_no_year_anywhere_the_times_stay_unplaced():
    plain = scan_text("log_1.log", PLAIN_RANK1)

    place_year_less_times([plain])

    assert _error(plain).timestamp is None
    assert "year_less" not in plain.facts
