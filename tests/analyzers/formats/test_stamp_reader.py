"""Fast timestamp reading must give what a full parse gives, for every layout it accepts."""

from __future__ import annotations

import pytest

from analyzers.formats.stamp_reader import StampReader, time_value
from analyzers.formats.timestamps import parse_time

LAYOUTS = [
    b"2026-11-29 07:24:22,190",
    b"2026-11-29-07:24:22.190.123",
    b"2026-11-29T07:24:22.123456",
    b"2027-10-14 15:24:01:938",
    b"2026-11-29 07:24:22",
]


@pytest.mark.parametrize("example", LAYOUTS)
def test_a_reader_agrees_with_a_full_parse_across_minutes(example):
    reader = StampReader(example)
    for minute in ("24", "25", "59"):
        stamp = example.replace(b":24:", f":{minute}:".encode(), 1)
        expected = time_value(parse_time(stamp.decode()))
        got = reader.read(stamp)
        assert got is not None
        assert (round(got[0], 6), got[1]) == (round(expected[0], 6), expected[1])


def test_a_year_less_glog_time_stays_pending():
    reader = StampReader(b"I1129 07:24:22.616993")
    value, pending = reader.read(b"I1129 07:24:23.000001")
    assert pending
    assert value == time_value(parse_time("I1129 07:24:23.000001"))[0]


@pytest.mark.parametrize("stamp", [b"2026-11-29 07:24:2x,190", b"2026-11-29 07:24:22"])
def test_a_stamp_of_another_layout_is_refused(stamp):
    assert StampReader(b"2026-11-29 07:24:22,190").read(stamp) is None


@pytest.mark.parametrize("example", [b"1796607942.272666", b"1796607942"])
def test_an_epoch_stamp_reads_with_its_hundreds_of_seconds_as_the_minute(example):
    reader = StampReader(example)
    assert reader.usable
    for stamp in (example, example.replace(b"942", b"999", 1), example.replace(b"7942", b"8001")):
        expected = time_value(parse_time(stamp.decode()))
        got = reader.read(stamp)
        assert got is not None
        assert (round(got[0], 6), got[1]) == (round(expected[0], 6), False)
