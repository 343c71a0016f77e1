"""Which patterns cannot tell one digit from another, and the widened and narrowed copies
that settle the others on a line whose digits were all made `0`."""

import random
import re

import pytest

from analyzers.core.digit_blind import blind, digit_part, narrowed, widened, zeroed


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"error code is \d+", True),
        (r"step \w+ of [^\]]*", True),
        (r"[A-Za-z_]\w*\(", True),
        (r"(?<!\S)--?[A-Za-z][\w.-]*", True),
        (r"exit code [1-9]", False),
        (r"code 1\b", False),
        (r"[0-5]", False),
        (r"(\w+) = \1", False),  # a backreference compares two numbers
    ],
)
def test_blind(pattern: str, expected: bool) -> None:
    assert blind(re.compile(pattern)) is expected


def test_zeroed_keeps_length_and_letters() -> None:
    assert zeroed("step 1288 of 9000: loss 2.31") == "step 0000 of 0000: loss 0.00"


REWRITTEN = [r"exit code [1-9]", r"code 1\b", r"(?<!\d)5(?!\d)", r"a[^3]b", r"x(?!12)y"]
REWRITTEN += [r"(\d)\1", r"fail|err(?:or)? 4[0-9]", r"(?i)EXIT 1|ok"]
ALPHABET = "0123456789abxy c:odeEXITfail rok"


def _lines(seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 14))) for _ in range(4000)]


@pytest.mark.parametrize("source", REWRITTEN)
def test_widened_finds_the_zeroed_copy_of_every_match(source: str) -> None:
    pattern = re.compile(source)
    wider = widened(pattern)
    assert wider is not None
    for line in _lines(1):
        if pattern.search(line):
            assert wider.search(zeroed(line)), line


@pytest.mark.parametrize("source", [s for s in REWRITTEN if "\\1" not in s])
def test_narrowed_matches_only_where_the_pattern_does(source: str) -> None:
    pattern = re.compile(source)
    narrower = narrowed(pattern)
    assert narrower is not None
    for line in _lines(2):
        if narrower.search(zeroed(line)):
            assert pattern.search(line), line


def test_digit_part_keeps_only_the_branches_naming_digits() -> None:
    part = digit_part(re.compile(r"(?:indexing errors)|(?:\b0 errors\b)", re.IGNORECASE))
    assert part is not None
    assert part.search("0 errors")
    assert not part.search("indexing errors")


def test_a_range_from_a_digit_to_a_letter_is_not_rewritten() -> None:
    assert widened(re.compile(r"[5-z]")) is None
