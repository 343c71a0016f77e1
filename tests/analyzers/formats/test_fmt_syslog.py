"""Lines stamped with the classic month-name time and no year (moreutils `ts`, syslog)."""

from analyzers.formats.lines import parse_line


def test_a_line_stamped_by_ts_gives_its_time_and_record():
    """moreutils `ts` (or a shell loop's `date`) in front of each line: month name, no year."""
    line = parse_line("Dec  4 09:12:01 RuntimeError: boom")
    assert line.message == "RuntimeError: boom"
    assert (line.time.month, line.time.day, line.time.hour) == (12, 4, 9)
