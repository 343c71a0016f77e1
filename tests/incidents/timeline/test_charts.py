"""The timeline's chart data: merged checkpoint order, clock skew, downsampling, filters."""

from __future__ import annotations

import math

import pytest

from incidents.timeline.charts import (
    TimelineQuery,
    TimelineQueryError,
    bin_extremes,
    parse_timeline_query,
    prepare_timeline,
    timeline_payload,
)
from incidents.timeline.order import estimate_clock_offsets, merge_sequences
from incidents.timeline.rankfilter import RankFilterError, format_rank_filter, parse_rank_filter
from tests.incidents.timeline_reports import (
    crash_report,
    decoder_checkpoints,
    error_ref,
    rank_timeline,
)

# --- merged logical order ------------------------------------------------------------------

MERGE_CASES = [
    ("same sequence on every rank", [["a", "b", "c"], ["a", "b", "c"]], ["a", "b", "c"]),
    ("one rank behind the others", [["a", "b", "c"], ["a", "b"]], ["a", "b", "c"]),
    ("a rank skipped a checkpoint", [["a", "b", "c"], ["a", "c"]], ["a", "b", "c"]),
    ("the skipping rank comes first", [["a", "c"], ["a", "b", "c"]], ["a", "b", "c"]),
    ("a rank took its own branch", [["a", "b", "c"], ["a", "d"]], ["a", "b", "c", "d"]),
    ("a rank logged a setup line first", [["a", "b"], ["x", "a", "b"]], ["x", "a", "b"]),
    ("ranks contradict each other", [["a", "b"], ["b", "a"]], ["a", "b"]),
    ("no checkpoints at all", [[], []], []),
]


@pytest.mark.parametrize(
    ("case", "sequences", "expected"), MERGE_CASES, ids=[c[0] for c in MERGE_CASES]
)
def test_merge_sequences(case, sequences, expected):
    assert merge_sequences(sequences) == expected


def test_merge_keeps_each_rank_order_for_identities_with_occurrence_index():
    rank0 = [("norm passed", 0), ("layer 0 passed", 0), ("norm passed", 1), ("layer 1 passed", 0)]
    rank1 = rank0[:2]
    order = merge_sequences([rank1, rank0])
    assert order == rank0


# --- clock skew ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "skews",
    [{0: 0.0, 1: 5.0}, {0: 0.0, 1: -3.25, 2: 7.5, 3: 0.4}, {0: 120.0, 1: 0.0, 2: 0.0}],
    ids=["two ranks", "four ranks", "one rank far off"],
)
def test_estimated_offsets_recover_the_skew_between_ranks(skews):
    jitter = [0.0, 0.01, -0.01, 0.005, 0.0, -0.004]
    times = {
        rank: {f"cp{i}": 100.0 + i + skew + jitter[(i + rank) % len(jitter)] for i in range(12)}
        for rank, skew in skews.items()
    }
    offsets = estimate_clock_offsets(times)
    for rank, skew in skews.items():
        assert offsets[rank] - offsets[0] == pytest.approx(skew - skews[0], abs=0.02)


def test_a_rank_sharing_no_timed_checkpoint_keeps_its_clock():
    offsets = estimate_clock_offsets({0: {"a": 10.0}, 1: {"a": 14.0}, 2: {"z": 99.0}})
    assert offsets[1] - offsets[0] == pytest.approx(4.0)
    assert offsets[2] == pytest.approx(0.0, abs=2.0)
    assert estimate_clock_offsets({}) == {}


def test_prepared_times_are_corrected_for_skew():
    report = crash_report(skews={0: 0.0, 1: 4.0, 2: -2.5, 3: 0.0})
    timeline = prepare_timeline(report)
    first_times = {rank: lane.t[0] for rank, lane in timeline.points.items()}
    assert max(first_times.values()) - min(first_times.values()) == pytest.approx(0, abs=0.01)
    assert timeline.offsets[1] - timeline.offsets[0] == pytest.approx(4.0, abs=0.01)


def test_offsets_in_the_report_win_over_the_estimate():
    report = crash_report(skews={0: 0.0, 1: 4.0, 2: 0.0, 3: 0.0})
    report["clock_offsets"] = {"0": 0.0, "1": 1.0, "2": 0.0, "3": 0.0}
    timeline = prepare_timeline(report)
    assert timeline.offsets[1] == 1.0
    assert timeline.points[1].t[0] - timeline.points[0].t[0] == pytest.approx(3.0, abs=0.01)


def test_logs_without_timestamps_have_no_time_axis():
    report = crash_report(skews={r: None for r in range(4)})
    timeline = prepare_timeline(report)
    assert not timeline.has_time
    payload = timeline_payload(timeline, TimelineQuery(axis="time"))
    assert payload["points"]["y"] == []
    assert payload["untimed_errors"] == len(payload["lanes"]["rank"]) + 1  # + the causal one


# --- lanes, errors, last common checkpoint -------------------------------------------------


def test_one_lane_per_rank_including_ranks_that_logged_nothing():
    report = crash_report(ranks=4, world_size=6, silent=(2,))
    payload = timeline_payload(prepare_timeline(report), TimelineQuery())
    lanes = payload["lanes"]
    assert lanes["rank"] == [0, 1, 2, 3, 4, 5]
    assert [r for r, m in zip(lanes["rank"], lanes["missing"], strict=True) if m] == [2, 4, 5]
    assert [r for r, c in zip(lanes["rank"], lanes["culprit"], strict=True) if c] == [3]
    assert lanes["first"][2] is None


def test_a_launch_that_never_started_its_workers_shows_no_lanes_for_its_world_size():
    """docs/labelling.md#a-launcher-that-never-started-its-workers"""
    report = _no_rank_ran(workers_started=False)
    payload = timeline_payload(prepare_timeline(report), TimelineQuery())
    assert payload["lanes"]["rank"] == []


def test_ranks_that_left_nothing_after_a_start_keep_their_lanes():
    """Counterexample: the workers were started, so the world size's ranks are lanes."""
    payload = timeline_payload(
        prepare_timeline(_no_rank_ran(workers_started=True)), TimelineQuery()
    )
    assert payload["lanes"]["rank"] == [0, 1, 2, 3, 4, 5]


def _no_rank_ran(*, workers_started: bool) -> dict:
    report = crash_report(ranks=4, world_size=6)
    report["ranks"] = []
    report["timeline"] = {}
    report["diagnosis"]["culprit_ranks"] = []
    report["correlation"] = {"workers_started": workers_started}
    return report


def test_errors_sit_after_the_checkpoint_they_followed():
    report = crash_report(layers=2)
    timeline = prepare_timeline(report)
    payload = timeline_payload(timeline, TimelineQuery())
    errors = payload["errors"]
    causal = errors["causal"].index(True)
    assert errors["y"][causal] == 3
    assert errors["line"][causal] == report["diagnosis"]["first_error"]["line"]
    culprit_last = max(timeline.points[3].x)
    assert errors["x"][causal] == culprit_last + 0.5
    assert sum(1 for c in errors["causal"] if not c) == 4  # each rank's own first error


def test_error_in_another_file_is_placed_by_time():
    report = crash_report(layers=2)
    entries = report["timeline"]["0"]
    report["ranks"][0]["first_error"] = {
        "file": "plog/plog-0_1.log",
        "line": 3,
        "text": "[ERROR] HCCL(1234,python):2026-11-29-07:24:22.180.000 [hccl] timeout",
        "rank": 0,
        "timestamp": entries[3]["timestamp"],
    }
    timeline = prepare_timeline(report)
    mark = next(m for m in timeline.errors if m.rank == 0 and not m.causal)
    assert timeline.labels[int(mark.x)] == entries[3]["qualified"]


def test_last_common_checkpoint_is_the_latest_one_every_rank_passed():
    payload = timeline_payload(prepare_timeline(crash_report(layers=2)), TimelineQuery())
    assert payload["last_common"]["label"] == "layer 1 / norm passed"


def test_no_last_common_line_when_the_report_says_there_is_none():
    report = crash_report()
    report["diagnosis"]["last_common_checkpoint"] = None
    assert timeline_payload(prepare_timeline(report), TimelineQuery())["last_common"] is None


def test_a_causal_error_without_rank_is_reported_not_drawn():
    report = crash_report()
    report["diagnosis"]["first_error"] = {"file": "device-0/device.log", "line": 9, "text": "x"}
    payload = timeline_payload(prepare_timeline(report), TimelineQuery())
    assert True not in payload["errors"]["causal"]
    assert payload["unplaced_causal"]["file"] == "device-0/device.log"


# --- downsampling and windows --------------------------------------------------------------


def big_report(ranks: int, layers: int) -> dict:
    report = crash_report(ranks=ranks, culprit=ranks - 1, layers=layers)
    return report


def test_downsampling_keeps_every_error_and_each_lane_ends():
    report = big_report(ranks=32, layers=60)  # 32 ranks × ~240 checkpoints
    timeline = prepare_timeline(report)
    payload = timeline_payload(timeline, TimelineQuery(budget=1000))
    assert payload["downsampled"]
    assert payload["shown"] <= 1000 + 32 * 2
    assert len(payload["errors"]["y"]) == 33
    points = payload["points"]
    for y, rank in enumerate(payload["lanes"]["rank"]):
        shown = [p for p, lane in zip(points["pos"], points["y"], strict=True) if lane == y]
        assert min(shown) == timeline.points[rank].x[0]
        assert max(shown) == timeline.points[rank].x[-1]


def test_culprit_lanes_keep_all_their_points_when_they_fit():
    report = big_report(ranks=32, layers=60)
    timeline = prepare_timeline(report)
    payload = timeline_payload(timeline, TimelineQuery(budget=2000))
    culprit_y = payload["lanes"]["rank"].index(31)
    shown = sum(1 for y in payload["points"]["y"] if y == culprit_y)
    assert shown == len(timeline.points[31])


def test_a_small_window_gets_every_point_inside_it():
    timeline = prepare_timeline(big_report(ranks=32, layers=60))
    payload = timeline_payload(timeline, TimelineQuery(window=(100.0, 120.0), budget=1000))
    assert not payload["downsampled"]
    assert all(100 <= pos <= 120 for pos in payload["points"]["pos"])
    assert payload["shown"] == 21 * 32


def test_rank_filter_selects_lanes_and_renumbers_them():
    timeline = prepare_timeline(crash_report(ranks=8, culprit=5))
    payload = timeline_payload(timeline, TimelineQuery(ranks=frozenset({1, 5, 42})))
    assert payload["lanes"]["rank"] == [1, 5]
    assert set(payload["points"]["y"]) == {0, 1}
    assert set(payload["errors"]["y"]) == {0, 1}


def test_an_unfiltered_view_has_no_filter_notice():
    payload = timeline_payload(prepare_timeline(crash_report(ranks=8)), TimelineQuery())

    assert payload["filter_notice"] is None


def test_a_filter_matching_no_rank_says_which_ranks_the_job_has():
    timeline = prepare_timeline(crash_report(ranks=8, culprit=5))

    payload = timeline_payload(timeline, TimelineQuery(ranks=frozenset({99999})))

    assert payload["lanes"]["rank"] == []
    assert payload["filter_notice"] == (
        "No rank of this job is in the filter 99999: its ranks are 0-7."
    )


def test_a_filter_naming_ranks_the_job_lacks_names_them_beside_the_lanes_shown():
    timeline = prepare_timeline(crash_report(ranks=8, culprit=5))

    payload = timeline_payload(timeline, TimelineQuery(ranks=frozenset({1, 5, 42, 43})))

    assert payload["lanes"]["rank"] == [1, 5]
    assert payload["filter_notice"] == "Ranks 42-43 are not in this job (its ranks are 0-7)."


def test_time_axis_puts_points_at_corrected_seconds():
    report = crash_report(skews={0: 0.0, 1: 4.0, 2: 0.0, 3: 0.0})
    payload = timeline_payload(prepare_timeline(report), TimelineQuery(axis="time"))
    times = payload["points"]["t"]
    assert min(times) == 0.0
    assert payload["range"][1] >= max(times)
    assert all(t is not None for t in times)


BIN_CASES = [
    ("fewer points than bins", [1, 2, 3], 0, 3, 0, 10, 10, [0, 1, 2]),
    ("one bin keeps both ends", [1, 2, 3, 4, 5], 0, 5, 0, 10, 1, [0, 4]),
    ("two bins", [0, 1, 2, 3, 6, 7, 8, 9], 0, 8, 0, 10, 2, [0, 3, 4, 7]),
    ("only a slice", [0, 1, 2, 3, 4, 5, 6], 2, 5, 0, 10, 1, [2, 4]),
    ("empty bins are skipped", [0, 9], 0, 2, 0, 10, 5, [0, 1]),
]


@pytest.mark.parametrize(
    ("case", "keys", "start", "stop", "low", "high", "bins", "expected"),
    BIN_CASES,
    ids=[c[0] for c in BIN_CASES],
)
def test_bin_extremes(case, keys, start, stop, low, high, bins, expected):
    assert bin_extremes(keys, start, stop, low, high, bins) == expected


# --- the rank filter and query parameters --------------------------------------------------

RANK_FILTERS = [
    ("0-7,12", {0, 1, 2, 3, 4, 5, 6, 7, 12}),
    ("3", {3}),
    (" 1 , 4 - 5 ", {1, 4, 5}),
    ("2-2", {2}),
    ("０-３", {0, 1, 2, 3}),  # typed with a Chinese input method: full-width digits
    ("", None),
    ("   ", None),
]


@pytest.mark.parametrize(("text", "expected"), RANK_FILTERS)
def test_parse_rank_filter(text, expected):
    parsed = parse_rank_filter(text)
    assert parsed == (frozenset(expected) if expected is not None else None)


BAD_RANK_FILTERS = [
    ("7-0", "runs backwards"),
    ("a", "not a rank"),
    ("-3", "not a rank"),
    ("1,,2", "empty item"),
    ("1.5", "not a rank"),
    ("0-99999999", "more than"),
    ("1" * 5000, "not a rank"),  # not Python's limit on converting 4,300 digits
    ("0-" + "9" * 5000, "not a rank"),
]


@pytest.mark.parametrize(("text", "message"), BAD_RANK_FILTERS)
def test_parse_rank_filter_explains_mistakes(text, message):
    with pytest.raises(RankFilterError, match=message):
        parse_rank_filter(text)


@pytest.mark.parametrize("ranks", [{0}, {0, 1, 2, 3, 4, 5, 6, 7, 12}, {1, 3, 5, 6, 7}])
def test_format_rank_filter_round_trips(ranks):
    assert parse_rank_filter(format_rank_filter(ranks)) == frozenset(ranks)


def test_format_rank_filter_is_compact():
    assert format_rank_filter({0, 1, 2, 3, 4, 5, 6, 7, 12}) == "0-7,12"


QUERY_ERRORS = [
    ({"axis": "sideways"}, "axis must be"),
    ({"x0": "1"}, "both be numbers"),
    ({"x0": "5", "x1": "2"}, "x0 < x1"),
    ({"x0": "nan", "x1": "2"}, "finite"),
    ({"ranks": "4-1"}, "runs backwards"),
    ({"max_points": "many"}, "whole number"),
]


@pytest.mark.parametrize(("params", "message"), QUERY_ERRORS)
def test_parse_timeline_query_rejects_bad_parameters(params, message):
    with pytest.raises(TimelineQueryError, match=message):
        parse_timeline_query(params)


def test_parse_timeline_query_reads_every_parameter():
    query = parse_timeline_query(
        {"axis": "time", "x0": "1.5", "x1": "9", "ranks": "0-1", "max_points": "10"}
    )
    assert query == TimelineQuery("time", (1.5, 9.0), frozenset({0, 1}), 100)


# --- a realistic sequence: the checkpoint identity includes the occurrence index -----------


def test_repeated_checkpoint_texts_are_told_apart_by_their_occurrence():
    entries = rank_timeline(0, decoder_checkpoints(3))
    report = {
        "ranks": [
            {"rank": 0, "status": "ok", "first_error": None},
            {"rank": 1, "status": "error", "first_error": error_ref(1, 30, "boom")},
        ],
        "timeline": {"0": entries, "1": rank_timeline(1, decoder_checkpoints(1))},
        "diagnosis": {},
    }
    timeline = prepare_timeline(report)
    assert len(timeline.labels) == len(entries)
    assert timeline.labels[1] == "layer 0 / norm passed"
    assert timeline.labels[5] == "layer 1 / norm passed"
    assert timeline.last_common.label == "layer 0 passed"
    assert not math.isnan(timeline.points[1].t[0])
