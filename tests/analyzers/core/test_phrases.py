"""The phrasebook says each fixed piece of a diagnosis in English and Chinese, filled with
the same values; rank lists, sentences and clauses follow each language's punctuation."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzers.core.phrases import (
    Said,
    phrasebook,
    plain,
    ranks_said,
    refilled,
    say,
    sentence,
    sentences,
    strip_stop,
)
from analyzers.core.yamlcheck import KnowledgeError


def test_a_phrase_is_filled_in_both_languages_with_the_same_values():
    said = say("narrate.followers", ranks=ranks_said([3, 0, 1]))

    assert said == Said(
        "ranks 0, 1, 3 failed afterwards as a consequence", "rank 0、1、3 随后受其影响而失败"
    )


def test_a_clause_about_several_ranks_takes_the_plural_form():
    assert say("waited.killed", many=False).en == "it was killed"
    assert say("waited.killed", many=True) == Said("they were killed", "这些 rank 被强制终止")


@pytest.mark.parametrize(
    ("ranks", "english", "chinese"),
    [
        ([2], "rank 2", "rank 2"),
        ([3, 1, 1], "ranks 1, 3", "rank 1、3"),
        (range(11), "ranks 0, 1, 2, 3, 4, 5, 6, 7 and 3 more", "rank 0、1、2、3、4、5、6、7 等（另有 3 个）"),
    ],
)  # fmt: skip
def test_ranks_in_words(ranks, english, chinese):
    assert ranks_said(ranks) == Said(english, chinese)


def test_sentences_are_capitalised_and_stopped_in_english_and_run_on_in_chinese():
    first = sentence(say("verdict.failed_loading", ranks=ranks_said([2])))
    second = sentence(say("narrate.checkpoint", checkpoint="layer 3 / norm passed"))

    both = sentences([first, second])

    assert both.en == (
        "Rank 2 failed while loading weights. "
        "Last checkpoint every rank reached: 'layer 3 / norm passed'."
    )
    assert (
        both.zh
        == "rank 2 在加载权重时失败。所有 rank 都到达的最后一个检查点：“layer 3 / norm passed”。"
    )


def test_a_chinese_sentence_that_already_ends_gets_no_second_stop():
    assert sentence(Said("it stopped.", "它停了。")).zh == "它停了。"
    assert strip_stop(Said("It stopped. ", "它停了。")) == Said("It stopped", "它停了")


def test_log_text_is_the_same_in_both_languages():
    quoted = say("narrate.quote", quote=plain("EZ9999: Inner Error!"))

    assert quoted == Said(': "EZ9999: Inner Error!"', "：“EZ9999: Inner Error!”")


@pytest.mark.parametrize(
    ("stored", "chinese"),
    [
        ("job.zip: the file is empty", "job.zip：文件是空的"),
        (
            "job.tgz: the archive is corrupt or truncated (Compressed file ended early)",
            "job.tgz：归档已损坏或不完整（Compressed file ended early）",
        ),
        ("The analysis stopped unexpectedly (MemoryError: ).", None),  # not an error.* phrase
    ],
)
def test_english_stored_earlier_is_re_filled_from_its_phrase(stored, chinese):
    assert refilled(stored, "error.") == chinese


def test_every_shipped_phrase_has_english_and_chinese():
    book = phrasebook()

    assert "narrate.followers" in book
    assert all(p.text and p.text_zh for p in book.values())


@pytest.mark.parametrize(
    ("entry", "error"),
    [
        ({"text": "{ranks} died"}, "'text_zh' must be a non-empty string"),
        ({"text": "{ranks} died", "text_zh": "{rank} 退出"}, "placeholders of 'text'"),
        ({"text": "it died", "text_zh": "退出", "many": "they died"}, "come together"),
        ({"text": "it died", "text_zh": "退出", "tone": "calm"}, "unknown field"),
    ],
)
def test_a_malformed_phrase_fails_at_load(tmp_path: Path, entry: dict, error: str):
    path = tmp_path / "phrases.yaml"
    path.write_text(yaml.safe_dump({"verdict.died": entry}, allow_unicode=True))

    with pytest.raises(KnowledgeError, match=error):
        phrasebook(path)
