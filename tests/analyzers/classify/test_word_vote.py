"""The learned word vote: what the rules' own example lines say of a line no rule reads."""

from dataclasses import replace

import pytest

from analyzers.classify import word_vote
from analyzers.classify.hints import load_hints
from analyzers.classify.rules import load_knowledge, signatures_disabled
from analyzers.classify.word_vote import (
    SignatureWords,
    learn,
    model,
    read_words,
    reading_of,
    words,
)


def signature(id_: str, category: str, *examples: str, against: tuple[str, ...] = ()):
    return SignatureWords(id_, category, tuple(map(words, examples)), tuple(map(words, against)))


MEMORY = signature(
    "mem.pool",
    "oom",
    *(f"the memory pool is exhausted on device {n}" for n in range(6)),
    *(f"allocator ran out of pool memory for {size}" for size in ("weights", "kv", "grads")),
)
LINK = signature(
    "net.link",
    "hccl",
    *(f"the ring link to peer {n} went down" for n in range(6)),
    "socket to peer closed by remote",
    against=("pool link statistics: peer 3 ok",),
)
OPTIONS = signature(
    "cfg.unset",
    "config",
    *(f"option {name} is not set" for name in "abcdefghijklmnopqrst"),
)
TOY = (MEMORY, LINK, OPTIONS)


def test_words_split_joined_names_and_leave_codes_out() -> None:
    assert words("HcclAllReduce failed: EZ9999 at 0x7010003 on the ring") == {
        "hcclallreduce",
        "hccl",
        "all",
        "reduce",
        "ring",
    }


def test_an_exception_class_says_nothing_of_the_words_inside_its_name() -> None:
    assert words("ConnectionResetError: peer gone") == {"connectionreseterror", "peer", "gone"}


def test_a_line_in_new_wording_takes_the_label_whose_examples_share_its_words() -> None:
    reading = reading_of(words("device memory pool exhausted during the step"), learn(TOY))
    assert reading is not None
    assert reading.category == "oom"
    assert reading.signature == "mem.pool"
    assert {"pool", "exhausted"} <= set(reading.words)


def test_the_evidence_is_words_the_labels_own_examples_hold() -> None:
    learned = learn(TOY)
    reading = reading_of(words("pool memory exhausted on the ring of device 2"), learned)
    assert reading is not None
    assert reading.category == "oom"
    assert "ring" not in reading.words  # learned, but from the links' examples
    assert all(learned.holding[word].get("oom") for word in reading.words)


def test_a_line_with_one_learned_word_gets_no_label() -> None:
    assert reading_of(words("the pool was resized"), learn(TOY)) is None


def test_words_two_labels_share_give_no_label() -> None:
    assert reading_of(words("pool link"), learn(TOY)) is None


def test_a_word_of_one_example_line_only_is_no_vocabulary() -> None:
    learned = learn(TOY)
    assert learned.knows("pool")
    assert not learned.knows("remote")
    assert not learned.knows("statistics")  # a near miss's word, in no example


def test_a_rules_near_miss_counts_against_its_own_label() -> None:
    without_miss = replace(LINK, counterexamples=())
    assert learn(TOY).weight("pool", "hccl") < learn((MEMORY, without_miss, OPTIONS)).weight(
        "pool", "hccl"
    )


def test_a_line_most_like_the_examples_of_a_label_it_never_names_gets_none() -> None:
    stops = signature(
        "ext.stop",
        "other",
        *(f"job {n} cancelled at noon due to time limit" for n in range(6)),
    )
    learned = learn((*TOY, stops))
    assert reading_of(words("step cancelled due to the time limit"), learned) is None


def test_a_label_the_hints_file_leaves_unvoted_is_one_the_words_never_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    down = words("the ring link to peer 7 went down")
    reading = reading_of(down, learn(TOY))
    assert reading is not None
    assert reading.category == "hccl"
    hints = load_hints()
    unvoted = replace(hints, unvoted=hints.unvoted | {"hccl"})
    monkeypatch.setattr(word_vote, "load_hints", lambda: unvoted)
    assert reading_of(down, learn(TOY)) is None


def test_a_held_back_rules_examples_are_left_out_of_what_is_learned() -> None:
    """The rule ablation measures the vote on the lines its held-back rules were written
    for: the vote must not have learned them."""
    rule = next(s for s in load_knowledge().signatures if s.id == "oom.kv_cache_no_room")
    assert model().exemplars.get(("oom", "gpu_memory_utilization")) == rule.id
    with signatures_disabled([rule.id]):
        assert model().exemplars.get(("oom", "gpu_memory_utilization")) != rule.id


def test_unknown_wording_of_a_known_failure_reads_as_its_label() -> None:
    reading = read_words(
        "ValueError: kv cache memory too small to hold one block, raise gpu_memory_utilization"
    )
    assert reading is not None
    assert reading.category == "oom"
    assert "gpu_memory_utilization" in reading.words


def test_a_bare_exception_with_no_telling_words_reads_as_nothing() -> None:
    assert read_words("IndexError: tuple index out of range") is None


def test_a_line_worded_like_a_rules_counterexample_is_not_given_that_rules_label() -> None:
    """The rule's authors said a link statistics report is no lost link: a line worded like
    it keeps no label, while a line in the label's own words still reads."""
    report = words("link statistics report: peer 3 ok, ring healthy")
    learned = learn((MEMORY, replace(LINK, counterexamples=(report,)), OPTIONS))
    assert reading_of(words("peer link down on ring 2"), learned) is not None
    assert reading_of(words("link statistics report: peer 2 down, ring healthy"), learned) is None
