"""The year a file most likely wrote its year-less stamps in, from its modification time."""

from datetime import UTC, datetime

import pytest

from analyzers.formats.year_less import year_of_modified

JAN_2027 = datetime(2027, 1, 2, tzinfo=UTC).timestamp()
JUN_2026 = datetime(2026, 6, 30, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("modified", "months", "year"),
    [
        (JUN_2026, [5, 6], 2026),  # stamped before the file was last written
        (JAN_2027, [12, 1], 2026),  # a run across New Year: December was the year before
        (JAN_2027, [1], 2027),
        (None, [3], None),  # the bundle kept no time
        (JUN_2026, [], None),  # nothing to place
    ],
)
def test_year_of_modified(modified, months, year):
    assert year_of_modified(modified, months) == year
