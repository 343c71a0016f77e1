"""One pass for the notable phrases and the literals a block lacks answers as separate searches."""

from __future__ import annotations

from dataclasses import fields

import pytest

from analyzers.formats.blockfilter import FOLD, BlockFilter
from analyzers.formats.logger_shape import relay_signs, relays_workers
from analyzers.formats.severity import Prefilter, load_prefilter

LACKING = (b" ok", b"succe", b"waiting for rank", b"world_size")
SHAPE = b"[default0]:0000-00-00 00:00:00,000 [rank0] "


def _filter() -> BlockFilter:
    return BlockFilter.build(load_prefilter(), None)


def _block(*messages: str) -> bytes:
    lines = [
        f"[default3]:2026-11-29 07:24:{n % 60:02d},190 [rank3] INFO {m}"
        for n, m in enumerate(messages)
    ]
    return ("\n".join(lines) + "\n").encode().translate(FOLD)


def _separately(low: bytes, lacking: tuple[bytes, ...]) -> tuple[set[int], set[bytes]]:
    return _filter().notable_candidates(low), {word for word in lacking if word in low}


NOTABLE = "Watchdog: too long with no output from the trainer"
CASES = {
    "lacks all": _block("norm passed", "step 3 micro_batch 1 loss=2.1"),
    "one met": _block("norm passed", "waiting for rank 3", NOTABLE, "layer 0 passed"),
    "behind a phrase": _block("norm passed", f"{NOTABLE}; model run success", "layer 1 passed"),
    "phrase after one met": _block("layer 0 ok", "norm passed", NOTABLE),
    "only phrases": _block(NOTABLE, "attention passed", NOTABLE),
    "no line end": _block("norm passed", NOTABLE)[:-1],
}


@pytest.mark.parametrize("low", CASES.values(), ids=CASES.keys())
def test_the_shared_pass_finds_what_separate_searches_find(low):
    hits, (looked, found) = _filter().notable_and_lacking(low, LACKING)
    notable, present = _separately(low, LACKING)
    assert hits == notable
    assert found == present & set(looked)  # what it settled is settled right
    assert set(looked) <= set(LACKING)


def test_a_block_that_lacks_every_literal_settles_them_all():
    low = CASES["lacks all"]
    _, (looked, found) = _filter().notable_and_lacking(low, LACKING)
    assert looked == LACKING
    assert found == set()


def test_the_first_literal_met_leaves_the_others_to_their_own_search():
    """`waiting for rank` ends the pass: ` ok`, `succe` and `world_size` after it are not
    settled, and the phrase on the line after it is still found."""
    low = CASES["one met"]
    hits, (looked, found) = _filter().notable_and_lacking(low, LACKING)
    assert looked == (b"waiting for rank",)
    assert found == {b"waiting for rank"}
    assert len(hits) == 1


def test_a_literal_behind_a_phrase_on_its_line_is_found():
    _, (looked, found) = _filter().notable_and_lacking(CASES["behind a phrase"], LACKING)
    assert looked == LACKING
    assert found == {b"succe"}


def test_nothing_lacking_is_the_notable_search_alone():
    low = CASES["one met"]
    assert _filter().notable_and_lacking(low, ()) == (
        _filter().notable_candidates(low),
        ((), set()),
    )


def _relaying_head(relay: str) -> bytes:
    line = f"[default0]:2026-11-29 07:24:00,123 [rank0] INFO {relay}"
    return (line + "\n" + line.replace("123", "456") + "\n").encode().translate(FOLD)


@pytest.mark.parametrize(
    "relay",
    ["[rank3]: Traceback (most recent call last):", "vllm: engine started", "layer 0 passed"],
)
def test_a_relaying_logger_is_told_the_same_with_its_signs_settled(relay):
    folded = _relaying_head(relay)
    _, settled = _filter().notable_and_lacking(folded, relay_signs(SHAPE))
    assert relays_workers(folded, SHAPE, settled) is relays_workers(folded, SHAPE)
    assert relays_workers(folded, SHAPE) is (relay != "layer 0 passed")


def test_every_file_of_a_bundle_gets_the_one_filter_without_hashing_the_prefilter_again():
    hashed: list[int] = []

    class Counting(Prefilter):
        __slots__ = ()

        def __hash__(self) -> int:  # what a cache look-up by value costs
            hashed.append(1)
            return super().__hash__()

    prefilter = Counting(*(getattr(load_prefilter(), f.name) for f in fields(Prefilter)))
    first = BlockFilter.build(prefilter, None)
    assert all(BlockFilter.build(prefilter, None) is first for _ in range(3))
    assert len(hashed) == 1
    assert BlockFilter.build(load_prefilter(), None).keywords == first.keywords
