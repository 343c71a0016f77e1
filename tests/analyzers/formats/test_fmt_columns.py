"""The columns a terminal gives a line, which is where it cuts a long one: bytes for ASCII,
2 for a Chinese or other wide character, 0 for a mark that sits on the character before."""

from __future__ import annotations

import pytest

from analyzers.formats.columns import columns, opens_wide


@pytest.mark.parametrize(
    ("raw", "width"),
    [
        (b"step 10 loss 2.3104", 19),
        ("训练步 10 完成".encode(), 14),  # 5 Chinese characters, 2 columns each
        ("损失，学习率：9.15e-06（bf16）".encode(), 30),  # fullwidth punctuation is wide too
        ("Loading checkpoint shards:  42%|████▋     | 16/38".encode(), 49),  # blocks: 1 column
        ("cafe\u0301 ok".encode(), 7),  # a combining accent sits on the letter before it
        ("\ufeffstep 1".encode(), 6),  # a byte-order mark takes no column
        ("训练数据".encode("gbk"), 8),  # not UTF-8: its bytes, 2 a character in GBK as on screen
    ],
    ids=["ascii", "chinese", "fullwidth-punctuation", "progress-bar", "combining", "bom", "gbk"],
)
def test_columns_counts_what_a_terminal_shows(raw, width):
    assert columns(raw) == width


@pytest.mark.parametrize(
    ("raw", "wide"),
    [
        ("查路径 /data/sft".encode(), True),
        ("，请检查".encode(), True),  # fullwidth punctuation
        (b"/data/sft/train.jsonl", False),
        ("é ok".encode(), False),  # two bytes, one column
        ("████▋".encode(), False),  # three bytes, one column
        ("\u0301 mark".encode(), False),
        (b"", False),
    ],
    ids=["chinese", "fullwidth-comma", "ascii", "latin", "block", "combining", "empty"],
)
def test_opens_wide_tells_a_line_whose_first_character_takes_two_columns(raw, wide):
    assert opens_wide(raw) is wide
