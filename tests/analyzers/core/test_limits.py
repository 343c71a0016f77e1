"""Budgets have generous defaults, can be overridden from the environment, and numbers
from log text are only believed when a job could have them."""

import pytest

from analyzers.core.limits import Limits, plausible_rank, size_text, small_int


def test_defaults_are_generous_for_real_jobs():
    limits = Limits()

    assert limits.total_bytes == 64 * 1024**3
    assert limits.ratio == 1000
    assert limits.members == 50_000
    assert limits.depth == 3


def test_each_limit_can_be_set_from_the_environment():
    environ = {"RANKLENS_LIMIT_MEMBERS": "20000", "RANKLENS_LIMIT_DEPTH": "1"}

    limits = Limits.from_env(environ)

    assert (limits.members, limits.depth, limits.ratio) == (20_000, 1, 1000)


@pytest.mark.parametrize("raw", ["0", "-1", "lots", "9" * 30])
def test_a_bad_limit_in_the_environment_is_a_clear_error(raw):
    with pytest.raises(ValueError, match="RANKLENS_LIMIT_RATIO must be a whole number"):
        Limits.from_env({"RANKLENS_LIMIT_RATIO": raw})


@pytest.mark.parametrize(
    ("value", "rank"),
    [("3", 3), (7, 7), ("131072", 131072), ("131073", None), ("9" * 5000, None), (None, None)],
)
def test_plausible_rank(value, rank):
    assert plausible_rank(value) == rank


@pytest.mark.parametrize(("text", "number"), [("42", 42), (b"42", 42), ("9" * 5000, 0)])
def test_small_int_never_raises_on_long_digit_runs(text, number):
    assert small_int(text) == number


@pytest.mark.parametrize(
    ("size", "text"), [(17, "17 bytes"), (2048, "2.0 KiB"), (4 * 1024**3, "4.0 GiB")]
)
def test_size_text(size, text):
    assert size_text(size) == text
