"""Exact facts over whole sequences: the last common checkpoint and the clock offsets."""

from __future__ import annotations

import random
from array import array
from collections import Counter

import pytest

from analyzers.core.checkpoint_timeline import RankSequence, Timeline
from analyzers.timeline.sequence_facts import clock_offsets, last_common, occurrence

NAN = float("nan")


def _timeline(sequences: dict[int, list[int]], times: dict[int, list[float]] | None = None):
    times = times or {}
    ranks = {
        r: RankSequence(text=array("I", seq), time=array("d", times.get(r, [NAN] * len(seq))))
        for r, seq in sequences.items()
    }
    return Timeline(texts=[f"t{i}" for i in range(8)], labels=[], files=[], ranks=ranks)


def _identities(seq: list[int]) -> list[tuple[int, int]]:
    seen: Counter[int] = Counter()
    out = []
    for text in seq:
        out.append((text, seen[text]))
        seen[text] += 1
    return out


def _plain_last_common(job: dict[int, list[int]]) -> tuple[int, int] | None:
    """Last identity of the shortest rank that every rank has, located on the lowest rank."""
    shortest = min(job, key=lambda r: (len(job[r]), r))
    others = [set(_identities(job[r])) for r in job if r != shortest]
    for key in reversed(_identities(job[shortest])):
        if all(key in keys for keys in others):
            return min(job), _identities(job[min(job)]).index(key)
    return None


@pytest.mark.parametrize("seed", range(200))
def test_last_common_agrees_with_the_definition(seed):
    rng = random.Random(seed)
    base = [rng.randrange(3) for _ in range(rng.randrange(1, 40))]
    job = {r: base[: rng.randrange(1, len(base) + 1)] for r in range(rng.randrange(1, 6))}
    if rng.random() < 0.5:
        victim = rng.choice(list(job))
        job[victim] = [rng.randrange(3) for _ in job[victim]]
    assert last_common(_timeline(job), sorted(job)) == _plain_last_common(job)


def test_a_rank_without_checkpoints_leaves_no_common_point():
    assert last_common(_timeline({0: [1, 2], 1: []}), [0, 1]) is None


def test_occurrence_is_one_based_on_the_ranks_own_sequence():
    assert occurrence(array("I", [4, 5, 4, 4]), 3) == 3


def test_clock_offsets_pair_checkpoints_past_a_divergence_by_identity():
    job = {0: [1, 2, 3, 1], 1: [1, 3, 2, 1]}
    times = {0: [10.0, 11.0, 12.0, 13.0], 1: [12.0, 14.0, 13.0, 15.0]}
    assert clock_offsets(_timeline(job, times)) == {0: 0.0, 1: 2.0}


def test_untimed_ranks_have_no_offset():
    assert clock_offsets(_timeline({0: [1], 1: [1]})) == {}


def test_clock_offsets_skip_the_pairs_where_either_line_had_no_time():
    job = {0: [1, 2, 3, 4], 1: [1, 2, 3, 4]}
    times = {0: [10.0, NAN, 12.0, 13.0], 1: [13.0, 14.0, NAN, 16.0]}
    assert clock_offsets(_timeline(job, times)) == {0: 0.0, 1: 3.0}


def test_clock_offsets_of_fully_timed_ranks_are_the_median_gap():
    job = {0: [1, 2, 3, 4, 5], 1: [1, 2, 3, 4, 5]}
    times = {0: [10.0, 11.0, 12.0, 13.0, 14.0], 1: [10.5, 11.5, 12.25, 13.5, 20.0]}
    assert clock_offsets(_timeline(job, times)) == {0: 0.0, 1: 0.5}


def test_pipeline_stages_share_only_what_every_stage_logged() -> None:
    """Stages print the same sub-module words in layers of their own: stage 0's `mlp passed`
    is layer 1's, stage 1's layer 3's. Stage 1 stopped inside its layers of the second
    microbatch: all stages reached the first microbatch's `bwd passed`, not a layer 1 part
    stage 1 never ran."""

    def stage(first: int, passes: int) -> list[tuple[str, str]]:
        out = []
        for _ in range(passes):
            for layer in (first, first + 1):
                out += [("mlp passed", f"layer {layer} / mlp passed")]
                out += [(f"layer {layer} passed", f"layer {layer} passed")]
            out.append(("bwd passed", "bwd passed"))
        return out

    job = {0: stage(0, 2), 1: stage(2, 1) + stage(2, 2)[5:7]}
    texts: list[str] = []
    labels: list[str] = []
    ranks = {}
    for rank, seq in job.items():
        ids, lids = array("I"), array("I")
        for text, label in seq:
            texts += [] if text in texts else [text]
            labels += [] if label in labels else [label]
            ids.append(texts.index(text))
            lids.append(labels.index(label))
        ranks[rank] = RankSequence(text=ids, label=lids, time=array("d", [NAN] * len(ids)))
    timeline = Timeline(texts=texts, labels=labels, files=[], ranks=ranks)
    rank, index = last_common(timeline, [0, 1])
    assert timeline.labels[timeline.ranks[rank].label[index]] == "bwd passed"
