"""Two logging formats jobs set for themselves (`analyzers/formats/logging_headers.py`): Hydra's
default job logging, `[%(asctime)s][%(name)s][%(levelname)s] - %(message)s`, and a Formatter
that pads the level and writes the logger's name and a `rank=N` key before a bar, behind an
ISO time zoned as `%z` writes it (`+0000`). Both give the time, the level, the rank and the
message; the zoned time is the record's own, not a collector's."""

from __future__ import annotations

from datetime import datetime

from analyzers.formats.lines import parse_line


def test_hydra_job_logging_gives_time_level_rank_and_message():
    line = parse_line(
        "[2026-12-07 12:20:55,830][train.rank1][INFO] - Epoch 0/3 - step 5/6 done (loss 1.743)"
    )
    assert line.message == "Epoch 0/3 - step 5/6 done (loss 1.743)"
    assert (line.level, line.rank) == ("INFO", 1)
    assert line.time == datetime(2026, 12, 7, 12, 20, 55, 830000)


def test_hydra_logger_without_a_rank_gives_none():
    line = parse_line("[2026-12-07 12:20:56,002][__main__][ERROR] - model run failed")
    assert (line.message, line.level, line.rank) == ("model run failed", "ERROR", None)


def test_level_name_and_rank_key_before_a_bar_under_a_zoned_iso_time():
    line = parse_line(
        "2026-12-07T12:16:55.853+0000 INFO  moe_infer rank=2 | layer 1 attention passed"
    )
    assert line.message == "layer 1 attention passed"
    assert (line.level, line.rank) == ("INFO", 2)
    assert line.time == datetime(2026, 12, 7, 12, 16, 55, 853000)
    assert not line.collected


def test_the_same_fields_under_logging_s_default_time():
    line = parse_line("2026-12-07 12:16:55,853 ERROR moe_infer rank=3 | model run failed")
    assert (line.message, line.level, line.rank) == ("model run failed", "ERROR", 3)


def test_a_bar_without_the_rank_key_is_not_this_format():
    line = parse_line("INFO  moe_infer | layer 1 attention passed")
    assert line.rank is None


def test_a_dated_print_with_a_bracketed_rank_label_and_no_level():
    line = parse_line("2026-12-07 09:41:07,592 [rank 2] RuntimeError: mat1 and mat2 differ")
    assert (line.message, line.level, line.rank) == ("RuntimeError: mat1 and mat2 differ", None, 2)
    assert line.time == datetime(2026, 12, 7, 9, 41, 7, 592000)
    assert not line.collected


def test_the_date_may_be_bracketed_and_the_label_closed_by_a_colon_or_a_bar():
    assert parse_line("[2026-12-07 09:41:07] [rank3] layer 2 passed").rank == 3
    assert parse_line("2026-12-07 09:41:07 rank 1: layer 2 passed").rank == 1
    assert parse_line("2026-12-07 09:41:07 rank 1 | layer 2 passed").message == "layer 2 passed"


def test_a_level_after_the_label_is_still_read_as_the_level():
    line = parse_line("2026-12-07 09:41:07 [rank1]  [ERROR] allreduce failed")
    assert (line.message, line.level, line.rank) == ("allreduce failed", "ERROR", 1)
    assert parse_line("2026-12-07 09:41:07 [rank 1] INFO step 3").level == "INFO"


def test_torch_s_own_rank_tag_behind_a_date_stays_a_collectors_time():
    line = parse_line("2026-12-07 09:41:07 [rank1]: RuntimeError: x")
    assert (line.rank, line.collected) == (1, True)


def test_a_time_of_day_alone_before_the_label_is_not_read():
    line = parse_line("09:41:07 [rank 1] layer 2 passed")
    assert line.time is None


def test_loguru_0_8_default_format_gives_time_and_level():
    """loguru's default since 0.8 puts the zone after a space, and its SUCCESS level is an
    INFO record: the header is read, the record's location is left to the message."""
    line = parse_line("2026-11-03 08:12:40.517 +02:00 | SUCCESS  | trainer:fit:88 - epoch 2 done")
    assert line.level == "INFO"
    assert line.time is not None
    assert line.message == "trainer:fit:88 - epoch 2 done"
    error = parse_line("2026-11-03 08:12:41.002 +02:00 | ERROR    | trainer:<module>:12 - boom")
    assert error.level == "ERROR"


def test_a_bar_after_a_zoned_time_with_no_level_is_no_loguru_record():
    text = "2026-11-03 08:12:40.517 +02:00 | throughput | 812 tok/s"
    line = parse_line(text)
    assert line.level is None
    assert line.message == text


def test_a_host_inside_the_rank_tag_s_brackets_gives_time_level_and_rank():
    line = parse_line(
        "2026-12-07 18:40:02,181 [node1 rank2] INFO train | step 1/12 done | loss 4.3518"
    )
    assert (line.level, line.rank) == ("INFO", 2)
    assert line.time == datetime(2026, 12, 7, 18, 40, 2, 181000)
    assert parse_line("2026-12-07 18:40:02,181 [gpu-n02/rank 5] ERROR model run failed").rank == 5


def test_two_words_before_the_rank_in_its_brackets_are_no_host():
    line = parse_line("2026-12-07 18:40:02,181 [two words rank2] INFO step 1 done")
    assert (line.level, line.rank) == (None, None)
