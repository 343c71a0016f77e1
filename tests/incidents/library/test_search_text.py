"""Query parsing and index documents (pure functions, no database)."""

from __future__ import annotations

import pytest

from incidents.library.search_text import (
    Term,
    bigrams,
    cjk_spaced,
    key_lexeme,
    parse_query,
    vocabulary_words,
)


@pytest.mark.parametrize(
    ("run", "expected"),
    [("显存不足", ["显存", "存不", "不足"]), ("卡", ["卡"]), ("超时", ["超时"])],
)
def test_bigrams(run, expected):
    assert bigrams(run) == expected


def test_cjk_runs_become_bigrams_and_latin_text_stays():
    assert cjk_spaced("HCCL超时 after 3s").split() == ["HCCL", "超时", "after", "3s"]


@pytest.mark.parametrize(
    ("text", "websearch", "fts5"),
    [
        ("507014", "507014", '("507014")'),
        ("buffer small", "buffer small", '("buffer" AND "small")'),
        ("显存不足", '"显存 存不 不足"', '("显存 存不 不足")'),
        ("HCCL超时", 'HCCL "超时"', '("HCCL" AND "超时")'),
        ('"group name" missing', '"group name" missing', '("group name" AND "missing")'),
        ("oom -kv", "oom -kv", '(("oom") NOT "kv")'),
        ("hccl or numa", "hccl or numa", '("hccl") OR ("numa")'),
        ('say "hi', "say hi", '("say" AND "hi")'),
    ],
    ids=["code", "words", "chinese", "mixed", "phrase", "exclude", "or", "unbalanced-quote"],
)
def test_query_is_translated_for_both_backends(text, websearch, fts5):
    query = parse_query(text)

    assert query.websearch() == websearch
    assert query.fts5() == fts5


def test_every_positive_token_is_also_looked_up_as_a_key():
    query = parse_query("npu_moe_distribute_dispatch_v2, 507014 -EZ9999")

    assert query.keys == ("npu_moe_distribute_dispatch_v2", "507014")
    assert query.key_lexemes[0] == key_lexeme("NPU_MOE_DISTRIBUTE_DISPATCH_V2")


def test_keys_ignore_case():
    assert key_lexeme("EZ9999") == key_lexeme("ez9999")


@pytest.mark.parametrize(
    ("term", "correctable"),
    [
        (Term("fragmentaton"), True),
        (Term("npu_moe_dispach_v2"), True),
        (Term("ez9999"), False),
        (Term("507014"), False),
        (Term("显存"), False),
        (Term("fragmentaton", phrase=True), False),
    ],
)
def test_only_plain_words_and_identifiers_are_corrected(term, correctable):
    assert term.correctable is correctable


def test_corrected_query_searches_the_vocabulary_word():
    query = parse_query("fragmentaton heap").corrected({"fragmentaton": "fragmentation"})

    assert query.websearch() == "fragmentation heap"
    assert "fragmentation" in query.keys


def test_punctuation_only_tokens_are_dropped():
    assert parse_query("-- ... !!").empty


def test_vocabulary_keeps_identifiers_and_their_parts_but_not_short_words():
    assert vocabulary_words("npu_moe_dispatch_v2 ok") == {
        "npu_moe_dispatch_v2",
        "npu",
        "moe",
        "dispatch",
    }


@pytest.mark.parametrize("text", ["ошибка памяти", "σφάλμα μνήμης", "mémoire épuisée"])
def test_words_in_any_alphabet_are_kept(text):
    assert [t.text for t in parse_query(text).terms] == text.split()


def test_a_long_chinese_run_is_scored_by_its_character_pairs():
    query = parse_query("训练时显存不足")

    assert [t.text for t in query.scored_terms()] == [
        "训练",
        "练时",
        "时显",
        "显存",
        "存不",
        "不足",
    ]


def test_a_short_chinese_word_is_scored_whole():
    assert [t.text for t in parse_query("显存不足").scored_terms()] == ["显存不足"]


def test_the_words_to_mark_are_the_words_it_scores():
    query = parse_query("Rank 2 failed to pass the barrier in 5000 ms")

    assert query.positive_texts() == ["Rank", "2", "failed", "pass", "barrier", "5000", "ms"]


def test_a_quoted_phrase_is_marked_whole_even_with_its_stop_words():
    query = parse_query('"failed to pass" barrier')

    assert query.positive_texts() == ["failed to pass", "barrier"]
