"""The regex pieces logging headers share, each read on the text it is written for."""

from __future__ import annotations

import re

import pytest

from analyzers.formats.logging_fields import (
    DATE,
    HOST_IN_RANK_TAG,
    LEVEL,
    LEVEL_OR_LETTER,
    LOCAL_RANK_TAG,
    LOGFMT_TS,
    NO_RANK_LOGGER,
    NOT_ANOTHER_BRACKETED_LEVEL,
    RANK_LOGGER,
    ZONED_DATE,
)


@pytest.mark.parametrize(
    "text", ["2026-11-29 07:25:37,216", "2026-12-07T12:16:35.558", "2025-05-13 02:25:58"]
)
def test_a_date_is_logging_s_or_iso_with_its_fraction(text):
    assert re.fullmatch(DATE, text)


def test_a_zoned_date_may_end_in_an_offset_or_z():
    assert re.fullmatch(ZONED_DATE, "2026-01-08 10:27:45.319+08:00")
    assert re.fullmatch(ZONED_DATE, "2026-12-05T07:16:03.159215Z")
    assert not re.fullmatch(DATE, "2026-12-05T07:16:03.159215Z")


def test_a_level_is_a_word_in_capitals_or_with_the_letter_forms_a_letter():
    assert re.match(LEVEL, "WARNING grad norm")["level"] == "WARNING"
    assert re.match(LEVEL, "warning grad norm") is None
    assert re.match(LEVEL_OR_LETTER, "E model run failed")["level"] == "E"


def test_a_logger_named_per_rank_gives_the_rank_and_its_negation_refuses_it():
    assert re.match(RANK_LOGGER, "[train.rank1] step 0")["rank"] == "1"
    assert re.match(NO_RANK_LOGGER, " [train.rank1] step 0") is None
    assert re.match(NO_RANK_LOGGER, " [train] step 0") is not None


def test_a_host_may_stand_inside_the_rank_tag():
    tag = r"\[" + HOST_IN_RANK_TAG + r"rank ?(?P<rank>\d+)\]"
    assert re.match(tag, "[gpu-n02/rank 5]")["rank"] == "5"
    assert re.match(tag, "[node1 rank3]")["rank"] == "3"


def test_a_local_rank_tag_is_read_past_without_a_rank_group():
    found = re.match(LOCAL_RANK_TAG, "[local_rank1] ERROR")
    assert found is not None
    assert found.groupdict() == {}


def test_a_logfmt_time_may_be_logging_s_spaced_date():
    assert re.match(LOGFMT_TS, "ts=2026-12-04 18:34:36,707 level=info")["ts"] == (
        "2026-12-04 18:34:36,707"
    )
    assert re.match(LOGFMT_TS, "time=2026-12-04T18:34:36.707Z level=info")["ts"] == (
        "2026-12-04T18:34:36.707Z"
    )


@pytest.mark.parametrize(
    ("after", "another"),
    [
        ("RUNTIME(987,):2027-04-02-19:29:32.538.614 [stars_engine.cc:7900]", True),
        ("collector.py: results table is empty", True),
        ("[AscPlugin] kernel launch failed", True),
        ("The dataset directory holds no shards", False),
    ],
)
def test_what_follows_a_bracketed_level_may_be_another_formats_record(after, another):
    assert (re.match(NOT_ANOTHER_BRACKETED_LEVEL, after) is None) is another
