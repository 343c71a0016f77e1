"""Highlighting: escape first, then mark; never trust case text."""

from __future__ import annotations

import pytest

from incidents.library.highlight import highlight, snippet


@pytest.mark.parametrize(
    ("text", "words", "expected"),
    [
        ("HCCL timeouts", ["timeout"], "HCCL <mark>timeouts</mark>"),
        ("the dispatching step", ["dispatch"], "the <mark>dispatching</mark> step"),
        ("code 507014 and 5070141", ["507014"], "code <mark>507014</mark> and 5070141"),
        (
            "npu_moe_distribute_dispatch_v2 failed",
            ["npu_moe_distribute_dispatch_v2"],
            "<mark>npu_moe_distribute_dispatch_v2</mark> failed",
        ),
        ("显存不足导致中断", ["显存不足"], "<mark>显存不足</mark>导致中断"),
        ("Timeout", ["timeout"], "<mark>Timeout</mark>"),
    ],
    ids=["stem", "longer-form", "exact-code", "operator", "chinese", "case"],
)
def test_highlight_marks_matches(text, words, expected):
    assert highlight(text, words) == expected


def test_highlight_escapes_html_in_the_text():
    html = highlight("<script>alert('timeout')</script>", ["timeout"])

    assert html == "&lt;script&gt;alert(&#x27;<mark>timeout</mark>&#x27;)&lt;/script&gt;"


def test_highlight_never_cuts_an_entity():
    assert highlight("a & b < c", ["amp", "lt"]) == "a &amp; b &lt; c"


def test_query_words_with_markup_never_inject_markup():
    assert highlight("x <b> y", ["<b>", "<i>"]) == "x &lt;b&gt; y"


def test_snippet_picks_the_text_with_a_match_and_cuts_around_it():
    texts = ["nothing here", "a " * 200 + "the buffer is small" + " b" * 200]

    html = snippet(texts, ["buffer"])

    assert "<mark>buffer</mark>" in html
    assert html.startswith("…")
    assert len(html) < 300
