"""User regexes run on RE2: linear time, Python's meaning, backtracking-only syntax refused."""

import time

import pytest

from analyzers.checkpoints.patterns import CheckpointMatcher
from analyzers.core.saferegex import (
    UnsafeRegex,
    compile_literal_union,
    compile_user_regex,
    unicode_classes,
)

CATASTROPHIC = [r"^(a+)+$", r"(a|aa)+$", r"(x+x+)+y", r"^(\w+\s?)*$"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_backtracking_bombs_finish_at_once(pattern):
    regex = compile_user_regex(pattern)
    started = time.perf_counter()

    regex.search("a" * 34 + "!")
    regex.search("x" * 5000)

    assert time.perf_counter() - started < 0.1


def test_a_checkpoint_pattern_that_would_backtrack_forever_scans_a_line_at_once():
    matcher = CheckpointMatcher([r"^(a+)+$"])
    started = time.perf_counter()

    assert matcher.match("a" * 34 + "b") is None
    assert matcher.match("a" * 34) == "a" * 34
    assert time.perf_counter() - started < 0.1


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"(a)\1", "backreferences"),
        (r"layer(?= passed)", "lookaround"),
        (r"(?<!no )ok", "lookaround"),
        (r"(?!x)y", "lookaround"),
        (r"layer (\d+ passed", "not a valid regex"),
        (r"x{1000}{1000}", "not a valid regex"),
        ("a" * 3000, "longer than"),
    ],
)
def test_patterns_rejected_say_why(pattern, why):
    with pytest.raises(UnsafeRegex, match=why):
        compile_user_regex(pattern)


def test_a_refused_checkpoint_pattern_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"checkpoint pattern '\(a\)\\\\1' is refused"):
        CheckpointMatcher([r"(a)\1"])


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [
        (r"\w+ 完成", "解码 完成", "解码 完成"),  # Python's \w spans every script
        (r"step (\d+)", "step ３", "step ３"),
        (r"[\w.]+ ok", "模型.层 ok", "模型.层 ok"),
        (r"a\sb", "a\u3000b", "a\u3000b"),  # ideographic space is \s in Python
        (r"\AStage \d{2} ok\Z", "Stage 12 ok", "Stage 12 ok"),
        (r"\\w", r"a\w", r"\w"),  # an escaped backslash stays a backslash
    ],
)
def test_patterns_mean_what_they_meant_in_python(pattern, text, found):
    assert compile_user_regex(pattern).search(text).group(0) == found


def test_named_groups_and_case_folding_work_as_in_re():
    regex = compile_user_regex(r"Layer (?P<layer>\d+) PASSED", ignore_case=True)

    found = regex.search("INFO layer 3 passed")

    assert found.group("layer") == "3"
    assert regex.groupindex == {"layer": 1}
    assert [m.group(0) for m in compile_user_regex(r"\d").finditer("a1b2")] == ["1", "2"]
    assert compile_user_regex(r"\d+").fullmatch("12") is not None


@pytest.mark.parametrize(
    ("pattern", "rewritten"),
    [
        (r"\d+", r"\p{Nd}+"),
        (r"[^\d]", r"[^\p{Nd}]"),
        (r"[]\w]", r"[]\p{L}\p{N}_]"),
        (r"a\.b", r"a\.b"),
    ],
)
def test_unicode_classes_rewrites_only_class_escapes(pattern, rewritten):
    assert unicode_classes(pattern) == rewritten


def test_a_literal_union_matches_its_words_byte_for_byte():
    union = compile_literal_union([b"what():", b"nvrm: xid", b"a.b", b"\xe6\x8a\xa5\xe9\x94\x99"])
    assert union.search(b"  what():  cuda error") is not None
    assert union.search(b"axb") is None  # the dot is a dot, not any byte
    assert union.search(b"log \xe6\x8a\xa5\xe9\x94\x99 \xff") is not None
    assert union.search(b"nothing here \xff\xfe") is None
    assert compile_literal_union([]) is None
