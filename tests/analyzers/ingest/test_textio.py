"""Reading raw log bytes: blocks of whole lines and display-safe text, whatever the bytes."""

import io

import pytest

from analyzers.ingest.textio import (
    CUT_MARKER,
    LONG_LINE_BYTES,
    MAX_LINE_CHARS,
    clean_line,
    iter_blocks,
)


def blocks(data: bytes, size: int = 16) -> list[bytes]:
    return list(iter_blocks(io.BytesIO(data), size))


def test_blocks_end_at_line_ends_and_keep_every_byte():
    data = b"".join(b"line %d of the log\n" % i for i in range(50))
    found = blocks(data, 64)
    assert all(block.endswith(b"\n") for block in found)
    assert b"".join(found) == data


def test_last_line_without_newline_still_counts_as_a_line():
    assert blocks(b"first\nlast words") == [b"first\n", b"last words\n"]


def test_empty_stream_has_no_blocks():
    assert blocks(b"") == []


def test_a_huge_line_is_cut_and_the_next_line_survives():
    huge = b"x" * (LONG_LINE_BYTES * 3 + 5)
    found = blocks(huge + b"\nnext line\n", 1024 * 1024)
    text = b"".join(found)
    assert max(len(block) for block in found) < LONG_LINE_BYTES + 1024 * 1024 + 64
    assert text.count(b"\n") == 2
    assert text.endswith(b"next line\n")
    assert CUT_MARKER.encode() in text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"plain text", "plain text"),
        (b"\x1b[31mERROR\x1b[0m boom", "ERROR boom"),
        (b"\x1b]0;title\x07after osc", "after osc"),
        (b"nul\x00padded\x00", "nulpadded"),
        (b"windows line\r", "windows line"),
        (b"10%\r50%\r100% done", "10% 50% 100% done"),
        (b"latin-1 caf\xe9", "latin-1 caf\ufffd"),
        ("utf-8 \u4e2d\u6587".encode(), "utf-8 \u4e2d\u6587"),
        (b"\xef\xbb\xbf[PID: 9] EL0001 first line", "[PID: 9] EL0001 first line"),
        (
            b"  File &quot;/workspace/train.py&quot;, line 88, in &lt;module&gt;",
            '  File "/workspace/train.py", line 88, in <module>',
        ),
        (b"KeyError: &#39;model.layers.3.mlp&#x27;", "KeyError: 'model.layers.3.mlp'"),
        (b"R&D cluster: loss & grad_norm ok", "R&D cluster: loss & grad_norm ok"),
        ("step\u00a0\u00a0 12 passed".encode(), "step   12 passed"),
        (b"[rank0]: model run success<br>", "[rank0]: model run success"),
        (
            b"  File &quot;/workspace/train.py&quot;, line 88, in &lt;module&gt;<br />",
            '  File "/workspace/train.py", line 88, in <module>',
        ),
        (b"joined with &lt;br&gt;", "joined with <br>"),
    ],
    ids=[
        "plain",
        "ansi-colour",
        "ansi-osc",
        "nul",
        "crlf",
        "progress-cr",
        "latin1",
        "utf8",
        "bom",
        "html-entities",
        "html-numeric-entities",
        "bare-ampersand",
        "no-break-space",
        "html-line-break",
        "html-line-break-after-entities",
        "escaped-break-is-text",
    ],
)
def test_clean_line(raw, expected):
    assert clean_line(raw) == expected


def test_an_over_long_line_is_cut_with_a_marker():
    text = clean_line(b"a" * (MAX_LINE_CHARS * 10))
    assert text.endswith(CUT_MARKER)
    assert len(text) == MAX_LINE_CHARS + len(CUT_MARKER)


def test_a_digit_run_longer_than_int_takes_is_cut():
    line = b"[rank" + b"9" * 5000 + b"]: RuntimeError: boom"

    text = clean_line(line)

    assert text.startswith("[rank" + "9" * 20 + CUT_MARKER + "]: RuntimeError")
    int(text[5:25])  # what a parser will take from it
