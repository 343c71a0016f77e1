"""Member names and report texts are made storable (jsonb) and linkable, visibly."""

import json

import pytest

from analyzers.core.safetext import clean_name, clean_text


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("rank0.log", "rank0.log"),
        ("日志/rank0.log", "日志/rank0.log"),
        ("bad\udcff.log", "bad\\xff.log"),  # a byte that was not UTF-8 (surrogateescape)
        ("two\nlines.log", "two\\x0alines.log"),
        ("tab\there", "tab\\x09here"),
        ("nul\x00byte", "nul\\x00byte"),
        ("bell\x07", "bell\\x07"),
        ("c1\x85", "c1\\x85"),
        ("lone\ud800", "lone\\ud800"),
    ],
)
def test_clean_name_escapes_what_cannot_be_stored_or_linked(name, safe):
    assert clean_name(name) == safe


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("first\nsecond\tcolumn", "first\nsecond\tcolumn"),  # sentences keep their layout
        ("NUL\x00here", "NUL\\x00here"),
        ("bad \udcfe byte", "bad \\xfe byte"),
    ],
)
def test_clean_text_keeps_newlines_and_tabs_only(text, safe):
    assert clean_text(text) == safe


def test_cleaned_text_encodes_as_utf8_json():
    text = clean_text("x\udcff\x00y")

    assert json.dumps(text, ensure_ascii=False).encode("utf-8")
    assert "\\u0000" not in json.dumps(text)
